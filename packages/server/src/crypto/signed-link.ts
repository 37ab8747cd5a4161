/**
 * Time-limited links the server hands out and later serves without an API key, as the Oz API answers a
 * run's transcript and an artifact's bytes with a download URL (docs/decisions.md §Artifacts, §Oz parity).
 *
 * The link's token is `<team id>.<expiry, unix seconds>.<HMAC-SHA256, base64url>`, the HMAC taken over the
 * team, the resource and the expiry with the key `SecretBox.sign` derives for the link's purpose (so every
 * process of a deployment verifies every other's links, and a token of one purpose, resource, team or expiry
 * never verifies for another). The team is in the token so that the read it grants stays team-scoped.
 */
import type { SecretBox } from './secret-box';

/** What a link is for: the HMAC key is derived per purpose. */
export type LinkPurpose = 'artifact download' | 'run transcript download';

const TOKEN = /^(team_[A-Za-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const signedText = (teamId: string, resourceId: string, expires: number): string => `${teamId}\n${resourceId}\n${expires}`;

/** The token of a link to `resourceId` of the team, valid until `expiresAt` (whole seconds, rounded down). */
export function signLinkToken(secrets: SecretBox, purpose: LinkPurpose, teamId: string, resourceId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${teamId}.${expires}.${secrets.sign(purpose, signedText(teamId, resourceId, expires))}`;
}

export type LinkCheck = { ok: true; teamId: string } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'expired'; expiredAt: Date };

/** Whether `token` was signed for this purpose and resource (compared in constant time) and is still valid at `now`. */
export function verifyLinkToken(secrets: SecretBox, purpose: LinkPurpose, token: string, resourceId: string, now: Date): LinkCheck {
  const [, teamId, expiresText, signature] = TOKEN.exec(token) ?? [];
  if (!teamId || !expiresText || !signature) return { ok: false, reason: 'invalid' };
  const expires = Number(expiresText);
  if (!secrets.verify(purpose, signedText(teamId, resourceId, expires), signature)) return { ok: false, reason: 'invalid' };
  if (now.getTime() >= expires * 1000) return { ok: false, reason: 'expired', expiredAt: new Date(expires * 1000) };
  return { ok: true, teamId };
}
