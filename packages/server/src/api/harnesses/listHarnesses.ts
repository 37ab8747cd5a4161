/** listHarnesses `GET /agent/harnesses` → ListHarnessesResponse (engine/harnesses/catalog.ts). */
import { harnessOffers } from '../../engine/harnesses/catalog';
import type { OperationHandler } from '../operations';

export const listHarnessesHandler: OperationHandler<'listHarnesses'> = (ctx) => async (_req, res) => {
  res.json({ harnesses: harnessOffers(ctx.settings.harnessesDir) });
};
