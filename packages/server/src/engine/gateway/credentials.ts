/**
 * Per-execution gateway keys: random, minted when an execution starts, revoked when it ends. Only their
 * SHA-256 digests are kept; a presented key is looked up by its digest (so the lookup's timing depends on
 * the digest, not on how much of a real key was guessed) and confirmed with a constant-time comparison.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Recognisable in a leaked log line or a tenant's support ticket, like other services' key prefixes. */
export const GATEWAY_KEY_PREFIX = 'mgw_';

const digestOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export class GatewayKeys<Grant> {
  readonly #byDigest = new Map<string, { digest: Buffer; grant: Grant }>();

  mint(grant: Grant): string {
    const key = `${GATEWAY_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const digest = digestOf(key);
    this.#byDigest.set(digest.toString('hex'), { digest, grant });
    return key;
  }

  find(presented: string | undefined): Grant | undefined {
    if (!presented) return undefined;
    const digest = digestOf(presented);
    const entry = this.#byDigest.get(digest.toString('hex'));
    return entry && timingSafeEqual(entry.digest, digest) ? entry.grant : undefined;
  }

  revoke(key: string): void {
    this.#byDigest.delete(digestOf(key).toString('hex'));
  }

  get size(): number {
    return this.#byDigest.size;
  }
}
