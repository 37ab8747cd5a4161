/** listModels `GET /agent/models` → ListModelsResponse (engine/runners/model-list.ts). */
import type { OperationHandler } from '../operations';

export const listModelsHandler: OperationHandler<'listModels'> = (ctx) => async (_req, res) => {
  res.json(await ctx.modelCatalog.list());
};
