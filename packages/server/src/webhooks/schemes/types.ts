/**
 * Provider signature schemes of the webhook ingress (docs/service-spec.md §Authentication).
 *
 * Every scheme is a pure function of (raw body bytes, headers, secret, clock): no I/O, no body parsing,
 * never throws on sender-controlled input. A failure is `{ ok: false, reason }` with a short human reason
 * meant for the delivery log and debug logs — never for the HTTP answer, which is always a bare 401.
 */

import type { components } from '@agent-runs/contract';

/** The scheme names of the contract (`signature_scheme`, docs/wire.md §Factory side). */
export type SignatureSchemeName = components['schemas']['SignatureScheme'];

/** Request headers with lower-cased names (as node:http delivers them). */
export type IncomingHeaders = Readonly<Record<string, string | undefined>>;

export interface VerifyInput {
  /** The request body exactly as received; signatures are computed over these bytes. */
  rawBody: Buffer;
  headers: IncomingHeaders;
  /** The webhook's signing secret as configured (e.g. `whsec_…` for Standard Webhooks and Stripe). */
  secret: string;
  /** Current time from the server's injectable clock. */
  now: Date;
  /** Maximum signature age (and future skew) for the timestamped schemes; default 300. */
  toleranceSeconds: number;
}

/**
 * Why a delivery failed authentication. Stored in the delivery log (`rejection_reason`) for the webhook's
 * owner to debug with, never sent to the sender (whose answer stays a bare 401); the contract's
 * WebhookDelivery lists every value, and test/ingress/rejection-reasons.test.ts keeps the two in step.
 */
export const REJECTION_REASONS = [
  // The webhook (server side).
  'secret not configured',
  'invalid signing secret',
  // token, url_token, and GitLab's X-Gitlab-Token.
  'missing token',
  'wrong token',
  'unexpected path token',
  // Signature schemes.
  'missing signature header',
  'signature header too large',
  'malformed signature header',
  'missing webhook-id header',
  'webhook-id header too large',
  'missing timestamp',
  'invalid timestamp',
  'timestamp outside tolerance',
  'no v1 signature',
  'no signature matched',
  // Cannot happen unless the server is broken; stored rather than hidden.
  'unknown signature scheme',
  'unknown authentication mode',
  'body not read',
  'invalid clock',
] as const;

export type RejectionReason = (typeof REJECTION_REASONS)[number];

export type Failure = { ok: false; reason: RejectionReason };
export type VerifyResult = { ok: true } | Failure;
/** A value a scheme read from the request, or why the request fails. */
export type Checked<T> = { ok: true; value: T } | Failure;

export interface SignatureScheme {
  name: SignatureSchemeName;
  verify(input: VerifyInput): VerifyResult;
  /** The provider's own delivery-id headers, lower-case, in preference order (docs/service-spec.md §Events 4, identity (b)). */
  deliveryIdHeaders: readonly string[];
  /** True when the request carries this scheme's signature (or token) header at all. */
  hasSignature(headers: IncomingHeaders): boolean;
  /** The headers that carry the credential, lower-case: never a delivery identity (it is shown to members). */
  credentialHeaders: readonly string[];
  /**
   * True when the signature binds the body but not the delivery id, so a captured delivery verifies again
   * under any delivery-id header (for ever where no timestamp is signed, within the tolerance where one is):
   * the ingress deduplicates it on its body as well (ingress/identify.ts). False where the id is signed
   * (Standard Webhooks) and for GitLab, whose token binds nothing: a captured delivery hands over the
   * credential itself, as with the `token` mode.
   */
  dedupOnSignedBody: boolean;
  /** A fresh secret in the form the provider typically issues (32 random bytes of entropy). */
  generateSecret(): string;
}

/** Seed §Limits "Signature age: 5 minutes maximum". */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Longest signature/token header we look at. Real headers are far shorter (a Stripe header with a
 * handful of v1 entries is a few hundred bytes); this bounds the work a hostile sender can cause.
 */
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;
/** Longest message-id / timestamp header accepted as part of signed content. */
export const MAX_ID_HEADER_LENGTH = 1024;

export const ok: VerifyResult = Object.freeze({ ok: true });
export const fail = (reason: RejectionReason): Failure => ({ ok: false, reason });

/** A header value, or undefined when absent or empty. Callers pass lower-case names. */
export function readHeader(headers: IncomingHeaders, name: string): string | undefined {
  const v = headers[name];
  // Defensive: node:http can hand arrays for some headers if a caller forwards them unconverted.
  if (typeof v !== 'string') return undefined;
  return v.length === 0 ? undefined : v;
}

/**
 * The first check of every scheme: its signature (or token) header, present and short enough to look at.
 * `missing` names the absence (GitLab's header is a token).
 */
export function signatureHeader(value: string | undefined, missing: RejectionReason = 'missing signature header'): Checked<string> {
  if (value === undefined) return fail(missing);
  if (value.length > MAX_SIGNATURE_HEADER_LENGTH) return fail('signature header too large');
  return { ok: true, value };
}

/** Parses a Unix-seconds timestamp (decimal digits only); undefined when malformed. */
export function parseUnixSeconds(raw: string): number | undefined {
  const s = raw.trim();
  if (!/^\d{1,12}$/.test(s)) return undefined;
  return Number(s);
}

/**
 * Rejects a timestamp more than `toleranceSeconds` in the past OR in the future (a far-future timestamp
 * would let a captured request be replayed later).
 */
export function checkTimestamp(timestampSeconds: number, now: Date, toleranceSeconds: number): VerifyResult {
  const tolerance = Number.isFinite(toleranceSeconds) && toleranceSeconds >= 0 ? toleranceSeconds : DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!Number.isFinite(nowSeconds)) return fail('invalid clock');
  return Math.abs(nowSeconds - timestampSeconds) > tolerance ? fail('timestamp outside tolerance') : ok;
}

/** The timestamp checks of the timestamped schemes, in order: present, Unix seconds, within the tolerance. */
export function freshTimestamp(text: string | undefined, now: Date, toleranceSeconds: number): Checked<number> {
  if (text === undefined) return fail('missing timestamp');
  const timestamp = parseUnixSeconds(text);
  if (timestamp === undefined) return fail('invalid timestamp');
  const fresh = checkTimestamp(timestamp, now, toleranceSeconds);
  return fresh.ok ? { ok: true, value: timestamp } : fresh;
}
