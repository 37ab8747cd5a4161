/** Host processes seen from a test: alive or not, and found by a variable in their environment. */
import fs from 'node:fs';

/** Running (a zombie waiting for its reaper counts as dead: orphans are reaped by PID 1 whenever it gets to it). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Host pids of the live processes whose environment holds `name=value` (a sandboxed process cannot tell
 * its host pid from inside its PID namespace, but its environment identifies it).
 */
export function processesWithEnv(name: string, value: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${name}=${value}`) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
