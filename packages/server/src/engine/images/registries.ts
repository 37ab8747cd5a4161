/**
 * Which registries images may come from (IMAGE_REGISTRIES, docs/sandbox.md §Image root), under the same
 * address rules as a run's egress (engine/egress/policy.ts): a listed name never unlocks a loopback,
 * private or link-local address; only an exact IP listed with its port does. `http://host:port` marks a
 * registry spoken to over plain HTTP (a loopback test registry, a registry inside a trusted network).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { createEgressPolicy, type EgressDecision } from '../egress/policy';

export interface RegistryPolicy {
  /** Whether the registry is allowed at all, by name (synchronous: the check at create/update). */
  checkName(registry: string): EgressDecision;
  /** The name check, then every address the name resolves to now (before each pull). */
  checkAddresses(registry: string): Promise<EgressDecision>;
  /** Whether this registry is spoken to over plain HTTP. */
  plainHttp(registry: string): boolean;
}

const SETTING = 'IMAGE_REGISTRIES';

/** `host[:port]` → host and port (443 when none: registries speak HTTPS unless listed with http://). */
export function splitRegistry(registry: string, plainHttp: boolean): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(registry);
  const host = (match?.[1] ?? registry).replace(/^\[|\]$/g, '');
  return { host, port: match?.[2] ? Number(match[2]) : plainHttp ? 80 : 443 };
}

export function createRegistryPolicy(entries: readonly string[]): RegistryPolicy {
  const plain = new Set(entries.filter((e) => e.startsWith('http://')).map((e) => e.slice('http://'.length).replace(/\/+$/, '')));
  const hosts = entries.map((e) => e.replace(/^https?:\/\//, '').replace(/\/+$/, ''));
  const policy = createEgressPolicy({ network: 'allowlist', allowedHosts: hosts }, { settingName: SETTING });
  const plainHttp = (registry: string) => plain.has(registry);

  function checkName(registry: string): EgressDecision {
    if (hosts.length === 0) return { allowed: false, reason: `no registry is allowed (${SETTING}=none)` };
    const { host, port } = splitRegistry(registry, plainHttp(registry));
    const decision = policy.checkHost(host, port);
    return decision.allowed ? decision : { allowed: false, reason: `registry ${registry} is not allowed: ${decision.reason}` };
  }

  return {
    checkName,
    plainHttp,
    async checkAddresses(registry) {
      const byName = checkName(registry);
      if (!byName.allowed) return byName;
      const { host, port } = splitRegistry(registry, plainHttp(registry));
      if (isIP(host)) return byName;
      // Docker Hub's API host is not the name images are written with.
      const dialled = host === 'docker.io' ? 'registry-1.docker.io' : host;
      let addresses: Array<{ address: string }>;
      try {
        addresses = await lookup(dialled, { all: true });
      } catch {
        return { allowed: false, reason: `registry ${registry} does not resolve` };
      }
      for (const { address } of addresses) {
        const decision = policy.checkAddress(address, port);
        if (!decision.allowed) return { allowed: false, reason: `registry ${registry} is not allowed: ${decision.reason}` };
      }
      return byName;
    },
  };
}
