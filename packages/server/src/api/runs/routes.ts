/** Runs API: one line per operationId (docs/decisions.md), each bound to its handler file. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { cancelRunHandler } from './cancelRun';
import { createRunHandler } from './createRun';
import { createRunFollowupHandler } from './createRunFollowup';
import { getRunHandler } from './getRun';
import { getRunAttachmentHandler } from './getRunAttachment';
import { getRunConversationHandler } from './getRunConversation';
import { listRunsHandler } from './listRuns';
import { streamRunEventsHandler } from './streamRunEvents';

export function runsRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/agent/runs', createRunHandler(ctx)); // createRun
  router.post('/agent/run', createRunHandler(ctx)); // createRunLegacy (deprecated alias)
  router.get('/agent/runs', listRunsHandler(ctx)); // listRuns
  router.get('/agent/runs/:runId', getRunHandler(ctx)); // getRun
  router.post('/agent/runs/:runId/followups', createRunFollowupHandler(ctx)); // createRunFollowup
  router.post('/agent/runs/:runId/cancel', cancelRunHandler(ctx)); // cancelRun
  router.get('/agent/runs/:runId/conversation', getRunConversationHandler(ctx)); // getRunConversation
  router.get('/agent/runs/:runId/attachments/:name', getRunAttachmentHandler(ctx)); // getRunAttachment
  router.get('/agent/runs/:runId/events', streamRunEventsHandler(ctx)); // streamRunEvents
  return router;
}
