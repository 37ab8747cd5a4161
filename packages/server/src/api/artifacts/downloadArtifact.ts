/** downloadArtifact `GET /agent/artifacts/{artifactUid}/download` → 302 to a fresh signed download URL (as Oz). */
import { artifactDownloadUrl } from '../../artifacts/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const downloadArtifactHandler: OperationHandler<'downloadArtifact'> = (ctx) => async (req, res) => {
  const url = await artifactDownloadUrl(ctx, principalOf(req).teamId, req.params.artifactUid);
  res.setHeader('Location', url);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(302).end();
};
