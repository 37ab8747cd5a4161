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

export function isSignatureSchemeName(x: unknown): x is SignatureSchemeName {
  return typeof x === 'string' && (SIGNATURE_SCHEME_NAMES as readonly string[]).includes(x);
}
