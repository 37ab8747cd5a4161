/**
 * The `model` runner: an agent loop over an OpenAI-compatible Chat Completions provider.
 *
 *   prepare → (skill_spec, MCP servers, messages) → loop { take follow-ups → call model → record → run tools }
 *
 * Limits come from the resolved config (model-config.ts), as the contract words them: `max_turns` model
 * calls per step (turn) of the conversation and `run_timeout_seconds` per step — a follow-up that opens a
 * new turn starts both afresh — and `model_call_timeout_seconds` per attempt of one model call. What the conversation gets: the engine has
 * already recorded the prompt and every follow-up as user messages; this runner records the skill_spec
 * load (as a read_skill action), each assistant message (text and one `action` per tool call) and each
 * tool result (`action_result`, role `tool`), and calls `startTurn()` when it picks up follow-ups.
 *
 * Outcomes: SUCCEEDED when the model answers without tool calls and no follow-up waits; BLOCKED when it
 * calls `ask_user` (./ask-user.ts: its other calls of that answer run first); otherwise
 * FAILED/ERROR with a status message whose `retryable` is truthful (see `failure()` callers). Cancel and
 * shutdown abort the in-flight model request or tool call; every MCP connection is closed on the way out.
 */
import type { Settings } from '../../settings';
import { advertisedSkills, findBundledSkill } from '../../skills/catalog';
import { resolveSkillSpec, SkillError, type LoadedSkill } from '../../skills/resolve';
import { AbortedError, McpConnectError, McpSession } from '../mcp/session';
import type { ContentBlock, RunStatusMessage } from '../../runs/contract';
import type { RunContext, RunOutcome, Runner } from '../runner';
import { askUserDefinition, blockedOutcome, separateQuestions } from './ask-user';
import { commandEnvironment } from './command';
import { ChatCompletionsClient, ModelError, type ChatMessage, type RetryPolicy } from './model-client';
import { MAX_TIMER_SECONDS, modelLimits, timerMs } from './model-config';
import { attachmentParts, firstUserMessage, messagesFromHistory, SKILL_SPEC_ACTION_PREFIX, systemPrompt } from './model-messages';
import { skillAction, skillLoaded, ToolBox, type AdvertisedSkill } from './model-tools';
import { WorkspaceShell } from './workspace-shell';
import { WorkspaceTools } from './workspace-tools';
import { inSpan } from '../../telemetry/spans';

export interface ModelRunnerOptions {
  /** MODEL_BASE_URL, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** DEFAULT_MODEL_ID: used when the run's config has no model_id. */
  defaultModelId?: string;
  /** SKILLS_DIR: root of `skill_spec` references (`owner/repo/…`). */
  skillsDir?: string;
  retry?: Partial<RetryPolicy>;
  /** Time limit for starting every MCP server and listing its tools. */
  mcpConnectTimeoutMs?: number;
  /** Upper bound of one MCP tool call (also bounded by the rest of the run budget). */
  toolCallTimeoutMs?: number;
}

export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_CALL_TIMEOUT_MS = 300_000;

/** The runner options from the server settings (engine/runners/index.ts). */
export function modelRunnerOptions(settings: Pick<Settings, 'modelBaseUrl' | 'modelApiKey' | 'defaultModelId' | 'skillsDir'>): ModelRunnerOptions {
  if (!settings.modelBaseUrl) throw new Error('the model runner needs MODEL_BASE_URL');
  return {
    baseUrl: settings.modelBaseUrl,
    ...(settings.modelApiKey ? { apiKey: settings.modelApiKey } : {}),
    ...(settings.defaultModelId ? { defaultModelId: settings.defaultModelId } : {}),
    ...(settings.skillsDir ? { skillsDir: settings.skillsDir } : {}),
  };
}

export function createModelRunner(options: ModelRunnerOptions): Runner {
  return new ModelRunner(options);
}

const status = (message: string, error_code: string, retryable: boolean): RunStatusMessage => ({ message, error_code, retryable });

/** The time budget of the current turn (contract: run_timeout_seconds applies per step); restarted by follow-ups. */
class StepBudget {
  #timer: NodeJS.Timeout | undefined;
  #deadline = 0;
  constructor(
    private readonly ms: number,
    private readonly onExpire: () => void,
  ) {
    this.restart();
  }
  restart(): void {
    this.clear();
    this.#deadline = Date.now() + this.ms;
    this.#timer = setTimeout(this.onExpire, this.ms);
  }
  remainingMs(): number {
    return this.#deadline - Date.now();
  }
  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

export class ModelRunner implements Runner {
  readonly name = 'model' as const;
  readonly #options: ModelRunnerOptions;
  readonly #client: ChatCompletionsClient;

  constructor(options: ModelRunnerOptions) {
    this.#options = options;
    this.#client = new ChatCompletionsClient({
      baseUrl: options.baseUrl,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  }

  #gatewayClient(gateway: NonNullable<RunContext['modelGateway']>['client']): ChatCompletionsClient {
    return new ChatCompletionsClient({ ...gateway, ...(this.#options.retry ? { retry: this.#options.retry } : {}) });
  }

  async run(ctx: RunContext): Promise<RunOutcome> {
    const limits = modelLimits(ctx.config);

    // One signal for everything this execution does: cancel/shutdown (ctx.signal) or the time budget.
    const execution = new AbortController();
    let timedOut = false;
    const budget = new StepBudget(timerMs(limits.run_timeout_seconds), () => {
      timedOut = true;
      execution.abort();
    });
    const onCancel = () => execution.abort();
    if (ctx.signal.aborted) execution.abort();
    ctx.signal.addEventListener('abort', onCancel, { once: true });
    const signal = execution.signal;

    const failure = (state: 'FAILED' | 'ERROR', message: RunStatusMessage): RunOutcome => ({ state, statusMessage: message });
    const stopped = (): RunOutcome =>
      timedOut && !ctx.signal.aborted
        ? failure('FAILED', status(`The run did not finish its turn within run_timeout_seconds (${limits.run_timeout_seconds} s).`, 'run_timeout', false))
        : // The engine decides what a cancel or shutdown means for the run; this only reports it.
          failure('ERROR', status('The run was stopped (cancelled or the server is shutting down).', 'run_cancelled', true));

    let mcp = McpSession.empty();
    const shell = new WorkspaceShell({ sandbox: ctx.sandbox, env: commandEnvironment(ctx), lifetimeMs: timerMs(MAX_TIMER_SECONDS) });
    // The model calls go through the model gateway where the engine runs one (metered, budget-checked there).
    const client = ctx.modelGateway ? this.#gatewayClient(ctx.modelGateway.client) : this.#client;
    try {
      const model = ctx.config.model_id ?? this.#options.defaultModelId;
      if (!model) {
        return failure('FAILED', status('No model selected: set config.model_id or the server setting DEFAULT_MODEL_ID.', 'model_not_configured', false));
      }

      let skill: LoadedSkill | undefined;
      if (ctx.config.skill_spec) {
        try {
          skill = await resolveSkillSpec(this.#options.skillsDir, ctx.config.skill_spec);
        } catch (err) {
          if (!(err instanceof SkillError)) throw err;
          return failure('FAILED', status(err.message, err.code === 'invalid_skill_spec' ? 'invalid_skill_spec' : 'skill_not_found', false));
        }
      }

      try {
        mcp = await McpSession.connect(ctx.config.mcp_servers ?? {}, {
          sandbox: ctx.sandbox,
          // A stdio server lives as long as the run's execution; the runner closes it at the end.
          processTimeoutMs: timerMs(MAX_TIMER_SECONDS),
          env: ctx.env,
          signal,
          connectTimeoutMs: this.#options.mcpConnectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
          log: ctx.log,
        });
      } catch (err) {
        if (err instanceof McpConnectError) {
          return failure('FAILED', status(err.message, 'integration_not_configured', err.retryable));
        }
        throw err;
      }

      const skills: AdvertisedSkill[] = advertisedSkills(ctx.config).map((ref) => {
        const description = findBundledSkill(ref)?.description ?? (ref === ctx.config.skill_spec ? skill?.description : undefined);
        return description ? { ref, description } : { ref };
      });
      const toolTimeoutMs = () => Math.max(1, Math.min(this.#options.toolCallTimeoutMs ?? DEFAULT_TOOL_CALL_TIMEOUT_MS, budget.remainingMs()));
      const tools = new ToolBox({
        mcp,
        skillsDir: this.#options.skillsDir,
        skills,
        toolTimeoutMs,
        artifacts: ctx.artifacts,
        providers: [new WorkspaceTools({ shell, workspacePath: ctx.sandbox.workspacePath, toolTimeoutMs })],
      });

      const messages: ChatMessage[] = [];
      const system = systemPrompt(ctx.config.base_prompt, skill);
      if (system) messages.push({ role: 'system', content: system });
      if (ctx.input.kind === 'initial') {
        messages.push(firstUserMessage(ctx.input.prompt, ctx.attachments, ctx.workDir));
        if (skill) {
          // The skill_spec load is a read_skill action like any other (its content is in the system prompt).
          const action = skillAction(`${SKILL_SPEC_ACTION_PREFIX}${ctx.runId}`, skill);
          await ctx.conversation.append('assistant', [action]);
          await ctx.conversation.append('tool', [skillLoaded(action, skill).result]);
        }
      } else {
        // The follow-ups in ctx.input are already recorded (in the turn the writer points at); add them for the model.
        messages.push(...messagesFromHistory(ctx.history, (a) => tools.functionNameFor(a), { parts: attachmentParts(ctx.attachments, ctx.workDir) }));
        for (const message of ctx.input.messages) messages.push({ role: 'user', content: message });
      }

      const definitions = [...tools.definitions(), askUserDefinition()];
      let callsThisTurn = 0;
      for (;;) {
        const followups = await ctx.inbox.take();
        if (followups.length > 0) {
          await ctx.conversation.startTurn();
          for (const message of followups) messages.push({ role: 'user', content: message });
          callsThisTurn = 0;
          budget.restart();
        }
        if (callsThisTurn >= limits.max_turns) {
          return failure(
            'FAILED',
            status(`The agent did not finish within max_turns (${limits.max_turns} model calls in one turn).`, 'max_turns_exceeded', false),
          );
        }

        callsThisTurn++;
        await ctx.usage.assertWithinBudget();
        const answer = await client.complete(
          { model, messages, ...(definitions.length > 0 ? { tools: definitions } : {}) },
          {
            signal,
            timeoutMs: timerMs(limits.model_call_timeout_seconds),
            onRetry: ({ attempt, delayMs, error }) =>
              ctx.log.warn({ attempt, delayMs, status: error.status, err: error.message }, 'model call failed; retrying'),
          },
        );
        // Through the gateway, the gateway has counted it.
        if (answer.usage && !ctx.modelGateway) await ctx.usage.add(answer.usage, model);

        const asked = separateQuestions(answer.toolCalls);
        const prepared = await Promise.all(asked.otherCalls.map((call) => tools.prepare(call)));
        const blocks: ContentBlock[] = [];
        if (answer.content) blocks.push({ type: 'text', text: answer.content });
        for (const p of prepared) blocks.push(p.action);
        if (asked.question) blocks.push({ type: 'text', text: asked.question });
        if (blocks.length > 0) await ctx.conversation.append('assistant', blocks);
        messages.push(
          answer.toolCalls.length > 0
            ? { role: 'assistant', content: answer.content || null, tool_calls: answer.toolCalls }
            : { role: 'assistant', content: answer.content },
        );

        if (answer.toolCalls.length === 0) {
          const late = await ctx.inbox.take();
          if (late.length === 0) return { state: 'SUCCEEDED' };
          await ctx.conversation.startTurn();
          for (const message of late) messages.push({ role: 'user', content: message });
          callsThisTurn = 0;
          budget.restart();
          continue;
        }
        for (const p of prepared) {
          const outcome = await inSpan('tool call', { 'gen_ai.tool.name': p.call.function.name, 'gen_ai.tool.call.id': p.call.id }, () => p.execute(signal));
          await ctx.conversation.append('tool', [outcome.result, ...(outcome.events ?? [])]);
          messages.push({ role: 'tool', tool_call_id: p.call.id, content: outcome.content });
        }
        if (asked.question) return blockedOutcome(asked.question);
        for (const r of asked.refused) messages.push({ role: 'tool', tool_call_id: r.callId, content: r.content });
      }
    } catch (err) {
      if (signal.aborted || err instanceof AbortedError || (err instanceof ModelError && err.kind === 'aborted')) return stopped();
      if (err instanceof ModelError) {
        switch (err.kind) {
          case 'rejected':
            return failure('FAILED', status(`The model provider rejected the request: ${err.message}.`, 'model_request_rejected', false));
          case 'rate_limited':
            return failure('ERROR', status(`The model provider kept rate limiting the run: ${err.message}.`, 'model_rate_limited', true));
          default:
            return failure('ERROR', status(`The model provider is unavailable: ${err.message}.`, 'model_unavailable', true));
        }
      }
      throw err;
    } finally {
      budget.clear();
      ctx.signal.removeEventListener('abort', onCancel);
      await Promise.all([mcp.close(ctx.log), shell.close()]);
    }
  }
}
