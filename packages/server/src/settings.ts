/**
 * Every setting the server reads, parsed and typed in one place (names and defaults:
 * docs/wire.md §Operating the server). Nothing else reads process.env.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { repositoryRoot } from './package-root';

export type RunnerName = 'echo' | 'command' | 'model';

/** What one process serves (ROLE; docs/architecture.md §Several processes). */
export const PROCESS_ROLES = ['api', 'ingress', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

export interface Settings {
  /** ROLE: `api` (REST API, dashboard, event streams), `ingress` (webhook ingress), `worker` (run engine); `all` is every one. */
  roles: ReadonlySet<ProcessRole>;
  port: number;
  host: string;
  /** Separate ingress listener; undefined = the ingress shares the REST listener. */
  ingressPort: number | undefined;
  /** Host root clients reach the API at (no /api/v1, no trailing slash). */
  publicBaseUrl: string;
  /** Host root webhook senders reach the ingress at. */
  publicIngressUrl: string;
  databaseUrl: string;
  /** Directory for the SQLite file, the generated secrets key and run working directories. */
  dataDir: string;
  /** base64 of 32 bytes; undefined = SQLite key file in dataDir (PostgreSQL requires it). */
  secretsKey: string | undefined;
  bootstrapAdminKey: string | undefined;
  /**
   * TRUST_PROXY: the proxies (`address/prefix` ranges) whose X-Forwarded-For names who sent a request
   * (http/client-address.ts); empty = none, the TCP peer is the sender.
   */
  trustProxy: readonly string[];
  /** Bearer token scrapers present at /metrics; unset: loopback clients only (http/metrics-access.ts). */
  metricsToken: string | undefined;
  /** OpenTelemetry traces from the standard OTEL_* variables (telemetry/); undefined = off. */
  tracing: TracingSettings | undefined;
  runner: RunnerName;
  agentCommand: string | undefined;
  modelBaseUrl: string | undefined;
  modelApiKey: string | undefined;
  defaultModelId: string | undefined;
  /** MODEL_PRICES: USD per million tokens by model id (docs/decisions.md §Budgets and usage); empty = no costs. */
  modelPrices: ModelPrices;
  /** Where the model gateway forwards each protocol with the operator's keys (engine/gateway; docs/decisions.md §The model gateway). */
  modelProviders: ModelProviders;
  skillsDir: string | undefined;
  /** HARNESSES_DIR: the pinned installs of third-party harness CLIs (`pnpm harnesses:install`; engine/harnesses/catalog.ts). */
  harnessesDir: string;
  /** Vite's build of packages/dashboard (index.html, assets/…), served at `/` (http/dashboard.ts). */
  dashboardDir: string;
  echoDelayMs: number;
  workerConcurrency: number;
  /**
   * Runs of one team that may hold a worker at once, over every process on the database (runs/fair-claim.ts);
   * below the default WORKER_CONCURRENCY, so one team never fills a default worker process.
   */
  teamMaxConcurrentRuns: number;
  /** The largest `run_timeout_seconds` a configuration may ask for (runs/config.ts). */
  runTimeoutMaxSeconds: number;
  logLevel: string;
  /** How every process a run causes is isolated (docs/sandbox.md). */
  sandbox: SandboxSettings;
  /** Environment images (docs/sandbox.md §Image root). */
  images: ImageSettings;
  /** Listener protection against slow and greedy clients. */
  connections: {
    /** Time a client has to send a request's headers (node:http headersTimeout). */
    headersTimeoutSeconds: number;
    /** Time a client has to send a whole request, body included (node:http requestTimeout). */
    requestTimeoutSeconds: number;
    /** Concurrent connections one remote address may hold on a listener. */
    maxPerAddress: number;
    /** Open `GET …/events` streams one API key may hold at once (then 429). */
    sseStreamsPerKey: number;
    /** How often open event streams' keys are checked; a revoked key's streams end within it. */
    sseKeyRecheckSeconds: number;
  };
  /** Time windows: each is a setting whose default is the seed's value. */
  windows: {
    idempotencySeconds: number;
    /** An Idempotency-Key whose first request has not answered after this long is treated as abandoned. */
    idempotencyInFlightSeconds: number;
    leaseSeconds: number;
    heartbeatSeconds: number;
    sweepIntervalSeconds: number;
    /** A BLOCKED run unanswered this long ends FAILED `blocked_timeout` (runs/blocked.ts). */
    blockedTimeoutSeconds: number;
    rateLimitWindowSeconds: number;
    signatureToleranceSeconds: number;
    deliveryRetentionDays: number;
    /** Days a run's working directory outlives the run's last change once it is terminal. */
    runWorkDirRetentionDays: number;
    retentionIntervalSeconds: number;
    /** `: keepalive` comment interval of SSE streams. */
    sseKeepaliveSeconds: number;
    /** Window of the per-API-key REST request budget. */
    restRateWindowSeconds: number;
    /** How often the scheduler of a worker process compares the clock with the nearest slot it knows (engine/scheduler.ts). */
    schedulerIntervalSeconds: number;
    /** How often it reads the nearest slot again although none is due: schedules created or changed by other processes. */
    schedulerRefreshSeconds: number;
    /** How long a transcript download URL (getRunTranscript's redirect) stays valid. */
    transcriptUrlSeconds: number;
    /** How long the model provider's model list (listModels) is kept before it is asked again. */
    modelListCacheSeconds: number;
    /** How long listModels waits for the model provider's list. */
    modelListTimeoutSeconds: number;
  };
  /** Outbound notifications of run events (notifications/; docs/decisions.md §Outbound notifications). */
  notifications: NotificationSettings;
  /** The audit log (audit/; docs/decisions.md §The audit log). */
  audit: {
    /** Days an audit event is kept (AUDIT_RETENTION_DAYS). */
    retentionDays: number;
  };
  limits: {
    deliveriesPerWindow: number;
    authFailuresPerWindow: number;
    deliveryRetentionMinimum: number;
    maxDeliveryBytes: number;
    webhooksPerFactory: number;
    /** Largest JSON body the REST API reads (attachments travel base64 inside it). */
    restMaxBodyBytes: number;
    /** REST requests one API key may make per `windows.restRateWindowSeconds` (then 429). */
    restRequestsPerWindow: number;
    /** Scheduled agents one team may have (then 409 limit_exceeded). */
    schedulesPerTeam: number;
    apiKeysPerTeam: number;
    /** What one run may append to its conversation over all its executions (RUN_OUTPUT_LIMIT_MB; then FAILED `output_limit`). */
    runOutputBytes: number;
    /** The closest two slots of a schedule may come (a tenant cannot flood the workers). */
    scheduleMinIntervalSeconds: number;
  };
  /** GITHUB_BASE_URL: where `github_repos` are cloned from (github.com or a GitHub Enterprise Server); no trailing slash. */
  githubBaseUrl: string;
  /** What a run may publish (docs/decisions.md §Artifacts). */
  artifacts: {
    /** Artifacts one run may publish over all its executions. */
    maxPerRun: number;
    /** Largest file, screenshot or plan. */
    maxFileBytes: number;
    /** Bytes of files, screenshots and plans one run may publish over all its executions. */
    maxBytesPerRun: number;
    /** How long a signed download URL works. */
    downloadUrlSeconds: number;
  };
}

export interface NotificationSettings {
  /** NOTIFICATIONS_ALLOWED_HOSTS (egress syntax): plain http for these hosts; an exact IP also opens an internal address. */
  allowedHosts: string[];
  /** Time an attempt may take until the answer's headers (and the excerpt of its body). */
  timeoutSeconds: number;
  /** First retry delay; doubles per attempt up to `retryMaxDelaySeconds` (with jitter). */
  retryBaseSeconds: number;
  retryMaxDelaySeconds: number;
  /** An event is retried until this long after its state change (or its replay), then given up. */
  retryWindowHours: number;
  /** A subscription whose attempts all failed for this long is disabled (`disabled_reason: failing`). */
  disableAfterDays: number;
  /** After a rotation, the previous secret keeps signing (a second signature) this long. */
  secretOverlapHours: number;
  /** Attempts log entries and finished events are kept this long. */
  retentionDays: number;
  /** Bytes of a receiver's answer kept in the attempts log. */
  responseExcerptBytes: number;
  /** Attempts in flight at once per process. */
  concurrency: number;
  subscriptionsPerTeam: number;
}

export type SandboxMode = 'bwrap' | 'none';
export type SandboxNetwork = 'none' | 'allowlist' | 'open';

export interface SandboxSettings {
  /** `bwrap` (default; runs that need a process fail `sandbox_unavailable` without bubblewrap) or `none`. */
  mode: SandboxMode;
  /** Egress of sandboxed processes and of the server's requests on a run's behalf. */
  network: SandboxNetwork;
  /** SANDBOX_ALLOWED_HOSTS: `host`, `*.example.com`, `host:port`, an exact IP (with optional port). */
  allowedHosts: string[];
  memoryBytes: number;
  maxProcesses: number;
  cpuSeconds: number;
  /** Output a run may record (stdout + stderr) before it is stopped. */
  outputBytes: number;
  /** Size of a run's workspace disk (SANDBOX_DISK_MB); 0: none. */
  diskBytes: number;
  /** Host uid and gid sandboxed processes run as when the server runs as root (SANDBOX_HOST_UID). */
  hostUid: number;
  /** The server's PATH: where `bwrap` and `socat` are looked up (and what SANDBOX=none hands a run). */
  searchPath: string;
  /** LANG and TERM a sandboxed process gets (the server's, or C.UTF-8 and dumb). */
  lang: string;
  term: string;
}

export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}
export type ModelPrices = ReadonlyMap<string, ModelPrice>;
export interface ImageSettings {
  /**
   * IMAGE_REGISTRIES: the registries images may come from (`host`, `host:port`, an exact IP with a port;
   * `http://…` for a registry spoken to over plain HTTP). `none` allows none.
   */
  registries: string[];
  /** IMAGE_CACHE_MB: unpacked images kept under DATA_DIR/images beyond those in use, least recently used evicted. */
  cacheBytes: number;
}

/** Public registries a run's image may come from unless the operator says otherwise. */
export const DEFAULT_IMAGE_REGISTRIES = ['docker.io', 'ghcr.io', 'quay.io', 'gcr.io', 'public.ecr.aws', 'registry.gitlab.com'];
export type ModelProviderName = 'openai' | 'anthropic' | 'gemini';
export interface ModelProvider {
  /**
   * Where the operator's traffic goes, with the operator's key (none: a provider that needs none); undefined
   * when the operator configured no such provider. OpenAI's base ends in `/v1` (as MODEL_BASE_URL),
   * Anthropic's and Gemini's are the host roots their SDKs take.
   */
  operator: { baseUrl: string; apiKey: string | undefined } | undefined;
  /** Where a team's own key (harness_auth_secrets) goes: the provider's URL setting or its public API, never MODEL_BASE_URL. */
  teamBaseUrl: string;
}
export type ModelProviders = Record<ModelProviderName, ModelProvider>;

type Env = Readonly<Record<string, string | undefined>>;

export class SettingsError extends Error {}

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new SettingsError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new SettingsError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function list(env: Env, name: string): string[] {
  return (optional(env, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** TRUST_PROXY: comma-separated IP addresses and CIDR ranges, each returned as `address/prefix`. */
function trustedProxyRanges(env: Env): string[] {
  return list(env, 'TRUST_PROXY').map((entry) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    if (family === 0 || rest.length > 0 || !(length >= 0 && length <= bits)) {
      throw new SettingsError(`TRUST_PROXY must list IP addresses or CIDR ranges (e.g. 10.0.0.0/8, 2001:db8::/32), got "${entry}"`);
    }
    return `${address}/${length}`;
  });
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const value = optional(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new SettingsError(`${name} must be an absolute http(s) URL, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SettingsError(`${name} must be an http(s) URL, got "${value}"`);
  return trimSlash(value);
}

export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces` (OTLP/HTTP, JSON). */
  endpoint: string;
  /** OTEL_SERVICE_NAME (default `agent-runs`). */
  serviceName: string;
  sampler: (typeof TRACE_SAMPLERS)[number];
  /** OTEL_TRACES_SAMPLER_ARG: the ratio of the `…traceidratio` samplers (default 1). */
  samplerRatio: number;
}

/** Tracing is on only when an OTLP endpoint is named and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none turns it off. */
function tracingSettings(env: Env): TracingSettings | undefined {
  if (optional(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporter = optional(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp';
  if (exporter === 'none') return undefined;
  if (exporter !== 'otlp') throw new SettingsError(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  const base = optional(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = optional(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
    ? httpUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '')
    : base
      ? `${httpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', '')}/v1/traces`
      : undefined;
  if (endpoint === undefined) return undefined;
  const ratioText = optional(env, 'OTEL_TRACES_SAMPLER_ARG') ?? '1';
  const samplerRatio = Number(ratioText);
  if (!/^\d*\.?\d+$/.test(ratioText) || samplerRatio > 1)
    throw new SettingsError(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got "${ratioText}"`);
  return {
    endpoint,
    serviceName: optional(env, 'OTEL_SERVICE_NAME') ?? 'agent-runs',
    sampler: oneOf(env, 'OTEL_TRACES_SAMPLER', TRACE_SAMPLERS, 'parentbased_always_on'),
    samplerRatio,
  };
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** ROLE: `all` (default) or a comma list of roles. */
function roles(env: Env): ReadonlySet<ProcessRole> {
  const raw = optional(env, 'ROLE') ?? 'all';
  if (raw.trim() === 'all') return new Set(PROCESS_ROLES);
  const named = list(env, 'ROLE');
  const unknown = named.filter((role) => !(PROCESS_ROLES as readonly string[]).includes(role));
  if (named.length === 0 || unknown.length > 0) {
    throw new SettingsError(`ROLE must be all or a comma list of ${PROCESS_ROLES.join(', ')}, got "${raw}"`);
  }
  // In the canonical order, whatever order the list gave.
  return new Set(PROCESS_ROLES.filter((role) => named.includes(role)));
}

/** MODEL_PRICES: JSON `{"<model id>": {"input_per_mtok": <USD>, "output_per_mtok": <USD>}}`. */
function modelPrices(env: Env): ModelPrices {
  const raw = optional(env, 'MODEL_PRICES');
  const prices = new Map<string, ModelPrice>();
  if (raw === undefined) return prices;
  const fail = (why: string) =>
    new SettingsError(`MODEL_PRICES must be a JSON object {"<model id>": {"input_per_mtok": <USD>, "output_per_mtok": <USD>}}: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fail('not an object');
  for (const [model, price] of Object.entries(parsed)) {
    const { input_per_mtok: input, output_per_mtok: output } = (price ?? {}) as Record<string, unknown>;
    const valid = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (!valid(input) || !valid(output)) throw fail(`${model} needs input_per_mtok and output_per_mtok, numbers ≥ 0`);
    prices.set(model, { input_per_mtok: input, output_per_mtok: output });
  }
  return prices;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * The gateway's providers. OpenAI-compatible traffic goes to OPENAI_BASE_URL/OPENAI_API_KEY, and without
 * either to MODEL_BASE_URL/MODEL_API_KEY (the built-in agent's provider); the others to theirs when set.
 */
function modelProviders(env: Env): ModelProviders {
  const provider = (prefix: string, publicUrl: string, fallback?: { baseUrl: string; apiKey: string | undefined }): ModelProvider => {
    const ownUrl = optional(env, `${prefix}_BASE_URL`);
    const apiKey = optional(env, `${prefix}_API_KEY`);
    if (ownUrl !== undefined && !/^https?:\/\/[^/]/.test(ownUrl))
      throw new SettingsError(`${prefix}_BASE_URL must be an http:// or https:// URL, got "${ownUrl}"`);
    const teamBaseUrl = trimSlash(ownUrl ?? publicUrl);
    const operator = ownUrl !== undefined || apiKey !== undefined ? { baseUrl: teamBaseUrl, apiKey } : fallback;
    return { operator, teamBaseUrl };
  };
  const modelBaseUrl = optional(env, 'MODEL_BASE_URL');
  const modelProvider = modelBaseUrl ? { baseUrl: trimSlash(modelBaseUrl), apiKey: optional(env, 'MODEL_API_KEY') } : undefined;
  return {
    openai: provider('OPENAI', 'https://api.openai.com/v1', modelProvider),
    anthropic: provider('ANTHROPIC', 'https://api.anthropic.com'),
    gemini: provider('GEMINI', 'https://generativelanguage.googleapis.com'),
  };
}

/** Resolves `sqlite:<relative path>` against the repository root; leaves other URLs alone. */
function normalizeDatabaseUrl(url: string): string {
  if (!url.startsWith('sqlite:') || url === 'sqlite::memory:') return url;
  const file = url.slice('sqlite:'.length);
  return `sqlite:${path.resolve(repositoryRoot, file)}`;
}

export function loadSettings(env: Env = process.env): Settings {
  const port = integer(env, 'PORT', 8080);
  const ingressPort = env.INGRESS_PORT ? integer(env, 'INGRESS_PORT', 0) : undefined;
  const publicBaseUrl = trimSlash(optional(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`);
  const publicIngressUrl = trimSlash(
    optional(env, 'PUBLIC_INGRESS_URL') ?? (ingressPort !== undefined && !env.PUBLIC_BASE_URL ? `http://localhost:${ingressPort}` : publicBaseUrl),
  );
  const databaseUrl = normalizeDatabaseUrl(optional(env, 'DATABASE_URL') ?? 'sqlite:./data/agent-runs.sqlite');
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new SettingsError('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
  }
  const dataDir = path.resolve(repositoryRoot, optional(env, 'DATA_DIR') ?? 'data');

  const agentCommand = optional(env, 'AGENT_COMMAND');
  const modelBaseUrl = optional(env, 'MODEL_BASE_URL');
  const runnerSetting = optional(env, 'RUNNER');
  if (runnerSetting && !['echo', 'command', 'model'].includes(runnerSetting)) {
    throw new SettingsError(`RUNNER must be echo, command or model, got "${runnerSetting}"`);
  }
  const runner = (runnerSetting as RunnerName | undefined) ?? (modelBaseUrl ? 'model' : agentCommand ? 'command' : 'echo');
  if (runner === 'command' && !agentCommand) throw new SettingsError('RUNNER=command needs AGENT_COMMAND');
  if (runner === 'model' && !modelBaseUrl) throw new SettingsError('RUNNER=model needs MODEL_BASE_URL');

  const secretsKey = optional(env, 'SECRETS_KEY');
  if (!databaseUrl.startsWith('sqlite:') && !secretsKey) {
    throw new SettingsError('SECRETS_KEY is required with PostgreSQL (base64 of 32 bytes)');
  }

  return {
    roles: roles(env),
    port,
    host: optional(env, 'HOST') ?? '127.0.0.1',
    ingressPort,
    publicBaseUrl,
    publicIngressUrl,
    databaseUrl,
    dataDir,
    secretsKey,
    bootstrapAdminKey: optional(env, 'BOOTSTRAP_ADMIN_KEY'),
    trustProxy: trustedProxyRanges(env),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    tracing: tracingSettings(env),
    runner,
    agentCommand,
    modelBaseUrl,
    modelApiKey: optional(env, 'MODEL_API_KEY'),
    defaultModelId: optional(env, 'DEFAULT_MODEL_ID'),
    modelPrices: modelPrices(env),
    modelProviders: modelProviders(env),
    skillsDir: optional(env, 'SKILLS_DIR') ? path.resolve(repositoryRoot, env.SKILLS_DIR as string) : undefined,
    harnessesDir: path.resolve(repositoryRoot, optional(env, 'HARNESSES_DIR') ?? path.join(dataDir, 'harnesses')),
    dashboardDir: path.resolve(repositoryRoot, optional(env, 'DASHBOARD_DIR') ?? 'packages/dashboard/dist'),
    echoDelayMs: integer(env, 'ECHO_DELAY_MS', 300),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 4, 0),
    teamMaxConcurrentRuns: integer(env, 'TEAM_MAX_CONCURRENT_RUNS', 3, 1),
    runTimeoutMaxSeconds: integer(env, 'RUN_TIMEOUT_MAX_SECONDS', 24 * 3600, 1),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    sandbox: {
      mode: oneOf(env, 'SANDBOX', ['bwrap', 'none'] as const, 'bwrap'),
      network: oneOf(env, 'SANDBOX_NETWORK', ['none', 'allowlist', 'open'] as const, 'allowlist'),
      allowedHosts: list(env, 'SANDBOX_ALLOWED_HOSTS'),
      memoryBytes: integer(env, 'SANDBOX_MEMORY_MB', 2048, 16) * 1024 * 1024,
      maxProcesses: integer(env, 'SANDBOX_MAX_PROCESSES', 256, 1),
      cpuSeconds: integer(env, 'SANDBOX_CPU_SECONDS', 1800, 1),
      outputBytes: integer(env, 'SANDBOX_OUTPUT_BYTES', 10 * 1024 * 1024, 1024),
      // 0: no disk of its own (no workspace quota), for hosts where a loop mount per run does not pay.
      diskBytes: integer(env, 'SANDBOX_DISK_MB', 10240, 0) * 1024 * 1024,
      hostUid: integer(env, 'SANDBOX_HOST_UID', 65534, 1),
      searchPath: optional(env, 'PATH') ?? '/usr/local/bin:/usr/bin:/bin',
      lang: optional(env, 'LANG') ?? 'C.UTF-8',
      term: optional(env, 'TERM') ?? 'dumb',
    },
    images: {
      registries:
        optional(env, 'IMAGE_REGISTRIES') === 'none' ? [] : optional(env, 'IMAGE_REGISTRIES') ? list(env, 'IMAGE_REGISTRIES') : DEFAULT_IMAGE_REGISTRIES,
      cacheBytes: integer(env, 'IMAGE_CACHE_MB', 10 * 1024, 0) * 1024 * 1024,
    },
    connections: {
      headersTimeoutSeconds: integer(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1),
      requestTimeoutSeconds: integer(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 30, 1),
      maxPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256, 1),
      sseStreamsPerKey: integer(env, 'SSE_STREAMS_PER_KEY', 16, 1),
      sseKeyRecheckSeconds: integer(env, 'SSE_KEY_RECHECK_SECONDS', 2, 1),
    },
    windows: {
      idempotencySeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 24 * 3600, 1),
      idempotencyInFlightSeconds: integer(env, 'IDEMPOTENCY_IN_FLIGHT_SECONDS', 300, 1),
      leaseSeconds: integer(env, 'RUN_LEASE_SECONDS', 30, 1),
      heartbeatSeconds: integer(env, 'RUN_HEARTBEAT_SECONDS', 10, 1),
      sweepIntervalSeconds: integer(env, 'RUN_SWEEP_INTERVAL_SECONDS', 5, 1),
      blockedTimeoutSeconds: integer(env, 'RUN_BLOCKED_TIMEOUT_SECONDS', 24 * 3600, 1),
      rateLimitWindowSeconds: integer(env, 'INGRESS_RATE_WINDOW_SECONDS', 60, 1),
      signatureToleranceSeconds: integer(env, 'SIGNATURE_TOLERANCE_SECONDS', 300, 1),
      deliveryRetentionDays: integer(env, 'DELIVERY_RETENTION_DAYS', 7, 1),
      runWorkDirRetentionDays: integer(env, 'RUN_WORKDIR_RETENTION_DAYS', 7, 1),
      retentionIntervalSeconds: integer(env, 'RETENTION_INTERVAL_SECONDS', 3600, 1),
      sseKeepaliveSeconds: integer(env, 'SSE_KEEPALIVE_SECONDS', 15, 1),
      restRateWindowSeconds: integer(env, 'REST_RATE_WINDOW_SECONDS', 60, 1),
      schedulerIntervalSeconds: integer(env, 'SCHEDULER_INTERVAL_SECONDS', 1, 1),
      schedulerRefreshSeconds: integer(env, 'SCHEDULER_REFRESH_SECONDS', 15, 1),
      transcriptUrlSeconds: integer(env, 'TRANSCRIPT_URL_TTL_SECONDS', 300, 1),
      modelListCacheSeconds: integer(env, 'MODEL_LIST_CACHE_SECONDS', 300, 1),
      modelListTimeoutSeconds: integer(env, 'MODEL_LIST_TIMEOUT_SECONDS', 5, 1),
    },
    audit: { retentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1) },
    notifications: {
      allowedHosts: list(env, 'NOTIFICATIONS_ALLOWED_HOSTS'),
      timeoutSeconds: integer(env, 'NOTIFICATIONS_TIMEOUT_SECONDS', 15, 1),
      retryBaseSeconds: integer(env, 'NOTIFICATIONS_RETRY_BASE_SECONDS', 5, 1),
      retryMaxDelaySeconds: integer(env, 'NOTIFICATIONS_RETRY_MAX_DELAY_SECONDS', 3600, 1),
      retryWindowHours: integer(env, 'NOTIFICATIONS_RETRY_WINDOW_HOURS', 24, 1),
      disableAfterDays: integer(env, 'NOTIFICATIONS_DISABLE_AFTER_DAYS', 5, 1),
      secretOverlapHours: integer(env, 'NOTIFICATIONS_SECRET_OVERLAP_HOURS', 24, 0),
      retentionDays: integer(env, 'NOTIFICATIONS_RETENTION_DAYS', 30, 1),
      responseExcerptBytes: integer(env, 'NOTIFICATIONS_RESPONSE_EXCERPT_BYTES', 1024, 0),
      concurrency: integer(env, 'NOTIFICATIONS_CONCURRENCY', 16, 0),
      subscriptionsPerTeam: integer(env, 'NOTIFICATIONS_SUBSCRIPTIONS_PER_TEAM', 20, 1),
    },
    limits: {
      deliveriesPerWindow: integer(env, 'INGRESS_DELIVERIES_PER_MINUTE', 60, 1),
      authFailuresPerWindow: integer(env, 'INGRESS_AUTH_FAILURES_PER_MINUTE', 10, 1),
      deliveryRetentionMinimum: integer(env, 'DELIVERY_RETENTION_MINIMUM', 50, 1),
      maxDeliveryBytes: integer(env, 'INGRESS_MAX_BODY_BYTES', 262_144, 1),
      webhooksPerFactory: integer(env, 'WEBHOOKS_PER_FACTORY', 20, 1),
      restMaxBodyBytes: integer(env, 'REST_MAX_BODY_BYTES', 10 * 1024 * 1024, 1),
      restRequestsPerWindow: integer(env, 'REST_REQUESTS_PER_MINUTE', 6000, 1),
      schedulesPerTeam: integer(env, 'SCHEDULES_PER_TEAM', 100, 0),
      apiKeysPerTeam: integer(env, 'API_KEYS_PER_TEAM', 50, 1),
      runOutputBytes: integer(env, 'RUN_OUTPUT_LIMIT_MB', 64, 1) * 1024 * 1024,
      scheduleMinIntervalSeconds: integer(env, 'SCHEDULE_MIN_INTERVAL_SECONDS', 300, 60),
    },
    githubBaseUrl: httpUrl(env, 'GITHUB_BASE_URL', 'https://github.com'),
    artifacts: {
      maxPerRun: integer(env, 'ARTIFACTS_PER_RUN', 100, 1),
      maxFileBytes: integer(env, 'ARTIFACT_MAX_BYTES', 10 * 1024 * 1024, 1),
      maxBytesPerRun: integer(env, 'ARTIFACTS_MAX_BYTES_PER_RUN', 50 * 1024 * 1024, 1),
      downloadUrlSeconds: integer(env, 'ARTIFACT_DOWNLOAD_URL_SECONDS', 900, 1),
    },
  };
}
