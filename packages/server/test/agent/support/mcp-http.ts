/** A real MCP server over streamable HTTP, in-process on 127.0.0.1 (stateful sessions). */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestMcpServer } from '../fixtures/mcp-tools';

export interface TestMcpHttpServer {
  url: string;
  events: string[];
  /** Request headers seen (lower-case names), last request first. */
  headers: http.IncomingHttpHeaders[];
  /** Sessions opened and closed (DELETE from the client). */
  sessionsOpened: number;
  sessionsClosed: number;
  close(): Promise<void>;
}

export async function startMcpHttpServer(name = 'http-test'): Promise<TestMcpHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const state: TestMcpHttpServer = {
    url: '',
    events: [],
    headers: [],
    sessionsOpened: 0,
    sessionsClosed: 0,
    close: async () => undefined,
  };
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    state.headers.unshift(req.headers);
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          state.sessionsOpened++;
          transports.set(id, transport!);
        },
        onsessionclosed: (id) => {
          state.sessionsClosed++;
          transports.delete(id);
        },
      });
      const server = createTestMcpServer(name, (e) => state.events.push(e));
      await server.connect(transport);
    }
    await transport.handleRequest(req, res);
  };
  // A request that fails ends its own connection; an async listener's rejection would go unhandled.
  const httpServer = http.createServer((req, res) => {
    serve(req, res).catch((err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/mcp`;
  state.close = async () => {
    for (const t of transports.values()) await t.close().catch(() => undefined);
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return state;
}
