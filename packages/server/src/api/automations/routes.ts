/** Automations of a factory: one line per operationId (admin changes; members read and run Test filter). */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { createAutomationHandler } from './createAutomation';
import { deleteAutomationHandler } from './deleteAutomation';
import { getAutomationHandler } from './getAutomation';
import { listAutomationsHandler } from './listAutomations';
import { testAutomationFilterHandler } from './testAutomationFilter';
import { testDraftFilterHandler } from './testDraftFilter';
import { updateAutomationHandler } from './updateAutomation';

export function automationsRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/factories/:factoryUid/automations', createAutomationHandler(ctx));
  router.get('/factories/:factoryUid/automations', listAutomationsHandler(ctx));
  router.get('/factories/:factoryUid/automations/:automationUid', getAutomationHandler(ctx));
  router.patch('/factories/:factoryUid/automations/:automationUid', updateAutomationHandler(ctx));
  router.delete('/factories/:factoryUid/automations/:automationUid', deleteAutomationHandler(ctx));
  router.post('/factories/:factoryUid/automations/:automationUid/test-filter', testAutomationFilterHandler(ctx));
  router.post('/factories/:factoryUid/test-filter', testDraftFilterHandler(ctx));
  return router;
}
