/**
 * A `fetch` for the server's own requests on a run's behalf (e.g. MCP servers configured by URL) that
 * obeys the run's egress policy. Pass it as the `fetch` option of the MCP SDK's StreamableHTTPClientTransport.
 *
 * The policy is applied inside undici's connector, i.e. for every TCP connection actually opened —
 * the first request, every redirect hop, every reconnect — and the address is vetted between DNS
 * resolution and connect(), so a name that rebinds to an internal address is refused.
 *
 * A denied request rejects like any fetch network error (TypeError "fetch failed") whose `cause` is
 * the EgressDeniedError; `egressDenialOf(err)` finds it wherever it sits in the cause chain.
 * `createEgressDispatcher` is the same guard as an undici dispatcher, for undici's own `request`.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { EgressDeniedError, type EgressPolicy } from './policy';

export type EgressFetch = typeof globalThis.fetch & {
  /** Close the pooled connections (call when the run that owns this fetch ends). */
  close(): Promise<void>;
};

/** The EgressDeniedError behind a rejected request (searched through `cause` and AggregateError), if any. */
export function egressDenialOf(err: unknown): EgressDeniedError | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof EgressDeniedError) return current;
    if (current instanceof AggregateError) queue.push(...current.errors);
    queue.push((current as { cause?: unknown }).cause);
  }
  return undefined;
}

/** What a network error of fetch looks like, so callers that handle fetch failures handle denials the same way. */
function fetchFailed(denial: EgressDeniedError): TypeError {
  return new TypeError('fetch failed', { cause: denial });
}

/**
 * A DNS lookup for net/tls.connect that drops the addresses the policy refuses and fails with
 * EgressDeniedError when none is left. Per port, because an operator's `IP:port` entry unlocks one port only.
 */
function vettedLookup(policy: EgressPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      const reply = callback as (err: Error | null, address: unknown, family?: number) => void;
      if (err) return reply(err, options.all ? [] : '');
      const decisions = addresses.map((entry) => ({ entry, decision: policy.checkAddress(entry.address, port) }));
      const allowed = decisions.filter((d) => d.decision.allowed).map((d) => d.entry);
      const first = allowed[0];
      if (!first) {
        const refused = decisions.find((d) => !d.decision.allowed)?.decision;
        const reason = refused && !refused.allowed ? refused.reason : `${hostname} has no address`;
        return reply(new EgressDeniedError(hostname, port, reason), options.all ? [] : '');
      }
      if (options.all) return reply(null, allowed);
      return reply(null, first.address, first.family);
    });
  };
}

/**
 * An undici dispatcher whose every connection obeys `policy` (the connector below), for callers that use
 * undici's `request` rather than fetch (the notification deliveries: no WHATWG layer, no redirects).
 */
export function createEgressDispatcher(policy: EgressPolicy): Agent {
  // One undici connector per destination port: the lookup needs the port (see vettedLookup), and
  // keeping the connector keeps its TLS session cache.
  const connectors = new Map<number, buildConnector.connector>();

  const connect: buildConnector.connector = (options, callback) => {
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    if (!https && options.protocol !== 'http:') {
      return callback(new EgressDeniedError(options.hostname, port, `${options.protocol} is not http or https`), null);
    }
    // Name check here (not only in the fetch wrapper) so redirect hops are judged too; an IP literal is
    // also address-checked here because net.connect skips `lookup` for literals.
    const decision = policy.checkHost(options.hostname, port);
    if (!decision.allowed) return callback(new EgressDeniedError(options.hostname, port, decision.reason), null);
    let connector = connectors.get(port);
    if (!connector) {
      connector = buildConnector({ lookup: vettedLookup(policy, port) });
      connectors.set(port, connector);
    }
    connector(options, callback);
  };

  return new Agent({ connect });
}

export function createEgressFetch(policy: EgressPolicy): EgressFetch {
  const agent = createEgressDispatcher(policy);

  const egressFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // A global Request comes from node's bundled undici, which the npm undici does not recognise: unpack it.
    if (typeof input !== 'string' && !(input instanceof URL)) {
      const request = input;
      init = {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: request.redirect,
        signal: request.signal,
        ...(request.body && { duplex: 'half' }),
        ...init,
      } as RequestInit;
      input = request.url;
    }
    const url = new URL(input);
    // data:, blob:, file: … would be answered by fetch itself without the connector: refuse them here.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw fetchFailed(new EgressDeniedError(url.hostname, Number(url.port) || 0, `${url.protocol} is not http or https`));
    }
    const response = await undiciFetch(url, { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  };

  return Object.assign(egressFetch, { close: () => agent.close() });
}
