// Creates (once) the Python SDK's virtualenv and installs the package with its dev extras.
// Shared by `pnpm generate` (datamodel-code-generator, ruff), `pnpm lint:python` (ruff, pyright) and
// `pnpm test:python` (pytest); `ensureVenv` also makes the contract fuzzer's venv (scripts/schemathesis.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pythonPackageDir = path.join(repositoryRoot, 'packages/sdk-python');
const venvDir = path.join(pythonPackageDir, '.venv');
export const venvPython = path.join(venvDir, 'bin', 'python');

function findSystemPython() {
  for (const candidate of ['python3', 'python']) {
    try {
      execFileSync(candidate, ['-c', 'import sys; assert sys.version_info >= (3, 9)'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next name
    }
  }
  throw new Error('Python 3.9+ is required for the Python SDK (python3 not found)');
}

/**
 * Returns the python of the virtualenv at `venvDir`, creating it and running `pip install ...installArgs`
 * when `stamp` (what the installed set depends on) differs from the last install's.
 */
export function ensureVenv({ venvDir, stamp, installArgs, quiet = true }) {
  const python = path.join(venvDir, 'bin', 'python');
  const stampFile = path.join(venvDir, '.installed-stamp');
  const digest = createHash('sha256').update(stamp).digest('hex');
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) {
    return python;
  }
  const stdio = quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit';
  if (!existsSync(python)) execFileSync(findSystemPython(), ['-m', 'venv', venvDir], { stdio });
  execFileSync(python, ['-m', 'pip', '--disable-pip-version-check', '-q', 'install', ...installArgs], { stdio });
  writeFileSync(stampFile, digest);
  return python;
}

/** Returns the SDK venv's python, creating the venv and (re)installing when pyproject.toml changed. */
export function ensurePythonEnv({ quiet = true } = {}) {
  return ensureVenv({
    venvDir,
    stamp: readFileSync(path.join(pythonPackageDir, 'pyproject.toml')),
    installArgs: ['-e', `${pythonPackageDir}[dev]`],
    quiet,
  });
}
