/**
 * The contract's validator (http/validator.ts) in front of handlers a test mounts, on 127.0.0.1:<random port>,
 * with an error handler that answers the validator's status and message: what the validator does, without a server.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { openApiValidator, REST_BASE_PATH } from '../../src/http/validator';

export async function startValidatedApp(validateResponses: boolean, mount: (api: express.Router) => void): Promise<{ base: string; close: () => void }> {
  const app = express();
  const api = express.Router();
  api.use(openApiValidator({ validateResponses }));
  mount(api);
  app.use(REST_BASE_PATH, api);
  app.use(((err, _req, res, _next) => {
    res.status((err as { status?: number }).status ?? 500).json({ message: (err as Error).message });
  }) as express.ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}${REST_BASE_PATH}`, close: () => server.close() };
}
