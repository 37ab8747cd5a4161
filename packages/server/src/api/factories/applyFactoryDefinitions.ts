/** applyFactoryDefinitions `POST /factories/{factoryUid}/definitions/apply` → ApplyDefinitionsResponse (admin, files factories). */
import type { RequestHandler } from 'express';
import type { ServerContext } from '../../context';
import { applyFactoryDefinitions, type DefinitionFile } from '../../automations/definitions';
import { principalOf } from '../../http/auth';

export const applyFactoryDefinitionsHandler =
  (ctx: ServerContext): RequestHandler<{ factoryUid: string }> =>
  async (req, res) => {
    const { files } = req.body as { files: DefinitionFile[] };
    res.json(await applyFactoryDefinitions(ctx, principalOf(req).teamId, req.params.factoryUid, files));
  };
