/** createApiKey `POST /api-keys` → 201 ApiKeyWithValue (the value appears only here). */
import { auditedAs } from '../../http/audit';
import { principalOf } from '../../http/auth';
import { createApiKey } from '../../api-keys/service';
import type { OperationHandler } from '../operations';

export const createApiKeyHandler: OperationHandler<'createApiKey'> = (ctx) => async (req, res) => {
  const principal = principalOf(req);
  const { name, role } = req.body;
  const key = await createApiKey(
    ctx.db,
    ctx.clock,
    {
      teamId: principal.teamId,
      name,
      role,
      createdBy: principal.keyId,
      keysPerTeam: ctx.settings.limits.apiKeysPerTeam,
    },
    auditedAs(ctx, req, res, 'api_key', 'created'),
  );
  res.status(201).json(key);
};
