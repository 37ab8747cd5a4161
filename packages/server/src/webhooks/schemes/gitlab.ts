import { randomBytes } from 'node:crypto';
import { timingSafeEqualString } from './compare';
import { fail, ok, readHeader, signatureHeader, type SignatureScheme, type VerifyInput, type VerifyResult } from './types';

/**
 * GitLab (https://docs.gitlab.com/user/project/integrations/webhooks/#validate-requests-with-a-secret-token):
 * GitLab does not sign the body; it sends the configured secret token verbatim in `X-Gitlab-Token`,
 * compared here in constant time. No timestamp. Delivery id: `X-Gitlab-Event-UUID`.
 */
const HEADER = 'x-gitlab-token';

function verify({ headers, secret }: VerifyInput): VerifyResult {
  const token = signatureHeader(readHeader(headers, HEADER), 'missing token');
  if (!token.ok) return token;
  if (typeof secret !== 'string' || secret.length === 0) return fail('invalid signing secret');
  return timingSafeEqualString(token.value, secret) ? ok : fail('wrong token');
}

export const gitlabScheme: SignatureScheme = {
  name: 'gitlab',
  verify,
  deliveryIdHeaders: ['x-gitlab-event-uuid'],
  hasSignature: (headers) => readHeader(headers, HEADER) !== undefined,
  credentialHeaders: [HEADER],
  dedupOnSignedBody: false,
  // Any string works as a GitLab secret token; base64url keeps it header- and copy-paste-safe.
  generateSecret: () => randomBytes(32).toString('base64url'),
};
