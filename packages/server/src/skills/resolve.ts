/**
 * Skill resolution: bundled skills by id, and `skill_spec` references against the skills root.
 *
 * `skill_spec` forms (docs/service-spec.md §AmbientAgentConfig) and where they resolve (`SKILLS_DIR` laid out `owner/repo/…`):
 * - `owner/repo:skill-name` → the first file that exists of
 *   `<SKILLS_DIR>/owner/repo/skills/<skill-name>/SKILL.md` (the usual skills-repository layout) and
 *   `<SKILLS_DIR>/owner/repo/<skill-name>/SKILL.md`;
 * - `owner/repo:path/to/SKILL.md` (any reference containing `/` or ending in `.md`) →
 *   `<SKILLS_DIR>/owner/repo/path/to/SKILL.md`.
 * - `agent-runs/bundled:<id>` or `agent-runs/bundled:<id>/SKILL.md` → the bundled skill `<id>` when this
 *   server offers it (the reserved repository GET /agent lists the bundled skills under; a directory of that
 *   name in SKILLS_DIR is never read). It loads as the bundled skill, with its `bundled_skill_id`.
 * Absolute paths, `.`/`..` segments, backslashes and symlinks that leave `<SKILLS_DIR>/owner/repo` are
 * refused. The recorded `skill_path` is the resolved file relative to the skills root
 * (`owner/repo/skills/<name>/SKILL.md`): it names where the skill came from without exposing server
 * directories, and it never proves ownership — a copy of a bundled skill loaded this way has only a
 * `skill_path`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { bundledSkillFile, findBundledSkill, isBundledSkillAvailable } from './catalog';

export type SkillErrorCode = 'invalid_skill_spec' | 'skill_not_found' | 'skills_dir_not_configured';

export class SkillError extends Error {
  constructor(
    readonly code: SkillErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SkillError';
  }
}

export interface ParsedSkillSpec {
  owner: string;
  repo: string;
  /** `name`: a skill name looked up in the repository; `path`: a file path inside the repository. */
  kind: 'name' | 'path';
  ref: string;
}

export interface LoadedSkill {
  name: string;
  description?: string;
  /** Full SKILL.md text. */
  content: string;
  /** Set only for service-provided bundled skills loaded by id. */
  bundledSkillId?: string;
  /** Set only for skills loaded by path: the file relative to the skills root (posix separators). */
  skillPath?: string;
  /** Absolute directory holding the SKILL.md (for files the skill refers to). */
  directory: string;
}

/** The reserved repository of the bundled skills in a skill_spec (`agent-runs/bundled:<id>`). */
export const BUNDLED_REPOSITORY = { owner: 'agent-runs', repo: 'bundled' } as const;

export const isBundledRepository = (owner: string, repo: string): boolean => owner === BUNDLED_REPOSITORY.owner && repo === BUNDLED_REPOSITORY.repo;

/** Largest SKILL.md loaded; a skill is a prompt, not a data file. */
export const MAX_SKILL_BYTES = 256 * 1024;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Syntax check of a skill_spec; throws SkillError('invalid_skill_spec') naming what is wrong. */
export function parseSkillSpec(spec: string): ParsedSkillSpec {
  const invalid = (why: string) =>
    new SkillError('invalid_skill_spec', `skill_spec "${spec}" is invalid: ${why} (expected owner/repo:skill-name or owner/repo:path/to/SKILL.md)`);
  const colon = spec.indexOf(':');
  if (colon < 0) throw invalid('missing ":"');
  const repoPart = spec.slice(0, colon);
  const ref = spec.slice(colon + 1);
  const repoSegments = repoPart.split('/');
  if (repoSegments.length !== 2) throw invalid('the part before ":" must be owner/repo');
  const [owner, repo] = repoSegments as [string, string];
  if (!SEGMENT.test(owner) || !SEGMENT.test(repo)) throw invalid('owner and repo may hold letters, digits, "_", "-" and "."');
  if (ref === '') throw invalid('nothing after ":"');
  if (ref.includes('\\') || ref.includes('\0')) throw invalid('backslashes are not allowed');

  if (ref.includes('/') || /\.md$/i.test(ref)) {
    if (ref.startsWith('/')) throw invalid('the path must be relative to the repository');
    const segments = ref.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..')) throw invalid('the path may not contain empty, "." or ".." segments');
    if (!/\.md$/i.test(ref)) throw invalid('a path must name a markdown file such as SKILL.md');
    return { owner, repo, kind: 'path', ref };
  }
  if (!SKILL_NAME.test(ref)) throw invalid('the skill name may hold letters, digits, "_", "-" and "."');
  return { owner, repo, kind: 'name', ref };
}

/** Skill name of a spec as far as the syntax tells: the skill name, or the directory holding the file. */
export function skillNameFromSpec(parsed: ParsedSkillSpec): string {
  if (parsed.kind === 'name') return parsed.ref;
  const segments = parsed.ref.split('/');
  const file = segments[segments.length - 1] ?? parsed.ref;
  return segments.length > 1 ? (segments[segments.length - 2] as string) : file.replace(/\.md$/i, '');
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

export interface SkillFrontMatter {
  name?: string;
  description?: string;
  /** The SKILL.md without its front matter: the skill's instructions. */
  body: string;
  /** Why the front matter is malformed (not closed, not YAML, not a mapping, `name`/`description` not strings). */
  problem?: string;
}

/** A SKILL.md's YAML front matter (`name`, `description`) and body; a malformed one says why. */
export function readSkillFrontMatter(content: string): SkillFrontMatter {
  const match = FRONT_MATTER.exec(content);
  if (!match) {
    return /^---\r?\n/.test(content) ? { body: content, problem: 'the front matter is not closed by a --- line' } : { body: content };
  }
  const body = content.slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(match[1] as string);
  } catch (err) {
    return { body, problem: `the front matter is not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { body, problem: 'the front matter is not a YAML mapping' };
  const fields = data as Record<string, unknown>;
  const { name, description } = fields;
  const notString = (['name', 'description'] as const).find((key) => fields[key] !== undefined && typeof fields[key] !== 'string');
  return {
    ...(typeof name === 'string' && name.trim() ? { name: name.trim() } : {}),
    ...(typeof description === 'string' && description.trim() ? { description: description.trim() } : {}),
    body,
    ...(notString ? { problem: `the front matter's ${notString} is not a string` } : {}),
  };
}

/** `name`/`description` of a SKILL.md's YAML front matter, if it has them (what is malformed counts as absent). */
export function parseSkillFrontMatter(content: string): { name?: string; description?: string } {
  const { name, description } = readSkillFrontMatter(content);
  return { ...(name ? { name } : {}), ...(description ? { description } : {}) };
}

async function readSkillFile(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_SKILL_BYTES) {
      throw new SkillError('invalid_skill_spec', `the skill file is larger than ${MAX_SKILL_BYTES} bytes`);
    }
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof SkillError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** True when `child` is `parent` or inside it (both absolute, resolved). */
const isInside = (parent: string, child: string) => child === parent || child.startsWith(parent + path.sep);

async function realpathOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await fs.realpath(p);
  } catch {
    return undefined;
  }
}

/**
 * Finds and reads the SKILL.md a skill_spec names. Throws SkillError: `invalid_skill_spec` (syntax, or a
 * path escaping the repository), `skills_dir_not_configured`, `skill_not_found` (repository or file missing).
 */
export async function resolveSkillSpec(skillsDir: string | undefined, spec: string): Promise<LoadedSkill> {
  const parsed = parseSkillSpec(spec);
  if (isBundledRepository(parsed.owner, parsed.repo)) return loadBundledSkillBySpec(parsed, spec);
  if (!skillsDir) {
    throw new SkillError('skills_dir_not_configured', `skill_spec "${spec}" cannot be resolved: this server has no skills root (SKILLS_DIR is not set)`);
  }
  const root = path.resolve(skillsDir);
  const repoDir = path.join(root, parsed.owner, parsed.repo);
  const realRepo = await realpathOrUndefined(repoDir);
  if (!realRepo) {
    throw new SkillError('skill_not_found', `skill_spec "${spec}": repository ${parsed.owner}/${parsed.repo} is not in the skills root`);
  }
  const candidates =
    parsed.kind === 'name' ? [path.join('skills', parsed.ref, 'SKILL.md'), path.join(parsed.ref, 'SKILL.md')] : [parsed.ref.split('/').join(path.sep)];

  for (const relative of candidates) {
    const file = path.join(repoDir, relative);
    const real = await realpathOrUndefined(file);
    if (!real) continue;
    if (!isInside(realRepo, real)) {
      throw new SkillError('invalid_skill_spec', `skill_spec "${spec}" points outside its repository`);
    }
    const content = await readSkillFile(real);
    if (content === undefined) continue;
    const front = parseSkillFrontMatter(content);
    return {
      name: front.name ?? skillNameFromSpec(parsed),
      ...(front.description ? { description: front.description } : {}),
      content,
      skillPath: [parsed.owner, parsed.repo, ...relative.split(path.sep)].join('/'),
      directory: path.dirname(real),
    };
  }
  const tried = candidates.map((c) => [parsed.owner, parsed.repo, ...c.split(path.sep)].join('/')).join(' or ');
  throw new SkillError('skill_not_found', `skill_spec "${spec}": no skill file at ${tried} in the skills root`);
}

/** `agent-runs/bundled:<id>` or `agent-runs/bundled:<id>/SKILL.md` → the bundled skill `<id>`. */
function loadBundledSkillBySpec(parsed: ParsedSkillSpec, spec: string): Promise<LoadedSkill> {
  const id = parsed.kind === 'name' ? parsed.ref : /^([^/]+)\/SKILL\.md$/.exec(parsed.ref)?.[1];
  if (!id || !findBundledSkill(id) || !isBundledSkillAvailable(id)) {
    return Promise.reject(new SkillError('skill_not_found', `skill_spec "${spec}": this server offers no bundled skill by that name (see GET /agent/skills)`));
  }
  return loadBundledSkill(id);
}

/** Loads an available bundled skill by id; throws SkillError('skill_not_found') otherwise. */
export async function loadBundledSkill(id: string): Promise<LoadedSkill> {
  const skill = findBundledSkill(id);
  if (!skill || !isBundledSkillAvailable(id)) {
    throw new SkillError('skill_not_found', `bundled skill "${id}" is not available on this server`);
  }
  const file = bundledSkillFile(id);
  const content = await fs.readFile(file, 'utf8');
  return {
    name: skill.name,
    description: skill.description,
    content,
    bundledSkillId: id,
    directory: path.dirname(file),
  };
}

/**
 * The `read_skill` action input for a load (docs/wire.md §Runs): `{name, bundled_skill_id}` for a
 * service-provided skill loaded by id, `{name, skill_path}` for one loaded by path.
 */
export function readSkillActionInput(skill: LoadedSkill): { name: string; bundled_skill_id?: string; skill_path?: string } {
  if (skill.bundledSkillId) return { name: skill.name, bundled_skill_id: skill.bundledSkillId };
  return { name: skill.name, ...(skill.skillPath ? { skill_path: skill.skillPath } : {}) };
}
