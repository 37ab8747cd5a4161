/** createEnvironment `POST /agent/environments` → 201 CloudEnvironment (variable names only). */
import { principalOf } from '../../http/auth';
import { createEnvironment, type EnvironmentInput } from '../../environments/service';
import type { OperationHandler } from '../operations';

export const createEnvironmentHandler: OperationHandler<'createEnvironment'> =
  (ctx) =>
  async (req, res) => {
    const body = req.body as EnvironmentInput & { name: string };
    res.status(201).json(await createEnvironment(ctx, principalOf(req).teamId, body));
  };
