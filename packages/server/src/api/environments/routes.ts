/** Cloud environments of the caller's team: everyone reads, admins change. One line per operationId. */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { createEnvironmentHandler } from './createEnvironment';
import { deleteEnvironmentHandler } from './deleteEnvironment';
import { getEnvironmentHandler } from './getEnvironment';
import { listEnvironmentsHandler } from './listEnvironments';
import { updateEnvironmentHandler } from './updateEnvironment';

export function environmentsRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/agent/environments', createEnvironmentHandler(ctx));
  router.get('/agent/environments', listEnvironmentsHandler(ctx));
  router.get('/agent/environments/:environmentId', getEnvironmentHandler(ctx));
  router.patch('/agent/environments/:environmentId', updateEnvironmentHandler(ctx));
  router.delete('/agent/environments/:environmentId', deleteEnvironmentHandler(ctx));
  return router;
}
