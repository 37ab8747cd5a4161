/** createEnvironment `POST /agent/environments` → 201 CloudEnvironment (variable names only). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createEnvironment, type EnvironmentInput } from '../../environments/service';

export const createEnvironmentHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const body = req.body as EnvironmentInput & { name: string };
    res.status(201).json(await createEnvironment(ctx, principalOf(req).teamId, body));
  };
