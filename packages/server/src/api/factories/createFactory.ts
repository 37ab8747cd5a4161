/** createFactory `POST /factories` → 201 Factory. */
import { principalOf } from '../../http/auth';
import { createFactory, type DefinitionSource } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const createFactoryHandler: OperationHandler<'createFactory'> =
  (ctx) =>
  async (req, res) => {
    const body = req.body as { name: string; definition_source?: DefinitionSource };
    res.status(201).json(await createFactory(ctx, principalOf(req).teamId, body));
  };
