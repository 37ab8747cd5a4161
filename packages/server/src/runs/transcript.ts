/**
 * A run's transcript (contract: getRunTranscript, downloadRunTranscript): its conversation's messages as
 * JSON Lines, served behind a signed URL that expires, as the Oz API serves a transcript (a 302 to a
 * time-limited download URL). The URL needs no API key, so an Oz client that follows the redirect — or a
 * tool it hands the URL to — reads the transcript; the token in it names the team and the run, and is
 * signed (crypto/signed-link.ts), so it cannot be altered, moved to another run or extended.
 */
import type { ServerContext } from '../context';
import { signLinkToken, verifyLinkToken } from '../crypto/signed-link';
import { notAuthorized, resourceNotFound } from '../problems';
import { streamTranscript } from './conversation-stream';
import { findRun } from './repository';

type Deps = Pick<ServerContext, 'db' | 'clock' | 'secrets' | 'settings'>;

/** The download URL of the run's transcript, valid for TRANSCRIPT_URL_TTL_SECONDS; 404 for a run the team lacks. */
export async function transcriptDownloadUrl(ctx: Deps, teamId: string, runId: string): Promise<string> {
  if (!(await findRun(ctx, teamId, runId))) throw resourceNotFound(`Run ${runId} not found.`);
  const expiresAt = new Date(ctx.clock.now().getTime() + ctx.settings.windows.transcriptUrlSeconds * 1000);
  const token = signLinkToken(ctx.secrets, 'run transcript download', teamId, runId, expiresAt);
  return `${ctx.settings.publicBaseUrl}/api/v1/agent/runs/${encodeURIComponent(runId)}/transcript/download?token=${token}`;
}

/**
 * The transcript a valid token names: one JSON object per message and line, with a final newline; text
 * produced as it is sent (./conversation-stream.ts).
 */
export async function readTranscript(ctx: Deps, runId: string, token: string): Promise<AsyncIterable<string>> {
  const link = verifyLinkToken(ctx.secrets, 'run transcript download', token, runId, ctx.clock.now());
  if (!link.ok && link.reason === 'expired') {
    throw notAuthorized(`This transcript URL expired on ${link.expiredAt.toISOString()}; ask GET /agent/runs/{runId}/transcript for a new one.`);
  }
  if (!link.ok) throw notAuthorized('This transcript URL is not valid for this run; ask GET /agent/runs/{runId}/transcript for one.');
  const transcript = await streamTranscript(ctx, link.teamId, runId);
  if (!transcript) throw resourceNotFound(`Run ${runId} not found.`);
  return transcript;
}
