/**
 * The harness CLIs the tests run, installed once per machine with the operator's own command
 * (engine/harnesses/install.ts: `npm install` of the pinned package from the npm registry) into a cache
 * outside the repository, keyed by type and version; every test file and later run reuses it.
 */
import os from 'node:os';
import path from 'node:path';
import { installHarness } from '../../../src/engine/harnesses/install';
import { HARNESS_ADAPTERS } from '../../../src/engine/harnesses/catalog';
import type { HarnessType } from '../../../src/engine/harnesses/adapter';

/** HARNESSES_DIR for test servers: `<tmp>/agent-runs-harnesses/<type>/<version>`. */
export const TEST_HARNESSES_DIR = path.join(os.tmpdir(), 'agent-runs-harnesses');

/** Installs (or finds) the named harnesses; resolves to TEST_HARNESSES_DIR. */
export async function installedHarnesses(...types: HarnessType[]): Promise<string> {
  for (const type of types) await installHarness(TEST_HARNESSES_DIR, HARNESS_ADAPTERS[type]!);
  return TEST_HARNESSES_DIR;
}

/** A minute per CLI at most for npm to fetch a few hundred megabytes the first time. */
export const INSTALL_TIMEOUT_MS = 300_000;
