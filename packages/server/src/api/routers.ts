/**
 * Every REST router, mounted under /api/v1 behind authentication, validation and idempotency (app.ts).
 * Add one line per resource; each router declares its paths relative to /api/v1.
 */
import type { Router } from 'express';
import type { ServerContext } from '../context';
import { apiKeysRouter } from './api-keys/routes';
import { runsRouter } from './runs/routes';
import { environmentsRouter } from './environments/routes';
import { skillsRouter } from './skills/routes';
import { factoriesRouter } from './factories/routes';
import { secretsRouter } from './secrets/routes';
import { webhooksRouter } from './webhooks/routes';
import { deliveriesRouter } from './deliveries/routes';
import { automationsRouter } from './automations/routes';

export const routers: Array<(ctx: ServerContext) => Router> = [
  runsRouter,
  apiKeysRouter,
  skillsRouter,
  environmentsRouter,
  factoriesRouter,
  secretsRouter,
  webhooksRouter,
  deliveriesRouter,
  automationsRouter,
];
