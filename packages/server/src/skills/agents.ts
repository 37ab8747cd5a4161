/**
 * GET /agent (contract: listAgents): the Oz API's agents — the skills a run can start from, grouped by name.
 *
 * Two sources, read from the files on every request (nothing to cache, so `refresh` has nothing to clear):
 * every SKILL.md under SKILLS_DIR (`owner/repo/…`, variant `owner/repo:<path>`), and the bundled skills
 * this server offers under the reserved repository `agent-runs/bundled` (skills/resolve.ts). A variant's
 * `last_run_timestamp` comes from the team's runs (by the variant's id, or the name form that resolves to
 * the same file); its `environments` are all of the team's, since any run may load any skill.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../context';
import type { Timestamp } from '../db/tables';
import { listEnvironmentNames } from '../environments/repository';
import type { components } from '@agent-runs/contract';
import { lastRunCreatedAtBySkillSpec } from '../runs/repository';
import { availableBundledSkillIds, bundledSkillFile, findBundledSkill } from './catalog';
import { BUNDLED_REPOSITORY, isBundledRepository, MAX_SKILL_BYTES, parseSkillSpec, readSkillFrontMatter, skillNameFromSpec } from './resolve';

type Schemas = components['schemas'];
export type ListAgentsResponse = Schemas['ListAgentsResponse'];
type AgentListVariant = Schemas['AgentListVariant'];

export interface ListAgentsQuery {
  /** `owner/repo`: only that repository's skills. */
  repo?: string;
  sortBy: 'name' | 'last_run';
  includeMalformed: boolean;
}

/** Bounds of the walk of SKILLS_DIR (contract: listAgents): it is the operator's tree, but one request reads it. */
export const MAX_LISTED_SKILL_FILES = 1_000;
export const MAX_SKILL_DEPTH = 8;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** One SKILL.md found: where it is, what it says, and the other spec that names it (`owner/repo:<name>`). */
interface FoundSkill {
  owner: string;
  repo: string;
  /** Path inside the repository, `/`-separated. */
  skillPath: string;
  name: string;
  description: string;
  basePrompt: string;
  error?: string;
  alias?: string;
}

const specOf = (skill: Pick<FoundSkill, 'owner' | 'repo' | 'skillPath'>): string => `${skill.owner}/${skill.repo}:${skill.skillPath}`;

export async function listAgents(ctx: Pick<ServerContext, 'db' | 'settings'>, teamId: string, query: ListAgentsQuery): Promise<ListAgentsResponse> {
  const [owner, repo] = query.repo?.split('/') ?? [];
  const wanted = (skill: FoundSkill) => query.repo === undefined || (skill.owner === owner && skill.repo === repo);
  const found = [...(await bundledSkills()), ...(await skillsRootSkills(ctx.settings.skillsDir))]
    .filter(wanted)
    .filter((skill) => query.includeMalformed || skill.error === undefined);

  const specs = found.flatMap((skill) => [specOf(skill), ...(skill.alias ? [skill.alias] : [])]);
  const [environments, lastRuns] = await Promise.all([listEnvironmentNames(ctx.db, teamId), lastRunCreatedAtBySkillSpec(ctx.db, teamId, specs)]);
  const lastRunOf = (skill: FoundSkill): Timestamp | null => {
    const times = [lastRuns.get(specOf(skill)), skill.alias ? lastRuns.get(skill.alias) : undefined].filter((t): t is Timestamp => t !== undefined);
    return times.length > 0 ? times.reduce((a, b) => (a > b ? a : b)) : null;
  };

  const byName = new Map<string, AgentListVariant[]>();
  for (const skill of found.sort((a, b) => compare(specOf(a), specOf(b)))) {
    const variant: AgentListVariant = {
      id: specOf(skill),
      description: skill.description,
      base_prompt: skill.basePrompt,
      source: { owner: skill.owner, name: skill.repo, skill_path: skill.skillPath },
      environments,
      last_run_timestamp: lastRunOf(skill),
      ...(skill.error !== undefined ? { error: skill.error } : {}),
    };
    byName.set(skill.name, [...(byName.get(skill.name) ?? []), variant]);
  }
  const agents = [...byName].map(([name, variants]) => ({ name, variants }));
  const lastRun = (agent: { variants: AgentListVariant[] }) =>
    agent.variants.reduce<string>((latest, v) => (v.last_run_timestamp && v.last_run_timestamp > latest ? v.last_run_timestamp : latest), '');
  agents.sort((a, b) => (query.sortBy === 'last_run' ? compare(lastRun(b), lastRun(a)) : 0) || compare(a.name, b.name));
  return { agents };
}

/** Code-point order (as the contract says), not the locale's. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function bundledSkills(): Promise<FoundSkill[]> {
  return Promise.all(
    availableBundledSkillIds().map(async (id) => {
      const catalogued = findBundledSkill(id)!;
      const front = readSkillFrontMatter(await fs.readFile(bundledSkillFile(id), 'utf8'));
      return {
        ...BUNDLED_REPOSITORY,
        skillPath: `${id}/SKILL.md`,
        name: catalogued.name,
        description: catalogued.description,
        basePrompt: front.body,
        alias: `${BUNDLED_REPOSITORY.owner}/${BUNDLED_REPOSITORY.repo}:${id}`,
      };
    }),
  );
}

/** Every SKILL.md under `<root>/owner/repo/`, at most MAX_LISTED_SKILL_FILES, MAX_SKILL_DEPTH levels below the repository. */
async function skillsRootSkills(root: string | undefined): Promise<FoundSkill[]> {
  if (!root) return [];
  const files: Array<{ owner: string; repo: string; skillPath: string; file: string }> = [];
  for (const ownerEntry of await directories(root)) {
    if (!SEGMENT.test(ownerEntry)) continue;
    for (const repoEntry of await directories(path.join(root, ownerEntry))) {
      if (!SEGMENT.test(repoEntry) || isBundledRepository(ownerEntry, repoEntry)) continue;
      const repoDir = path.join(root, ownerEntry, repoEntry);
      await walk(repoDir, [], (segments) => {
        files.push({ owner: ownerEntry, repo: repoEntry, skillPath: segments.join('/'), file: path.join(repoDir, ...segments) });
        return files.length < MAX_LISTED_SKILL_FILES;
      });
      if (files.length >= MAX_LISTED_SKILL_FILES) break;
    }
    if (files.length >= MAX_LISTED_SKILL_FILES) break;
  }
  const paths = new Set(files.map((f) => `${f.owner}/${f.repo}/${f.skillPath}`));
  return (await Promise.all(files.map((f) => describeSkillFile(f, paths)))).filter((skill): skill is FoundSkill => skill !== undefined);
}

/** Calls `onSkill` with the path segments of each SKILL.md below `dir`; stops when it answers false. Symbolic links are not followed. */
async function walk(dir: string, segments: string[], onSkill: (segments: string[]) => boolean): Promise<boolean> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(path.join(dir, ...segments), { withFileTypes: true });
  } catch {
    return true;
  }
  for (const entry of entries.sort((a, b) => compare(a.name, b.name))) {
    if (entry.isFile() && entry.name === 'SKILL.md') {
      if (!onSkill([...segments, entry.name])) return false;
    } else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name) && segments.length < MAX_SKILL_DEPTH) {
      if (!(await walk(dir, [...segments, entry.name], onSkill))) return false;
    }
  }
  return true;
}

async function directories(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(compare);
  } catch {
    return [];
  }
}

async function describeSkillFile(
  f: { owner: string; repo: string; skillPath: string; file: string },
  allPaths: ReadonlySet<string>,
): Promise<FoundSkill | undefined> {
  let fallbackName: string;
  try {
    fallbackName = skillNameFromSpec(parseSkillSpec(specOf(f)));
  } catch {
    return undefined; // a path no skill_spec can name (a backslash in a directory name): no run could start from it
  }
  const skill: FoundSkill = { owner: f.owner, repo: f.repo, skillPath: f.skillPath, name: fallbackName, description: '', basePrompt: '' };
  const alias = nameFormOf(f, allPaths);
  if (alias) skill.alias = alias;
  let content: string;
  try {
    if ((await fs.stat(f.file)).size > MAX_SKILL_BYTES) return { ...skill, error: `the SKILL.md is larger than ${MAX_SKILL_BYTES} bytes` };
    content = await fs.readFile(f.file, 'utf8');
  } catch {
    return undefined; // removed (or made unreadable) since the directory was read
  }
  const front = readSkillFrontMatter(content);
  return {
    ...skill,
    name: front.name ?? fallbackName,
    description: front.description ?? '',
    basePrompt: front.body,
    ...(front.problem ? { error: front.problem } : {}),
  };
}

/**
 * `owner/repo:<name>` when that name form resolves to this file (skills/resolve.ts looks in
 * `skills/<name>/SKILL.md` first, then `<name>/SKILL.md`), so runs started by name count as runs of it.
 */
function nameFormOf(f: { owner: string; repo: string; skillPath: string }, allPaths: ReadonlySet<string>): string | undefined {
  const parts = f.skillPath.split('/');
  const name = parts.length === 3 && parts[0] === 'skills' ? parts[1] : parts.length === 2 ? parts[0] : undefined;
  if (!name || !SKILL_NAME.test(name)) return undefined;
  if (parts.length === 2 && allPaths.has(`${f.owner}/${f.repo}/skills/${name}/SKILL.md`)) return undefined;
  return `${f.owner}/${f.repo}:${name}`;
}
