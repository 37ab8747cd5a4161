/**
 * getArtifactContent `GET /agent/artifacts/{artifactUid}/content?token=…`: the bytes behind a signed download
 * URL. No API key (the contract's `security: []`): the token is the credential. Always a download, never a page.
 */
import { readArtifactContent } from '../../artifacts/service';
import { contentDisposition } from '../runs/getRunAttachment';
import type { OperationHandler } from '../operations';

export const getArtifactContentHandler: OperationHandler<'getArtifactContent'> = (ctx) => async (req, res) => {
  const content = await readArtifactContent(ctx, req.params.artifactUid, req.query.token);
  res.setHeader('Content-Type', content.contentType);
  res.setHeader('Content-Disposition', contentDisposition(content.filename));
  res.setHeader('Content-Length', String(content.bytes.length));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.status(200).end(content.bytes);
};
