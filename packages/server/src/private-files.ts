/**
 * Everything the server keeps under DATA_DIR (database, secrets key, run workspaces) is private to the
 * server's user: directories 0700, files 0600, whatever the process umask says.
 */
import fs from 'node:fs';

/** Creates `dir` (and missing parents) and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Creates `file` empty if missing and makes it 0600 (SQLite's -wal and -shm files copy its mode). */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
}
