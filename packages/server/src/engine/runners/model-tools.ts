/**
 * The tools a model run offers: the built-in `read_skill` (when skills exist) and `publish_artifact`
 * (always; docs/decisions.md §Artifacts), the tools of providers of their own (the workspace tools:
 * workspace-tools.ts), and the tools of the run's MCP servers.
 *
 * A tool call is handled in two steps so the conversation reads in order: `prepare()` works out the
 * `action` block (for `read_skill` that means loading the skill, because the action's input names what
 * was loaded — `{name, bundled_skill_id}` or `{name, skill_path}`), the runner records the assistant
 * message with every action, then `execute()` runs each call and gives the `action_result` and the text
 * that goes back to the model.
 */
import { artifactEvent, artifactRejectedEvent, parseArtifactRequest, type ArtifactPublisher } from '../../artifacts/service';
import type { ContentBlock } from '../../runs/contract';
import type { McpSession } from '../mcp/session';
import { findBundledSkill, isBundledSkillAvailable } from '../../skills/catalog';
import { loadBundledSkill, readSkillActionInput, resolveSkillSpec, SkillError, type LoadedSkill } from '../../skills/resolve';
import type { ChatTool, ChatToolCall } from './model-client';

export const READ_SKILL = 'read_skill';
export const PUBLISH_ARTIFACT = 'publish_artifact';
/** The recorded action's category of a publish_artifact call. */
const PUBLISH_CATEGORY = 'documents';

/** Longest tool output passed to the model and recorded; the rest is cut with a note. */
export const MAX_TOOL_OUTPUT_CHARS = 100_000;

export type ActionBlock = Extract<ContentBlock, { type: 'action' }>;
export type ActionResultBlock = Extract<ContentBlock, { type: 'action_result' }>;

/**
 * The `action` input of a call whose arguments were not a JSON object (contract: ActionBlock's input is an
 * object): what the model sent, under this one key, so a resumed conversation can give it back verbatim.
 */
export const UNPARSED_ARGUMENTS = 'unparsed_arguments';

/** The arguments text of a recorded tool call, as the model sent it (model-messages.ts, resume). */
export function recordedArguments(action: ActionBlock): string {
  const input = action.input;
  const keys = Object.keys(input);
  if (keys.length === 1 && keys[0] === UNPARSED_ARGUMENTS && typeof input[UNPARSED_ARGUMENTS] === 'string') return input[UNPARSED_ARGUMENTS];
  return JSON.stringify(action.category === 'skill' ? skillArguments(input) : input);
}

/** read_skill arguments from a recorded read_skill input. */
function skillArguments(input: Record<string, unknown>): { skill: string } {
  const i = input as { name?: string; bundled_skill_id?: string; skill_path?: string };
  return { skill: i.bundled_skill_id ?? i.skill_path ?? i.name ?? '' };
}

/** What went back to the model for a recorded result (`{text}`, or the whole output when it has none). */
export function recordedOutputText(output: Record<string, unknown>): string {
  return typeof output.text === 'string' ? output.text : JSON.stringify(output);
}

export interface ToolOutcome {
  result: ActionResultBlock;
  /** The `tool` message content for the model. */
  content: string;
  /** More blocks of the same `tool` message (publish_artifact's `artifact` event). */
  events?: ContentBlock[];
}

export interface PreparedCall {
  call: ChatToolCall;
  action: ActionBlock;
  execute(signal: AbortSignal): Promise<ToolOutcome>;
}

export interface AdvertisedSkill {
  /** What the model passes to read_skill: a bundled id or a skill_spec. */
  ref: string;
  description?: string;
}

export interface ToolBoxOptions {
  mcp: McpSession;
  skillsDir: string | undefined;
  skills: AdvertisedSkill[];
  /** Timeout for one MCP tool call (the rest of the run budget, capped). */
  toolTimeoutMs: () => number;
  /** Where publish_artifact publishes (RunContext.artifacts). */
  artifacts: ArtifactPublisher;
  /** Tools of other modules (the workspace tools: workspace-tools.ts), offered after publish_artifact. */
  providers?: ToolProvider[];
}

/** Tools a module of its own offers the model runner: their definitions, calls and recorded names. */
export interface ToolProvider {
  definitions(): ChatTool[];
  /** The prepared call, or undefined when the function is not one of this provider's. */
  prepare(call: ChatToolCall, args: ParsedArguments): PreparedCall | undefined;
  /** The function name of a recorded action of this provider's (resume), or undefined. */
  functionNameFor(action: { category: string; name: string }): string | undefined;
}

export function truncate(text: string, max = MAX_TOOL_OUTPUT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters cut]`;
}

/** Loads what `read_skill` was asked for: an available bundled id, else a skill_spec in the skills root. */
export async function loadSkillRef(ref: string, skillsDir: string | undefined): Promise<LoadedSkill> {
  if (findBundledSkill(ref)) {
    if (!isBundledSkillAvailable(ref)) throw new SkillError('skill_not_found', `bundled skill "${ref}" is not available on this server`);
    return loadBundledSkill(ref);
  }
  if (!ref.includes(':')) throw new SkillError('skill_not_found', `no skill "${ref}": use a listed skill id or owner/repo:skill-name`);
  return resolveSkillSpec(skillsDir, ref);
}

export class ToolBox {
  readonly #options: ToolBoxOptions;

  constructor(options: ToolBoxOptions) {
    this.#options = options;
  }

  /** Function definitions for the request: read_skill first (when skills exist), then MCP tools. */
  definitions(): ChatTool[] {
    const tools: ChatTool[] = [];
    if (this.#options.skills.length > 0) tools.push(readSkillDefinition(this.#options.skills));
    tools.push(publishArtifactDefinition(this.#options.artifacts.limits.maxFileBytes));
    for (const provider of this.#options.providers ?? []) tools.push(...provider.definitions());
    for (const tool of this.#options.mcp.tools) {
      tools.push({
        type: 'function',
        function: {
          name: tool.functionName,
          description: tool.description ?? `Tool ${tool.name} of the MCP server ${tool.server}.`,
          parameters: tool.inputSchema,
        },
      });
    }
    return tools;
  }

  /** The function name a recorded action had (resume): read_skill, or the MCP tool's current name. */
  functionNameFor(action: { category: string; name: string }): string {
    if (action.category === 'skill') return READ_SKILL;
    if (action.category === PUBLISH_CATEGORY && action.name === PUBLISH_ARTIFACT) return PUBLISH_ARTIFACT;
    for (const provider of this.#options.providers ?? []) {
      const name = provider.functionNameFor(action);
      if (name) return name;
    }
    return this.#options.mcp.tools.find((t) => t.name === action.name)?.functionName ?? action.name.replace(/[^A-Za-z0-9_-]/g, '_');
  }

  async prepare(call: ChatToolCall): Promise<PreparedCall> {
    const parsed = parseArguments(call.function.arguments);
    if (call.function.name === READ_SKILL) return this.#prepareReadSkill(call, parsed);
    if (call.function.name === PUBLISH_ARTIFACT) return this.#preparePublish(call, parsed);
    for (const provider of this.#options.providers ?? []) {
      const prepared = provider.prepare(call, parsed);
      if (prepared) return prepared;
    }

    const tool = this.#options.mcp.find(call.function.name);
    const action: ActionBlock = {
      type: 'action',
      id: call.id,
      category: 'integration',
      name: tool?.name ?? call.function.name,
      input: parsed.ok ? parsed.value : { [UNPARSED_ARGUMENTS]: call.function.arguments },
    };
    const fail = (message: string) => failed(action, message);
    if (!tool) return { call, action, execute: async () => fail(`There is no tool named ${call.function.name}.`) };
    if (!parsed.ok) return { call, action, execute: async () => fail(parsed.error) };
    return {
      call,
      action,
      execute: async (signal) => {
        const result = await this.#options.mcp.call(call.function.name, parsed.value, { signal, timeoutMs: this.#options.toolTimeoutMs() });
        const text = truncate(result.text);
        return {
          result: {
            type: 'action_result',
            action_id: action.id,
            category: action.category,
            name: action.name,
            state: result.isError ? 'failed' : 'completed',
            output: { text },
          },
          content: result.isError ? `Error: ${text}` : text,
        };
      },
    };
  }

  #preparePublish(call: ChatToolCall, parsed: ParsedArguments): PreparedCall {
    const action: ActionBlock = {
      type: 'action',
      id: call.id,
      category: PUBLISH_CATEGORY,
      name: PUBLISH_ARTIFACT,
      input: parsed.ok ? recordedPublishInput(parsed.value) : { [UNPARSED_ARGUMENTS]: call.function.arguments.slice(0, MAX_TOOL_OUTPUT_CHARS) },
    };
    const refused = (reason: string, artifactType?: string): ToolOutcome => ({
      ...failed(action, reason),
      events: [artifactRejectedEvent(reason, artifactType ? { artifact_type: artifactType } : {})],
    });
    if (!parsed.ok) return { call, action, execute: async () => refused(parsed.error) };
    const request = parseArtifactRequest(parsed.value, 'any');
    if (!request.ok) return { call, action, execute: async () => refused(request.reason, request.artifact_type) };
    return {
      call,
      action,
      execute: async () => {
        const outcome = await this.#options.artifacts.publish(request.candidate);
        if (outcome.status !== 'published')
          return refused(outcome.status === 'rejected' ? outcome.reason : 'already published', request.candidate.artifact_type);
        const content = JSON.stringify(outcome.item);
        return {
          result: { type: 'action_result', action_id: action.id, category: action.category, name: action.name, state: 'completed', output: outcome.item },
          content,
          events: [artifactEvent(outcome.item)],
        };
      },
    };
  }

  async #prepareReadSkill(call: ChatToolCall, parsed: ParsedArguments): Promise<PreparedCall> {
    const requested = parsed.ok && typeof parsed.value.skill === 'string' ? parsed.value.skill.trim() : undefined;
    if (!requested) {
      const action: ActionBlock = { type: 'action', id: call.id, category: 'skill', name: READ_SKILL, input: { name: '' } };
      const why = parsed.ok ? 'read_skill needs {"skill": "<skill id or owner/repo:skill>"}' : parsed.error;
      return { call, action, execute: async () => failed(action, why) };
    }
    let skill: LoadedSkill;
    try {
      skill = await loadSkillRef(requested, this.#options.skillsDir);
    } catch (err) {
      const action: ActionBlock = { type: 'action', id: call.id, category: 'skill', name: READ_SKILL, input: { name: requested } };
      const message = err instanceof SkillError ? err.message : `the skill could not be read: ${String(err)}`;
      return { call, action, execute: async () => failed(action, message) };
    }
    const action = skillAction(call.id, skill);
    return { call, action, execute: async () => skillLoaded(action, skill) };
  }
}

/** The `action` block of a skill load (also used for the skill_spec load at run start). */
export function skillAction(id: string, skill: LoadedSkill): ActionBlock {
  return { type: 'action', id, category: 'skill', name: READ_SKILL, input: readSkillActionInput(skill) };
}

export function skillLoaded(action: ActionBlock, skill: LoadedSkill): ToolOutcome {
  const content = truncate(skill.content);
  return {
    result: { type: 'action_result', action_id: action.id, category: action.category, name: action.name, state: 'completed', output: { text: content } },
    content,
  };
}

export function failed(action: ActionBlock, message: string): ToolOutcome {
  return {
    result: { type: 'action_result', action_id: action.id, category: action.category, name: action.name, state: 'failed', output: { text: message } },
    content: `Error: ${message}`,
  };
}

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parseArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: 'The tool arguments must be a JSON object.' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, error: 'The tool arguments are not valid JSON.' };
  }
}

/**
 * publish_artifact's input as the conversation records it: the content itself is not repeated (it is the
 * artifact's), only its size, so a large file does not bloat the run's events.
 */
function recordedPublishInput(args: Record<string, unknown>): Record<string, unknown> {
  const { content, content_base64, ...rest } = args;
  if (typeof content === 'string') rest['content'] = `[${Buffer.byteLength(content)} bytes, published as the artifact]`;
  if (typeof content_base64 === 'string') rest['content_base64'] = `[${content_base64.length} base64 characters, published as the artifact]`;
  return rest;
}

function publishArtifactDefinition(maxFileBytes: number): ChatTool {
  return {
    type: 'function',
    function: {
      name: PUBLISH_ARTIFACT,
      description:
        'Publish a result of this run for the people and systems that started it, without them reading the whole conversation: ' +
        'a pull request or another link you created, a file or image you produced, or your plan. ' +
        `Files take content (text) or content_base64 (bytes), at most ${maxFileBytes} bytes. Links are stored, never opened.`,
      parameters: {
        type: 'object',
        properties: {
          artifact_type: {
            type: 'string',
            enum: ['PULL_REQUEST', 'EXTERNAL_REFERENCE', 'FILE', 'SCREENSHOT', 'PLAN'],
            description:
              'PULL_REQUEST (url, branch), EXTERNAL_REFERENCE (url, reference_type), FILE (filename, content or content_base64), SCREENSHOT (filename, content_base64 of a PNG, JPEG, GIF or WebP), PLAN (content: Markdown).',
          },
          url: { type: 'string', description: 'http(s) URL of the pull request or reference.' },
          branch: { type: 'string', description: 'PULL_REQUEST: the branch.' },
          reference_type: { type: 'string', description: 'EXTERNAL_REFERENCE: its kind, e.g. linear_issue, spec_link.' },
          metadata: { type: 'object', description: 'EXTERNAL_REFERENCE: extra fields.' },
          filename: { type: 'string', description: 'FILE, SCREENSHOT: a plain file name such as report.md.' },
          content: { type: 'string', description: 'FILE or PLAN: the text.' },
          content_base64: { type: 'string', description: 'FILE or SCREENSHOT: the bytes, base64.' },
          title: { type: 'string', description: 'A short label.' },
          description: { type: 'string', description: 'FILE, SCREENSHOT: what it shows.' },
        },
        required: ['artifact_type'],
        additionalProperties: false,
      },
    },
  };
}

function readSkillDefinition(skills: AdvertisedSkill[]): ChatTool {
  const list = skills.map((s) => `- ${s.ref}${s.description ? `: ${s.description}` : ''}`).join('\n');
  return {
    type: 'function',
    function: {
      name: READ_SKILL,
      description:
        'Load the full instructions of a skill. When a task matches a skill below, load it before doing the task and follow it.\n' +
        `Available skills:\n${list}`,
      parameters: {
        type: 'object',
        properties: {
          skill: {
            type: 'string',
            description: 'A skill from the list (its id), or a skill reference owner/repo:skill-name or owner/repo:path/to/SKILL.md.',
          },
        },
        required: ['skill'],
        additionalProperties: false,
      },
    },
  };
}
