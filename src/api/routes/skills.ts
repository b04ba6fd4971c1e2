// /v1/skills: skills, their immutable versions and marketplace publication. Thin: parse, call
// one service function, shape the response (create 201, update 200, delete 204).
import { Router, type Request } from 'express';
import {
  createSkill,
  createSkillVersion,
  deleteSkill,
  getSkill,
  getSkillVersion,
  listSkills,
  publishSkill,
  updateSkill,
} from '../../skills/skills.service.js';
import {
  createSkillBody,
  createVersionBody,
  listSkillsQuery,
  parseInput,
  parseUpdateSkill,
  skillIdParam,
  versionParam,
} from '../../skills/skills.schemas.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';

const skillIdOf = (req: Request): string => parseInput(skillIdParam, req.params.id, 'id');

export function skillsRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/skills', async (req, res) => {
    res.json(await listSkills(deps, callerOf(req), parseInput(listSkillsQuery, req.query, 'query')));
  });

  router.post('/skills', async (req, res) => {
    res.status(201).json(await createSkill(deps, callerOf(req), parseInput(createSkillBody, req.body)));
  });

  router.get('/skills/:id', async (req, res) => {
    res.json(await getSkill(deps, callerOf(req), skillIdOf(req)));
  });

  router.put('/skills/:id', async (req, res) => {
    res.json(await updateSkill(deps, callerOf(req), skillIdOf(req), parseUpdateSkill(req.body)));
  });

  router.delete('/skills/:id', async (req, res) => {
    await deleteSkill(deps, callerOf(req), skillIdOf(req));
    res.status(204).end();
  });

  router.post('/skills/:id/versions', async (req, res) => {
    const version = await createSkillVersion(deps, callerOf(req), skillIdOf(req), parseInput(createVersionBody, req.body));
    res.status(201).json(version);
  });

  router.get('/skills/:id/versions/:version', async (req, res) => {
    const version = parseInput(versionParam, req.params.version, 'version');
    res.json(await getSkillVersion(deps, callerOf(req), skillIdOf(req), version));
  });

  router.post('/skills/:id/publish', async (req, res) => {
    res.json(await publishSkill(deps, callerOf(req), skillIdOf(req)));
  });

  return router;
}
