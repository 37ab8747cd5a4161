/**
 * downloadRunTranscript `GET /agent/runs/{runId}/transcript/download?token=…` → the transcript as JSON Lines, streamed.
 * No API key (the contract's `security: []`): the signed token is the credential (runs/transcript.ts).
 */
import { sendStreamedBody } from '../../http/streamed-body';
import { readTranscript } from '../../runs/transcript';
import { contentDisposition } from './getRunAttachment';
import type { OperationHandler } from '../operations';

export const downloadRunTranscriptHandler: OperationHandler<'downloadRunTranscript'> = (ctx) => async (req, res) => {
  const transcript = await readTranscript(ctx, req.params.runId, req.query.token);
  await sendStreamedBody(
    req,
    res,
    { 'Content-Type': 'application/x-ndjson', 'Content-Disposition': contentDisposition(`transcript-${req.params.runId}.jsonl`), 'Cache-Control': 'no-store' },
    transcript,
  );
};
