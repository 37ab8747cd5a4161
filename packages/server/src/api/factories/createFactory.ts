/** createFactory `POST /factories` → 201 Factory. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createFactory, type DefinitionSource } from '../../factories/service';

export const createFactoryHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const body = req.body as { name: string; definition_source?: DefinitionSource };
    res.status(201).json(await createFactory(ctx, principalOf(req).teamId, body));
  };
