import { githubScheme } from './github';
import { gitlabScheme } from './gitlab';
import { linearScheme } from './linear';
import { shopifyScheme } from './shopify';
import { slackScheme } from './slack';
import { standardWebhooksScheme } from './standard-webhooks';
import { stripeScheme } from './stripe';
import { SIGNATURE_SCHEME_NAMES, type SignatureScheme, type SignatureSchemeName } from './types';

export { timingSafeEqualBytes, timingSafeEqualString } from './compare';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_SCHEME_NAMES,
  type IncomingHeaders,
  type SignatureScheme,
  type SignatureSchemeName,
  type VerifyInput,
  type VerifyResult,
} from './types';

/** Every provider signature scheme by its contract name (`signature_scheme`). */
export const signatureSchemes: Readonly<Record<SignatureSchemeName, SignatureScheme>> = Object.freeze({
  'standard-webhooks': standardWebhooksScheme,
  stripe: stripeScheme,
  slack: slackScheme,
  github: githubScheme,
  shopify: shopifyScheme,
  linear: linearScheme,
  gitlab: gitlabScheme,
});

export function isSignatureSchemeName(x: unknown): x is SignatureSchemeName {
  return typeof x === 'string' && (SIGNATURE_SCHEME_NAMES as readonly string[]).includes(x);
}
