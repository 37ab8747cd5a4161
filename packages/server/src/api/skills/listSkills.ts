/** listSkills `GET /agent/skills` → ListSkillsResponse: the 14 bundled ids, `available` per this deployment. */
import type { RequestHandler } from 'express';
import { listBundledSkills } from '../../skills/catalog';

export const listSkillsHandler = (): RequestHandler => (_req, res) => {
  res.json({ skills: listBundledSkills() });
};
