/** createAutomation `POST /factories/{factoryUid}/automations` → 201 Automation. */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { principalOf } from '../../http/auth';
import { createAutomation, type CreateAutomationInput } from '../../automations/service';

export const createAutomationHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    res.status(201).json(await createAutomation(ctx, principalOf(req).teamId, req.params.factoryUid, req.body as CreateAutomationInput));
  };
