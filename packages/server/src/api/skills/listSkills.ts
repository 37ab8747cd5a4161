/** listSkills `GET /agent/skills` → ListSkillsResponse: the 14 bundled ids, `available` per this deployment. */
import { listBundledSkills } from '../../skills/catalog';
import type { OperationHandler } from '../operations';

export const listSkillsHandler: OperationHandler<'listSkills'> = () => (_req, res) => {
  res.json({ skills: listBundledSkills() });
};
