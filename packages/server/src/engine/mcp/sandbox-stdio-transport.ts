/**
 * The MCP stdio transport, with the server process started in the run's sandbox instead of on the host
 * (the SDK's StdioClientTransport spawns it itself). Newline-delimited JSON-RPC on stdin/stdout through
 * the SDK's own ReadBuffer (which caps a message at 10 MiB); stderr is handed to `onStderr`.
 */
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RunSandbox, SandboxedProcess } from '../sandbox';
import type { McpStdioServerConfig } from '../../runs/contract';

/** How long a server may take to exit after its stdin closes before the sandbox stops it. */
const CLOSE_GRACE_MS = 2000;

export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #process: SandboxedProcess | undefined;
  #closed = false;
  readonly #readBuffer = new ReadBuffer();

  constructor(
    private readonly sandbox: RunSandbox,
    private readonly config: McpStdioServerConfig,
    /** The run's cloud environment; the server's own `env` goes on top. */
    private readonly env: Record<string, string>,
    private readonly wallTimeMs: number,
    private readonly onStderr: (chunk: Buffer) => void,
  ) {}

  async start(): Promise<void> {
    if (this.#process) throw new Error('SandboxStdioTransport already started');
    const proc = await this.sandbox.spawn({
      argv: [this.config.command, ...(this.config.args ?? [])],
      env: { ...this.env, ...this.config.env },
      stdin: 'pipe',
      wallTimeMs: this.wallTimeMs,
      limitOutput: false,
    });
    this.#process = proc;
    proc.stdin?.on('error', (err) => this.onerror?.(err));
    proc.stderr.on('data', this.onStderr);
    proc.stdout.on('data', (chunk: Buffer) => {
      try {
        this.#readBuffer.append(chunk);
        for (let message = this.#readBuffer.readMessage(); message !== null; message = this.#readBuffer.readMessage()) {
          this.onmessage?.(message);
        }
      } catch (err) {
        this.onerror?.(err as Error);
        void this.close();
      }
    });
    void proc.exited.then((exit) => {
      this.#process = undefined;
      if (exit.startError) this.onerror?.(new Error(exit.startError));
      this.#finish();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin) throw new Error('Not connected');
    if (!stdin.write(serializeMessage(message))) await new Promise((resolve) => stdin.once('drain', resolve));
  }

  async close(): Promise<void> {
    const proc = this.#process;
    if (proc) {
      proc.stdin?.end();
      const exited = await Promise.race([proc.exited.then(() => true), delay(CLOSE_GRACE_MS).then(() => false)]);
      if (!exited) {
        proc.terminate();
        await proc.exited;
      }
    }
    this.#readBuffer.clear();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
