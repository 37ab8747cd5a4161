/** The bundled skill catalogue (readable by every key). */
import { Router } from 'express';
import type { ServerContext } from '../../context';
import { listSkillsHandler } from './listSkills';

export function skillsRouter(_ctx: ServerContext): Router {
  const router = Router();
  router.get('/agent/skills', listSkillsHandler());
  return router;
}
