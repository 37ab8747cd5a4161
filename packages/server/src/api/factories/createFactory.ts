/** createFactory `POST /factories` → 201 Factory. */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createFactory } from '../../factories/service';
import type { OperationHandler } from '../operations';

export const createFactoryHandler: OperationHandler<'createFactory'> = (ctx) => async (req, res) => {
  res.status(201).json(await createFactory(ctx, principalOf(req).teamId, req.body, auditedAs(ctx, req, res, 'factory', 'created')));
};
