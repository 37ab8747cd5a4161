/**
 * Chromium for the browser tests, driven by playwright-core (no browser download): Debian's `chromium`
 * (installed by .ci/run), or the one CHROMIUM_PATH names. Without one the browser tests are skipped and
 * say so — except under CI, where a missing browser fails them.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export const chromiumPath: string | undefined = process.env.CHROMIUM_PATH ?? CANDIDATES.find((p) => existsSync(p));

if (!chromiumPath) {
  const message = `No Chromium found (tried CHROMIUM_PATH, ${CANDIDATES.join(', ')}): install Debian's \`chromium\` package or set CHROMIUM_PATH.`;
  if (process.env.CI) throw new Error(`${message} CI must run the browser tests.`);
  console.warn(`${message} The dashboard's browser tests are skipped.`);
}

/** True when the browser tests can run here (use with `describe.skipIf(!hasBrowser)`). */
export const hasBrowser = chromiumPath !== undefined;

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no Chromium');
  return chromium.launch({
    executablePath: chromiumPath,
    // Root in CI containers cannot use Chromium's own sandbox; the pages are our own app on loopback.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}
