/** streamTeamRunEvents `GET /agent/run-events` → text/event-stream of the team's state changes (see ./event-stream.ts). */
import { principalOf } from '../../http/auth';
import { streamTeamRunEvents } from './event-stream';
import { inEventStreamSlot } from './stream-slots';
import type { OperationHandler } from '../operations';

export const streamTeamRunEventsHandler: OperationHandler<'streamTeamRunEvents'> = (ctx) => async (req, res) => {
  const { teamId, keyId } = principalOf(req);
  await inEventStreamSlot(ctx, keyId, (stop) => streamTeamRunEvents(ctx, res, teamId, stop));
};
