/** createEnvironment `POST /agent/environments` → 201 CloudEnvironment (Oz shape; variable names only). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createEnvironment } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const createEnvironmentHandler: OperationHandler<'createEnvironment'> = (ctx) => async (req, res) => {
  res.status(201).json(await createEnvironment(ctx, principalOf(req), req.body, auditedAs(ctx, req, res, 'environment', 'created')));
};
