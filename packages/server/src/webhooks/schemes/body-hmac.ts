import { hmacSha256, timingSafeEqualString } from './compare';
import { fail, ok, readHeader, signatureHeader, type SignatureScheme, type SignatureSchemeName, type VerifyInput, type VerifyResult } from './types';

/**
 * A scheme that signs the raw body alone and sends it in one header (GitHub, Shopify, Linear): `prefix` +
 * HMAC-SHA256(secret as UTF-8, raw body) in `encoding`. No timestamp is signed.
 */
export interface BodyHmacSpec {
  name: SignatureSchemeName;
  /** The signature header, lower-case. */
  header: string;
  encoding: 'hex' | 'base64';
  /** What the header starts with before the digest (e.g. `sha256=`); a header without it is malformed. */
  prefix?: string;
  /** What the digest after the prefix must look like, else the header is malformed; unchecked when absent. */
  digestPattern?: RegExp;
  deliveryIdHeaders: readonly string[];
  generateSecret(): string;
}

export function bodyHmacScheme(spec: BodyHmacSpec): SignatureScheme {
  const prefix = spec.prefix ?? '';
  function verify({ rawBody, headers, secret }: VerifyInput): VerifyResult {
    const header = signatureHeader(readHeader(headers, spec.header));
    if (!header.ok) return header;
    const sig = header.value.trim();
    if (!sig.startsWith(prefix) || (spec.digestPattern && !spec.digestPattern.test(sig.slice(prefix.length)))) {
      return fail('malformed signature header');
    }
    if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');
    const expected = prefix + hmacSha256(secret, rawBody).toString(spec.encoding);
    // Hex digits may come in either case; base64 is case-sensitive, so it is compared as sent.
    const received = spec.encoding === 'hex' ? sig.toLowerCase() : sig;
    return timingSafeEqualString(received, expected) ? ok : fail('no signature matched');
  }
  return {
    name: spec.name,
    verify,
    deliveryIdHeaders: spec.deliveryIdHeaders,
    hasSignature: (headers) => readHeader(headers, spec.header) !== undefined,
    credentialHeaders: [spec.header],
    dedupOnSignedBody: true,
    generateSecret: spec.generateSecret,
  };
}
