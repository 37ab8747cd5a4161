/**
 * The bundled skill catalogue (docs/service-spec.md §Skill actions: the 14 stable bundled skill IDs).
 *
 * The catalogue groups usage; it is not an availability manifest. A bundled skill is available to runs of
 * this server exactly when its SKILL.md ships in `packages/server/skills/bundled/<id>/SKILL.md` — the
 * desktop- and terminal-only skills (keybindings, tab configs, app control, …) have no server-side content
 * and are listed as unavailable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { serverPackageRoot } from '../package-root';

export interface BundledSkill {
  /** Stable bundled skill ID (what `read_skill` records as `bundled_skill_id`). */
  id: string;
  /** Display name: what the catalogue shows and what a `read_skill` action of this skill records as `name`. */
  name: string;
  description: string;
}

export const BUNDLED_SKILLS: readonly BundledSkill[] = [
  { id: 'add-mcp-server', name: 'Add MCP server', description: 'Add an MCP server to configuration.' },
  { id: 'change-keybinding', name: 'Change keybinding', description: 'Change or remove keyboard shortcuts.' },
  {
    id: 'model-api',
    name: 'Model API',
    description: "Build and maintain applications that use a model provider's SDK.",
  },
  { id: 'create-skill', name: 'Create skill', description: 'Create, improve and evaluate skills.' },
  { id: 'create-tab-config', name: 'Create tab config', description: 'Create a tab configuration.' },
  { id: 'factory-files', name: 'Factory files', description: 'Create and validate file-based factory definitions.' },
  {
    id: 'factory-mcp',
    name: 'Factory MCP',
    description: 'Send work to a factory and collaborate through the factory MCP interface; present only where that interface is available.',
  },
  {
    id: 'modify-settings',
    name: 'Modify settings',
    description: 'View or change settings using the bundled settings schema.',
  },
  {
    id: 'service-platform',
    name: 'Service platform',
    description: 'Run, configure and inspect cloud agents through the API and CLI.',
  },
  { id: 'pr-comments', name: 'PR comments', description: 'Fetch pull request review comments for the current branch.' },
  { id: 'tab-configs', name: 'Tab configs', description: 'Look up the tab configuration schema and validation rules.' },
  {
    id: 'tui-migrate-setup',
    name: 'TUI migrate setup',
    description: 'Migrate supported settings into the terminal agent CLI; specific to that CLI.',
  },
  { id: 'update-tab-config', name: 'Update tab config', description: 'Update an existing tab configuration.' },
  { id: 'appctrl', name: 'App control', description: 'Control and inspect a running desktop app.' },
];

/** `packages/server/skills/bundled`: one directory per bundled skill id holding its SKILL.md. */
export const bundledSkillsRoot = path.join(serverPackageRoot, 'skills/bundled');

export const bundledSkillFile = (id: string): string => path.join(bundledSkillsRoot, id, 'SKILL.md');

const byId = new Map(BUNDLED_SKILLS.map((s) => [s.id, s]));

export function findBundledSkill(id: string): BundledSkill | undefined {
  return byId.get(id);
}

let availableCache: readonly string[] | undefined;

/** Bundled skill ids whose content ships with this server, in catalogue order. */
export function availableBundledSkillIds(): readonly string[] {
  availableCache ??= BUNDLED_SKILLS.filter((s) => fs.existsSync(bundledSkillFile(s.id))).map((s) => s.id);
  return availableCache;
}

export function isBundledSkillAvailable(id: string): boolean {
  return availableBundledSkillIds().includes(id);
}

/** `GET /agent/skills` items (docs/decisions.md: `{id, name, description, bundled: true, available}`). */
export function listBundledSkills(): Array<BundledSkill & { bundled: true; available: boolean }> {
  return BUNDLED_SKILLS.map((s) => ({ ...s, bundled: true as const, available: isBundledSkillAvailable(s.id) }));
}

/**
 * What a run advertises as `available_skills`: the available bundled ids, then the run's `skill_spec`
 * (the spec string is the handle the model passes to `read_skill` to load it again).
 */
export function advertisedSkills(config: { skill_spec?: string | null } | null | undefined): string[] {
  const skills = [...availableBundledSkillIds()];
  if (config?.skill_spec) skills.push(config.skill_spec);
  return skills;
}
