/** getArtifact `GET /agent/artifacts/{artifactUid}` → ArtifactResponse (a signed download URL, or a plan inline). */
import { getArtifact } from '../../artifacts/service';
import { principalOf } from '../../http/auth';
import type { OperationHandler } from '../operations';

export const getArtifactHandler: OperationHandler<'getArtifact'> = (ctx) => async (req, res) => {
  res.setHeader('Cache-Control', 'no-store'); // the answer holds a URL that works without an API key
  res.json(await getArtifact(ctx, principalOf(req).teamId, req.params.artifactUid));
};
