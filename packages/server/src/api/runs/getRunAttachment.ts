/** getRunAttachment `GET /agent/runs/{runId}/attachments/{name}` → the stored bytes, typed as stored. */
import { principalOf } from '../../http/auth';
import { getAttachment } from '../../runs/service';
import type { OperationHandler } from '../operations';

/** `attachment; filename="…"` as the contract shows it, plus RFC 5987 `filename*` for non-ASCII names. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '\\$&');
  const exact = /^[\x20-\x7e]*$/.test(fileName)
    ? ''
    : `; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return `attachment; filename="${ascii}"${exact}`;
}

export const getRunAttachmentHandler: OperationHandler<'getRunAttachment'> = (ctx) => async (req, res) => {
  const attachment = await getAttachment(ctx, principalOf(req).teamId, req.params.runId, req.params.name);
  // setHeader, not res.type(): the stored mime type goes out exactly as given (no charset added). One
  // stored before the contract required printable ASCII may not fit in a header: then it goes as bytes.
  res.setHeader('Content-Type', /^[ -~]+$/.test(attachment.mime_type) ? attachment.mime_type : 'application/octet-stream');
  res.setHeader('Content-Disposition', contentDisposition(attachment.file_name));
  res.setHeader('Content-Length', String(attachment.data.length));
  res.status(200).end(attachment.data);
};
