/**
 * The whole data model, one interface per table (Kysely style).
 *
 * Portable representation rules (same code on SQLite and PostgreSQL):
 * - timestamps: ISO-8601 UTC text from `toTimestamp()` (fixed width, sorts as text);
 * - booleans: integer 0/1 (`Flag`);
 * - JSON: text holding JSON (`JsonText`), parsed in repositories;
 * - binary: `Buffer` (SQLite BLOB, PostgreSQL BYTEA);
 * - secret values: `EncryptedText` from crypto/secret-box.ts, never plaintext.
 * Every table with tenant data carries `team_id`; queries on it go through db/scoped.ts, which adds the team's
 * condition (service-wide queries are named `…ServiceWide`; test/architecture/tenancy.test.ts).
 */
import type { components } from '@agent-runs/contract';
import type { Generated } from 'kysely';

// Columns holding a value of the contract have the contract's type, so the two cannot drift apart.
type Schemas = components['schemas'];

export type Timestamp = string;
export type Flag = 0 | 1;
export type JsonText = string;
export type EncryptedText = string;

export interface TeamsTable {
  id: string; // team_…
  name: string; // unique
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string; // key_…
  team_id: string;
  name: string;
  role: Schemas['ApiKeyRole'];
  key_hash: string; // sha256 hex of the key; unique
  key_prefix: string; // first characters, for display only
  created_by: string; // 'operator' or the key id that created it
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  team_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string; // sha256 of method, path and body
  status_code: number | null; // null while the first request is still in flight
  response_headers: JsonText | null;
  response_body: EncryptedText | null; // encrypted: a replayed answer may hold a secret
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RunsTable {
  id: string; // uuid
  team_id: string;
  title: string;
  prompt: string;
  state: string; // RunState
  source: string; // RunSourceType
  creator_type: Schemas['RunCreatorInfo']['type'];
  creator_uid: string;
  creator_display_name: string;
  creator_email: string | null;
  status_message: JsonText | null; // RunStatusMessage
  session_id: string;
  config: JsonText | null; // AmbientAgentConfig as requested
  resolved_config: JsonText | null; // AmbientAgentConfig with defaults filled in
  runner: string | null; // runner that executes/executed it
  factory_id: string | null;
  automation_id: string | null;
  delivery_id: string | null;
  metadata: JsonText | null; // RunMetadata (string → string), fixed at creation
  parent_run_id: string | null; // the run that spawned it, same team
  schedule_id: string | null; // the scheduled agent that started it (kept after the schedule is deleted)
  schedule: JsonText | null; // ScheduleInfo as it was when the run started
  usage: JsonText | null; // {prompt_tokens, completion_tokens, total_tokens, cost_micros?} (runs/executions.ts addRunUsage)
  image_digest: string | null; // sha256:… of the environment image it ran on
  event_seq: number; // last event sequence number; incremented atomically per event
  output_bytes: Generated<number>; // bytes its executions appended to the conversation (RUN_OUTPUT_LIMIT_MB)
  trace_context: Generated<string | null>; // W3C traceparent of the span that queued it (telemetry/)
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  claim_count: number; // claims so far (lease recovery gives one more)
  cancel_requested_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
}

/** Append-only per-run event log: feeds the SSE stream and the conversation. */
export interface RunEventsTable {
  run_id: string;
  team_id: string;
  seq: number; // = runs.event_seq after the increment; unique per run
  kind: 'state' | 'content';
  data: JsonText; // the SSE `data` payload
  created_at: Timestamp;
  step_id: string | null; // a content event's turn (the conversation is read turn by turn)
}

export interface RunStepsTable {
  id: string; // step_…
  run_id: string;
  team_id: string;
  position: number; // 1 for the initial prompt, +1 per follow-up turn
  description: string | null;
  summary: string | null;
  started_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface RunFollowupsTable {
  id: string; // fup_…
  run_id: string;
  team_id: string;
  message: string;
  created_at: Timestamp;
  delivered_at: Timestamp | null; // when a runner took it from the inbox
}

/**
 * One key of a run's metadata (runs.metadata holds the whole object, fixed at creation): what
 * `GET /agent/runs?metadata[key]=value` reads, through (team_id, key, value, run_id), on both dialects.
 */
export interface RunMetadataTable {
  team_id: string;
  run_id: string;
  key: string;
  value: string;
}

export interface RunAttachmentsTable {
  run_id: string;
  team_id: string;
  file_name: string;
  mime_type: string;
  size: number;
  data: Buffer;
  created_at: Timestamp;
}

/** What a run published (docs/decisions.md §Artifacts); bytes kept like attachments, for as long as the run. */
export interface RunArtifactsTable {
  id: string; // uuid: the artifact_uid
  run_id: string;
  team_id: string;
  position: number; // 1, 2, … per run, in publication order
  artifact_type: Schemas['RunArtifactType'];
  data: JsonText; // the ArtifactItem's data without artifact_uid
  content: Buffer | null; // FILE, SCREENSHOT, PLAN bytes; null for links
  size: number; // bytes of content (0 for links)
  source_path: string | null; // path under /workspace/.artifacts/ it was collected from (republishing unchanged files is skipped)
  content_sha256: string | null;
  external_url: string | null; // EXTERNAL_REFERENCE url (reverse lookup)
  created_at: Timestamp;
}

/** What a run's environment setup commands printed, secrets replaced (docs/decisions.md §Write-only environment variables and the setup log). */
export interface RunSetupLogsTable {
  run_id: string;
  team_id: string;
  position: number; // 1, 2, … per run, in the order the commands ran (across executions)
  environment_id: string;
  command_position: number; // the command's position in the environment's setup_commands (1 = first)
  command_count: number;
  command: string;
  started_at: Timestamp;
  finished_at: Timestamp;
  exit_code: number | null;
  result: string;
  output: string;
  output_truncated: Flag;
}

export interface FactoriesTable {
  id: string; // fac_…
  team_id: string;
  name: string;
  definition_source: Schemas['DefinitionSource'];
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamSecretsTable {
  team_id: string;
  name: string;
  value: EncryptedText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhooksTable {
  id: string; // wh_…
  team_id: string;
  factory_id: string;
  name: string;
  auth_mode: Schemas['AuthMode'];
  signature_scheme: string | null;
  secret_name: string;
  /** The credential this webhook verifies with: a snapshot of the team secret taken when it last applied. Null = not yet supplied (second-step provider secret). */
  secret: EncryptedText | null;
  delivery_id_header: string | null;
  enabled: Flag;
  definition_file: string | null; // webhooks/<name>.yaml when defined as a file
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: string; // dlv_…
  team_id: string;
  factory_id: string;
  webhook_id: string;
  label: Schemas['DeliveryLabel'];
  size: number;
  received_at: Timestamp;
  identity: string | null;
  identity_source: Schemas['IdentitySource'] | null;
  /** Dedup guard: set only on Accepted rows; unique per (webhook_id, accepted_identity). */
  accepted_identity: string | null;
  /**
   * Second dedup guard: `sha256:<hex>` of the body, set only on Accepted rows of schemes whose signature
   * binds the body but not the delivery id (ingress/identify.ts); unique per (webhook_id, accepted_body_digest).
   */
  accepted_body_digest: string | null;
  duplicate_of: string | null;
  payload: Buffer | null; // raw body bytes, Accepted only
  /** Rejected (auth) only: why authentication failed (webhooks/schemes/types.ts REJECTION_REASONS). */
  rejection_reason: string | null;
}

export interface RateLimitCountersTable {
  key: string; // e.g. deliveries:<webhook id>, auth-failures:<webhook id>:<sender address>
  window_start: number; // epoch seconds of the window
  count: number;
}

/** REST requests per API key and fixed window (http/rate-limit.ts). */
export interface RestRateCountersTable {
  key_id: string;
  window_start: number; // epoch seconds of the window
  count: number;
}

/** When each team last had a run claimed: the round-robin of fair claiming (runs/fair-claim.ts). */
export interface TeamClaimsTable {
  team_id: string;
  last_claimed_at: Timestamp;
}

export interface AutomationsTable {
  id: string; // aut_…
  team_id: string;
  factory_id: string;
  name: string;
  prompt: string;
  config: JsonText | null;
  enabled: Flag;
  triggers: JsonText; // Trigger[]
  definition_file: string | null; // automations/<name>.md when defined as a file
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which webhooks each automation selects: the index the ingress uses to find candidates. */
export interface AutomationWebhooksTable {
  automation_id: string;
  webhook_id: string;
  team_id: string;
}

export interface EnvironmentsTable {
  id: string; // env_…
  team_id: string;
  name: string;
  description: string | null;
  setup_commands: JsonText; // string[]
  env_vars: EncryptedText | null; // encrypted JSON {NAME: value}: secrets, for the setup commands only
  plain_env_vars: JsonText | null; // {NAME: value}, readable: the setup commands and the agent get them
  creator: JsonText | null; // RunCreatorInfo of the API key that created it (null before Oz parity)
  last_editor: JsonText | null; // RunCreatorInfo of the API key that changed it last
  repositories: JsonText | null; // EnvironmentRepositories (environments/repositories.ts); null = none
  docker_image: string | null; // the image reference runs start in (docs/sandbox.md §Image root)
  registry_secret_name: string | null; // team secret with the registry credentials
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Scheduled agents: a cron expression in a time zone that starts one run per slot (docs/decisions.md §Schedules). */
export interface SchedulesTable {
  id: string; // sch_…
  team_id: string;
  name: string;
  cron_schedule: string;
  time_zone: string; // canonical IANA name
  prompt: string;
  config: JsonText | null; // AmbientAgentConfig as requested, resolved again at each firing
  metadata: JsonText | null; // RunMetadata stamped on every run
  enabled: Flag;
  next_run_at: Timestamp | null; // the next slot; null while paused
  version: number; // bumped by every change of the definition: a firing claims only the version it read
  created_by: JsonText; // RunCreatorInfo: the creator of every run it starts
  updated_by: JsonText; // RunCreatorInfo
  created_at: Timestamp;
  updated_at: Timestamp;
  last_ran_at: Timestamp | null; // when it last started a run
  last_run_id: string | null;
  last_slot: Timestamp | null;
  last_fired_at: Timestamp | null;
  last_outcome: Schemas['ScheduledAgentHistoryItem']['last_outcome'];
  last_spawn_error: string | null;
  skipped_slots: number;
}

/** A team's endpoint for run events (notifications/). */
export interface NotificationSubscriptionsTable {
  id: string; // sub_…
  team_id: string;
  url: string;
  description: string | null;
  event_types: JsonText; // NotificationEventType[]
  factory_id: string | null; // filter: only runs of this factory
  automation_id: string | null; // filter: only runs of this automation
  enabled: Flag;
  disabled_reason: Schemas['NotificationDisabledReason'] | null;
  disabled_at: Timestamp | null;
  /** First failed attempt since the last successful one (auto-disable counts from it). */
  failing_since: Timestamp | null;
  secret: EncryptedText; // whsec_…
  /** After a rotation: the secret before, still signing until previous_secret_expires_at. */
  previous_secret: EncryptedText | null;
  previous_secret_expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The outbox: one event for one subscription, written in the transaction of the run's state change. */
export interface NotificationMessagesTable {
  id: string; // msg_…
  team_id: string;
  subscription_id: string;
  event_id: string; // evt_…, the webhook-id; shared by the subscriptions that receive the event
  event_type: Schemas['NotificationEventType'];
  run_id: string;
  /** Delivery order within (subscription, run): the run's event seq × 2, + 1 for a terminal state's own event. */
  order_key: number;
  payload: JsonText; // the NotificationEvent body, sent as is on every attempt
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number; // attempts claimed so far (the attempt number of the latest)
  window_attempts: number; // of those, the attempts since window_start (the backoff's exponent)
  next_attempt_at: Timestamp | null; // pending only
  /** Start of the retry window (the state change, or the last replay). */
  window_start: Timestamp;
  lease_owner: string | null; // the delivery worker whose attempt is in flight
  lease_expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationAttemptsTable {
  id: string; // att_…
  team_id: string;
  subscription_id: string;
  event_id: string;
  event_type: Schemas['NotificationEventType'];
  run_id: string;
  attempt: number;
  attempted_at: Timestamp;
  outcome: Schemas['NotificationAttemptOutcome'];
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  next_attempt_at: Timestamp | null;
}

/** A team's monthly limits (budgets/); null is no limit. Costs in micro-dollars (USD × 10⁶). */
export interface TeamBudgetsTable {
  team_id: string;
  max_tokens_per_month: number | string | null; // bigint: a string from PostgreSQL
  max_cost_micros_per_month: number | string | null;
  updated_at: Timestamp;
}

/** What a team's runs spent in one calendar month (UTC) with one model; added to with each model call. */
export interface TeamMonthlyUsageTable {
  team_id: string;
  month: string; // YYYY-MM
  model_id: string;
  prompt_tokens: number | string; // bigint: a string from PostgreSQL
  completion_tokens: number | string;
  total_tokens: number | string;
  cost_micros: number | string;
}

/** One change an admin made (audit/): who, what, when, from where, and the names of the fields it set. */
export interface AuditEventsTable {
  id: string;
  team_id: string;
  occurred_at: Timestamp;
  actor_key_id: string;
  /** The key's name when the change was made; null for a key without one. */
  actor_key_name: string | null;
  operation_id: string;
  action: string;
  resource_type: Schemas['AuditResourceType'];
  resource_id: string;
  address: string | null;
  changed_fields: JsonText; // JSON array of field names, never values
}

export interface Database {
  teams: TeamsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  runs: RunsTable;
  run_events: RunEventsTable;
  run_steps: RunStepsTable;
  run_followups: RunFollowupsTable;
  run_attachments: RunAttachmentsTable;
  run_artifacts: RunArtifactsTable;
  run_metadata: RunMetadataTable;
  run_setup_logs: RunSetupLogsTable;
  factories: FactoriesTable;
  team_secrets: TeamSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  rate_limit_counters: RateLimitCountersTable;
  rest_rate_counters: RestRateCountersTable;
  team_claims: TeamClaimsTable;
  automations: AutomationsTable;
  automation_webhooks: AutomationWebhooksTable;
  environments: EnvironmentsTable;
  schedules: SchedulesTable;
  notification_subscriptions: NotificationSubscriptionsTable;
  notification_messages: NotificationMessagesTable;
  notification_attempts: NotificationAttemptsTable;
  team_budgets: TeamBudgetsTable;
  team_monthly_usage: TeamMonthlyUsageTable;
  audit_events: AuditEventsTable;
}
