import { githubScheme } from './github';
import { gitlabScheme } from './gitlab';
import { linearScheme } from './linear';
import { shopifyScheme } from './shopify';
import { slackScheme } from './slack';
import { standardWebhooksScheme } from './standard-webhooks';
import { stripeScheme } from './stripe';
import type { SignatureScheme, SignatureSchemeName } from './types';

export { timingSafeEqualBytes, timingSafeEqualString } from './compare';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  REJECTION_REASONS,
  type RejectionReason,
  type IncomingHeaders,
  type SignatureScheme,
  type SignatureSchemeName,
  type VerifyInput,
  type VerifyResult,
} from './types';

/**
 * Every provider signature scheme by its contract name (`signature_scheme`): a scheme the contract adds fails
 * the type check until it is implemented here.
 */
export const signatureSchemes: Readonly<Record<SignatureSchemeName, SignatureScheme>> = Object.freeze({
  'standard-webhooks': standardWebhooksScheme,
  stripe: stripeScheme,
  slack: slackScheme,
  github: githubScheme,
  shopify: shopifyScheme,
  linear: linearScheme,
  gitlab: gitlabScheme,
} satisfies Record<SignatureSchemeName, SignatureScheme>);

export const SIGNATURE_SCHEME_NAMES = Object.keys(signatureSchemes) as readonly SignatureSchemeName[];

/**
 * Headers that carry a credential under any authentication mode: the bearer token, cookies, and every
 * scheme's signature or token header. A webhook's `delivery_id_header` may name none of them — the identity
 * is stored and shown to members, so it would publish the secret.
 */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  ...Object.values(signatureSchemes).flatMap((scheme) => scheme.credentialHeaders),
]);

export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADERS.has(name.toLowerCase());

export function isSignatureSchemeName(x: unknown): x is SignatureSchemeName {
  return typeof x === 'string' && (SIGNATURE_SCHEME_NAMES as readonly string[]).includes(x);
}
