/**
 * A RunContext for driving a runner directly: in-memory conversation writer and follow-up inbox, a temp
 * working directory, a silent logger and an AbortController standing in for cancel. (The DB-backed
 * writer is the engine's; at this level the runner is the unit.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { ArtifactCandidate, ArtifactItem, ArtifactPublisher, PublishOutcome } from '../../../src/artifacts/service';
import { createSandbox } from '../../../src/engine/sandbox';
import { loadSettings } from '../../../src/settings';
import type {
  ContentBlock,
  ConversationTurn,
  ConversationWriter,
  FollowupInbox,
  ResolvedAgentConfig,
  RunInput,
  RunRole,
  TokenUsage,
} from '../../../src/runs/contract';
import type { RunAttachment, RunContext } from '../../../src/engine/runner';
import type { UsageRecorder } from '../../../src/budgets/usage-recorder';

export interface RecordedMessage {
  turn: number;
  role: RunRole;
  content: ContentBlock[];
}

export class MemoryConversation implements ConversationWriter {
  readonly messages: RecordedMessage[] = [];
  turn = 1;
  /** Called on every append (tests use it to act at a precise moment). */
  onAppend: ((message: RecordedMessage) => void) | undefined;

  async append(role: RunRole, content: ContentBlock[]): Promise<void> {
    const message = { turn: this.turn, role, content };
    this.messages.push(message);
    this.onAppend?.(message);
  }

  async startTurn(): Promise<void> {
    this.turn++;
  }

  blocks(): ContentBlock[] {
    return this.messages.flatMap((m) => m.content);
  }

  actions(): Array<Extract<ContentBlock, { type: 'action' }>> {
    return this.blocks().filter((b): b is Extract<ContentBlock, { type: 'action' }> => b.type === 'action');
  }

  results(): Array<Extract<ContentBlock, { type: 'action_result' }>> {
    return this.blocks().filter((b): b is Extract<ContentBlock, { type: 'action_result' }> => b.type === 'action_result');
  }
}

export class MemoryInbox implements FollowupInbox {
  #pending: string[] = [];
  push(...messages: string[]): void {
    this.#pending.push(...messages);
  }
  async take(): Promise<string[]> {
    const taken = this.#pending;
    this.#pending = [];
    return taken;
  }
}

export class MemoryUsage implements UsageRecorder {
  /** Each add, in order. */
  readonly added: TokenUsage[] = [];

  async add(usage: TokenUsage): Promise<void> {
    this.added.push(usage);
  }

  /** No budget here: budgets are tested through the server (test/budgets/). */
  async assertWithinBudget(): Promise<void> {}

  /** The sum of everything added; undefined before the first add. */
  get total(): TokenUsage | undefined {
    if (this.added.length === 0) return undefined;
    const sum = (key: 'prompt_tokens' | 'completion_tokens' | 'total_tokens') => this.added.reduce((n, u) => n + u[key], 0);
    return { prompt_tokens: sum('prompt_tokens'), completion_tokens: sum('completion_tokens'), total_tokens: sum('total_tokens') };
  }
}

/** Publishes into memory: every candidate is published (links and files alike), in order. */
export class MemoryArtifacts implements ArtifactPublisher {
  readonly published: ArtifactCandidate[] = [];
  readonly limits = { maxFiles: 100, maxFileBytes: 1024 * 1024 };

  async publish(candidate: ArtifactCandidate): Promise<PublishOutcome> {
    this.published.push(candidate);
    const created_at = '2026-11-27T00:00:00.000Z';
    const item: ArtifactItem =
      candidate.artifact_type === 'PULL_REQUEST'
        ? { artifact_type: 'PULL_REQUEST', created_at, data: { url: candidate.url, branch: candidate.branch } }
        : candidate.artifact_type === 'EXTERNAL_REFERENCE'
          ? { artifact_type: 'EXTERNAL_REFERENCE', created_at, data: { url: candidate.url, reference_type: candidate.reference_type } }
          : {
              artifact_type: 'FILE',
              created_at,
              data: {
                artifact_uid: `art-${this.published.length}`,
                filepath: candidate.filepath,
                filename: candidate.filepath,
                mime_type: 'application/octet-stream',
              },
            };
    return { status: 'published', item };
  }
}

export interface TestRun {
  ctx: RunContext;
  conversation: MemoryConversation;
  inbox: MemoryInbox;
  usage: MemoryUsage;
  artifacts: MemoryArtifacts;
  cancel: AbortController;
  workDir: string;
  cleanup(): void;
}

export function buildRunContext(
  options: {
    config?: ResolvedAgentConfig;
    input?: RunInput;
    prompt?: string;
    history?: ConversationTurn[];
    attachments?: RunAttachment[];
    env?: Record<string, string>;
    /** SANDBOX for the run's processes (default `none`: the runner is the unit here; docs/sandbox.md has its own tests). */
    sandbox?: 'bwrap' | 'none';
    /** More sandbox settings, e.g. { SANDBOX_ALLOWED_HOSTS: '127.0.0.1:4567' } for a local MCP server. */
    sandboxEnv?: Record<string, string>;
  } = {},
): TestRun {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-run-'));
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-data-'));
  const sandbox = createSandbox(loadSettings({ DATA_DIR: dataDir, SANDBOX: options.sandbox ?? 'none', ...options.sandboxEnv }), log).forRun(
    '11111111-2222-4333-8444-555555555555',
    workDir,
  );
  for (const a of options.attachments ?? []) fs.writeFileSync(path.join(workDir, a.fileName), a.data);
  const conversation = new MemoryConversation();
  const inbox = new MemoryInbox();
  const usage = new MemoryUsage();
  const artifacts = new MemoryArtifacts();
  const cancel = new AbortController();
  const ctx: RunContext = {
    runId: '11111111-2222-4333-8444-555555555555',
    teamId: 'team_test',
    title: 'test run',
    source: 'API',
    factoryId: null,
    deliveryId: null,
    config: options.config ?? { model_id: 'test-model' },
    input: options.input ?? { kind: 'initial', prompt: options.prompt ?? 'Say hello.' },
    history: options.history ?? [],
    attachments: options.attachments ?? [],
    workDir,
    env: options.env ?? {},
    sandbox,
    inbox,
    conversation,
    usage,
    artifacts,
    signal: cancel.signal,
    log,
  };
  return {
    ctx,
    conversation,
    inbox,
    usage,
    artifacts,
    cancel,
    workDir,
    cleanup: () => {
      void sandbox.close();
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
