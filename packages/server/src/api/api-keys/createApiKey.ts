/** createApiKey `POST /api-keys` → 201 ApiKeyWithValue (the value appears only here). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createApiKey, type Role } from '../../api-keys/service';

export const createApiKeyHandler =
  (ctx: ServerContext): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    const body = req.body as { name?: string; role: Role };
    const key = await createApiKey(ctx.db, ctx.clock, {
      teamId: principal.teamId,
      name: body.name,
      role: body.role,
      createdBy: principal.keyId,
    });
    res.status(201).json(key);
  };
