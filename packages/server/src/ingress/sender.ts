/**
 * The sender address the failed-authentication budget is kept for: the TCP peer, or behind TRUST_PROXY the
 * client its trusted proxies name in X-Forwarded-For (http/client-address.ts). From a peer that is not
 * trusted the header is ignored: any sender could set it to a fresh value per attempt and escape the budget.
 * IPv6 addresses count by their /64 prefix (http/remote-address.ts).
 */
import type { IncomingMessage } from 'node:http';
import { clientAddress, type IsTrustedProxy } from '../http/client-address';
import { remoteAddressKey } from '../http/remote-address';

export function senderAddress(req: IncomingMessage, isTrustedProxy: IsTrustedProxy): string {
  return remoteAddressKey(clientAddress(req, isTrustedProxy));
}
