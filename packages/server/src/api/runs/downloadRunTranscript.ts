/**
 * downloadRunTranscript `GET /agent/runs/{runId}/transcript/download?token=…` → the transcript as JSON Lines.
 * No API key (the contract's `security: []`): the signed token is the credential (runs/transcript.ts).
 */
import { readTranscript } from '../../runs/transcript';
import { contentDisposition } from './getRunAttachment';
import type { OperationHandler } from '../operations';

export const downloadRunTranscriptHandler: OperationHandler<'downloadRunTranscript'> =
  (ctx) =>
  async (req, res) => {
    const transcript = await readTranscript(ctx, req.params.runId, String(req.query.token));
    res.setHeader('Content-Type', 'application/x-ndjson');
    res.setHeader('Content-Disposition', contentDisposition(`transcript-${req.params.runId}.jsonl`));
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).send(transcript);
  };
