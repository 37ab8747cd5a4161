/**
 * A run's transcript (contract: getRunTranscript, downloadRunTranscript): its conversation's messages as
 * JSON Lines, served behind a signed URL that expires, as the Oz API serves a transcript (a 302 to a
 * time-limited download URL). The URL needs no API key, so an Oz client that follows the redirect — or a
 * tool it hands the URL to — reads the transcript; the token in it names the team and the run, and is
 * signed with a key derived from SECRETS_KEY (crypto/secret-box.ts), so it cannot be altered or extended.
 */
import type { ServerContext } from '../context';
import { notAuthorized, resourceNotFound } from '../problems';
import { groupMessages, loadContentEvents } from './conversation';
import { findRun } from './repository';

const SIGNING_PURPOSE = 'run transcript download';
const TOKEN = /^(\d{1,13})\.([A-Za-z0-9_]{1,64})\.([A-Za-z0-9_-]{43})$/;

type Deps = Pick<ServerContext, 'db' | 'clock' | 'secrets' | 'settings'>;

const signedText = (teamId: string, runId: string, expires: number): string => `${teamId}\n${runId}\n${expires}`;

/** The download URL of the run's transcript, valid for TRANSCRIPT_URL_TTL_SECONDS; 404 for a run the team lacks. */
export async function transcriptDownloadUrl(ctx: Deps, teamId: string, runId: string): Promise<string> {
  if (!(await findRun(ctx, teamId, runId))) throw resourceNotFound(`Run ${runId} not found.`);
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + ctx.settings.windows.transcriptUrlSeconds;
  const token = `${expires}.${teamId}.${ctx.secrets.sign(SIGNING_PURPOSE, signedText(teamId, runId, expires))}`;
  return `${ctx.settings.publicBaseUrl}/api/v1/agent/runs/${encodeURIComponent(runId)}/transcript/download?token=${token}`;
}

/** The transcript a valid token names: one JSON object per message and line, with a final newline. */
export async function readTranscript(ctx: Deps, runId: string, token: string): Promise<string> {
  const [, expiresText, teamId, signature] = TOKEN.exec(token) ?? [];
  if (!expiresText || !teamId || !signature || !ctx.secrets.verify(SIGNING_PURPOSE, signedText(teamId, runId, Number(expiresText)), signature)) {
    throw notAuthorized('This transcript URL is not valid for this run; ask GET /agent/runs/{runId}/transcript for one.');
  }
  const expiresAt = Number(expiresText) * 1000;
  if (ctx.clock.now().getTime() >= expiresAt) {
    throw notAuthorized(`This transcript URL expired on ${new Date(expiresAt).toISOString()}; ask GET /agent/runs/{runId}/transcript for a new one.`);
  }
  const messages = await ctx.db.transaction().execute(async (tx) => {
    if (!(await findRun({ db: tx }, teamId, runId))) return undefined;
    return groupMessages(await loadContentEvents(tx, teamId, runId));
  });
  if (!messages) throw resourceNotFound(`Run ${runId} not found.`);
  return messages
    .map((m) => `${JSON.stringify({ step_id: m.stepId, message_id: m.messageId, role: m.role, timestamp: m.timestamp, content: m.content })}\n`)
    .join('');
}
