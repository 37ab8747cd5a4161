/**
 * Puts the ingress in front of the REST app on one listener: requests whose path starts with `/webhooks/`
 * go to the lean ingress handler and never touch Express; everything else goes to the app. Shared by
 * main.ts and the test harness so both serve exactly the same way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export const INGRESS_PATH_PREFIX = '/webhooks/';

export const isIngressPath = (url: string | undefined): boolean => url !== undefined && url.startsWith(INGRESS_PATH_PREFIX);

export function dispatchIngressFirst(ingress: RequestListener, app: RequestListener): RequestListener {
  return (req, res) => (isIngressPath(req.url) ? ingress(req, res) : app(req, res));
}
