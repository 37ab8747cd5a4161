// Creates (once) the Python SDK's virtualenv and installs the package with its dev extras.
// Shared by `pnpm generate` (datamodel-code-generator) and `pnpm test:python` (pytest).
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

/** Returns the venv's python, creating the venv and (re)installing when pyproject.toml changed. */
export function ensurePythonEnv({ quiet = true } = {}) {
  const pyproject = readFileSync(path.join(pythonPackageDir, 'pyproject.toml'));
  const stamp = createHash('sha256').update(pyproject).digest('hex');
  const stampFile = path.join(venvDir, '.installed-pyproject');
  if (existsSync(venvPython) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return venvPython;
  }
  const stdio = quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit';
  if (!existsSync(venvPython)) execFileSync(findSystemPython(), ['-m', 'venv', venvDir], { stdio });
  const pip = [venvPython, '-m', 'pip', '--disable-pip-version-check', '-q'];
  execFileSync(pip[0], [...pip.slice(1), 'install', '-e', `${pythonPackageDir}[dev]`], { stdio });
  writeFileSync(stampFile, stamp);
  return venvPython;
}
