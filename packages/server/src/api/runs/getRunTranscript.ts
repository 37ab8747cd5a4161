/** getRunTranscript `GET /agent/runs/{runId}/transcript` → 302 to the transcript's signed, expiring download URL. */
import { principalOf } from '../../http/auth';
import { transcriptDownloadUrl } from '../../runs/transcript';
import type { OperationHandler } from '../operations';

export const getRunTranscriptHandler: OperationHandler<'getRunTranscript'> = (ctx) => async (req, res) => {
  const location = await transcriptDownloadUrl(ctx, principalOf(req).teamId, req.params.runId);
  // The URL is a short-lived credential: never cached on the way.
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(302, location);
};
