/** streamRunEvents `GET /agent/runs/{runId}/events` → text/event-stream (see ./event-stream.ts). */
import { principalOf } from '../../http/auth';
import { invalidRequest } from '../../problems';
import { streamRunEvents } from './event-stream';
import { inEventStreamSlot } from './stream-slots';
import type { OperationHandler } from '../operations';

export const streamRunEventsHandler: OperationHandler<'streamRunEvents'> = (ctx) => async (req, res) => {
  const header = req.get('last-event-id');
  if (header !== undefined && !/^\d{1,15}$/.test(header)) {
    throw invalidRequest('Last-Event-ID must be an integer from 0 to 999999999999999.', [
      { path: 'header.Last-Event-ID', message: 'must be an integer from 0 to 999999999999999' },
    ]);
  }
  const { teamId, keyId } = principalOf(req);
  await inEventStreamSlot(ctx, keyId, (stop) => streamRunEvents(ctx, res, teamId, req.params.runId, header === undefined ? undefined : Number(header), stop));
};
