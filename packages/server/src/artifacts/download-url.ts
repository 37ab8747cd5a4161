/**
 * Signed, time-limited download URLs of artifacts (contract: getArtifact's `download_url`, served by
 * getArtifactContent without an API key; docs/decisions.md §Artifacts).
 *
 * token = `<team id>.<expiry, unix seconds>.<base64url HMAC-SHA256>` over the team, the artifact UID and
 * the expiry, keyed from SECRETS_KEY (crypto/secret-box.ts `sign`), so any process of the deployment
 * verifies another's URLs and a token cannot be moved to another artifact, team or expiry. The team is in
 * the token so the read stays team-scoped like every other.
 */
import { timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box';

const PURPOSE = 'artifact download url v1';
const TOKEN = /^(team_[a-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const signature = (secrets: SecretBox, teamId: string, artifactId: string, expires: number): Buffer =>
  secrets.sign(PURPOSE, `${teamId}\n${artifactId}\n${expires}`);

export function signDownloadToken(secrets: SecretBox, teamId: string, artifactId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${teamId}.${expires}.${signature(secrets, teamId, artifactId, expires).toString('base64url')}`;
}

/** The team the token was issued to when it verifies for this artifact and has not expired at `now`; else undefined. */
export function verifyDownloadToken(secrets: SecretBox, token: string, artifactId: string, now: Date): string | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, teamId, expiresText, given] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  const expected = signature(secrets, teamId, artifactId, expires);
  const presented = Buffer.from(given, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  return now.getTime() < expires * 1000 ? teamId : undefined;
}
