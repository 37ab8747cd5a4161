/** Factories: one line per operationId (admin creates; members read). */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { applyFactoryDefinitionsHandler } from './applyFactoryDefinitions';
import { createFactoryHandler } from './createFactory';
import { dispatchFactoryRunHandler } from './dispatchFactoryRun';
import { getFactoryHandler } from './getFactory';
import { listFactoriesHandler } from './listFactories';

export function factoriesRouter(ctx: ServerContext): Router {
  const router = Router();
  router.post('/factories', createFactoryHandler(ctx));
  router.get('/factories', listFactoriesHandler(ctx));
  router.get('/factories/:factoryUid', getFactoryHandler(ctx));
  router.post('/factories/:factoryUid/runs', dispatchFactoryRunHandler(ctx)); // dispatchFactoryRun (members may dispatch)
  router.post('/factories/:factoryUid/definitions/apply', applyFactoryDefinitionsHandler(ctx));
  return router;
}
