/**
 * node:http's own refusals as problems, on every listener (docs/decisions.md, Isolation and hostile input).
 * Before any route sees a request, node:http answers a request its parser refuses with a bare 400, headers
 * over its limit with a bare 431, a request not received within the header / request timeout
 * (http/connection-limits.ts) with a bare 408, and closes a CONNECT without a word. Here each becomes an
 * RFC 7807 problem with an `x-request-id`, as every other 4xx is.
 *
 * No request or response object exists at that point (node:http's 'clientError' event): the answer is
 * written raw on the socket with `Connection: close`, then the socket is destroyed. Nothing of the request
 * is echoed — its bytes may be anything, a path may carry a url_token — so `instance` is `*` (the server as
 * a whole) and the request id is the one already given to the response in flight, or a fresh one.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import {
  invalidRequest,
  payloadTooLarge,
  PROBLEM_CONTENT_TYPE,
  type ProblemError,
  renderProblem,
  requestHeaderFieldsTooLarge,
  requestTimeout,
} from '../problems';

/** The `instance` of an answer given before the request had a path to name. */
const WHOLE_SERVER_INSTANCE = '*';

/** What node:http's parser and its timeouts report (`err.code`), as the contract's problems. */
function problemOf(err: NodeJS.ErrnoException): ProblemError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestHeaderFieldsTooLarge(`The request headers exceed the server's limit of ${http.maxHeaderSize} bytes.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout('The request was not received in time.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return payloadTooLarge('The chunk extensions of the request body are too large.');
    case 'HPE_INVALID_METHOD':
      return invalidRequest('The request method is not one HTTP/1.1 defines.');
    default:
      return invalidRequest('The request is not valid HTTP/1.1.');
  }
}

/**
 * The response node:http has attached to the socket for the request in flight, if any. An internal field,
 * read for the same reason node:http's own default 'clientError' answer reads it: once its headers are
 * out, another answer on the socket would corrupt the one being sent.
 */
function responseInFlight(socket: Duplex): http.ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage ?? undefined;
}

function writeProblemAndClose(socket: Duplex, problem: ProblemError, requestId: string): void {
  const { status, headers, body } = renderProblem(problem, WHOLE_SERVER_INSTANCE, requestId);
  const text = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
    `x-request-id: ${requestId}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy());
}

/** Installs the problem answers on `server` (every listener: the REST one and the INGRESS_PORT one). */
export function answerClientErrorsAsProblems(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = responseInFlight(socket);
    // A peer that reset the connection reads nothing; a response already started must not be interleaved.
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = inFlight?.getHeader('x-request-id');
    writeProblemAndClose(socket, problemOf(err), typeof requestId === 'string' ? requestId : `req_${randomUUID()}`);
  });
  // Without a 'connect' listener node:http closes a CONNECT silently. This server is no proxy.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    writeProblemAndClose(socket, invalidRequest('CONNECT is not served: this server is not a proxy.'), `req_${randomUUID()}`);
  });
}
