/**
 * Vitest global setup of the browser tests: builds the dashboard once (Vite, into dist/) so that the
 * server under test serves exactly what `pnpm start` serves.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const dashboardRoot = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(): Promise<void> {
  await build({ root: dashboardRoot, logLevel: 'warn' });
}
