/**
 * Every process a run causes starts in the sandbox (docs/sandbox.md): no server module outside
 * src/engine/sandbox/ may start processes, nor use the MCP SDK's stdio transport (it spawns its server itself).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const sandboxDir = path.join(src, 'engine', 'sandbox');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const PROCESS_STARTERS = [
  /from\s+['"](node:)?child_process['"]/,
  /require\(\s*['"](node:)?child_process['"]\s*\)/,
  /import\(\s*['"](node:)?child_process['"]\s*\)/,
  /@modelcontextprotocol\/sdk\/client\/stdio/,
  /\bprocess\.(binding|dlopen)\(/,
];

describe('the process boundary', () => {
  it('only src/engine/sandbox/ starts processes', () => {
    const offenders = sourceFiles(src)
      .filter((file) => !file.startsWith(sandboxDir + path.sep))
      .filter((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return PROCESS_STARTERS.some((pattern) => pattern.test(text));
      })
      .map((file) => path.relative(src, file));
    expect(offenders).toEqual([]);
  });

  it('the check itself sees the sandbox module start processes', () => {
    const starters = sourceFiles(sandboxDir).filter((file) => PROCESS_STARTERS.some((pattern) => pattern.test(fs.readFileSync(file, 'utf8'))));
    // host-command.ts: the server's own image tools (skopeo, umoci), never a tenant's command.
    expect(starters.map((file) => path.basename(file)).sort()).toEqual(['host-command.ts', 'sandbox.ts', 'supervised-process.ts', 'workspace-disk.ts']);
  });
});
