/**
 * The server's own tools on the host (skopeo, umoci, ldd; npm for the operator's harness install): a fixed
 * program with arguments the server composed, never a tenant's command line, with an environment given in
 * full. Tenant processes start in ./sandbox.ts instead (docs/sandbox.md).
 */
import { spawn } from 'node:child_process';

export interface HostCommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Output kept per stream: a tool's answer or complaint, never a bulk download. */
const MAX_OUTPUT_CHARS = 1024 * 1024;

export function runHostCommand(
  file: string,
  args: string[],
  options: { env: Record<string, string>; signal?: AbortSignal | undefined; cwd?: string },
): Promise<HostCommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env, cwd: options.cwd ?? '/', stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
