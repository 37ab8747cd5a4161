/**
 * Generated from openapi/v1.yaml by `pnpm generate` (openapi-typescript). Do not edit by hand.
 */

export type paths = {
    "/agent/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs
         * @description Lists the team's runs, sorted by `sort_by` (default `updated_at`) in `sort_order` (default
         *     `desc`), filtered by every filter given (filters combine with AND; repeated `state` values
         *     combine with OR). Time bounds are RFC 3339 and exclusive.
         *
         *     Every parameter of the Oz API's `listRuns` is accepted (docs/decisions.md §Oz parity). Those about
         *     things this self-hosted service does not have answer what is true here rather than being ignored:
         *     every run executes on this server's workers
         *     (`execution_location=REMOTE` matches every run, `LOCAL` none) and a run's executor is its creator
         *     (`executor` filters like `creator`).
         *
         *     A page holds at most `limit` runs and stops early once its JSON passes 4 MiB (4,194,304 bytes):
         *     the run that passes the mark is the page's last, `has_next_page` is `true` and `next_cursor`
         *     continues right after it. A page may therefore hold fewer runs than `limit` while more follow;
         *     follow `next_cursor` until `has_next_page` is `false`.
         */
        get: operations["listRuns"];
        put?: never;
        /**
         * Create a run
         * @description Starts a cloud agent run for `prompt` (or a skill) with an optional title, configuration,
         *     metadata, parent run and up to five attachments. The run is created in state `QUEUED` with source
         *     `API`; the answer is **200** (as in the Oz API) with `run_id`, `task_id` (equal to `run_id`) and
         *     the initial `state`.
         *
         *     Every field of the Oz API's request is either honoured, accepted with the meaning it has on a
         *     self-hosted service, or refused with `400 invalid_request` naming it when honouring it is
         *     impossible and ignoring it would change what the run does (see `RunAgentRequest` and
         *     docs/decisions.md §Oz parity). Fields unknown to both APIs are accepted and ignored.
         *
         *     When `title` is omitted the title is the first line of the prompt, cut to 80 characters. Any role
         *     may create runs.
         *
         *     * `400 invalid_request`: neither `prompt` nor a skill (`skill`, `config.skill_spec`,
         *       `config.skills`), `prompt` empty or longer than 262,144 characters (256 KiB), `title` longer than
         *       200 characters, `config.environment_id` names no environment of the team, the skill names no
         *       skill, `config.skill_spec` together with `config.skills` or more than one skill, `metadata` out
         *       of its limits, `parent_run_id` names no run of the team, more than five attachments (`images`
         *       included), an attachment's `data` is not valid base64, its `mime_type` is not printable ASCII, or
         *       a refused Oz field (`agent_identity_uid`, `conversation_id`, `mode` other than `normal`,
         *       `team: false`, `on_behalf_of`, `interactive: true`, an MCP server by `warp_id`, a
         *       `config.worker_host` other than `warp`, a `config.harness.type` this server does not offer or has not installed, `config.runner_id`,
         *       a `config.session_sharing.public_access`, a non-empty `config.memory_stores`, a
         *       `config.inference_providers.aws` that is not `{disabled: true}`).
         *     * `413 payload_too_large`: the body exceeds the REST body limit (a setting, default 10 MB).
         *     * `409 limit_exceeded` (`x-should-retry: false`): the team's monthly budget is spent (`GET
         *       /team/budget`); the detail names the limit and what was used.
         *     * `409 conflict`: `Idempotency-Key` reuse (see Idempotency).
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a run (deprecated alias)
         * @deprecated
         * @description Deprecated alias of `POST /agent/runs`, kept because the Oz API keeps it and existing clients
         *     still call it. Same body, same answers, same behaviour; new clients should use
         *     `POST /agent/runs`.
         */
        post: operations["createRunLegacy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Get a run
         * @description Full details of one run: prompt, state, status message, source and creator metadata, session
         *     link, resolved configuration, attachments, usage and the skills it may load.
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/followups": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a follow-up message
         * @description Sends a message that steers or continues the run. What happens depends on the run's state:
         *
         *     | state | effect | `state` in the answer |
         *     |---|---|---|
         *     | `QUEUED`, `PENDING`, `CLAIMED`, `INPROGRESS` | the message is queued and delivered to the agent at its next turn | unchanged |
         *     | `BLOCKED` | the message is the answer to the agent's question (`status_message.message`): the run is re-queued and continues the same conversation with it | `QUEUED` |
         *     | `SUCCEEDED`, `FAILED`, `ERROR` | the run is re-queued and continues the same conversation as a new step | `QUEUED` |
         *     | `CANCELLED` | refused: `409 conflict` with `x-should-retry: false` | — |
         *
         *     A follow-up that would re-queue a finished run of a team whose monthly budget is spent answers
         *     `409 limit_exceeded` (`x-should-retry: false`) naming the budget.
         *
         *     The answer is **200** with `{run_id, task_id, state}` (the Oz API answers an object whose fields it
         *     leaves open; Oz clients read this one as any object). `mode` other than `normal` answers
         *     `400 invalid_request`.
         */
        post: operations["createRunFollowup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description Cancels a run. No body. The answer is **200** whose body is the run ID as a **bare JSON string**
         *     (for example `"3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c"`), as in the Oz API.
         *
         *     The answers are the Oz API's:
         *
         *     | state | answer |
         *     |---|---|
         *     | `QUEUED`, `CLAIMED`, `INPROGRESS`, `BLOCKED` | `200`: the run stops (a running model call or command is aborted) and its state becomes `CANCELLED` |
         *     | `PENDING` | `409 conflict` with `retryable: true`: the run is being prepared; retry in a moment (this server does not put runs in `PENDING` today, so this answer is for completeness) |
         *     | `SUCCEEDED`, `FAILED`, `ERROR`, `CANCELLED` | `400 invalid_request`: the run is already in a terminal state; nothing changes |
         *
         *     `BLOCKED` is not terminal here (the run waits for the answer to its question and a follow-up
         *     resumes it), so it can be cancelled: it holds no worker, so nothing needs aborting. A retry of a cancel that succeeded with the same `Idempotency-Key` is answered the stored
         *     `200` (see Idempotency); without one, cancelling a `CANCELLED` run answers `400`. The Oz API's third
         *     refusal, `422 operation_not_supported` for run types that cannot be cancelled (self-hosted, local,
         *     GitHub Action runs), has no case here: every run of this service executes on its own workers and can
         *     be cancelled (`is_run_type_cancellable` is always `true`).
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/conversation": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Get a run's conversation
         * @description The run's conversation in the Oz `ConversationResponse` shape. There is one step per turn: the
         *     initial prompt starts step 1 and each follow-up starts a new step; messages within a step are in
         *     order. `conversation_id` is `conv_` plus the suffix of the run ID. A run that has not started has
         *     no steps.
         *
         *     The answer is streamed (chunked, no `Content-Length`): it holds the run's turns and its messages
         *     recorded up to the moment the request was answered, whatever the run records while it is sent. A
         *     run stores at most `RUN_OUTPUT_LIMIT_MB` (server setting, default 64) of conversation over all its
         *     executions; past it the run ends `FAILED` with `error_code` `output_limit`.
         *
         *     A skill load appears as an `action` block with `category: skill`, `name: read_skill` and input
         *     `{name, bundled_skill_id?, skill_path?}`. `bundled_skill_id`, when present, identifies a
         *     service-provided bundled skill. `skill_path` is the path used to resolve the skill; it does not
         *     prove ownership (file-based skills and path-referenced bundled skills can both use it).
         */
        get: operations["getRunConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/setup-log": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Get a run's environment setup log
         * @description What the run's environment setup commands printed (admin only), one entry per command each time
         *     the run set its environment up (the first execution and every follow-up), oldest first. Setup
         *     commands see the environment's write-only `env_vars`, so their output never reaches a place
         *     members read: a failed setup's `status_message` names the command's position and its exit code
         *     only, and no run event carries output. Each entry keeps the last 64 KiB of the command's stdout
         *     and stderr, with every value of the environment's `env_vars` (and its base64 form) replaced by
         *     `***`; that is defence in depth, not a licence to print secrets (a transformed copy is not
         *     recognised).
         *
         *     * `404 resource_not_found`: no such run in the team. A run without an environment (or whose
         *       setup has not started) answers `200` with no entries.
         */
        get: operations["getRunSetupLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/transcript": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Get a run's transcript (redirect)
         * @description The run's raw transcript, as the Oz API serves it: a **302** whose `Location` is a time-limited
         *     download URL (`downloadRunTranscript` on this server). The URL carries a signed token and needs no
         *     API key, so a client that follows the redirect — and any tool it hands the URL to — can fetch it
         *     until it expires, `TRANSCRIPT_URL_TTL_SECONDS` (default 300) after this answer; ask again for a
         *     fresh one. The token names the run and the team and is signed with a key derived from the server's
         *     `SECRETS_KEY`; it cannot be altered or stretched.
         *
         *     The transcript is JSON Lines (`application/x-ndjson`; one JSON object per line, see
         *     `downloadRunTranscript`), served as it is when downloaded, so a run that is still working has a
         *     longer transcript on a later download.
         *
         *     * `404 resource_not_found`: no such run in the team, or the run has no transcript yet (nothing has
         *       been recorded, as in the Oz API: every run records its prompt when it is created, so this does
         *       not happen for runs of this server).
         */
        get: operations["getRunTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/transcript/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Download a run's transcript (signed URL)
         * @description Where `getRunTranscript` redirects: the run's transcript, without an API key, for as long as the
         *     URL's `token` is valid. Every line is one JSON object, one per message of the run's conversation in
         *     the order recorded:
         *
         *     `{"step_id", "message_id", "role", "timestamp", "content": [content blocks]}`
         *
         *     — the messages of `GET /agent/runs/{runId}/conversation`, flattened: `role` is `user` (the prompt
         *     and each follow-up), `assistant` or `tool`; `content` holds the same blocks as the conversation's
         *     messages (`text`, `action`, `action_result`, `event`). The file ends with a newline.
         *     `Content-Disposition` names it `transcript-<runId>.jsonl`. Streamed, like the conversation: the
         *     messages recorded up to the moment the request was answered.
         *
         *     * `403 not_authorized`: the token is malformed, was not made by this server for this run, or has
         *       expired (the detail says which); ask `getRunTranscript` for a new URL.
         *     * `404 resource_not_found`: the run no longer exists.
         */
        get: operations["downloadRunTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/attachments/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
                /**
                 * @description The attachment's `file_name`, for example `event-payload.json` (the delivery body attached to a
                 *     run started by a webhook delivery).
                 * @example event-payload.json
                 */
                name: string;
            };
            cookie?: never;
        };
        /**
         * Download a run attachment
         * @description Downloads one attachment of a run: a file sent with `attachments` at creation, or
         *     `event-payload.json`, the full JSON body of the webhook delivery that started the run. The
         *     response `Content-Type` is the attachment's `mime_type` (`application/json` for
         *     `event-payload.json`, `application/octet-stream` when unknown) and `Content-Disposition` names the
         *     file. The bytes are returned exactly as stored.
         */
        get: operations["getRunAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/run-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream the state changes of every run of the team
         * @description A Server-Sent Events stream (`text/event-stream`) of the state changes of every run of the caller's
         *     team, for live run lists. Any role.
         *
         *     * `event: state`: data `{run_id, state, updated_at, status_message?}` (schema `RunStateEvent`),
         *       one per state change of any run of the team as it happens, including a new run's first state
         *       (`QUEUED`). The events of one run come in the order they happened. No `content` events: follow
         *       one run's conversation with `GET /agent/runs/{runId}/events`.
         *     * No replay: the stream starts with the changes after it opened, its events carry no `id:` and
         *       `Last-Event-ID` is not supported. On connect and on every reconnect, open the stream first and
         *       then re-read the list (`GET /agent/runs`); a state the list already shows may arrive again.
         *     * A `: keepalive` comment line is sent every 15 seconds. The stream stays open until the client
         *       closes it.
         *     * Per server process today: the stream carries the changes made by the process that serves it,
         *       which is every change in the single-process deployment (the default). Several processes on one
         *       PostgreSQL database will share changes through `LISTEN`/`NOTIFY` later.
         *     * It counts toward the same per-key limit as the per-run streams (16 open streams,
         *       `SSE_STREAMS_PER_KEY`, per server process); one more answers `429` `rate_limited` with
         *       `Retry-After`.
         *     * A client that takes no bytes for two keepalive intervals (30 seconds) while events wait is
         *       disconnected; it reconnects and re-reads the list.
         */
        get: operations["streamTeamRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/runs/{runId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        /**
         * Stream a run's events
         * @description A Server-Sent Events stream (`text/event-stream`) of the run's changes.
         *
         *     * `event: state`: data `{run_id, state, updated_at, status_message?}` (schema `RunStateEvent`),
         *       sent for every state change. The first event of a new stream is the current state.
         *     * `event: content`: data `{run_id, step_id, message_id, role, timestamp, block}` (schema
         *       `RunContentEvent`), one per content block added to the conversation.
         *     * Every event has an integer `id:` that increases per run. Reconnect with header
         *       `Last-Event-ID: n` to resume after event `n` (events are kept for the run's lifetime).
         *     * A `: keepalive` comment line is sent every 15 seconds.
         *     * The server closes the stream after the event that reports a terminal state (`SUCCEEDED`,
         *       `FAILED`, `ERROR`, `CANCELLED`). Opening the stream of a run that is already terminal sends its
         *       state (and, with `Last-Event-ID`, the events after it) and closes.
         *     * One API key may hold at most 16 open streams at once (`SSE_STREAMS_PER_KEY`, per server
         *       process); one more answers `429` `rate_limited` with `Retry-After`.
         *     * A client that takes no bytes for two keepalive intervals (30 seconds) while events wait is
         *       disconnected; it resumes with `Last-Event-ID`.
         */
        get: operations["streamRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/artifacts/{artifactUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        /**
         * Get an artifact
         * @description One artifact of a run of the caller's team, in the Oz API's `ArtifactResponse` shape, by the
         *     `artifact_uid` its `ArtifactItem` carries (in `RunItem.artifacts` and in the run's `artifact`
         *     events). Any role.
         *
         *     * `FILE` and `SCREENSHOT`: `data.download_url` is a **signed, time-limited URL served by this
         *       server** (`getArtifactContent`): it carries its own credential, so it works without an API key
         *       (a browser, `curl`), and stops working at `data.expires_at` (`ARTIFACT_DOWNLOAD_URL_SECONDS`
         *       after this answer, default 900). Ask again for a fresh one; every answer signs a new URL. Treat
         *       it as a secret for as long as it lives: whoever has it can download the bytes (the answer
         *       carries `Cache-Control: no-store`).
         *     * `PLAN`: the plan's Markdown inline in `data.content` (`content_type: text/markdown`), as in the
         *       Oz API. `document_uid` and `notebook_uid` equal the artifact UID (this service has no separate
         *       documents).
         *     * `PULL_REQUEST` and `EXTERNAL_REFERENCE` artifacts are links: their item carries the `url` and
         *       no `artifact_uid`, and there is nothing to retrieve (`404`, as in the Oz API for an
         *       unsupported type).
         *
         *     `404 resource_not_found`: no artifact with this UID in the caller's team (an artifact of another
         *     team answers exactly the same).
         */
        get: operations["getArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/artifacts/{artifactUid}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        /**
         * Download an artifact
         * @description Redirects (`302`) to a fresh signed download URL of a `FILE`, `SCREENSHOT` or `PLAN` artifact of
         *     the caller's team (the same URL `getArtifact` answers in `data.download_url`), as in the Oz API.
         *     HTTP clients that follow redirects download the bytes in one call; the URL itself needs no API
         *     key. The answer carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.
         *
         *     `404 resource_not_found`: no such artifact in the caller's team, or a link artifact
         *     (`PULL_REQUEST`, `EXTERNAL_REFERENCE`), which has no bytes.
         */
        get: operations["downloadArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/artifacts/{artifactUid}/content": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        /**
         * Download an artifact's bytes through a signed URL
         * @description The target of a signed download URL (`getArtifact`'s `data.download_url`, `downloadArtifact`'s
         *     `Location`). **No API key**: the `token` is the credential. It names the team, carries the
         *     expiry and an HMAC-SHA256 signature (made with a key derived from the server's `SECRETS_KEY`,
         *     so every process of a deployment accepts the URLs of the others). Do not build or change it.
         *
         *     The bytes are answered exactly as stored, always as a download: `Content-Disposition:
         *     attachment` with the file name, `X-Content-Type-Options: nosniff`, `Content-Security-Policy:
         *     sandbox`, `Cache-Control: private, no-store` and `Referrer-Policy: no-referrer`. `Content-Type`
         *     is the artifact's `mime_type` when it is one of a short list of inert types (plain text,
         *     Markdown, CSV, JSON, PDF, PNG, JPEG, GIF, WebP, ZIP, gzip) and `application/octet-stream` for
         *     anything else, so a file the agent wrote (an HTML page, an SVG) is never rendered by a browser
         *     from this origin.
         *
         *     * `403 not_authorized`: the token does not verify for this artifact, or it has expired (ask
         *       `getArtifact` for a fresh URL).
         *     * `404 resource_not_found`: the artifact no longer exists (its run was deleted).
         */
        get: operations["getArtifactContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/run-by-external-reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find the run that published an external reference
         * @description The run of the caller's team that published an `EXTERNAL_REFERENCE` artifact with exactly this
         *     `url` (as in the Oz API; the match is on the URL as the run published it, byte for byte). When
         *     several runs published it, the most recent publication wins. Any role.
         *
         *     `404 resource_not_found`: no run of the caller's team published it (another team's runs are
         *     never found). `431 request_header_fields_too_large`: the request's head, percent-encoded `url`
         *     included, passes 16 KB (only a `url` of mostly non-ASCII characters near its 2048 can).
         */
        get: operations["getRunByExternalReferenceURL"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bundled skills
         * @description The catalogue of stable bundled skill IDs. The catalogue groups usage; it is not an availability
         *     manifest: `available` says whether this deployment currently offers the skill, but what a given
         *     run may load is its `available_skills`, and what it loaded shows as `read_skill` actions in its
         *     conversation. The bundled set varies by release, enabled features, required files and connected
         *     integrations (which can add IDs not listed). Not paginated.
         */
        get: operations["listSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents (skills a run can start from)
         * @description The Oz API's list of agents: the skills a run can start from (`skill`, `config.skill_spec`), grouped
         *     by name, each variant with the ID to pass as `skill`. Two sources:
         *
         *     * the skills root of this server (`SKILLS_DIR`, laid out `owner/repo/…/SKILL.md`): every `SKILL.md`
         *       under it, as variant `owner/repo:<path>` (for example `acme/skills:skills/triage/SKILL.md`);
         *       the agent's name is the front matter's `name`, else the skill's directory name;
         *     * the bundled skills this deployment offers (`GET /agent/skills` with `available: true`), under
         *       the reserved repository `agent-runs/bundled`: variant `agent-runs/bundled:<id>/SKILL.md`
         *       (`agent-runs/bundled:<id>` works as well), named by the catalogue. A run started from one
         *       records the load with its `bundled_skill_id`. A directory `agent-runs/bundled` in `SKILLS_DIR` is
         *       never read.
         *
         *     Every variant has `base_prompt` (the SKILL.md without its front matter), `description` (the front
         *     matter's, else empty), `source` and `environments` — every environment of the team, since any run
         *     may load any skill whatever environment it selects — and `last_run_timestamp`: when the newest run
         *     of the team that started from this skill (by this ID or, for a skill found by name, by
         *     `owner/repo:<name>`) was created, `null` when none has.
         *
         *     A `SKILL.md` is malformed when it is larger than 262,144 bytes or its front matter is not a YAML
         *     mapping whose `name` and `description` are strings. Malformed skills are left out unless
         *     `include_malformed_skills=true`; then they come with `error` saying why (one whose front matter
         *     only is broken still runs, named by its directory). The list is read from the files on every
         *     request (nothing is cached, so `refresh` has nothing to clear and is accepted without effect).
         *     Not paginated; at most 1,000 SKILL.md files are read under `SKILLS_DIR`, and its directories are
         *     followed at most 8 levels deep below `owner/repo`.
         */
        get: operations["listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List models
         * @description The language models runs of this server can use (Oz API `listModels`), and the default a run gets
         *     without `config.model_id`.
         *
         *     * Model runner (`MODEL_BASE_URL`): the provider's own list (`GET <MODEL_BASE_URL>/models`, the
         *       OpenAI-compatible model list), with `DEFAULT_MODEL_ID` first and always present (also when the
         *       provider leaves it out, or cannot be asked: then it is the only entry). The list is fetched at
         *       most once per `MODEL_LIST_CACHE_SECONDS` (default 300) per server process and the request waits
         *       at most `MODEL_LIST_TIMEOUT_SECONDS` (default 5) for the provider; a provider that fails or
         *       answers something else is asked again after the same interval, and meanwhile the list is the
         *       default alone. `default_model_id` is `DEFAULT_MODEL_ID`, or `""` when it is not set (then every
         *       run must name its model).
         *     * Echo and command runners: they use no language model. The list holds one entry, the ID such runs
         *       record as `agent_config.model_id` (`DEFAULT_MODEL_ID`, else the runner's name `echo` or
         *       `command`), which is also `default_model_id`; a run's `config.model_id` is recorded and not used.
         *
         *     The provider's list says nothing about what a model can do, so `provider` is inferred from the ID
         *     (`gpt-…`, `o1…`/`o3…`/`o4…`, `chatgpt-…` → `OPENAI`; `claude-…` → `ANTHROPIC`; `gemini-…`,
         *     `gemma-…` → `GOOGLE`; anything else `UNKNOWN`), `display_name` is the ID, and `vision_supported` is
         *     `false`: runs send attachments to the agent as files in its workspace, never as images in the
         *     model's input. No model is ever marked disabled (`disable_reason` is never set).
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/harnesses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List harnesses
         * @description The third-party agent CLIs a run can name as `config.harness.type` (extension; Oz's own harness
         *     `oz`, this server's runner, is always there and not listed), each with the npm package and the
         *     version this server pins, and whether the operator has installed it (`pnpm harnesses:install`).
         *
         *     A run naming a harness that is not listed, or one that is not `installed` while the run's
         *     environment has no `docker_image`, answers `400 invalid_request` naming `$.config.harness.type`.
         *     A run whose environment has an image runs the CLI from the image's `PATH` when it is there (the
         *     image's own version), else the server's install; when neither has it the run ends `FAILED` with
         *     `error_code` `harness_unavailable`. No run ever downloads a harness.
         */
        get: operations["listHarnesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List environments
         * @description Lists the team's environments (Oz API `listEnvironments`): most recently updated first by default,
         *     or by name (`sort_by=name`, ascending). Each carries what the team's runs say about it: the newest
         *     run that selected it (`last_task_created`, `last_task_run_timestamp`) and whether that run failed
         *     while setting the environment up (`setup_failed`).
         *
         *     The Oz API answers every environment at once; this service pages the list (`limit`, default 50, and
         *     `cursor`, as its other lists; `page_info` is an extension an Oz client ignores), so a team with more
         *     than 50 environments is read by following `next_cursor`.
         */
        get: operations["listEnvironments"];
        put?: never;
        /**
         * Create an environment
         * @description Creates a cloud environment (admin only). Environment names are unique within the team (`409`
         *     otherwise). `env_vars` values are write-only: answers list only their names.
         *
         *     **Secret variables reach setup only.** `env_vars` are the environment's secrets: its setup
         *     commands see them, nothing after does. Every setup process has ended before the run's agent (the
         *     agent command, a harness, the built-in agent's tools, stdio MCP servers) starts, and none of those
         *     gets an `env_vars` value in its environment. What a setup command prints goes to the run's setup
         *     log (`getRunSetupLog`, admin only), never to `status_message` or run events; a failed setup's
         *     `status_message` names the command's position and exit code only. A setup command that writes a
         *     value into the workspace makes it readable by the agent, and so by whoever prompts a run with the
         *     environment: do that only with values members may read.
         *
         *     **Plain variables are readable.** `plain_env_vars` (extension) reach the setup commands and the
         *     agent's processes, and answers show their values: whoever prompts a run with the environment can
         *     read them, as they can an MCP server's `env` in the run's `config`. A name in both `env_vars` and
         *     `plain_env_vars` answers `400 invalid_request` naming `$.plain_env_vars.<NAME>`.
         *
         *     The body is the Oz API's `CloudEnvironmentConfig`, flat: `name`, `description`, `setup_commands`
         *     and `docker_image` are honoured (with this service's extension `registry_secret_name`);
         *     `failure_session_retention_minutes` is accepted without effect (a failed run's working directory
         *     is kept by the server's retention setting and a follow-up continues it); the field this service
         *     cannot honour answers `400 invalid_request` naming it: `providers` (no cloud identity federation).
         *     A `docker_image` that is no image reference, or whose registry the operator does not allow
         *     (`IMAGE_REGISTRIES`), answers `400 invalid_request` naming `$.docker_image`.
         *
         *     **Repositories.** `github_repos` (Oz) and the extension `repos` (any git URL over http(s): GitLab,
         *     Gitea, self-hosted) are cloned into the run's workspace before the setup commands run, at `ref`
         *     (else the default branch), at `path` (else the repository's name). The token for private
         *     repositories, clone and push is the team secret named by `git_token_secret_name`, else the team
         *     secret `GIT_TOKEN` when the team has one, else none (public repositories); it never reaches the
         *     run's processes (docs/sandbox.md §The git step). When a run ends `SUCCEEDED` and a repository's
         *     files changed, the server commits them, pushes the branch `agent/<first 8 characters of the run
         *     id>` (a follow-up continues it) and publishes a `PULL_REQUEST` artifact and the diff as a `FILE`
         *     artifact `repositories/<path>.diff`; with `auto_pr` it opens the pull request (GitHub's REST API,
         *     `github_repos` only). A clone that fails ends the run `FAILED` with `error_code`
         *     `repository_unavailable`; a push or pull request that fails leaves the run `SUCCEEDED` with
         *     `status_message.error_code` `repository_push_failed` and the diff published. The forge's host must
         *     be allowed by the server's egress policy (`SANDBOX_ALLOWED_HOSTS`).
         *
         *     Refused with `400 invalid_request` naming the field, for rules no schema states: two repositories
         *     checked out at the same `path` or one inside the other (the default path is the repository's
         *     name, so two URLs ending in the same name need a `path` each; `$.repos[i].path` or
         *     `$.github_repos[i].path`), a `git_token_secret_name` that names no secret of the team, a `repos`
         *     URL whose host is no valid domain (a malformed `xn--` label), and more than 10 repositories in
         *     `github_repos` and `repos` together (`$.repos`). The same on update, for the resulting
         *     environment.
         */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/environments/{environmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Environment ID (`env_…`).
                 * @example env_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                environmentId: components["parameters"]["EnvironmentId"];
            };
            cookie?: never;
        };
        /**
         * Get an environment
         * @description One environment of the team. Variable values are never returned.
         */
        get: operations["getEnvironment"];
        put?: never;
        post?: never;
        /**
         * Delete an environment
         * @description Deletes the environment (admin only). Existing runs keep their resolved configuration. Afterwards,
         *     a run request that names it answers `422`, a run started by an automation that still names it
         *     ends in state `ERROR` with a `status_message` saying so, and a scheduled agent that names it starts
         *     no run at its slots (its `last_spawn_error` says why).
         */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        /**
         * Update an environment
         * @description Changes the given fields (admin only). `setup_commands` and `env_vars`, when given, replace the
         *     whole list or map; omitted fields keep their value; `description: null` removes the description.
         *     Runs already created keep the configuration they resolved. The Oz `CloudEnvironmentConfig` fields
         *     are treated as on create.
         */
        patch: operations["updateEnvironment"];
        trace?: never;
    };
    "/agent/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scheduled agents
         * @description Lists the team's scheduled agents sorted by `name` (then `id`), ascending, as the Oz API sorts
         *     them. Any role. The Oz API answers every schedule at once: the default `limit` is therefore the
         *     maximum, 500, and with the default `SCHEDULES_PER_TEAM` (100) every team's schedules fit one page;
         *     follow `page_info.next_cursor` where an operator allows more.
         */
        get: operations["listScheduledAgents"];
        put?: never;
        /**
         * Create a scheduled agent
         * @description Creates a scheduled agent (admin only): from now on, every time `cron_schedule` names in
         *     `time_zone` (default `UTC`) starts one run of `prompt` with `agent_config` and `metadata` (see the
         *     Schedules tag for how slots fire). The answer is **201** with the schedule, `history.next_run`
         *     holding its first slot (`null` when created with `enabled: false`).
         *
         *     The body is the Oz API's; each Oz field is honoured, accepted with the meaning it has here, or
         *     refused naming it (docs/decisions.md §Oz parity). `agent_config` is checked exactly as a run's
         *     `config` is on `createRun` (environment, skill, MCP servers, limits, refused Oz fields);
         *     `prompt` may be left out when the configuration names a skill, and is then
         *     `Follow the instructions of the skill <skill_spec>.` as for a run. `time_zone` is this service's
         *     own field (the Oz API's schedules are UTC, which stays the default).
         *
         *     * `400 invalid_request`: a body that does not match the schema; `cron_schedule` that is not a
         *       five-field cron expression or nickname, that never fires, or whose slots can come closer
         *       together than the minimum interval (`SCHEDULE_MIN_INTERVAL_SECONDS`, default 300: the detail
         *       names the setting); `time_zone` that is not an IANA time zone; neither `prompt` nor a skill; an
         *       `agent_config` or `metadata` a run would refuse; `agent_uid`, `team: false` or `mode` other
         *       than `normal`.
         *     * `403 not_authorized`: a member key.
         *     * `409 limit_exceeded`: the team already has `SCHEDULES_PER_TEAM` schedules (default 100; the
         *       detail names the setting). `409 conflict` only for `Idempotency-Key` reuse.
         */
        post: operations["createScheduledAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/schedules/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        /**
         * Get a scheduled agent
         * @description One scheduled agent of the team, with its configuration and history. Any role.
         */
        get: operations["getScheduledAgent"];
        /**
         * Update a scheduled agent
         * @description Replaces the schedule's definition (admin only), as the Oz API's `PUT`: `name`, `cron_schedule`
         *     and `enabled` are required, and `prompt`, `agent_config` and `metadata` are what the body says —
         *     one left out is cleared. `time_zone` is the exception: this service's own field, which Oz clients
         *     do not send, so leaving it out keeps the schedule's zone (an Oz client's update never moves a
         *     schedule to UTC). The same checks as on create apply. Changes apply to runs started afterwards;
         *     `updated_by` becomes the caller's key.
         *
         *     `history.next_run` is computed again from now when `cron_schedule`, `time_zone` or `enabled`
         *     changes (slots that passed meanwhile are not made up); otherwise the pending slot stays.
         *     `enabled: false` pauses the schedule and `true` resumes it, as `pauseScheduledAgent` and
         *     `resumeScheduledAgent` do.
         *
         *     * `400 invalid_request`: as on create.
         *     * `403 not_authorized`: a member key.
         */
        put: operations["updateScheduledAgent"];
        post?: never;
        /**
         * Delete a scheduled agent
         * @description Deletes the schedule (admin only): no slot fires afterwards. The answer is **200**
         *     `{success: true}`, as in the Oz API. The runs it started stay: their `schedule` (name and
         *     expression as they were when each run started) is still answered, and
         *     `GET /agent/runs?schedule_id=` still finds them.
         */
        delete: operations["deleteScheduledAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/schedules/{scheduleId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a scheduled agent
         * @description Sets `enabled` to `false` (admin only): no slot fires until it is resumed, and `history.next_run`
         *     is `null`. A run it already started is not touched. Pausing a paused schedule changes nothing and
         *     answers it again. No body.
         */
        post: operations["pauseScheduledAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/schedules/{scheduleId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a scheduled agent
         * @description Sets `enabled` to `true` (admin only): the schedule fires again from its first slot after now
         *     (`history.next_run`); slots that passed while it was paused are not made up. Resuming an enabled
         *     schedule changes nothing and answers it again. No body.
         */
        post: operations["resumeScheduledAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List factories
         * @description Lists the team's factories, newest first.
         */
        get: operations["listFactories"];
        put?: never;
        /**
         * Create a factory
         * @description Creates a factory (admin only). `definition_source` (default `api`) is fixed at creation: an
         *     `api` factory is changed through this REST API; a `files` factory only by
         *     `POST /factories/{factoryUid}/definitions/apply`. Factory names are unique within the team.
         */
        post: operations["createFactory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        /**
         * Get a factory
         * @description One factory of the team.
         */
        get: operations["getFactory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dispatch a factory run
         * @description Dispatches work to a factory: starts a run that belongs to the factory (`factory_uid` set,
         *     source `API`). This replaces Oz's `agent_identity_uid` on `POST /agent/runs`. Members may
         *     dispatch. Once dispatched, follow-ups, cancellation, events and status work as for any run.
         *     Answers **200** with `{run_id, task_id, state}`, exactly as `POST /agent/runs` (a run is created,
         *     not a factory resource); a team whose monthly budget is spent gets `409 limit_exceeded`, as there.
         */
        post: operations["dispatchFactoryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/definitions/apply": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply definition files
         * @description Applies the complete set of definition files of a `files` factory (admin only; an `api` factory
         *     answers `409 conflict`). The files given are the whole desired state: webhooks and automations
         *     created by earlier applies whose files are absent are deleted (listed in `deleted`). Items keep
         *     their UID across applies (matched by file path). The apply is atomic: if any file is invalid,
         *     nothing changes and the answer is `422 validation_failed` with one `file_errors` item per
         *     problem.
         *
         *     **`webhooks/<name>.yaml`** (YAML mapping): `authMode` (`token`, `url_token` or `signature`,
         *     default `token`), `signatureScheme` (required for `signature`; see `SignatureScheme`),
         *     `secretName` (required; must name an existing team secret, whose value must be URL-safe —
         *     `[A-Za-z0-9_-]` only — for `url_token`), `deliveryIdHeader` (optional), `enabled` (default
         *     `true`), `name` (display name; default `<name>`). Other keys are errors. The webhook takes the
         *     secret's value when the file applies; a later change of the team secret takes effect at the next
         *     apply or when the webhook's Enabled is toggled off and on.
         *
         *     **`automations/<name>.md`**: YAML front matter between `---` lines with `name` (default
         *     `<name>`), `enabled` (default `true`), optional `config` (AmbientAgentConfig) and `triggers` (list
         *     of `{provider: webhook, event: received, filter: {webhook_ids: [webhook UIDs, not file names],
         *     payload?}}`); the Markdown body is the prompt (at most 262,144 characters).
         *
         *     YAML anchors and aliases are allowed, but a file whose aliases expand past 100 uses (a "billion
         *     laughs" document) is an error of that file.
         */
        post: operations["applyFactoryDefinitions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/test-filter": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test a draft trigger
         * @description Test filter for an automation that is not saved yet: evaluates `trigger` against a stored
         *     delivery of this factory and reports `Would trigger` or `Would not trigger` with the outcome of
         *     the webhook check (is the delivery's webhook among `webhook_ids`) and the payload check (does
         *     the stored payload match `filter.payload`; `path` names the first filter key that did not
         *     match). Nothing is started. Only `Accepted` deliveries keep a payload: testing against another
         *     delivery answers `409 conflict`. An invalid filter answers `422` with its JSON path.
         */
        post: operations["testDraftFilter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Lists the factory's webhooks, newest first. Secrets are never included.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Creates a webhook in an `api` factory (admin only; a `files` factory answers `409 conflict`).
         *     Webhook names are unique within the factory. A factory holds at most 20 webhooks: the 21st
         *     answers `409 limit_exceeded`.
         *
         *     The credential:
         *     * If `secret_name` names an **existing team secret**, the webhook uses its value and the answer's
         *       `secret` is `null` (the value is not shown).
         *     * Otherwise the service generates the secret (`token`, `url_token`, and `signature` with
         *       `standard-webhooks` when `provider_secret` is blank) or takes `provider_secret` (`signature`),
         *       stores it as a team secret named `secret_name` and answers it **once** in `secret`. When
         *       `secret_name` is omitted the suggested name is used: `WEBHOOK_<NAME>_SECRET`, where `<NAME>`
         *       is the webhook name uppercased with every run of characters other than `A–Z` and `0–9`
         *       replaced by `_` (for example `GitHub issues` → `WEBHOOK_GITHUB_ISSUES_SECRET`); if a team
         *       secret with the suggested name already exists the answer is `409 conflict` (pass `secret_name`
         *       explicitly).
         *     * For a `signature` webhook whose provider issues its secret only after seeing the URL, leave
         *       `provider_secret` blank (schemes other than `standard-webhooks`): `secret` is `null`,
         *       `secret_configured` is `false` and deliveries are rejected with `401` until the secret is set
         *       with `POST …/rotate-secret` `{provider_secret}`.
         *
         *     For `url_token` webhooks, `ingress_url` in this answer embeds the real token (it is the
         *     credential); everywhere else it renders the token as `{token}`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks/{webhookUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description One webhook. The secret is never included; for `url_token` webhooks `ingress_url` renders the
         *     token as `{token}`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deletes the webhook (admin only; on a `files` factory remove its file and apply instead → `409`
         *     here). Senders get `404` from then on. Automations that select it stay visible (its
         *     `selected_webhooks` state becomes `deleted`) but it no longer fires them. Its team secret is kept.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook
         * @description Changes `name`, `enabled` or `delivery_id_header` (admin only). Omitted fields keep their value;
         *     `delivery_id_header: null` clears it.
         *
         *     * Disabling makes senders get `404`; automations and the delivery log are untouched. Enabling
         *       resumes deliveries, and re-applies the webhook's definition: it takes the current value of its
         *       team secret (`secret_name`), which is how a changed secret reaches a webhook without rotation.
         *     * On a `files` factory only `enabled` may change; renaming or changing `delivery_id_header`
         *       answers `409 conflict` (change the files and apply them again).
         *     * A name already used by another webhook of the factory answers `409 conflict`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks/{webhookUid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook's secret
         * @description Replaces the webhook's secret (admin only) and answers the new one **once** in `secret`.
         *
         *     * Empty body (or `{}`): the service generates a new secret (for `signature` webhooks only with
         *       the `standard-webhooks` scheme; other schemes need `provider_secret`, else `422`).
         *     * `{provider_secret}` (`signature` webhooks only, else `422`): sets the provider's new signing
         *       secret. This is also the second step for a provider that issues its secret only after it was
         *       given the URL.
         *
         *     The new value is written to the team secret `secret_name`. **The old secret stops working
         *     immediately; there is no overlap.** For zero downtime, create a second webhook, move the sender
         *     to it, then delete the first.
         *
         *     On a `files` factory rotation answers `409 conflict`: give the team secret a new value
         *     (`PUT /secrets/{name}`) and re-apply the definitions (or toggle the webhook's Enabled off and on).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks/{webhookUid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        /**
         * List recent deliveries
         * @description The webhook's delivery log, newest first (Recent deliveries). At least the 50 most recent
         *     deliveries and 7 days of history are kept. Entries in lists never include `payload`; get one
         *     delivery to see it. Deliveries answered `404` (webhook unknown or disabled), `405` or `429` are
         *     not logged.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks/{webhookUid}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description Delivery ID (`dlv_…`).
                 * @example dlv_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                deliveryId: components["parameters"]["DeliveryId"];
            };
            cookie?: never;
        };
        /**
         * Get a delivery
         * @description One delivery log entry. For an `Accepted` delivery it includes the stored `payload` (the parsed
         *     JSON body); rejected and duplicate entries record metadata only. Entries past retention answer
         *     `404`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/webhooks/{webhookUid}/deliveries/{deliveryId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description Delivery ID (`dlv_…`).
                 * @example dlv_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                deliveryId: components["parameters"]["DeliveryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery
         * @description Re-evaluates an `Accepted` delivery against the factory's automations as they are now and starts
         *     a run for each match (admin only). No new log entry is written and the delivery's identity is not
         *     checked again. Answers the runs it started (possibly none). Any other label answers
         *     `409 conflict` (nothing stored to replay).
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/automations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        /**
         * List automations
         * @description Lists the factory's automations, newest first.
         */
        get: operations["listAutomations"];
        put?: never;
        /**
         * Create an automation
         * @description Creates an automation in an `api` factory (admin only; a `files` factory answers `409`).
         *     Automation names are unique within the factory. `webhook_ids` are webhook UIDs (not names);
         *     UIDs that name no webhook of the factory are accepted and shown with state `unknown` in
         *     `selected_webhooks`. An invalid payload filter answers `422 validation_failed` with the JSON path
         *     of the offending value (see `PayloadFilter`).
         */
        post: operations["createAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/factories/{factoryUid}/automations/{automationUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        /**
         * Get an automation
         * @description One automation, with the state of each webhook it selects.
         */
        get: operations["getAutomation"];
        put?: never;
        post?: never;
        /**
         * Delete an automation
         * @description Deletes the automation (admin only; on a `files` factory remove its file and apply instead →
         *     `409` here). Runs it already started are not affected.
         */
        delete: operations["deleteAutomation"];
        options?: never;
        head?: never;
        /**
         * Update an automation
         * @description Changes the given fields (admin only); `triggers`, when given, replaces the whole list. On a
         *     `files` factory only `enabled` may change (`409` otherwise). An invalid payload filter answers
         *     `422` with its JSON path.
         */
        patch: operations["updateAutomation"];
        trace?: never;
    };
    "/factories/{factoryUid}/automations/{automationUid}/test-filter": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test a saved automation's filter
         * @description Test filter: evaluates the saved automation's triggers against a stored delivery of this factory
         *     and reports `Would trigger` or `Would not trigger`, with the outcome of the webhook check and the
         *     payload check. Nothing is started. With several triggers the result is `Would trigger` if any
         *     trigger matches; the checks reported are those of the first matching trigger, else of the first
         *     trigger whose webhook check passed, else of the first trigger. Only `Accepted` deliveries keep a
         *     payload: testing another answers `409 conflict`. A disabled automation is tested as if enabled.
         */
        post: operations["testAutomationFilter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List team secrets
         * @description Lists the names of the team's secrets, sorted by name. Values are never returned. Admin only.
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Secret name.
                 * @example GITHUB_WEBHOOK_SECRET
                 */
                name: components["schemas"]["SecretName"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Create or replace a team secret
         * @description Creates the secret or replaces its value (admin only); answers **200** with the name and
         *     timestamps, never the value. Values are encrypted at rest. Webhooks that use the secret keep the
         *     value they took until their definition next applies (definition apply, or toggling the webhook's
         *     Enabled off and on). A value used by a `url_token` webhook must be URL-safe (`[A-Za-z0-9_-]`,
         *     else `422`).
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a team secret
         * @description Deletes the secret (admin only). A secret that a webhook names in `secret_name` cannot be deleted:
         *     `409 conflict` naming the webhooks.
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Lists the team's API keys, newest first, without their values. Admin only.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Creates an API key for the caller's team (admin only). The key value `api_key` is in this answer
         *     only; it is stored hashed and cannot be shown again. A team holds at most `API_KEYS_PER_TEAM`
         *     (default 50) active keys: one more answers `409 limit_exceeded`.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the calling API key and its team
         * @description The API key the request is made with (without its value) and its team. Any role: a client learns
         *     whom it acts for and whether it may manage the team's resources (`role`).
         */
        get: operations["getCurrentApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description API key ID (`key_…`).
                 * @example key_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                keyId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an API key
         * @description Deletes (revokes) the key at once (admin only); requests with it get `401` from then on. An admin
         *     may delete the key it is calling with.
         *
         *     * `409 conflict`: the key is the team's last admin key (a team cannot lock itself out; create
         *       another admin key first). Two admins deleting each other's keys at the same moment leave one.
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notification subscriptions
         * @description The team's subscriptions, newest first. Signing secrets are never included.
         */
        get: operations["listNotificationSubscriptions"];
        put?: never;
        /**
         * Subscribe an endpoint to run events
         * @description Subscribes an HTTPS endpoint of the team to run events (admin only) and answers the subscription
         *     with its signing `secret` **once** (`whsec_…`; it is never shown again, see `rotate-secret`).
         *     Events of runs whose state changes after this call commits are delivered to `url`, signed, as
         *     the Notifications tag describes. A team holds at most 20 subscriptions (a server setting): one
         *     more answers `409 limit_exceeded`.
         *
         *     Refused up front with `400 invalid_request` naming `$.url`: a URL that is not `https` (plain
         *     `http` only for a host the operator lists in `NOTIFICATIONS_ALLOWED_HOSTS`), that carries a user
         *     name, password or fragment, that is longer than 2048 characters, or whose host is an IP address of
         *     a loopback, private, link-local, carrier-grade NAT or other non-public range (unless the operator
         *     listed that exact IP). A host name is checked when each delivery connects: an address it resolves
         *     to that is not public is refused then (the attempt fails), whatever the name.
         *
         *     `filter.factory_uid` must name a factory of the team and `filter.automation_id` an automation of
         *     the team (of that factory when both are given); otherwise `422 validation_failed` naming the field.
         */
        post: operations["createNotificationSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/subscriptions/{subscriptionUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        /**
         * Get a notification subscription
         * @description One subscription, never with its signing secret.
         */
        get: operations["getNotificationSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a notification subscription
         * @description Deletes the subscription, its waiting events and its attempts log (admin only). An attempt already
         *     on the wire still completes; nothing is sent after it.
         */
        delete: operations["deleteNotificationSubscription"];
        options?: never;
        head?: never;
        /**
         * Update a notification subscription
         * @description Changes `url`, `event_types`, `description`, `filter` or `enabled` (admin only); omitted fields
         *     keep their value, `description: null` clears it, and `filter` replaces the whole filter (`{}`
         *     matches every run). The same rules as on create apply (`400` naming `$.url`, `422` naming a filter
         *     field). New values apply to state changes that commit after the update; events already waiting
         *     keep the URL, secret and payload of their delivery.
         *
         *     * `enabled: false` stops the subscription: no new events are recorded for it and every event still
         *       waiting is given up (its attempts log shows why). `disabled_reason` becomes `manual`.
         *     * `enabled: true` re-enables a subscription disabled by hand or automatically (`disabled_reason:
         *       failing`), clears `disabled_reason` and `failing_since`, and starts with the next state change;
         *       given-up events can be sent again with `replay`.
         */
        patch: operations["updateNotificationSubscription"];
        trace?: never;
    };
    "/notifications/subscriptions/{subscriptionUid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a subscription's signing secret
         * @description Generates a new signing secret (admin only) and answers it **once** in `secret`.
         *
         *     **Overlap:** for 24 hours after the rotation (a server setting, `NOTIFICATIONS_SECRET_OVERLAP_HOURS`)
         *     every delivery carries two signatures in `webhook-signature`, `v1,<signed with the new secret>
         *     v1,<signed with the previous one>`, so a receiver still configured with the previous secret keeps
         *     verifying until it is updated; `previous_secret_expires_at` says until when. Standard Webhooks
         *     verifiers accept a header when any one of its signatures matches. Rotating again within the overlap
         *     drops the oldest secret at once: only the current and the one before it ever sign.
         */
        post: operations["rotateNotificationSubscriptionSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/subscriptions/{subscriptionUid}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        /**
         * List delivery attempts
         * @description The subscription's delivery attempts, newest first: one entry per HTTP request made (or refused
         *     before it was made) with its status code, latency, an excerpt of the response body (at most 1024
         *     bytes, a setting), the error, the attempt number and when the next attempt is due. Also an entry
         *     for an event that was waiting when the subscription was disabled (`failed`, nothing sent). Entries are kept
         *     for 30 days (a setting, `NOTIFICATIONS_RETENTION_DAYS`); so are delivered and given-up events, which
         *     `replay` can send again until then.
         */
        get: operations["listNotificationAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/subscriptions/{subscriptionUid}/events/{eventId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
                /**
                 * @description Event ID (`evt_…`), the `webhook-id` of its deliveries.
                 * @example evt_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                eventId: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again
         * @description Queues a fresh attempt of one event of this subscription, due now (admin only), whether the event
         *     was delivered, given up or is still being retried; its retry window starts again. The event keeps
         *     its `webhook-id` and body (the run as it was when its state changed), and is signed with the
         *     current secret. It is delivered in order with the run's other events to this subscription: a
         *     replayed older event goes out before newer events of the same run still waiting. Answers `202`
         *     with when it is due; its attempts appear in the attempts log.
         *
         *     `404` for an event this subscription never had (or one past retention); `409 conflict` while the
         *     subscription is disabled (enable it first).
         */
        post: operations["replayNotificationEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the team's monthly budget
         * @description The team's monthly budget (tokens and/or USD cost per calendar month, UTC) and what the team has
         *     used of it this month. Any role. A team without a budget answers both limits `null`.
         */
        get: operations["getTeamBudget"];
        /**
         * Set the team's monthly budget
         * @description Replaces the team's monthly budget (admin only): `max_tokens_per_month` and `max_cost_usd_per_month`,
         *     each a limit or `null` (absent is `null`: no limit). Takes effect at once: a team whose usage this
         *     month reaches a limit cannot start runs (`409 limit_exceeded`), and its runs in flight fail
         *     `budget_exceeded` at their next model call. Raising or removing the limit lets runs start again.
         *
         *     * `400 invalid_request`: a limit that is not a positive number, or `max_cost_usd_per_month` while
         *       the server prices no model (`MODEL_PRICES` is empty), naming the field.
         */
        put: operations["updateTeamBudget"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the team's usage of one month
         * @description The tokens (and, where the server prices models, the USD cost) the team's runs spent in one
         *     calendar month (UTC), in total and per model, most used model first. Usage counts in the month
         *     the model call was answered, so a run working across midnight at the month's end counts in both.
         *     Any role.
         */
        get: operations["getTeamUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's audit events
         * @description What the team's admins changed, newest first: one event per successful change, recorded in the same
         *     database transaction as the change. Admin only. Filters combine (all must hold); a cursor is valid
         *     only with the filters it was issued for.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/w/{webhookUid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event (token or signature mode)
         * @description The URL external senders POST events to: `{ingress_url}/webhooks/w/<webhook_uid>`, for webhooks
         *     in `token` and `signature` mode (`url_token` webhooks use the path with the token segment; a
         *     `url_token` webhook addressed here fails authentication). The body is any valid JSON (object,
         *     array or scalar) of at most 256 KB (262,144 bytes); `Content-Type` is not enforced. Only `POST`
         *     is accepted: any other method answers `405` with `Allow: POST`.
         *
         *     **Credentials by mode**
         *     * `token`: header `Authorization: Bearer <webhook secret>`.
         *     * `url_token`: the secret is the last path segment (see `receiveWebhookDeliveryWithToken`).
         *     * `signature`: the provider's own signature headers, verified with the provider's signing secret
         *       (see `SignatureScheme`): `standard-webhooks` (`webhook-id`, `webhook-timestamp`,
         *       `webhook-signature`; the Svix `svix-*` equivalents are accepted), `stripe`
         *       (`Stripe-Signature`), `slack` (`X-Slack-Signature`, `X-Slack-Request-Timestamp`), `github`
         *       (`X-Hub-Signature-256`), `shopify` (`X-Shopify-Hmac-Sha256`), `linear` (`Linear-Signature`),
         *       `gitlab` (`X-Gitlab-Token`). An unsigned request answers `401`. Signatures older than five
         *       minutes are rejected for `standard-webhooks` and `stripe`.
         *
         *     **Check order** (the first failing check answers):
         *     1. `405` method is not `POST` (not logged);
         *     2. `404` webhook unknown, disabled or deleted (not logged);
         *     3. `token` and `url_token` webhooks: `401` the credential is missing or wrong, checked before the
         *        body is read → logged `Rejected (auth)` with the declared `Content-Length` as its size;
         *     4. `413` body larger than 262,144 bytes → logged `Rejected (too large)` (for `token` and
         *        `url_token` webhooks only an authenticated sender gets here);
         *     5. `signature` webhooks: `401` the signature over the body is missing or wrong → logged
         *        `Rejected (auth)`;
         *     6. `429` the webhook's delivery rate is spent: 60 authenticated deliveries per minute per
         *        webhook (a setting); not logged;
         *     7. `400` body is not valid JSON → logged `Rejected (invalid JSON)`;
         *     8. identity and deduplication;
         *     9. `202` `{delivery_id}`.
         *
         *     **Failed-authentication budget.** Every `401`, and every `413` of a `signature` webhook (its
         *     sender cannot be authenticated without the body), takes one attempt of the sender address's
         *     failed-authentication budget for this webhook (10 failed attempts per minute, a setting) before it
         *     is answered and logged; an attempt that finds the budget spent answers `429` instead and is not
         *     logged, so a sender without credentials cannot fill the delivery log. Only failures count and only
         *     failures are refused: a delivery whose credential checks out is never answered `429` by this
         *     budget, so nobody can lock a webhook's real sender out by failing from its address (or from the
         *     load balancer's). The sender address is the connecting peer; when the peer is one of the
         *     operator's trusted proxies (`TRUST_PROXY`), it is the right-most `X-Forwarded-For` address that is
         *     not a trusted proxy. IPv6 addresses count by their /64 prefix.
         *
         *     **Delivery identity**, in order of preference: (a) the header named by the webhook's
         *     `delivery_id_header`; (b) the provider's own delivery header for signed webhooks
         *     (`standard-webhooks`: `webhook-id`/`svix-id`; `github`: `X-GitHub-Delivery`; `shopify`:
         *     `X-Shopify-Webhook-Id`; `linear`: `Linear-Delivery`; `gitlab`: `X-Gitlab-Event-UUID`; `stripe`
         *     and `slack` have none); (c) the `X-Service-Delivery-Id` header set by the sender; (d) the SHA-256
         *     of the body (`sha256:<hex>`). Identities are remembered per webhook for the delivery-log retention
         *     window (7 days, a setting). A delivery whose identity was already accepted answers `202` with its
         *     own `delivery_id`, starts nothing and is logged `Duplicate` with `duplicate_of` naming the
         *     accepted one. Without a sender-set ID, identical bodies are duplicates.
         *
         *     **Replayed signed deliveries.** The `github`, `shopify` and `linear` signatures cover the body
         *     alone, and `stripe` and `slack` sign a timestamp but no delivery ID: a captured delivery would
         *     verify again under a new, another or no delivery ID (for `stripe` and `slack` within the
         *     five-minute signature age, for `linear` within its one-minute `webhookTimestamp` window). For these
         *     schemes the SHA-256 of the body is remembered as well, for the same retention window: a delivery
         *     whose body was already accepted for the webhook is a `Duplicate` of that entry whatever its
         *     identity (`202`, its own `delivery_id`, starts nothing). A sender that legitimately re-sends an
         *     identical body under a new delivery ID gets the same answer: it is a duplicate too. `standard-webhooks`
         *     signs the delivery ID itself, and `gitlab`'s token binds no body (like the `token` modes), so their
         *     deliveries are told apart by identity alone.
         *
         *     `202` means accepted for evaluation, not that an automation fired: each automation with a Webhook
         *     trigger selecting this webhook whose payload filter matches starts a new factory run, whose
         *     prompt is the automation's prompt plus a platform envelope naming the webhook and the delivery ID;
         *     the body is attached as `event-payload.json`, and the envelope says the payload is the request to
         *     act on and that instructions inside it are untrusted context. Deliveries are independent: no
         *     ordering guarantee, no reply.
         */
        post: operations["receiveWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/w/{webhookUid}/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description The webhook secret of a `url_token` webhook. The URL is itself the credential.
                 * @example Q2xK8vN3pR5tW7yZ1bD4fH6jL9mP0sU2xA5cE8gI
                 */
                token: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event (URL token mode)
         * @description The URL of a `url_token` webhook: `{ingress_url}/webhooks/w/<webhook_uid>/<secret>`. The URL
         *     embeds the secret and is itself the credential: treat it as secret and rotate it if it leaks.
         *     A wrong token, or this path for a webhook in another mode, fails authentication (`401`, logged
         *     `Rejected (auth)`). Everything else — body rules, `405` for other methods, check order, limits,
         *     identity and deduplication — is as for `receiveWebhookDelivery`.
         */
        post: operations["receiveWebhookDeliveryWithToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `200 {"status": "ok"}` while the process is up. Does not touch the database.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers `200` when the process can serve traffic (database reachable, migrations applied, secrets
         *     key loaded) and `503` with `Retry-After` otherwise; `checks` gives each check's outcome.
         *     `sandbox` says how run processes are isolated here (`SANDBOX`, `SANDBOX_NETWORK`): an unavailable
         *     sandbox does not make the process unready (runs that need no process still work), but every run
         *     that needs one fails with `sandbox_unavailable` until the operator fixes what `problems` names.
         *     `roles` says what this process serves (`ROLE`): several processes may share one PostgreSQL
         *     database, each serving some of `api`, `ingress` and `worker`.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Metrics in the Prometheus text exposition format (version 0.0.4). The `route` label of REST requests
         *     is the operation's `operationId` (the same for `/api/v1/agent/runs` and any other spelling of its
         *     path); the ingress is `/webhooks/w/{webhookUid}`; the operational endpoints are their paths.
         *     `process_role` has the value 1 for each role this process serves (`ROLE`).
         *
         *     They count the whole service (every team's runs and deliveries), so they are not public: with the
         *     operator's `METRICS_TOKEN` set, a scraper sends `Authorization: Bearer <METRICS_TOKEN>` (not an API
         *     key) from anywhere, else `401`; without it, only clients on the server's own host (loopback) are
         *     answered, others get `403`.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    runNotification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A run event, as POSTed to a subscription's URL
         * @description What the service sends to each subscription's `url` (see the Notifications tag for the signature,
         *     retries and ordering). Answer `2xx` within 15 seconds; verify the signature on the raw body first.
         */
        post: operations["receiveRunNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        /**
         * @description RFC 7807 problem details (`application/problem+json`), shaped as in the Oz API. Every `4xx` and
         *     `5xx` answer uses it. See the Errors section of the introduction for the codes.
         */
        Error: {
            /**
             * Format: uri
             * @description `https://agent-runs.dev/errors/<code>`; the code is the last path segment.
             * @example https://agent-runs.dev/errors/resource_not_found
             */
            type: string;
            /** @description Short summary of the error code. */
            title: string;
            /** @description The HTTP status. */
            status: number;
            /** @description Explanation of this occurrence. */
            detail: string;
            /** @description The request path (`*` for a request refused before it could be read). */
            instance: string;
            /** @description `title` and `detail` in one human-readable string. */
            error: string;
            /** @description Whether repeating the same request may succeed. */
            retryable: boolean;
            /** @description Equals the response's `x-request-id` header. */
            trace_id: string;
            /** @description For `400` and `422`, one item per offending value. */
            errors?: components["schemas"]["ErrorDetail"][];
            /** @description For definition apply, one item per problem in a file. */
            file_errors?: components["schemas"]["FileError"][];
        };
        ErrorDetail: {
            /** @description JSON path of the offending value from the request body root `$` (query and path parameters use `query.<name>` and `path.<name>`). */
            path: string;
            message: string;
        };
        FileError: {
            /** @description Path of the definition file, as given. */
            file: string;
            message: string;
        };
        /**
         * @description State of a run.
         *
         *     | state | meaning |
         *     |---|---|
         *     | `QUEUED` | created, waiting to be picked up |
         *     | `PENDING` | being prepared (environment, attachments) |
         *     | `CLAIMED` | claimed by a worker, about to start |
         *     | `INPROGRESS` | executing |
         *     | `BLOCKED` | the agent asked a question (`status_message.message`) and waits for the answer, a follow-up that resumes it; it holds no worker and ends `FAILED` `blocked_timeout` after `RUN_BLOCKED_TIMEOUT_SECONDS` |
         *     | `SUCCEEDED` | finished successfully (terminal) |
         *     | `FAILED` | the agent failed (terminal) |
         *     | `ERROR` | the platform failed (terminal) |
         *     | `CANCELLED` | cancelled through `cancelRun` (terminal) |
         *
         *     A follow-up re-queues a `BLOCKED`, `SUCCEEDED`, `FAILED` or `ERROR` run.
         * @enum {string}
         */
        RunState: "QUEUED" | "PENDING" | "CLAIMED" | "INPROGRESS" | "SUCCEEDED" | "FAILED" | "BLOCKED" | "ERROR" | "CANCELLED";
        /**
         * @description Where a run came from. This service emits `API` (REST, including factory dispatch and child runs
         *     created with `parent_run_id`), `WEBHOOK` (started by a webhook delivery through an automation) and
         *     `SCHEDULED_AGENT` (started by a scheduled agent; its `schedule` names it); the other values exist in
         *     the Oz API (so an Oz client's `source` filter is valid here and matches no run).
         * @enum {string}
         */
        RunSourceType: "API" | "CLI" | "WEB_APP" | "SCHEDULED_AGENT" | "WEBHOOK" | "SLACK" | "LINEAR" | "GITHUB_ACTION" | "CLOUD_MODE" | "INTERACTIVE" | "LOCAL" | "JIRA" | "SELF_IMPROVEMENT" | "GITHUB_WEBHOOK" | "GITLAB_WEBHOOK" | "AUTOFIX" | "RUN_SCORER" | "ORCHESTRATION";
        /**
         * @description Where a run executed (Oz API). Every run of this service executes on its workers, `REMOTE`.
         * @enum {string}
         */
        RunExecutionLocation: "LOCAL" | "REMOTE";
        /**
         * @description The types of run artifacts (`ArtifactItem.artifact_type`), as in the Oz API.
         * @enum {string}
         */
        RunArtifactType: "PLAN" | "PULL_REQUEST" | "SCREENSHOT" | "FILE" | "EXTERNAL_REFERENCE";
        /**
         * @description Something a run published for clients to read without scraping its conversation (Oz API shape),
         *     by `artifact_type`. How a run publishes them: the command runner's `/workspace/.artifacts/`
         *     directory and its `::artifact::` output lines, the model runner's `publish_artifact` tool
         *     (README §Real runners, docs/decisions.md §Artifacts). `FILE`, `SCREENSHOT` and `PLAN` items carry
         *     an `artifact_uid` for `getArtifact`; `PULL_REQUEST` and `EXTERNAL_REFERENCE` items are links.
         */
        ArtifactItem: components["schemas"]["PlanArtifact"] | components["schemas"]["PullRequestArtifact"] | components["schemas"]["ScreenshotArtifact"] | components["schemas"]["FileArtifact"] | components["schemas"]["ExternalReferenceArtifact"];
        PlanArtifact: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "PLAN";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["PlanArtifactData"];
        };
        PullRequestArtifact: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "PULL_REQUEST";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["PullRequestArtifactData"];
        };
        ScreenshotArtifact: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "SCREENSHOT";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["ScreenshotArtifactData"];
        };
        FileArtifact: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "FILE";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["FileArtifactData"];
        };
        ExternalReferenceArtifact: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "EXTERNAL_REFERENCE";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["ExternalReferenceArtifactData"];
        };
        /** @description A plan (Markdown). Read its content with `getArtifact`. */
        PlanArtifactData: {
            /** @description The artifact's UID, for `getArtifact`. */
            artifact_uid?: string;
            /** @description Equal to `artifact_uid` (this service has no separate plan documents). */
            document_uid: string;
            /** @description Equal to `artifact_uid`. */
            notebook_uid?: string;
            /** @description The plan's first Markdown heading, or the title the model gave it. */
            title?: string;
        };
        /**
         * @description A pull request or pushed branch. The server publishes one per repository of the run's environment
         *     whose files the run changed (see `createEnvironment`): `url` is the pull request's (`auto_pr`) or
         *     else the forge's compare page of `branch` against the base branch.
         */
        PullRequestArtifactData: {
            /**
             * Format: uri
             * @description The pull request's URL (`http` or `https`, at most 2048 characters). Never fetched by the server.
             */
            url: string;
            /** @description The pull request's branch (at most 256 characters). */
            branch: string;
        };
        /** @description An image (PNG, JPEG, GIF or WebP, recognised by its first bytes). Download it with `getArtifact`. */
        ScreenshotArtifactData: {
            artifact_uid: string;
            mime_type: string;
            description?: string;
        };
        /** @description A file the run published. Download it with `getArtifact`. */
        FileArtifactData: {
            artifact_uid: string;
            /**
             * @description The file's path relative to the run's artifact directory (`/workspace/.artifacts/`), `/`
             *     separated, or the name the model gave it.
             */
            filepath: string;
            /** @description The last component of `filepath`. */
            filename: string;
            title?: string;
            description?: string;
            /** @description Guessed from the file name's extension; `application/octet-stream` when unknown. */
            mime_type: string;
            size_bytes?: number;
        };
        /** @description A link to something outside this service (an issue, a document, a deployment). */
        ExternalReferenceArtifactData: {
            /** @description Free-form category (`linear_issue`, `spec_link`, …). */
            reference_type: string;
            /**
             * @description The reference's URL (`http` or `https`). `getRunByExternalReferenceURL` finds the run by it.
             *     Never fetched by the server.
             */
            url: string;
            title?: string;
            /** @description Category-specific extra fields (at most 4096 bytes of JSON). */
            metadata?: {
                [key: string]: unknown;
            };
        };
        /** @description An artifact as `getArtifact` answers it, by `artifact_type` (Oz API shape). */
        ArtifactResponse: components["schemas"]["PlanArtifactResponse"] | components["schemas"]["ScreenshotArtifactResponse"] | components["schemas"]["FileArtifactResponse"];
        PlanArtifactResponse: {
            artifact_uid: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "PLAN";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["PlanArtifactResponseData"];
        };
        PlanArtifactResponseData: {
            document_uid: string;
            notebook_uid: string;
            title?: string;
            /** @description The plan's Markdown. */
            content: string;
            /** @description `text/markdown`. */
            content_type: string;
        };
        ScreenshotArtifactResponse: {
            artifact_uid: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "SCREENSHOT";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["ScreenshotArtifactResponseData"];
        };
        ScreenshotArtifactResponseData: {
            /**
             * Format: uri
             * @description Signed, time-limited URL of the image (`getArtifactContent`); needs no API key.
             */
            download_url: string;
            /** Format: date-time */
            expires_at: string;
            content_type: string;
            description?: string;
        };
        FileArtifactResponse: {
            artifact_uid: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            artifact_type: "FILE";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["FileArtifactResponseData"];
        };
        FileArtifactResponseData: {
            /**
             * Format: uri
             * @description Signed, time-limited URL of the file (`getArtifactContent`); needs no API key.
             */
            download_url: string;
            /** Format: date-time */
            expires_at: string;
            content_type: string;
            filepath?: string;
            filename: string;
            title?: string;
            description?: string;
            size_bytes?: number;
        };
        RunByExternalReferenceResponse: {
            run_id: string;
        };
        /**
         * @description Custom key/value strings attached to a run when it is created and never changed afterwards, with the
         *     Oz API's limits: at most 20 keys; keys of 1–64 characters from `A-Z a-z 0-9 . _ -` (case-sensitive);
         *     values of at most 256 bytes of UTF-8 without NUL (checked by the server: `400 invalid_request` naming
         *     `$.metadata.<key>`). A child run (`parent_run_id`) inherits its parent's
         *     metadata, and the keys given in its request override inherited ones. Filter runs by it with
         *     `GET /agent/runs?metadata[key]=value`.
         */
        RunMetadata: {
            [key: string]: string;
        };
        /**
         * @description Who created the run. Runs created with an API key: `{type: service_account, uid: <key_id>,
         *     display_name: <key name or key_id>}`. Runs started by a webhook delivery: `{type:
         *     service_account, uid: <automation uid>, display_name: <automation name>}`. Runs started by a
         *     scheduled agent: the schedule's `created_by` (the key that created the schedule, as it was then).
         */
        RunCreatorInfo: {
            /** @enum {string} */
            type: "user" | "service_account";
            uid: string;
            display_name: string;
            /** Format: email */
            email?: string;
        };
        /**
         * @description Human-readable status of the run, for example why it failed. For a `BLOCKED` run, `message` is the
         *     agent's question (at most 4,000 characters) and there is no `error_code`.
         */
        RunStatusMessage: {
            message: string;
            /**
             * @description Machine-readable reason for `FAILED`/`ERROR`, for example `run_timeout`, `max_turns_exceeded`,
             *     `model_error`, `image_unavailable` (the environment's `docker_image` could not be resolved,
             *     pulled or unpacked; the message names the image and why), `repository_unavailable` (a
             *     repository of the environment could not be cloned), `blocked_timeout` (the run's question went
             *     unanswered for `RUN_BLOCKED_TIMEOUT_SECONDS`), `budget_exceeded` (the run's `config.max_tokens` /
             *     `config.max_cost` or its team's monthly budget is spent; `message` says which and what was used,
             *     and `retryable` is `false`), `output_limit` (a process of the run wrote more than
             *     `SANDBOX_OUTPUT_BYTES`, or the run's executions together stored more than `RUN_OUTPUT_LIMIT_MB`
             *     of conversation; `message` says how much it stored, what it stored up to the limit stays
             *     readable, and `retryable` is `false`). On a `SUCCEEDED` run, `repository_push_failed`: the work is kept
             *     (diff artifact) but a branch could not be pushed or its pull request opened.
             */
            error_code?: string;
            /** @description Whether a follow-up or a new run may succeed. */
            retryable?: boolean;
        };
        /**
         * @description One MCP server, exactly one of: a local process (`command`, optional `args` and `env`), a remote
         *     HTTP server (`url`, optional `headers`), or (the Oz API's third form) a Warp shared MCP server by
         *     `warp_id`. Mixing the forms is invalid.
         *
         *     `warp_id` names a Warp shared MCP server or a Warp integration (`linear`, …) backed by the team's
         *     connection in Warp. This self-hosted service has neither to look the id up in, and a run that
         *     silently lacked the server would do other work, so the form is accepted by the schema only to be
         *     refused by name: `400 invalid_request` whose detail and `errors[].path` name
         *     `$.config.mcp_servers.<name>.warp_id` on run create (`422 validation_failed` on a saved automation).
         *     Give the same server by `command` or `url` instead.
         */
        MCPServerConfig: components["schemas"]["MCPStdioServerConfig"] | components["schemas"]["MCPHttpServerConfig"] | components["schemas"]["MCPWarpServerConfig"];
        /** MCP server over stdio */
        MCPStdioServerConfig: {
            /** @description Executable to start. */
            command: string;
            /** @description Arguments. */
            args?: string[];
            /** @description Environment variables for the process. */
            env?: {
                [key: string]: string;
            };
        };
        /** MCP server over HTTP */
        MCPHttpServerConfig: {
            /**
             * Format: uri
             * @description Endpoint of the MCP server.
             */
            url: string;
            /** @description Headers sent with every request. */
            headers?: {
                [key: string]: string;
            };
        };
        /**
         * Warp shared MCP server (refused)
         * @description The Oz API's reference to a Warp shared MCP server or integration. Always refused here (see `MCPServerConfig`).
         */
        MCPWarpServerConfig: {
            /** @description A Warp shared MCP server's UUID or a well-known integration id (`linear`). */
            warp_id: string;
        };
        /**
         * @description Agent configuration. On input every field is optional; a run's `agent_config` is the resolved
         *     configuration (for a model run the three limits are always present). Unknown fields are accepted
         *     and ignored (Oz compatibility).
         */
        AmbientAgentConfig: {
            /**
             * @description Label for grouping, filtering and traceability; set to the skill name when a run starts from a
             *     skill. Filter runs with `GET /agent/runs?name=`.
             */
            name?: string;
            /** @description The language model (default `DEFAULT_MODEL_ID`). */
            model_id?: string;
            /** @description Shapes the agent's behaviour. */
            base_prompt?: string;
            /**
             * @description A `CloudEnvironment` of the team (`env_…`). One that names no environment of the team answers
             *     `400 invalid_request` when a run is started through the REST API (`createRun`,
             *     `createRunLegacy`, `dispatchFactoryRun`), `422 validation_failed` on a saved automation or
             *     definition file.
             */
            environment_id?: string;
            /**
             * @description A skill used as the base prompt, `owner/repo:skill-name` or `owner/repo:path/to/SKILL.md`: owner
             *     and repo of letters, digits, `_`, `-` and `.` (not starting with `.` or `-`); a skill name of the
             *     same characters starting with a letter or digit; or a relative path to a `.md` file without
             *     backslashes or `.`/`..` segments. One that does not resolve to a skill answers `400` on run create.
             */
            skill_spec?: string;
            /**
             * @description MCP servers to enable, by name: at most 20 (every server of a run shares the run's memory and
             *     process limits). More answer `400 invalid_request` naming `$.config.mcp_servers` (`$.agent_config.mcp_servers`
             *     on a scheduled agent; `422 validation_failed` on a saved automation or definition file).
             */
            mcp_servers?: {
                [key: string]: components["schemas"]["MCPServerConfig"];
            };
            /**
             * @description The Oz API's ordered skill list, mutually exclusive with `skill_spec` (both → `400`). This service
             *     runs one skill per run: a list of one is taken as `skill_spec` (the run's `agent_config` answers it
             *     there); more than one answers `400 invalid_request` naming `$.config.skills`.
             */
            skills?: string[];
            /**
             * @description Oz API: minutes to keep the agent's environment alive after the task. Accepted (1–60) and without
             *     effect: a run's working directory here is kept by the server's retention setting, not per run.
             */
            idle_timeout_minutes?: number;
            /**
             * @description Oz API: whether the agent may use a computer-use subagent. Accepted and without effect: this
             *     service has no computer use (the Oz default is `true`, so clients send it without asking for it).
             */
            computer_use_enabled?: boolean;
            /**
             * @description Oz API: the self-hosted worker to execute on. Absent or `warp` (Oz's hosted workers) means this
             *     server's workers; any other value answers `400 invalid_request`, since no such worker exists here.
             */
            worker_host?: string;
            /**
             * @description Oz API: the execution harness. Absent, `{}` or `{type: oz}` is this server's runner. `codex`
             *     (Codex), `claude` (Claude Code), and where the server offers them `gemini` (Gemini CLI) and
             *     `opencode` (extension) run that CLI non-interactively in the run's sandbox, in `/workspace`,
             *     with the prompt (a follow-up resumes the CLI's session), `base_prompt` and the MCP servers;
             *     the CLI reaches models only through this server's model gateway, which meters every call into
             *     the run's usage (`harness_auth_secrets` choose the keys). `model_id` is the CLI's model
             *     (absent: the CLI's default) and `reasoning_level` its effort (`minimal`, `low`, `medium`,
             *     `high`, `xhigh`, `max`, mapped to the CLI's nearest), both ignored for `oz`. A type the server
             *     does not offer or has not installed (`GET /agent/harnesses`) answers `400 invalid_request`
             *     naming `$.config.harness.type`. The CLI's events become the conversation: its text as `text`,
             *     its tool calls as `action`/`action_result` (shell `command`, file tools `files`, search
             *     `search`, MCP tools `integration`), its session as an `event` `harness_session`
             *     (`{harness, session_id}`), what it reports spending as `harness_usage`, its warnings and
             *     errors as `harness_notice` and `harness_error`. Exit 0 is `SUCCEEDED`; otherwise `FAILED` with
             *     `error_code` `harness_failed` (its message names the harness and what it said),
             *     `budget_exceeded`, a sandbox limit's code, or `harness_unavailable` (no CLI to run).
             *     With the model runner, `oz` is the built-in agent: beside `read_skill`, `publish_artifact` and
             *     the run's MCP tools it has workspace tools with Claude Code's names and argument schemas, each
             *     run in the run's sandbox in `/workspace`: `Bash {command, timeout?, description?}` (category
             *     `command`), `Read {file_path, offset?, limit?}`, `Write {file_path, content}`,
             *     `Edit {file_path, old_string, new_string, replace_all?}` (category `files`),
             *     `Glob {pattern, path?}` and `Grep {pattern, path?, glob?, output_mode?, -i?}` (category `search`).
             */
            harness?: {
                type?: string;
                model_id?: string;
                reasoning_level?: string;
            } & {
                [key: string]: unknown;
            };
            /**
             * @description Oz API: the team's own provider keys, by the names of team secrets (`PUT /secrets/{name}`). The
             *     run's processes reach models through this server's model gateway (docs/sandbox.md), which then
             *     forwards that provider's requests with the team's key instead of the operator's; the key itself
             *     never enters the sandbox. The built-in agent keeps the operator's provider. A name the team has no
             *     secret for ends the run `FAILED` with `error_code` `harness_auth_secret_not_found` when it starts.
             */
            harness_auth_secrets?: {
                /** @description Oz API. A team secret holding an OpenAI API key, for Chat Completions and Responses requests. */
                codex_auth_secret_name?: components["schemas"]["SecretName"];
                /** @description Oz API. A team secret holding an Anthropic API key, for Messages requests. */
                claude_auth_secret_name?: components["schemas"]["SecretName"];
                /** @description Extension. A team secret holding a Gemini API key, for generateContent requests. */
                gemini_auth_secret_name?: components["schemas"]["SecretName"];
            } & {
                [key: string]: unknown;
            };
            /** @description Oz API. Accepted without effect, as `computer_use_enabled` (this service has no computer use). */
            computer_use_model_id?: string;
            /**
             * @description Oz API: the runner providing the run's compute (platform, instance shape, setup commands). This
             *     service has no runners to choose from (its workers execute every run; setup commands belong to
             *     the `environment_id`), so any value answers `400 invalid_request` naming `$.config.runner_id`.
             */
            runner_id?: string;
            /**
             * @description Oz API: anyone-with-link access to the run's shared session. This service has no link sharing (a
             *     `session_link` opens only for a person signed in with an API key of the team), so an object with a
             *     `public_access` answers `400 invalid_request` naming `$.config.session_sharing`; `{}` is accepted.
             */
            session_sharing?: {
                /** @enum {string} */
                public_access?: "VIEWER" | "EDITOR";
            } & {
                [key: string]: unknown;
            };
            /**
             * @description Oz API: memory stores the agent reads and writes. This service has none; a non-empty list answers
             *     `400 invalid_request` naming `$.config.memory_stores` (an empty one is accepted).
             */
            memory_stores?: {
                [key: string]: unknown;
            }[];
            /**
             * @description Oz API: the LLM inference provider (AWS Bedrock). Runs here call the operator's `MODEL_BASE_URL`;
             *     `{}` and `{aws: {disabled: true}}` are accepted, any other `aws` setting answers `400
             *     invalid_request` naming `$.config.inference_providers.aws`.
             */
            inference_providers?: {
                aws?: {
                    disabled?: boolean;
                    role_arn?: string;
                    region?: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
            /**
             * @description Oz API: whose credentials the platform uses when it mints tokens (GitHub, GitLab) for the run.
             *     Accepted without effect: this service mints no tokens for runs (a run's credentials are its
             *     environment's variables).
             * @enum {string|null}
             */
            credential_strategy?: "CREATOR" | "EXECUTOR" | null;
            /**
             * @description Maximum model turns per step.
             * @default 20
             */
            max_turns?: number;
            /**
             * @description Timeout of one model call.
             * @default 120
             */
            model_call_timeout_seconds?: number;
            /**
             * @description Timeout of the whole run (per step). At most the server's `RUN_TIMEOUT_MAX_SECONDS` (default
             *     86400, 24 h; a setting, so not a fixed `maximum` here): a larger value answers `400
             *     invalid_request` naming `$.config.run_timeout_seconds` (`$.agent_config.run_timeout_seconds` on a
             *     scheduled agent; `422 validation_failed` on a saved automation or definition file).
             * @default 1800
             */
            run_timeout_seconds?: number;
            /**
             * @description Extension of this service (not in the Oz API): the most tokens (prompt plus completion, over all
             *     the run's model calls, follow-ups included) the run may spend. No model call starts once the
             *     run has used this many, and a call whose answer takes the run past it ends the run: `FAILED`
             *     with `budget_exceeded`, its `usage` saying what it used. Absent: no limit of its own (the team's
             *     monthly budget still applies).
             */
            max_tokens?: number;
            /**
             * @description Extension of this service (not in the Oz API): the most the run may spend in USD at the
             *     operator's prices (`MODEL_PRICES`), enforced like `max_tokens`. Needs a price for the run's
             *     model: otherwise `400 invalid_request` naming `$.config.max_cost` (`422` on a saved automation).
             */
            max_cost?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description A file sent with a new run. */
        RunAttachmentInput: {
            file_name: string;
            /**
             * @description Printable ASCII only (no control characters); served back as the download's `Content-Type`.
             * @example text/plain
             */
            mime_type: string;
            /** @description The file's bytes, standard base64 (RFC 4648 alphabet, padded, no whitespace). */
            data: string;
        };
        /** @description An attachment of a run; download it with `getRunAttachment`. */
        RunAttachment: {
            file_name: string;
            mime_type: string;
            /** @description Size in bytes. */
            size: number;
        };
        /**
         * @description Token usage of the run so far, over all its executions (follow-ups add to it): the built-in agent's
         *     model calls and those the run's processes make through the server's model gateway, each counted
         *     from its provider's own usage fields. Updated as soon as each model call is answered, so it grows
         *     while the run works; tokens spent before a cancel stay counted. Absent until the first model call
         *     is answered.
         */
        RunUsage: {
            prompt_tokens: number;
            completion_tokens: number;
            total_tokens: number;
            /**
             * @description Extension of this service: what the tokens cost in USD at the operator's prices (`MODEL_PRICES`),
             *     to the micro-dollar, computed as each call is answered. Present when the server prices models;
             *     calls to a model without a price add nothing.
             */
            cost_usd?: number;
        };
        /**
         * @description A new run: `prompt`, or a skill (`skill`, `config.skill_spec` or `config.skills`), or both. Every
         *     field of the Oz API's request is listed here with what this service does with it; fields unknown to
         *     both APIs are accepted and ignored.
         */
        RunAgentRequest: {
            /**
             * @description The prompt the agent executes (at most 256 KiB of characters; not only whitespace). Optional when a
             *     skill is given: the run's prompt (and so its default title) is then
             *     `Follow the instructions of the skill <skill_spec>.`, and the skill's instructions are the agent's
             *     base prompt as for any skill run.
             */
            prompt?: string;
            /**
             * @description Oz API: the skill to use as the base prompt (same forms as `config.skill_spec`). Takes precedence
             *     over `config.skill_spec`; with `config.skills` it answers `400`.
             */
            skill?: string;
            /** @description Human-readable title; default the first line of the prompt, cut to 80 characters. */
            title?: string;
            config?: components["schemas"]["AmbientAgentConfig"];
            metadata?: components["schemas"]["RunMetadata"];
            /**
             * @description The run that spawned this one (orchestration). It must be a run of the caller's team, else
             *     `400 invalid_request` naming the field (as in the Oz API); the child inherits its metadata. There
             *     is no depth limit on this service.
             */
            parent_run_id?: string;
            attachments?: components["schemas"]["RunAttachmentInput"][];
            /**
             * @description Oz API (older clients): base64 images sent with the prompt. Stored as attachments named
             *     `image-1.<ext>`, `image-2.<ext>`, … after `attachments`; both together hold at most five.
             */
            images?: {
                data: string;
                /** @enum {string} */
                mime_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
            }[];
            /**
             * @description Oz API query mode. `normal` (the default) is accepted; `plan` and `orchestrate` need an approval
             *     step this service does not have and answer `400 invalid_request` naming `$.mode`.
             * @enum {string}
             */
            mode?: "normal" | "plan" | "orchestrate";
            /**
             * @description Oz API: continue an existing conversation in a new run. Refused with `400 invalid_request`: a run's
             *     conversation continues with a follow-up to that run (`POST /agent/runs/{runId}/followups`).
             */
            conversation_id?: string;
            /**
             * @description Oz API: whether the run is team-owned. Every run here belongs to the API key's team: `true` is
             *     accepted, `false` (a personal run) answers `400 invalid_request`.
             */
            team?: boolean;
            /** @description Oz API. `false` is accepted (every run here is non-interactive); `true` answers `400 invalid_request`. */
            interactive?: boolean;
            /** @description Oz API run attribution to another user. Refused with `400 invalid_request` (this service has no users to attribute to). */
            on_behalf_of?: string;
            /** @description Oz API execution principal. Refused with `400 invalid_request`; dispatch factory work with `POST /factories/{factoryUid}/runs`. */
            agent_identity_uid?: string;
        } & {
            [key: string]: unknown;
        };
        RunAgentResponse: {
            /** @description The run's ID. */
            run_id: string;
            /** @description Equal to `run_id` (Oz compatibility). */
            task_id: string;
            state: components["schemas"]["RunState"];
        };
        /** @description A follow-up message. Unknown fields are accepted and ignored (Oz compatibility). */
        RunFollowupRequest: {
            /**
             * @description The follow-up message (not only whitespace). Required here: the Oz API accepts an empty message
             *     only to continue a run from a saved conversation (`conversation_id` handoffs), which this service
             *     does not have.
             */
            message: string;
            /**
             * @description Oz API query mode of the follow-up. `normal` (the default) is accepted; `plan` and `orchestrate`
             *     need an approval step this service does not have and answer `400 invalid_request` naming `$.mode`,
             *     as on run create.
             * @enum {string}
             */
            mode?: "normal" | "plan" | "orchestrate";
        } & {
            [key: string]: unknown;
        };
        /** @description A run. Optional properties are omitted when they have no value. */
        RunItem: {
            /** @description UUIDv4. */
            run_id: string;
            /** @description Equal to `run_id`. */
            task_id: string;
            title: string;
            state: components["schemas"]["RunState"];
            /** @description The original prompt (for webhook runs, the automation's prompt plus the platform envelope). */
            prompt: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the run first began executing.
             */
            started_at?: string;
            source?: components["schemas"]["RunSourceType"];
            creator?: components["schemas"]["RunCreatorInfo"];
            status_message?: components["schemas"]["RunStatusMessage"];
            session_id?: string;
            /**
             * Format: uri
             * @description `PUBLIC_BASE_URL` + `/sessions/{session_id}`: the run's page in the dashboard the server
             *     serves at `PUBLIC_BASE_URL`. A person signs in there with an API key of the run's team and
             *     lands on the run's page (the dashboard finds the run with `GET /agent/runs?session_id=…`).
             */
            session_link?: string;
            agent_config?: components["schemas"]["AmbientAgentConfig"];
            conversation_id?: string;
            /** @description The factory the run belongs to (dispatched or started by an automation). */
            factory_uid?: string;
            /**
             * @description This service's extension: the digest (`sha256:…`) of the environment's `docker_image` the run
             *     ran on, set when its image is ready (before the setup commands); absent for a run without an
             *     image. The run's events say it too (a state event whose `status_message` names the image).
             */
            image_digest?: string;
            /** @description The automation that started the run. */
            automation_id?: string;
            /** @description The webhook delivery that started the run. */
            delivery_id?: string;
            attachments?: components["schemas"]["RunAttachment"][];
            usage?: components["schemas"]["RunUsage"];
            /** @description IDs or names of the skills this run may load. */
            available_skills?: string[];
            metadata?: components["schemas"]["RunMetadata"];
            /** @description The run that spawned this one, when it was created with `parent_run_id`. */
            parent_run_id?: string;
            schedule?: components["schemas"]["ScheduleInfo"];
            /**
             * Format: duration
             * @description How long the run has executed, as an ISO 8601 duration (`PT2M30S`, as in the Oz API): from
             *     `started_at` to when it finished, or to now while it is not terminal. Absent before it starts.
             */
            run_time?: string;
            /** @description Oz API. Always `true`, since every run of this service can be cancelled while it is not terminal. */
            is_run_type_cancellable?: boolean;
            /**
             * @description Oz API: whether the run's sandbox is running now. `true` while a worker holds the run (`CLAIMED`,
             *     `INPROGRESS`), `false` otherwise: this service keeps no sandbox alive between executions.
             */
            is_sandbox_running?: boolean;
            /** @description Oz API. Always `false`: this service keeps no failed setup session open for a debug agent. */
            debug_agent_available?: boolean;
            /**
             * @description Oz API resource usage. Only `total_tokens` (the same figure as `usage.total_tokens`), present once
             *     the run has made a model call; this service keeps no credits (the cost in USD, where the server
             *     prices models, is `usage.cost_usd`).
             */
            request_usage?: {
                total_tokens?: number;
            };
            execution_location?: components["schemas"]["RunExecutionLocation"];
            executor?: components["schemas"]["RunCreatorInfo"];
            /**
             * @description What the run published (Oz API shape), oldest first; empty until it publishes something. Read a
             *     file, screenshot or plan with `getArtifact`.
             */
            artifacts?: components["schemas"]["ArtifactItem"][];
            /** @description Oz API ownership scope. Always `{type: Team, uid: <team id>}`. */
            scope?: {
                /** @enum {string} */
                type: "User" | "Team";
                uid?: string;
            };
        };
        PageInfo: {
            has_next_page: boolean;
            /** @description Pass as `cursor` for the next page; `null` on the last page. */
            next_cursor: string | null;
        };
        ListRunsResponse: {
            runs: components["schemas"]["RunItem"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /** @description A run's environment setup log (`getRunSetupLog`, admin only). */
        RunSetupLog: {
            run_id: string;
            /** @description One per setup command that ran, oldest first. */
            entries: components["schemas"]["SetupLogEntry"][];
        };
        /** @description One setup command of one execution of the run. */
        SetupLogEntry: {
            environment_id: string;
            /** @description The command's position in the environment's `setup_commands` (1 = first). */
            position: number;
            /** @description How many setup commands the environment had. */
            command_count: number;
            command: string;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
            /** @description `null` when the command did not exit by itself (a signal, a limit, could not start). */
            exit_code: number | null;
            /** @description How it ended, in words: `exited with code 7`, `did not finish within 600 s`, `was stopped: …`, `could not start: …`. */
            result: string;
            /** @description The last 64 KiB of its stdout and stderr as they came, with the environment's `env_vars` values (and their base64 form) replaced by `***`. */
            output: string;
            /** @description Whether earlier output was dropped. */
            output_truncated: boolean;
        };
        ConversationResponse: {
            /** @description `conv_` plus the suffix of the run ID. */
            conversation_id: string;
            steps: components["schemas"]["ConversationStep"][];
        };
        /** @description One turn of the conversation (the initial prompt, or a follow-up). */
        ConversationStep: {
            id: string;
            description?: string;
            summary?: string;
            /** Format: date-time */
            started_at?: string;
            /** Format: date-time */
            completed_at?: string;
            messages: components["schemas"]["ConversationMessage"][];
            /** @description Nested sub-steps. */
            steps: components["schemas"]["ConversationStep"][];
        };
        /** @enum {string} */
        MessageRole: "user" | "assistant" | "tool" | "system";
        ConversationMessage: {
            message_ids?: string[];
            request_id?: string;
            role: components["schemas"]["MessageRole"];
            /** Format: date-time */
            timestamp: string;
            content: components["schemas"]["ContentBlock"][];
        };
        /** @description A content block, by `type`. */
        ContentBlock: components["schemas"]["TextBlock"] | components["schemas"]["ActionBlock"] | components["schemas"]["ActionResultBlock"] | components["schemas"]["EventBlock"];
        TextBlock: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "text";
            text: string;
        };
        /**
         * @description The Oz API's action categories. This service records `command` (the built-in agent's `Bash`),
         *     `files` (`Read`, `Write`, `Edit`), `search` (`Glob`, `Grep`), `skill` (a `read_skill` load),
         *     `integration` (a call to a tool of one of the run's MCP servers) and `documents`
         *     (`publish_artifact`); the others exist in the Oz API.
         * @enum {string}
         */
        ActionCategory: "command" | "files" | "search" | "integration" | "documents" | "computer" | "review" | "skill";
        /**
         * @description An action the agent took. A skill load has `category: skill`, `name: read_skill` and input
         *     `{name, bundled_skill_id?, skill_path?}`. An MCP tool call has `category: integration`, the tool's
         *     name and, as input, the arguments the model sent — a JSON object; arguments that were not a JSON
         *     object are recorded as `{unparsed_arguments: "<what the model sent>"}` (the call then fails). A
         *     workspace tool call (`AmbientAgentConfig.harness`) has its category (`command`, `files`, `search`),
         *     the tool's name (`Bash`, `Read`, `Write`, `Edit`, `Glob`, `Grep`) and the arguments the model sent.
         */
        ActionBlock: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "action";
            id: string;
            category: components["schemas"]["ActionCategory"];
            /** @example read_skill */
            name: string;
            input: {
                [key: string]: unknown;
            };
        };
        /**
         * @description The result of an action. `output` is an object (as in the Oz API): `{text}` holding what went back to
         *     the model — the skill's instructions, the MCP tool's text, or why the call failed (at most 100,000
         *     characters, then cut with a note). A workspace tool's `text` is at most 30,000 characters (its start
         *     and end kept, a note where the middle was cut); `Bash` adds `exit_code` (and `timed_out: true`
         *     when its timeout stopped it, exit code 124) and is `failed` when the exit code is not 0. A
         *     workspace tool the model called wrongly (an `Edit` whose `old_string` is absent or matches more
         *     than once without `replace_all`, a missing file) is `failed` with the reason as `text`.
         */
        ActionResultBlock: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "action_result";
            action_id: string;
            category: components["schemas"]["ActionCategory"];
            name: string;
            /** @enum {string} */
            state: "running" | "completed" | "failed" | "denied";
            output: {
                text?: string;
                /** @description `Bash`: the command's exit status. */
                exit_code?: number;
                /** @description `Bash`: true when the command's timeout stopped it. */
                timed_out?: boolean;
            } & {
                [key: string]: unknown;
            };
        };
        /**
         * @description Something that happened that is neither text nor an action. Names this service records:
         *     `stderr` (`data: {text}`: the command runner's standard error), `artifact` (`data`: the
         *     `ArtifactItem` the run just published; every published artifact has one, in the conversation and
         *     as an SSE `content` event) and `artifact_rejected` (`data: {reason, artifact_type?, filepath?}`:
         *     something the run tried to publish and the server refused, for example a file over the size limit
         *     or a URL that is not `http(s)`) and `ask_user_rejected` (`data: {reason}`: a command runner's
         *     `::ask_user::` line that held no valid question; the run did not block on it). A third-party
         *     harness (`AmbientAgentConfig.harness`) adds `harness_session` (`data: {harness, session_id}`),
         *     `harness_usage` (`data`: the tokens the CLI says it spent — informational; the run's `usage` is
         *     the gateway's count), `harness_notice` and `harness_error` (`data: {text}`).
         */
        EventBlock: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "event";
            name: string;
            data: {
                [key: string]: unknown;
            };
        };
        /** @description `data` of an `event: state` SSE event. */
        RunStateEvent: {
            run_id: string;
            state: components["schemas"]["RunState"];
            /** Format: date-time */
            updated_at: string;
            status_message?: components["schemas"]["RunStatusMessage"];
        };
        /** @description `data` of an `event: content` SSE event: one content block added to the conversation. */
        RunContentEvent: {
            run_id: string;
            step_id: string;
            message_id: string;
            role: components["schemas"]["MessageRole"];
            /** Format: date-time */
            timestamp: string;
            block: components["schemas"]["ContentBlock"];
        };
        Skill: {
            /** @description Stable bundled skill ID. */
            id: string;
            name: string;
            description: string;
            /** @constant */
            bundled: true;
            /** @description Whether this deployment currently offers the skill. */
            available: boolean;
        };
        ListSkillsResponse: {
            skills: components["schemas"]["Skill"][];
        };
        ListAgentsResponse: {
            agents: components["schemas"]["AgentListItem"][];
        };
        /** @description An agent (Oz API): the skills of one name. */
        AgentListItem: {
            name: string;
            variants: components["schemas"]["AgentListVariant"][];
        };
        AgentListVariant: {
            /** @description `owner/repo:<skill path>`: pass it as a run's `skill` (or `config.skill_spec`). */
            id: string;
            description: string;
            /** @description The skill's instructions (its SKILL.md without the front matter). */
            base_prompt: string;
            source: components["schemas"]["AgentListSource"];
            /** @description Every environment of the team (a run may load the skill in any of them). */
            environments: components["schemas"]["AgentListEnvironment"][];
            /** Format: date-time */
            last_run_timestamp: string | null;
            /** @description Why the SKILL.md is malformed; only with `include_malformed_skills=true`. */
            error?: string;
        };
        AgentListSource: {
            owner: string;
            /** @description The repository. */
            name: string;
            /** @description The SKILL.md's path inside the repository. */
            skill_path: string;
        };
        AgentListEnvironment: {
            uid: string;
            name: string;
        };
        ListHarnessesResponse: {
            harnesses: components["schemas"]["HarnessInfo"][];
        };
        /** @description Extension. A third-party agent CLI this server can run as a run's harness. */
        HarnessInfo: {
            /**
             * @description What `config.harness.type` names (`codex`, `claude`, `gemini`, `opencode`).
             * @example codex
             */
            type: string;
            /** @example Codex */
            name: string;
            /** @example @openai/codex */
            npm_package: string;
            /** @description The version `pnpm harnesses:install` installs (an image's own CLI may differ). */
            version: string;
            /** @description The command looked for on the `PATH` of a run's image before the server's install. */
            command: string;
            /** @description Whether the server's install of this version is present (`HARNESSES_DIR`). */
            installed: boolean;
        };
        ListModelsResponse: {
            /** @description The model a run gets without `config.model_id`; `""` when the server has none. */
            default_model_id: string;
            models: components["schemas"]["ModelInfo"][];
        };
        ModelInfo: {
            /** @description What a run's `config.model_id` names. */
            id: string;
            display_name: string;
            /** @enum {string} */
            provider: "OPENAI" | "ANTHROPIC" | "GOOGLE" | "UNKNOWN";
            vision_supported: boolean;
            description?: string;
            reasoning_level?: string;
            /** @enum {string} */
            disable_reason?: "PROVIDER_OUTAGE" | "OUT_OF_REQUESTS" | "ADMIN_DISABLED" | "REQUIRES_UPGRADE";
        };
        /** @description One line of a run's transcript (`downloadRunTranscript`): one message of its conversation. */
        TranscriptLine: {
            step_id: string;
            message_id: string;
            role: components["schemas"]["MessageRole"];
            /** Format: date-time */
            timestamp: string;
            content: components["schemas"]["ContentBlock"][];
        };
        /**
         * @description A cloud environment, in the Oz API's shape. `env_var_names`, `plain_env_vars` and `created_at` are this service's
         *     extensions (Oz clients ignore them); `providers` never appears (this service refuses it on
         *     input).
         */
        CloudEnvironment: {
            /** @description The environment's ID (`env_…`); what a run's `config.environment_id` names. */
            uid: string;
            config: components["schemas"]["CloudEnvironmentConfig"];
            /**
             * Format: date-time
             * @description When the environment was last changed.
             */
            last_updated: string;
            /**
             * Format: date-time
             * @description When the newest run that selected this environment was created; `null` when none has.
             */
            last_task_run_timestamp: string | null;
            last_task_created?: components["schemas"]["EnvironmentLastTask"];
            /**
             * @description Whether the newest run that selected this environment failed while setting it up (state
             *     `FAILED`, `status_message.error_code` `environment_setup_failed`: a setup command failed, or the
             *     environment was deleted before the run started; `repository_unavailable`: a repository could
             *     not be cloned; or `image_unavailable`: its `docker_image` could not be pulled).
             */
            setup_failed: boolean;
            /** @description Oz API ownership scope. Always `{type: Team, uid: <team id>}`. */
            scope: {
                /** @enum {string} */
                type: "User" | "Team";
                uid: string;
            };
            creator?: components["schemas"]["RunCreatorInfo"];
            last_editor?: components["schemas"]["RunCreatorInfo"];
            /** @description Names of the environment variables (values are write-only, seen by the setup commands only). */
            env_var_names: string[];
            /** @description Extension. The plain variables, values included (setup commands and the agent get them). */
            plain_env_vars: {
                [key: string]: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** @description The Oz API's `CloudEnvironmentConfig`, with the fields this service honours. */
        CloudEnvironmentConfig: {
            name: string;
            /** @description Absent when the environment has none. */
            description?: string;
            /** @description Shell commands run (`/bin/sh -c`, in the run's sandbox) before the agent starts. */
            setup_commands: string[];
            /**
             * @description The container image every process of a run in this environment runs in (its root file
             *     system, read-only, with `/workspace` writable; docs/sandbox.md §Image root): `name:tag`,
             *     `registry/name:tag` or `…@sha256:…` (Docker Hub when no registry is named, `latest` when no
             *     tag). Absent: the server's own system directories. A tag is resolved to a digest when a run
             *     starts; the run records the digest it ran on (`RunItem.image_digest`).
             */
            docker_image?: string;
            /**
             * @description This service's extension: the team secret holding the registry credentials for
             *     `docker_image` (`user:password`, or a bare token sent as the password of user `token`).
             *     Used only by the server to pull; never visible inside a run.
             */
            registry_secret_name?: string;
            /** @description Oz API. GitHub repositories cloned into each run's workspace; absent when none. */
            github_repos?: components["schemas"]["GitHubRepository"][];
            /** @description Extension. Repositories by git URL; absent when none. */
            repos?: components["schemas"]["GitRepository"][];
            /** @description Extension. The team secret with the git token; absent when unset (the team secret `GIT_TOKEN` is used if it exists). */
            git_token_secret_name?: string;
            /** @description Extension. Whether pushed branches get a pull request; absent when false. */
            auto_pr?: boolean;
        };
        /** @description A GitHub repository (Oz API `{owner, repo}`), with the extensions `ref` and `path`. */
        GitHubRepository: {
            owner: string;
            repo: string;
            ref?: components["schemas"]["GitRef"];
            path?: components["schemas"]["RepositoryPath"];
        };
        /** @description A repository by git URL (extension). */
        GitRepository: {
            /**
             * @description The repository's http(s) URL, as `git clone` takes it: a host name (ASCII; an internationalised
             *     one in its `xn--` form) or an IPv4 address, an optional port and a path; no credentials, query
             *     or fragment.
             */
            url: string;
            ref?: components["schemas"]["GitRef"];
            path?: components["schemas"]["RepositoryPath"];
        };
        /** @description A branch, a tag or a full commit SHA; default the repository's default branch. */
        GitRef: string;
        /**
         * @description Where in the workspace the repository is checked out (relative; no `.`/`..` components, not
         *     under `.artifacts` or `.git`: `400 invalid_request` naming it); default the repository's name.
         *     Unique within the environment.
         */
        RepositoryPath: string;
        /** @description The newest run that selected the environment (Oz API `EnvironmentLastTask`). */
        EnvironmentLastTask: {
            /** @description The run's ID. */
            id: string;
            title: string;
            state: components["schemas"]["RunState"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            started_at?: string | null;
        };
        CreateEnvironmentRequest: {
            name: string;
            description?: string | null;
            setup_commands?: string[];
            /** @description Variable name → value (write-only secrets, seen by the setup commands only; see `createEnvironment`). */
            env_vars?: {
                [key: string]: string;
            };
            /**
             * @description Extension. Variable name → value: readable variables that the setup commands and the run's agent both
             *     get. Answers show their values, and whoever prompts a run with the environment can read them:
             *     never put a secret here (use `env_vars`). A name may not be in both (`400` naming it).
             */
            plain_env_vars?: {
                [key: string]: string;
            };
            /** @description Oz API. The image runs start in (see `CloudEnvironmentConfig.docker_image`). */
            docker_image?: string;
            /** @description The team secret with the registry credentials (see `CloudEnvironmentConfig.registry_secret_name`). */
            registry_secret_name?: string;
            /** @description Oz API. GitHub repositories (on `GITHUB_BASE_URL`) cloned into every run's workspace (see `createEnvironment`). */
            github_repos?: components["schemas"]["GitHubRepository"][];
            /**
             * @description Extension: repositories by git URL (`https://…` or `http://…`, no user name or password in it),
             *     cloned like `github_repos`. At most 10 repositories in all.
             */
            repos?: components["schemas"]["GitRepository"][];
            /**
             * @description Extension: the team secret holding the token for clone, push and pull requests (used as the
             *     HTTP password, user `x-access-token`). Unset: the team secret `GIT_TOKEN` if it exists.
             *     `null` clears it on update.
             */
            git_token_secret_name?: string | null;
            /** @description Extension. Open a pull request for each pushed branch (`github_repos` only; default false). */
            auto_pr?: boolean;
            /** @description Oz API cloud identity providers. `{}` is accepted; `gcp` or `aws` answers `400 invalid_request`. */
            providers?: {
                [key: string]: unknown;
            };
            /** @description Oz API. Accepted without effect (see `createEnvironment`). */
            failure_session_retention_minutes?: number | null;
        };
        UpdateEnvironmentRequest: {
            name?: string;
            description?: string | null;
            setup_commands?: string[];
            /** @description Replaces all variables (write-only secrets, seen by the setup commands only; see `createEnvironment`). */
            env_vars?: {
                [key: string]: string;
            };
            /**
             * @description Extension. Replaces all plain variables: readable variables that the setup commands and the run's agent both
             *     get. Answers show their values, and whoever prompts a run with the environment can read them:
             *     never put a secret here (use `env_vars`). A name may not be in both (`400` naming it).
             */
            plain_env_vars?: {
                [key: string]: string;
            };
            /** @description Oz API. Replaces the image; `null` removes it (runs use the server's system directories). */
            docker_image?: string | null;
            /** @description Replaces the registry secret's name; `null` removes it (the registry is read anonymously). */
            registry_secret_name?: string | null;
            /** @description Oz API. GitHub repositories (on `GITHUB_BASE_URL`) cloned into every run's workspace (see `createEnvironment`). */
            github_repos?: components["schemas"]["GitHubRepository"][];
            /**
             * @description Extension: repositories by git URL (`https://…` or `http://…`, no user name or password in it),
             *     cloned like `github_repos`. At most 10 repositories in all.
             */
            repos?: components["schemas"]["GitRepository"][];
            /**
             * @description Extension: the team secret holding the token for clone, push and pull requests (used as the
             *     HTTP password, user `x-access-token`). Unset: the team secret `GIT_TOKEN` if it exists.
             *     `null` clears it on update.
             */
            git_token_secret_name?: string | null;
            /** @description Extension. Open a pull request for each pushed branch (`github_repos` only; default false). */
            auto_pr?: boolean;
            /** @description Oz API cloud identity providers. `{}` is accepted; `gcp` or `aws` answers `400 invalid_request`. */
            providers?: {
                [key: string]: unknown;
            };
            /** @description Oz API. Accepted without effect (see `createEnvironment`). */
            failure_session_retention_minutes?: number | null;
        };
        ListEnvironmentsResponse: {
            environments: components["schemas"]["CloudEnvironment"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /**
         * @description When the schedule fires: a five-field cron expression, `minute hour day-of-month month
         *     day-of-week` (`0 9 * * 1-5`: 09:00 on weekdays), read in the schedule's `time_zone`. Each field
         *     takes `*`, numbers, ranges (`1-5`), lists (`0,30`) and steps (`*\/15`, `0-30/10`); months and days
         *     also take names (`JAN`, `MON`); day-of-month takes `L` (last day) and `15W` (nearest weekday),
         *     day-of-week `5#2` (second Friday) and `5#L` (last Friday); `0` and `7` are Sunday. As in Vixie
         *     cron, a day that matches day-of-month OR day-of-week fires when both are restricted (prefix
         *     day-of-week with `+` to require both). The nicknames `@yearly`, `@annually`, `@monthly`,
         *     `@weekly`, `@daily`, `@midnight` and `@hourly` are accepted. There is no seconds field: slots
         *     are whole minutes. Two slots may never come closer than the server's minimum interval
         *     (`SCHEDULE_MIN_INTERVAL_SECONDS`, default 300), and an expression must have a future slot
         *     (`0 0 31 2 *` never fires): either answers `400 invalid_request` naming `$.cron_schedule`.
         *
         *     Daylight saving time follows Vixie cron: an expression with a single minute and a single hour
         *     (`30 2 * * *`) fires once on a day whose clock skips that time, at the first minute after the gap
         *     (03:00), and once, at the first pass, on a day whose clock repeats it; an expression with a
         *     wildcard, step, range or list in its minute or hour skips times in a gap and fires in both passes
         *     of a repeated hour.
         * @example 0 9 * * 1-5
         */
        CronSchedule: string;
        /**
         * @description The IANA time zone `cron_schedule` is read in (`Europe/Paris`, `America/New_York`, `UTC`),
         *     answered in its usual letter case (`europe/paris` → `Europe/Paris`; a link such as `Asia/Kolkata`
         *     is kept as given). Not an Oz API field: Oz
         *     schedules are UTC, the default here. A name the server's time zone database does not know
         *     answers `400 invalid_request` naming `$.time_zone`.
         * @example Europe/Paris
         */
        ScheduleTimeZone: string;
        /** @description Human-readable name (not only whitespace). The runs it starts are titled with it (cut to 80 characters). */
        ScheduleName: string;
        /**
         * @description A new scheduled agent (the Oz API's body plus `time_zone`): `prompt`, or a skill in `agent_config`
         *     (`skill_spec` or `skills`), or both. Fields unknown to both APIs are accepted and ignored.
         */
        CreateScheduledAgentRequest: {
            name: components["schemas"]["ScheduleName"];
            cron_schedule: components["schemas"]["CronSchedule"];
            /** @default UTC */
            time_zone?: components["schemas"]["ScheduleTimeZone"];
            /**
             * @description What each run executes (at most 256 KiB of characters; not only whitespace). Optional when
             *     `agent_config` names a skill: it is then `Follow the instructions of the skill <skill_spec>.`
             */
            prompt?: string;
            /**
             * @description Whether the schedule fires (`false` creates it paused).
             * @default true
             */
            enabled?: boolean;
            agent_config?: components["schemas"]["AmbientAgentConfig"];
            metadata?: components["schemas"]["RunMetadata"];
            /**
             * @description Oz API: the query mode of every run. `normal` (the default) is accepted; `plan` and
             *     `orchestrate` need an approval step this service does not have and answer `400` naming `$.mode`.
             * @enum {string}
             */
            mode?: "normal" | "plan" | "orchestrate";
            /**
             * @description Oz API: whether the schedule is team-owned. Every schedule here belongs to the API key's team:
             *     `true` is accepted, `false` (a personal schedule) answers `400` naming `$.team`.
             */
            team?: boolean;
            /**
             * @description Oz API: an agent identity to run as. This service has no agent identities (runs execute as the
             *     schedule's creator): refused with `400` naming `$.agent_uid`.
             */
            agent_uid?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description The schedule's whole new definition (`PUT`): the Oz API's body plus `time_zone`. `prompt`,
         *     `agent_config` and `metadata` left out are cleared; `time_zone` left out keeps the schedule's zone.
         *     Fields unknown to both APIs are accepted and ignored.
         */
        UpdateScheduledAgentRequest: {
            name: components["schemas"]["ScheduleName"];
            cron_schedule: components["schemas"]["CronSchedule"];
            time_zone?: components["schemas"]["ScheduleTimeZone"];
            /** @description As on create. */
            prompt?: string;
            /** @description Whether the schedule fires. */
            enabled: boolean;
            agent_config?: components["schemas"]["AmbientAgentConfig"];
            metadata?: components["schemas"]["RunMetadata"];
            /**
             * @description As on create.
             * @enum {string}
             */
            mode?: "normal" | "plan" | "orchestrate";
            /** @description As on create. */
            team?: boolean;
            /** @description As on create (refused). */
            agent_uid?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description What the schedule did last and will do next. `last_ran` and `next_run` are the Oz API's; the other
         *     fields are this service's.
         */
        ScheduledAgentHistoryItem: {
            /**
             * Format: date-time
             * @description When the schedule last started a run; `null` before its first.
             */
            last_ran: string | null;
            /**
             * Format: date-time
             * @description The next slot it fires for; `null` while it is paused. A slot in the past is due: no worker
             *     process has fired it yet (they were down, or are catching up), and it fires once they do.
             */
            next_run: string | null;
            /** @description The run started at `last_ran`. */
            last_run_id: string | null;
            /**
             * Format: date-time
             * @description The slot of the last firing (after downtime, the earliest slot it stood for).
             */
            last_slot: string | null;
            /**
             * Format: date-time
             * @description When the last firing happened, whatever its outcome.
             */
            last_fired_at: string | null;
            /**
             * @description What the last firing did: `run_created`; `skipped_overlap` (the run it started before was not
             *     finished yet, so this slot started none); `spawn_failed` (its configuration no longer resolves:
             *     `last_spawn_error` says why). `null` before its first firing.
             * @enum {string|null}
             */
            last_outcome: "run_created" | "skipped_overlap" | "spawn_failed" | null;
            /** @description Slots skipped so far because the schedule's previous run was still going. */
            skipped_slots: number;
        };
        /**
         * @description A scheduled agent (the Oz API's `ScheduledAgentItem`). Oz fields this service has no value for
         *     (`agent_uid`) are omitted; `time_zone` and most of `history` are this service's own.
         */
        ScheduledAgentItem: {
            /** @description `sch_…`. */
            id: string;
            name: string;
            /** @description The expression as given (see `CronSchedule`). */
            cron_schedule: string;
            /** @description The IANA time zone `cron_schedule` is read in. */
            time_zone: string;
            /** @description Whether the schedule fires (`false`: paused). */
            enabled: boolean;
            /** @description What each run executes. */
            prompt: string;
            /**
             * @description Why the last firing could not start a run (its `agent_config` no longer resolves: the environment
             *     was deleted, the skill is gone); `null` once a firing starts a run again.
             */
            last_spawn_error: string | null;
            agent_config?: components["schemas"]["AmbientAgentConfig"];
            metadata?: components["schemas"]["RunMetadata"];
            environment?: components["schemas"]["CloudEnvironmentConfig"];
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When its definition last changed (firings do not change it).
             */
            updated_at: string;
            created_by: components["schemas"]["RunCreatorInfo"];
            updated_by: components["schemas"]["RunCreatorInfo"];
            history: components["schemas"]["ScheduledAgentHistoryItem"];
            /** @description Oz API ownership scope. Always `{type: Team, uid: <team id>}`. */
            scope: {
                /** @enum {string} */
                type: "User" | "Team";
                uid?: string;
            };
        };
        ListScheduledAgentsResponse: {
            schedules: components["schemas"]["ScheduledAgentItem"][];
            page_info: components["schemas"]["PageInfo"];
        };
        DeleteScheduledAgentResponse: {
            /** @description Always `true` (an unknown schedule answers `404`). */
            success: boolean;
        };
        /**
         * @description The schedule that started a run (the Oz API's `ScheduleInfo`), as it was when the run started: it
         *     stays on the run after the schedule is changed or deleted.
         */
        ScheduleInfo: {
            schedule_id: string;
            schedule_name: string;
            cron_schedule: string;
            /** @description The schedule's time zone when the run started. */
            time_zone?: string;
            /**
             * Format: date-time
             * @description The slot the run was started for (after downtime, the earliest missed slot).
             */
            scheduled_for?: string;
        };
        /**
         * @description `api`: changed through the REST API. `files`: changed only by definition apply.
         * @enum {string}
         */
        DefinitionSource: "api" | "files";
        Factory: {
            uid: string;
            name: string;
            definition_source: components["schemas"]["DefinitionSource"];
            /** Format: date-time */
            created_at: string;
        };
        CreateFactoryRequest: {
            name: string;
            definition_source?: components["schemas"]["DefinitionSource"];
        };
        ListFactoriesResponse: {
            factories: components["schemas"]["Factory"][];
            page_info: components["schemas"]["PageInfo"];
        };
        DispatchFactoryRunRequest: {
            /** @description The prompt the agent executes (not only whitespace). */
            prompt: string;
            /** @description Human-readable title; default the first line of the prompt, cut to 80 characters. */
            title?: string;
            config?: components["schemas"]["AmbientAgentConfig"];
            attachments?: components["schemas"]["RunAttachmentInput"][];
        };
        DefinitionFile: {
            /** @description `webhooks/<name>.yaml` or `automations/<name>.md`. */
            path: string;
            /** @description The file's text. */
            content: string;
        };
        ApplyDefinitionsRequest: {
            /** @description The complete set of definition files. */
            files: components["schemas"]["DefinitionFile"][];
        };
        ApplyDefinitionsResponse: {
            webhooks: {
                file: string;
                uid: string;
                name: string;
                secret_name: string;
            }[];
            automations: {
                file: string;
                uid: string;
                name: string;
            }[];
            deleted: {
                webhooks: string[];
                automations: string[];
            };
        };
        /**
         * @description How senders authenticate: `token` (header `Authorization: Bearer <secret>`), `url_token` (the
         *     secret is a path segment of the URL), `signature` (the provider's request signature).
         * @default token
         * @enum {string}
         */
        AuthMode: "token" | "url_token" | "signature";
        /**
         * @description Provider signing scheme of a `signature` webhook (headers checked; HMAC-SHA256 unless noted):
         *
         *     | scheme | signature headers | delivery header | max age |
         *     |---|---|---|---|
         *     | `standard-webhooks` | `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64>`); Svix `svix-*` accepted | `webhook-id` / `svix-id` | 5 min |
         *     | `stripe` | `Stripe-Signature` (`t=…,v1=<hex>`) | — | 5 min |
         *     | `slack` | `X-Slack-Signature` (`v0=<hex>`), `X-Slack-Request-Timestamp` | — | 5 min |
         *     | `github` | `X-Hub-Signature-256` (`sha256=<hex>`) | `X-GitHub-Delivery` | — |
         *     | `shopify` | `X-Shopify-Hmac-Sha256` (base64) | `X-Shopify-Webhook-Id` | — |
         *     | `linear` | `Linear-Signature` (hex); the signed body's `webhookTimestamp` (Unix ms) | `Linear-Delivery` | 1 min (Linear's window) |
         *     | `gitlab` | `X-Gitlab-Token` (the secret itself, compared in constant time) | `X-Gitlab-Event-UUID` | — |
         * @enum {string}
         */
        SignatureScheme: "standard-webhooks" | "stripe" | "slack" | "github" | "shopify" | "linear" | "gitlab";
        /** @description Name of a team secret. */
        SecretName: string;
        /**
         * @description An HTTP header name (matched case-insensitively). As a `delivery_id_header` it may not name a header
         *     that carries a credential — `Authorization`, `Proxy-Authorization`, `Cookie`, or any signature scheme's
         *     signature or token header (`Stripe-Signature`, `X-Hub-Signature-256`, `Webhook-Signature`, `X-Gitlab-Token`,
         *     …): the delivery identity is stored and shown to members (`422 validation_failed` at
         *     `$.delivery_id_header`).
         */
        HeaderName: string;
        /**
         * @description A custom webhook. Never contains the secret; `WebhookWithSecret` (create and rotate-secret answers
         *     only) adds it.
         */
        Webhook: {
            uid: string;
            factory_uid: string;
            /** @description Display name, unique within the factory. */
            name: string;
            auth_mode: components["schemas"]["AuthMode"];
            /** @description The provider scheme for `signature` webhooks; `null` otherwise. */
            signature_scheme: components["schemas"]["SignatureScheme"] | null;
            secret_name: components["schemas"]["SecretName"];
            /** @description `false` for a `signature` webhook whose provider secret was not given yet (deliveries get `401`). */
            secret_configured: boolean;
            /** @description Header in which the sender puts its own event ID (first choice for the delivery identity). */
            delivery_id_header: string | null;
            /** @description Disabled webhooks answer senders `404`. */
            enabled: boolean;
            /**
             * @description `{ingress_url}/webhooks/w/<uid>`. For `url_token` webhooks the token follows as another path
             *     segment: the real token in the create and rotate-secret answers, the literal placeholder
             *     `{token}` everywhere else.
             */
            ingress_url: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A webhook with its secret; only in the create and rotate-secret answers. */
        WebhookWithSecret: components["schemas"]["Webhook"] & {
            /**
             * @description The secret, shown this once. `null` when the webhook uses an existing team secret's value,
             *     or when a provider secret is still to be given.
             */
            secret: string | null;
        };
        CreateWebhookRequest: {
            name: string;
            auth_mode?: components["schemas"]["AuthMode"];
            signature_scheme?: components["schemas"]["SignatureScheme"];
            /** @description For `signature` webhooks, the provider's signing secret (else `422`). May be left out; see the operation. */
            provider_secret?: string;
            secret_name?: components["schemas"]["SecretName"];
            delivery_id_header?: components["schemas"]["HeaderName"];
            /** @default true */
            enabled?: boolean;
        };
        UpdateWebhookRequest: {
            name?: string;
            enabled?: boolean;
            /** @description New delivery ID header; `null` clears it. */
            delivery_id_header?: components["schemas"]["HeaderName"] | null;
        };
        RotateWebhookSecretRequest: {
            /** @description The provider's new signing secret (`signature` webhooks only). */
            provider_secret?: string;
        };
        ListWebhooksResponse: {
            webhooks: components["schemas"]["Webhook"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /**
         * @description Outcome of a delivery.
         * @enum {string}
         */
        DeliveryLabel: "Accepted" | "Duplicate" | "Rejected (auth)" | "Rejected (invalid JSON)" | "Rejected (too large)";
        /**
         * @description Where the delivery identity came from, in order of preference: the webhook's `delivery_id_header`,
         *     the provider's delivery header, the sender's `X-Service-Delivery-Id`, the body's SHA-256.
         * @enum {string}
         */
        IdentitySource: "delivery_id_header" | "provider_header" | "service_header" | "body_hash";
        /** @description A delivery log entry. */
        WebhookDelivery: {
            delivery_id: string;
            webhook_uid: string;
            label: components["schemas"]["DeliveryLabel"];
            /**
             * @description For `Rejected (auth)`: why authentication failed, to debug a sender's setup. It is recorded
             *     here only: the sender's `401` stays generic. `null` for every other label (and for entries
             *     logged before reasons were recorded). New values may be added; show an unknown one as it is.
             *
             *     | Value | Meaning |
             *     |---|---|
             *     | `missing token` | `token`: no `Authorization: Bearer <token>` header; `url_token`: the URL lacks its token; `gitlab`: no `X-Gitlab-Token` |
             *     | `wrong token` | the bearer token, URL token or `X-Gitlab-Token` is not the webhook's secret (an old secret after a rotation, a typo) |
             *     | `unexpected path token` | a `token` or `signature` webhook was called with a token in its URL |
             *     | `secret not configured` | a `signature` webhook still waits for its provider secret (`rotate-secret` with `provider_secret`) |
             *     | `invalid signing secret` | the configured secret cannot be used by the scheme (e.g. not base64 after `whsec_` for `standard-webhooks`) |
             *     | `missing signature header` | the scheme's signature header is absent (e.g. `webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256`) |
             *     | `signature header too large` | the signature header is longer than 4,096 characters |
             *     | `malformed signature header` | the signature header is not in the scheme's format (e.g. no `sha256=` prefix, a repeated `t=`) |
             *     | `missing webhook-id header` | `standard-webhooks`: no `webhook-id` (or `svix-id`) header |
             *     | `webhook-id header too large` | `standard-webhooks`: the id header is longer than 1,024 characters |
             *     | `missing timestamp` | no signed timestamp (`webhook-timestamp`, `t=` of `Stripe-Signature`, `X-Slack-Request-Timestamp`) |
             *     | `invalid timestamp` | the timestamp is not Unix seconds |
             *     | `timestamp outside tolerance` | the signed timestamp is more than five minutes (the tolerance setting) from the server's clock: a replay, or a sender or server clock that is off |
             *     | `no v1 signature` | `standard-webhooks` and `stripe`: the header holds no `v1` signature |
             *     | `no signature matched` | well-formed, but no signature matches the body with the webhook's secret: a different secret, or a body changed on the way |
             *     | `unknown signature scheme`, `unknown authentication mode`, `body not read`, `invalid clock` | a server fault; please report it |
             */
            rejection_reason: string | null;
            /**
             * @description Body size in bytes (as received; for `Rejected (too large)` at least the limit + 1; for
             *     `Rejected (auth)` of a `token` or `url_token` webhook, whose body is not read, the declared
             *     `Content-Length`, 0 without one).
             */
            size: number;
            /** Format: date-time */
            received_at: string;
            /** @description The delivery identity (`sha256:<hex>` for a body hash); `null` for rejected deliveries. */
            identity: string | null;
            /** @description `null` for rejected deliveries. */
            identity_source: components["schemas"]["IdentitySource"] | null;
            /** @description For `Duplicate`, the accepted delivery with the same identity. */
            duplicate_of?: string;
            /** @description For `Accepted` deliveries and only in `getWebhookDelivery`, the stored JSON body (any JSON value). */
            payload?: unknown;
        };
        ListWebhookDeliveriesResponse: {
            deliveries: components["schemas"]["WebhookDelivery"][];
            page_info: components["schemas"]["PageInfo"];
        };
        ReplayDeliveryResponse: {
            delivery_id: string;
            runs: {
                run_id: string;
                task_id: string;
                state: components["schemas"]["RunState"];
                automation_id: string;
            }[];
        };
        DeliveryAcceptedResponse: {
            /** @description ID of this delivery's log entry (a duplicate gets its own). */
            delivery_id: string;
        };
        /**
         * @description A JSON object mirroring the shape of the delivery body. An absent filter or `{}` matches every
         *     delivery from the selected webhooks.
         *
         *     * **Keys** name payload fields; objects nest to reach nested fields. **Every key must match.**
         *     * A **scalar** value (string, number, boolean, `null`) means equality. Numbers and strings never
         *       equal each other (`"1"` ≠ `1`); numbers compare numerically; strings are case-sensitive.
         *     * An **array** value lists the values the field may hold (equivalent to `in`).
         *     * An object made **only of operator keys** is an operator object: `in` (array of scalars: the
         *       field equals one of them), `not_in` (array of scalars: the field equals none of them),
         *       `exists` (boolean: the field is present / absent). Several operators in one object must all
         *       hold. Any other object nests. **Mixing operator and field keys in one object is invalid.**
         *     * A **missing field** matches only `exists: false` (so `not_in` does not match a missing field);
         *       a field whose value is `null` is present. A nested filter on a field that is missing or is not
         *       an object (scalar, `null`, array) does not match, whatever its nested keys say: the field
         *       itself is what is missing. Nested filters do not descend into array elements.
         *     * When the payload field is an **array**, `in` and equality match if any element matches, and
         *       `not_in` matches if no element does (one level: an element that is itself an array or object
         *       never equals a scalar).
         *     * A payload that is **not an object** (array or scalar) matches only an empty or absent filter.
         *     * Keys of the filter's root object are always field names (a root key `in` filters a field named
         *       `in`); an object such as `{"gt": 5}` is a nested filter on a field named `gt`, not an operator.
         *     * Refused as never able to match: `{}` as a key's value (use `exists: true`), an empty `in` list or
         *       empty array value, and `exists: false` combined with `in`/`not_in`.
         *
         *     **Limits**: nesting depth at most 8 levels of field keys; at most 100 field keys in total; at most
         *     16 KB (UTF-8) serialized. `in`/`not_in` values must be arrays of scalars and `exists` a boolean. An
         *     invalid filter is refused with `422 validation_failed` whose `errors[].path` is the JSON path of
         *     the offending value, for example `$.triggers[0].filter.payload.issue.labels.not_in`.
         * @example {
         *       "action": [
         *         "opened",
         *         "reopened"
         *       ],
         *       "issue": {
         *         "labels": {
         *           "not_in": [
         *             "wontfix"
         *           ]
         *         },
         *         "assignee": {
         *           "exists": false
         *         }
         *       }
         *     }
         */
        PayloadFilter: {
            [key: string]: unknown;
        };
        TriggerFilter: {
            /** @description UIDs of the webhooks whose deliveries the trigger receives (UIDs, not file names). */
            webhook_ids: string[];
            payload?: components["schemas"]["PayloadFilter"];
        };
        /** @description A Webhook trigger. */
        Trigger: {
            /** @constant */
            provider: "webhook";
            /** @constant */
            event: "received";
            filter: components["schemas"]["TriggerFilter"];
        };
        SelectedWebhook: {
            uid: string;
            /** @description Omitted when the webhook is unknown or deleted. */
            name?: string;
            /** @enum {string} */
            state: "enabled" | "disabled" | "deleted" | "unknown";
        };
        Automation: {
            uid: string;
            factory_uid: string;
            name: string;
            /** @description The prompt each run starts with (followed by the platform envelope). */
            prompt: string;
            config?: components["schemas"]["AmbientAgentConfig"];
            enabled: boolean;
            triggers: components["schemas"]["Trigger"][];
            /** @description Every webhook named by the triggers, with its current state. */
            selected_webhooks: components["schemas"]["SelectedWebhook"][];
            /** @description The `automations/<name>.md` file it came from, for `files` factories. */
            definition_file?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateAutomationRequest: {
            name: string;
            prompt: string;
            config?: components["schemas"]["AmbientAgentConfig"];
            /** @default true */
            enabled?: boolean;
            triggers: components["schemas"]["Trigger"][];
        };
        UpdateAutomationRequest: {
            name?: string;
            prompt?: string;
            config?: components["schemas"]["AmbientAgentConfig"];
            enabled?: boolean;
            triggers?: components["schemas"]["Trigger"][];
        };
        ListAutomationsResponse: {
            automations: components["schemas"]["Automation"][];
            page_info: components["schemas"]["PageInfo"];
        };
        TestAutomationFilterRequest: {
            /** @description A delivery of a webhook of this factory. */
            delivery_id: string;
        };
        TestDraftFilterRequest: {
            /** @description A delivery of a webhook of this factory. */
            delivery_id: string;
            trigger: components["schemas"]["Trigger"];
        };
        WebhookCheck: {
            /** @description The delivery's webhook is among the trigger's `webhook_ids`. */
            passed: boolean;
            reason: string;
        };
        PayloadCheck: {
            /** @description The stored payload matches the payload filter. */
            passed: boolean;
            reason: string;
            /** @description JSON path (from the payload root `$`) of the first filter key that did not match; `null` when passed. */
            path: string | null;
        };
        TestFilterResult: {
            /**
             * @description `Would trigger` when both checks pass.
             * @enum {string}
             */
            result: "Would trigger" | "Would not trigger";
            webhook_check: components["schemas"]["WebhookCheck"];
            payload_check: components["schemas"]["PayloadCheck"];
        };
        /**
         * @description The team's monthly budget and its use in the current calendar month (UTC). A limit is reached when
         *     the month's usage is at or over it; the month's usage starts again from zero on the 1st.
         */
        TeamBudget: {
            /** @description Tokens (prompt plus completion) the team's runs may spend per month; `null` is no limit. */
            max_tokens_per_month: number | null;
            /** @description USD the team's runs may spend per month at the operator's prices; `null` is no limit. */
            max_cost_usd_per_month: number | null;
            /**
             * @description The current month, `YYYY-MM` (UTC).
             * @example 2026-11
             */
            month: string;
            /** @description Tokens the team's runs spent this month. */
            used_tokens: number;
            /** @description What they cost in USD; present when the server prices models. */
            used_cost_usd?: number;
            /** @description Whether a limit is reached (the team cannot start runs until the next month or a higher limit). */
            exceeded: boolean;
            /**
             * Format: date-time
             * @description When an admin last set the budget; `null` when never.
             */
            updated_at: string | null;
        };
        /** @description The team's monthly budget; an absent or `null` limit is no limit. */
        TeamBudgetUpdate: {
            max_tokens_per_month?: number | null;
            max_cost_usd_per_month?: number | null;
        };
        /** @description What one model's calls spent. */
        ModelUsage: {
            model_id: string;
            prompt_tokens: number;
            completion_tokens: number;
            total_tokens: number;
            /** @description Present when the server prices models (`0` for a model without a price). */
            cost_usd?: number;
        };
        /** @description The tokens and cost the team's runs spent in one calendar month (UTC), in total and per model. */
        TeamUsage: {
            /**
             * @description `YYYY-MM`.
             * @example 2026-11
             */
            month: string;
            prompt_tokens: number;
            completion_tokens: number;
            total_tokens: number;
            /** @description Present when the server prices models. */
            cost_usd?: number;
            /** @description One entry per model used in the month, most tokens first. */
            models: components["schemas"]["ModelUsage"][];
        };
        SecretMetadata: {
            name: components["schemas"]["SecretName"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PutSecretRequest: {
            value: string;
        };
        ListSecretsResponse: {
            secrets: components["schemas"]["SecretMetadata"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /**
         * @description `admin` manages factory resources, secrets, keys, environments and scheduled agents; `member` works with runs and reads.
         * @enum {string}
         */
        ApiKeyRole: "admin" | "member";
        ApiKey: {
            key_id: string;
            name: string | null;
            role: components["schemas"]["ApiKeyRole"];
            /** Format: date-time */
            created_at: string;
        };
        /** @description A new API key with its value; only in the create answer. */
        ApiKeyWithValue: components["schemas"]["ApiKey"] & {
            /** @description The key value, shown this once. */
            api_key: string;
        };
        CreateApiKeyRequest: {
            name?: string;
            role: components["schemas"]["ApiKeyRole"];
        };
        /** @description The calling API key (without its value) and its team. */
        CurrentApiKey: {
            key: components["schemas"]["ApiKey"];
            team: components["schemas"]["Team"];
        };
        /** @description A team, the tenancy boundary; teams are created by operators. */
        Team: {
            /** @description `team_…` */
            team_id: string;
            name: string;
        };
        ListApiKeysResponse: {
            api_keys: components["schemas"]["ApiKey"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /**
         * @description The kind of resource an audit event is about (`resource.id` is its id, a secret's its name).
         * @enum {string}
         */
        AuditResourceType: "api_key" | "secret" | "webhook" | "webhook_delivery" | "environment" | "automation" | "factory" | "schedule" | "notification_subscription" | "notification_event" | "team_budget";
        /**
         * @description One change an admin made: who (the API key), what (the operation, the resource, the action), when,
         *     from which address, and the NAMES of the fields the request set — never a value (a secret, a
         *     webhook or subscription secret, an API key is never recorded).
         */
        AuditEvent: {
            /** @description `aud_…` */
            id: string;
            /** Format: date-time */
            occurred_at: string;
            actor: {
                key_id: string;
                /** @description The key's name when the change was made (null for a key without one). */
                name: string | null;
            };
            /** @description The operationId of the request that made the change (e.g. `putSecret`). */
            operation_id: string;
            /**
             * @description What happened to the resource: `created`, `updated`, `deleted`, `revoked` (an API key),
             *     `secret_rotated`, `enabled` and `disabled` (an update that only switched `enabled`), `paused`,
             *     `resumed`, `definitions_applied`, `replayed` (a webhook delivery or a notification event).
             */
            action: string;
            resource: {
                type: components["schemas"]["AuditResourceType"];
                id: string;
            };
            /** @description The client address the request came from (behind trusted proxies, the one they name). */
            address: string | null;
            /** @description The names of the request body's fields, sorted (for example `value` of a secret, never the value). */
            changed_fields: string[];
        };
        ListAuditEventsResponse: {
            audit_events: components["schemas"]["AuditEvent"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /**
         * @description What a subscription receives. Every state change of a run, its creation (`QUEUED`) included, is one
         *     `run.state_changed` event; a change into a terminal state or into `BLOCKED` is also one event of
         *     that state's own type, with the same `data` and its own `id`.
         *
         *     | type | when |
         *     |---|---|
         *     | `run.state_changed` | the run was created or its `state` changed (every change) |
         *     | `run.succeeded` | the run's state became `SUCCEEDED` |
         *     | `run.failed` | the run's state became `FAILED` |
         *     | `run.error` | the run's state became `ERROR` |
         *     | `run.cancelled` | the run's state became `CANCELLED` |
         *     | `run.blocked` | the run's state became `BLOCKED`: the agent asks a question (`data.status_message.message`); answer it with a follow-up |
         *
         *     New types may be added (a new terminal state, say); a receiver ignores types it does not know.
         * @enum {string}
         */
        NotificationEventType: "run.state_changed" | "run.succeeded" | "run.failed" | "run.error" | "run.cancelled" | "run.blocked";
        /**
         * @description Why a subscription is disabled: `manual` (updated with `enabled: false`) or `failing` (every
         *     attempt failed for 5 days, a server setting `NOTIFICATIONS_DISABLE_AFTER_DAYS`, since
         *     `failing_since`).
         * @enum {string}
         */
        NotificationDisabledReason: "manual" | "failing";
        /**
         * @description `succeeded`: the receiver answered `2xx`. `retrying`: it did not, and the next attempt is due at
         *     `next_attempt_at`. `failed`: it did not and the event is given up (its 24-hour retry window
         *     ended), or nothing was sent because the subscription was disabled; `replay` sends it again.
         * @enum {string}
         */
        NotificationAttemptOutcome: "succeeded" | "retrying" | "failed";
        /**
         * @description Narrows a subscription to the runs of one factory (`factory_uid`), or of one automation
         *     (`automation_id`; runs started by webhook deliveries through it), or both. An absent (or `null`)
         *     field does not narrow. To tell API-created runs from others, read `data.source` and
         *     `data.factory_uid` in the event.
         */
        NotificationFilter: {
            /** @description Only runs of this factory (`fac_…`, a factory of the team). */
            factory_uid?: string | null;
            /** @description Only runs started by this automation (`aut_…`, an automation of the team). */
            automation_id?: string | null;
        };
        /**
         * @description An endpoint of the team that receives run events. Never contains the signing secret;
         *     `NotificationSubscriptionWithSecret` (create and rotate-secret answers only) adds it.
         */
        NotificationSubscription: {
            /** @description `sub_…` */
            uid: string;
            /** @description Where events are POSTed. */
            url: string;
            description: string | null;
            event_types: components["schemas"]["NotificationEventType"][];
            filter: {
                factory_uid: string | null;
                automation_id: string | null;
            };
            /** @description Disabled subscriptions record and send nothing. */
            enabled: boolean;
            /** @description Why it is disabled; `null` while enabled. Re-enable with `enabled: true`. */
            disabled_reason: components["schemas"]["NotificationDisabledReason"] | null;
            /** Format: date-time */
            disabled_at: string | null;
            /**
             * Format: date-time
             * @description The first failed attempt since the last successful one; `null` while deliveries succeed.
             */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description After a rotation, until when the previous secret still signs too; otherwise `null`.
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A subscription with its signing secret; only in the create and rotate-secret answers. */
        NotificationSubscriptionWithSecret: components["schemas"]["NotificationSubscription"] & {
            /**
             * @description The Standard Webhooks signing secret, `whsec_` + base64 of 32 random bytes, shown this once.
             *     Verify deliveries with it (any Standard Webhooks library, or the SDKs' `verifyNotification`
             *     / `verify_notification`).
             */
            secret: string;
        };
        CreateNotificationSubscriptionRequest: {
            /** @description An `https` URL (see the operation for what is refused). */
            url: string;
            event_types: components["schemas"]["NotificationEventType"][];
            description?: string;
            filter?: components["schemas"]["NotificationFilter"];
            /** @default true */
            enabled?: boolean;
        };
        UpdateNotificationSubscriptionRequest: {
            url?: string;
            event_types?: components["schemas"]["NotificationEventType"][];
            /** @description New description; `null` clears it. */
            description?: string | null;
            filter?: components["schemas"]["NotificationFilter"];
            enabled?: boolean;
        };
        /** @description Empty; the service generates the new secret. */
        RotateNotificationSubscriptionSecretRequest: Record<string, never>;
        ListNotificationSubscriptionsResponse: {
            subscriptions: components["schemas"]["NotificationSubscription"][];
            page_info: components["schemas"]["PageInfo"];
        };
        /** @description One delivery attempt of an event to a subscription. */
        NotificationAttempt: {
            /** @description `att_…` */
            uid: string;
            /** @description The event's `id` (and `webhook-id`), `evt_…`. */
            event_id: string;
            event_type: components["schemas"]["NotificationEventType"];
            run_id: string;
            /** @description 1 for the event's first attempt, counting up across retries and replays. */
            attempt: number;
            /** Format: date-time */
            attempted_at: string;
            outcome: components["schemas"]["NotificationAttemptOutcome"];
            /** @description The receiver's HTTP status; `null` when no answer came (timeout, connection refused, refused by the egress policy). */
            status_code: number | null;
            /** @description From sending the request to the answer's headers (or to the failure); `null` when nothing was sent. */
            latency_ms: number | null;
            /**
             * @description Why the attempt failed when the status code does not say it all, for example `timed out after
             *     15 s`, `connection failed: ECONNREFUSED`, `redirect not followed (Location: …)`, `refused by the
             *     egress policy: 10.0.0.7 is a private address`, `not sent: the subscription is disabled`; `null`
             *     otherwise.
             */
            error: string | null;
            /** @description The start of the answer's body (UTF-8, at most 1024 bytes, a setting); `null` when no answer came. */
            response_excerpt: string | null;
            /**
             * Format: date-time
             * @description When the next attempt is due (`outcome` `retrying`); `null` otherwise.
             */
            next_attempt_at: string | null;
        };
        ListNotificationAttemptsResponse: {
            attempts: components["schemas"]["NotificationAttempt"][];
            page_info: components["schemas"]["PageInfo"];
        };
        ReplayNotificationEventResponse: {
            event_id: string;
            subscription_uid: string;
            /** Format: date-time */
            next_attempt_at: string;
        };
        /**
         * @description The JSON body of every notification (Standard Webhooks' `{type, timestamp, data}` plus the event
         *     `id`). The run's `prompt` is not included (it can be 256 KiB and may hold what only the team should
         *     read): fetch the run with `GET /agent/runs/{data.run_id}` when needed.
         */
        NotificationEvent: {
            /** @description The event ID, `evt_…`; equals the `webhook-id` header. The same on every attempt and replay of this event; deduplicate on it. */
            id: string;
            type: components["schemas"]["NotificationEventType"];
            /**
             * Format: date-time
             * @description When the state changed (not when this attempt was sent; that is `webhook-timestamp`).
             */
            timestamp: string;
            data: components["schemas"]["NotificationRunData"];
        };
        /** @description The run as it was right after the state change. */
        NotificationRunData: {
            run_id: string;
            title: string;
            state: components["schemas"]["RunState"];
            /** @description The state before this change; `null` for the run's creation (`state` `QUEUED`). */
            previous_state: components["schemas"]["RunState"] | null;
            status_message?: components["schemas"]["RunStatusMessage"];
            source: components["schemas"]["RunSourceType"];
            factory_uid: string | null;
            automation_id: string | null;
            /** @description The webhook delivery that started the run, for runs started by an automation. */
            delivery_id?: string;
            metadata?: components["schemas"]["RunMetadata"];
            /** @description The run's page in the dashboard. */
            session_link: string;
            /**
             * @description The number of this change in the run's event log (`GET /agent/runs/{runId}/events` ids):
             *     increasing per run, so a receiver can order a run's events and drop stale ones.
             */
            sequence: number;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When this change happened (equals the event's `timestamp`).
             */
            updated_at: string;
        };
        HealthResponse: {
            /** @constant */
            status: "ok";
        };
        ReadinessResponse: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            /**
             * @description What this process serves (`ROLE`): `api` the REST API, the dashboard and the event streams,
             *     `ingress` the webhook ingress, `worker` the run engine. A process answers the routes of a role
             *     it does not serve with `404`.
             */
            roles: ("api" | "ingress" | "worker")[];
            /** @description Outcome of each check by name (`database`, `migrations`, `secrets_key`). */
            checks: {
                [key: string]: "ok" | "failing";
            };
            sandbox?: components["schemas"]["SandboxStatus"];
        };
        /**
         * @description How the processes a run causes (the command runner, environment setup commands, stdio MCP servers)
         *     are isolated in this process. `bwrap`: each in a bubblewrap sandbox of its own, all of a run's
         *     processes inside one fence (memory, process count, workspace disk); `none` (`SANDBOX=none`): on the
         *     host, for single-tenant development only.
         */
        SandboxStatus: {
            /** @enum {string} */
            mode: "bwrap" | "none";
            /** @description False when `bwrap` is asked for but cannot run here; runs that need a process then fail `sandbox_unavailable`. */
            available: boolean;
            /**
             * @description `SANDBOX_NETWORK`: the egress policy of sandboxed processes and of requests the server makes for a run.
             * @enum {string}
             */
            network: "none" | "allowlist" | "open";
            /**
             * @description How memory and process limits are enforced (a cgroup holds them for a whole run; rlimits per process).
             * @enum {string}
             */
            limits: "cgroup v1" | "cgroup v2" | "rlimit" | "none";
            /**
             * @description How `SANDBOX_DISK_MB` is enforced. `loop ext4`: each run's workspace is an ext4 image of that size
             *     mounted `nosuid,nodev`, and a run that fills it fails `disk_limit`; `rlimit`: only a single file
             *     is bounded (RLIMIT_FSIZE), the workspace as a whole is not; `none`: no limit.
             * @enum {string}
             */
            disk: "loop ext4" | "rlimit" | "none";
            /**
             * @description The unprivileged host uid sandboxed processes run as when the server runs as root
             *     (`SANDBOX_HOST_UID`); null when they run as the server's own user.
             */
            host_uid: number | null;
            /** @description What the operator should fix (a missing package, no writable cgroup). */
            problems: string[];
        };
    };
    responses: {
        /** @description The run's ID and its state. */
        RunAgentResponse: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RunAgentResponse"];
            };
        };
        /** @description The team's monthly budget and its use this month. */
        TeamBudget200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TeamBudget"];
            };
        };
        /** @description The environment. */
        Environment200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CloudEnvironment"];
            };
        };
        /** @description The new environment. */
        Environment201: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CloudEnvironment"];
            };
        };
        /** @description The scheduled agent. */
        ScheduledAgent200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ScheduledAgentItem"];
            };
        };
        /** @description The new scheduled agent. */
        ScheduledAgent201: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ScheduledAgentItem"];
            };
        };
        /** @description The webhook (never with its secret). */
        Webhook200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Webhook"];
            };
        };
        /** @description The subscription (never with its signing secret). */
        NotificationSubscription200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotificationSubscription"];
            };
        };
        /** @description The automation. */
        Automation200: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Automation"];
            };
        };
        /** @description The outcome of the test. */
        TestFilterResult: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TestFilterResult"];
            };
        };
        /**
         * @description Accepted for evaluation (not a guarantee an automation fired), or a duplicate of an accepted
         *     delivery (logged `Duplicate`, starts nothing).
         */
        DeliveryAccepted: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DeliveryAcceptedResponse"];
            };
        };
        /** @description Done; no body. */
        NoContent: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description `invalid_request`: malformed JSON, or a body or parameter that does not match the schema
         *     (`errors` lists each offending value), or a refused field.
         */
        BadRequest: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `authentication_required`: the API key is missing, malformed, unknown or deleted. */
        Unauthorized: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `not_authorized`: the key's role may not perform this operation (a member changing a factory resource). */
        Forbidden: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `not_authorized`: the signed download URL does not verify for this artifact, or it has expired. */
        DownloadLinkInvalid: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `resource_not_found`: no such resource in the caller's team. */
        NotFound: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `conflict` (the resource's state forbids the operation, a name is taken, a `files` factory
         *     refuses the change, or an `Idempotency-Key` was reused with another body or is still in flight)
         *     or `limit_exceeded` (a count limit is reached, or the team's monthly budget is spent). Final
         *     conflicts carry `x-should-retry: false`.
         */
        Conflict: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "x-should-retry": components["headers"]["XShouldRetry"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `payload_too_large`: the request body exceeds the REST body limit (a setting, default 10 MB). */
        PayloadTooLarge: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `validation_failed`: the request is well-formed but breaks a rule; `errors` names each offending
         *     value by JSON path. Carries `x-should-retry: false`.
         */
        UnprocessableEntity: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "x-should-retry": components["headers"]["XShouldRetry"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `rate_limited`: too many requests; retry after `Retry-After` seconds. */
        TooManyRequests: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `rate_limited`, with `Retry-After`: the API key already holds as many open event streams as one
         *     key may (16, `SSE_STREAMS_PER_KEY`, per server process), or its request budget is spent.
         */
        EventStreamTooManyRequests: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `internal_error`: an unexpected server failure. */
        InternalError: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `service_unavailable`: the server cannot store anything right now (its storage is full); retry
         *     after `Retry-After` seconds. Nothing of the request was stored.
         */
        ServiceUnavailable: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `request_timeout`: the request's headers or its body did not arrive within the server's timeouts.
         *     Answered before the ingress reads the request (`instance` is `*`), with `Connection: close`. Not
         *     logged.
         */
        RequestTimeout: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `request_header_fields_too_large`: the request's head (request line and headers) exceeds 16 KB.
         *     Answered before any operation reads the request (`instance` is `*`), with `Connection: close`.
         *     Not logged.
         */
        RequestHeaderFieldsTooLarge: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `method_not_allowed`: only `POST` is accepted at the ingress; the answer carries `Allow: POST`. Not logged. */
        MethodNotAllowed: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `invalid_request`: the body is not valid JSON. Logged `Rejected (invalid JSON)`. */
        IngressInvalidJson: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `authentication_required`: the credential of the webhook's mode is missing or wrong (including an
         *     unsigned request to a `signature` webhook, a signature older than five minutes where checked, and
         *     a `signature` webhook whose provider secret is not set yet). The body does not say which: the
         *     delivery is logged `Rejected (auth)` with its `rejection_reason` for the webhook's owner. Counts
         *     against the sender's failed-authentication budget.
         */
        IngressUnauthorized: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `resource_not_found`: the webhook is unknown, disabled or deleted. Not logged. */
        IngressNotFound: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `rate_limited`, with `Retry-After`: either the sender address spent its failed-authentication
         *     budget for this webhook (10 failed attempts per minute, a setting; answered instead of a `401`,
         *     or of a `413` for a `signature` webhook — never to a delivery whose credential checks out), or
         *     the webhook spent its delivery rate (60 authenticated deliveries per minute, a setting). Not
         *     logged.
         */
        IngressTooManyRequests: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
        /** @description `payload_too_large`: the body exceeds 256 KB (262,144 bytes). Logged `Rejected (too large)`. */
        IngressPayloadTooLarge: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description Run ID (a UUIDv4 string).
         * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
         */
        RunId: string;
        /**
         * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
         * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
         */
        ArtifactUid: string;
        /**
         * @description Factory UID (`fac_…`).
         * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        FactoryUid: string;
        /**
         * @description Webhook UID (`wh_…`).
         * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        WebhookUid: string;
        /**
         * @description Delivery ID (`dlv_…`).
         * @example dlv_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        DeliveryId: string;
        /**
         * @description Automation UID (`aut_…`).
         * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        AutomationUid: string;
        /**
         * @description Environment ID (`env_…`).
         * @example env_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        EnvironmentId: string;
        /**
         * @description Scheduled agent ID (`sch_…`).
         * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        ScheduleId: string;
        /** @description Maximum number of items in the page. */
        Limit: number;
        /**
         * @description Notification subscription UID (`sub_…`).
         * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        SubscriptionUid: string;
        /**
         * @description Event ID (`evt_…`), the `webhook-id` of its deliveries.
         * @example evt_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        EventId: string;
        /** @description Maximum number of runs in the page. */
        RunsLimit: number;
        /** @description Maximum number of schedules in the page (default 500, every schedule of a team with the default limit per team). */
        SchedulesLimit: number;
        /**
         * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
         *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
         *     and sort answers `400 invalid_request` naming `query.cursor`.
         */
        Cursor: string;
        /**
         * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
         *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
         *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
         *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
         *     path, and a stored response replays only to the API key that sent the first request (it may hold a
         *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
         *     `400 invalid_request`.
         * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
         */
        IdempotencyKey: string;
        /**
         * @description The sender's own event ID, used as the delivery identity when neither the webhook's
         *     `delivery_id_header` nor the provider's delivery header is present.
         * @example evt_20260501_0001
         */
        ServiceDeliveryId: string;
    };
    requestBodies: {
        RunAgentRequest: {
            content: {
                "application/json": components["schemas"]["RunAgentRequest"];
            };
        };
        /**
         * @description Any valid JSON value (object, array or scalar), at most 256 KB (262,144 bytes). `Content-Type` is
         *     not enforced: the body is parsed as JSON whatever the header says (the `*\/*` entry says so to
         *     tools that validate requests).
         */
        WebhookPayload: {
            content: {
                "application/json": unknown;
                "*/*": unknown;
            };
        };
    };
    headers: {
        /**
         * @description ID of this request (echoed from the request's `x-request-id` when it is a safe token of at most
         *     128 characters, otherwise generated). Error bodies repeat it as `trace_id`.
         * @example req_01hzx3k4m5n6p7q8r9s0t1v2w3
         */
        XRequestId: string;
        /**
         * @description `false` when repeating the same request cannot succeed (a final `409` or a `422`); `true` on a
         *     `409` that may succeed when retried (the first request with this `Idempotency-Key` is still in
         *     progress).
         * @example false
         */
        XShouldRetry: boolean;
        /**
         * @description Seconds to wait before retrying.
         * @example 30
         */
        RetryAfter: number;
        /**
         * @description The methods the path supports.
         * @example POST
         */
        Allow: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listRuns: {
        parameters: {
            query?: {
                /** @description Maximum number of runs in the page. */
                limit?: components["parameters"]["RunsLimit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Field to sort by. `title` sorts by the run's title (code-point order on SQLite, the database's collation on PostgreSQL); `agent` by the run's skill
                 *     (`agent_config.skill_spec`), runs without a skill after every run with one in `asc` order (before
                 *     them in `desc` order).
                 */
                sort_by?: "created_at" | "updated_at" | "title" | "agent";
                /** @description Sort direction. */
                sort_order?: "asc" | "desc";
                /** @description Only runs in one of these states (repeat the parameter for several). */
                state?: components["schemas"]["RunState"][];
                /** @description Only runs whose `agent_config.name` equals this value. */
                name?: string;
                /** @description Only runs whose `agent_config.model_id` equals this value. */
                model_id?: string;
                /** @description Only runs whose `creator.uid` equals this value. */
                creator?: string;
                /** @description Only runs with this source. */
                source?: components["schemas"]["RunSourceType"];
                /** @description Only runs of this factory. */
                factory_uid?: string;
                /** @description Only runs started by this automation. */
                automation_id?: string;
                /**
                 * @description Only runs started from this webhook delivery (`dlv_…`, exact match): the runs its automations
                 *     started when it was accepted and those its replays started. The dashboard lists them under the
                 *     delivery in Recent deliveries.
                 */
                delivery_id?: string;
                /**
                 * @description Only the run with this `session_id` (a UUIDv4; exact match). The dashboard's page at a run's
                 *     `session_link` finds the run with it once the person has signed in with a key of the run's team.
                 */
                session_id?: string;
                /** @description Only runs created after this instant. */
                created_after?: string;
                /** @description Only runs created before this instant. */
                created_before?: string;
                /** @description Only runs updated after this instant. */
                updated_after?: string;
                /**
                 * @description Only runs whose title, prompt or `agent_config.skill_spec` contains this text, ignoring case
                 *     (ASCII letters on SQLite, every letter on PostgreSQL). On PostgreSQL trigram indexes (pg_trgm, where
                 *     the database offers it) find rare text at once; on SQLite the search scans the team's runs newest
                 *     first until the page is full, so a text few runs hold reads the whole team (docs/decisions.md §Oz
                 *     parity): combine it with other filters on large teams there.
                 */
                q?: string;
                /**
                 * @description Only runs whose `agent_config.environment_id` equals this value; the literal `empty-environment`
                 *     selects the runs without an environment (as in the Oz API).
                 */
                environment_id?: string;
                /** @description Only runs whose `agent_config.skill_spec` equals this value (alias of `skill_spec`, as in the Oz API). */
                skill?: string;
                /**
                 * @description Only runs whose `agent_config.skill_spec` equals this value. Given together with `skill`, both
                 *     filters hold: two different values match no run.
                 */
                skill_spec?: string;
                /**
                 * @description Only runs descending from this run (its children through `parent_run_id`, their children, and so
                 *     on; not the run itself). A run ID that names no run of the team answers `400 invalid_request`
                 *     naming the parameter, as in the Oz API.
                 */
                ancestor_run_id?: string;
                /**
                 * @description Only runs whose `metadata` holds every given pair, exactly (`metadata[ticket_id]=VIS-238`;
                 *     several pairs combine with AND; at most 5 pairs, as in the Oz API). A key made of digits only
                 *     cannot be filtered on (`metadata[0]` reads as an array index): `400`.
                 */
                metadata?: {
                    [key: string]: string;
                };
                /**
                 * @description Only runs executed by this principal. A run of this service is executed by its creator (there is no
                 *     delegation), so this filters like `creator`.
                 */
                executor?: string;
                /**
                 * @description Only runs that executed there. Every run of this service executes on the server's workers:
                 *     `REMOTE` matches every run and `LOCAL` none.
                 */
                execution_location?: components["schemas"]["RunExecutionLocation"];
                /**
                 * @description Only runs started by this scheduled agent (`sch_…`; exact match), also after the schedule was
                 *     deleted. An ID that names no schedule answers an empty page, as in the Oz API, not a `400`.
                 */
                schedule_id?: string;
                /** @description Only runs that published at least one artifact of this type (`RunItem.artifacts`). */
                artifact_type?: components["schemas"]["RunArtifactType"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of runs. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListRunsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["RunAgentRequest"];
        responses: {
            200: components["responses"]["RunAgentResponse"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createRunLegacy: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["RunAgentRequest"];
        responses: {
            200: components["responses"]["RunAgentResponse"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunItem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createRunFollowup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunFollowupRequest"];
            };
        };
        responses: {
            200: components["responses"]["RunAgentResponse"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run is (now) `CANCELLED`; the body is its ID as a bare JSON string. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRunConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRunSetupLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's setup log. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunSetupLog"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRunTranscript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the transcript's time-limited download URL. */
            302: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    /**
                     * @description The download URL (absolute, under `PUBLIC_BASE_URL`).
                     * @example http://localhost:8080/api/v1/agent/runs/3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c/transcript/download?token=team_01hzx3k4m5n6p7q8r9s0t1v2w3.1777626000.kqG6t7f0bJx1h2cV3nQm4pL5rS6tU7vW8xY9zA0bC1d
                     */
                    Location: string;
                    /**
                     * @description `no-store`: the URL is a short-lived credential.
                     * @example no-store
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadRunTranscript: {
        parameters: {
            query: {
                /**
                 * @description The signed token of the URL `getRunTranscript` answered. Opaque.
                 * @example team_01hzx3k4m5n6p7q8r9s0t1v2w3.1777626000.kqG6t7f0bJx1h2cV3nQm4pL5rS6tU7vW8xY9zA0bC1d
                 */
                token: string;
            };
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transcript, JSON Lines. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    /**
                     * @description `attachment; filename="transcript-<runId>.jsonl"`.
                     * @example attachment; filename="transcript-3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c.jsonl"
                     */
                    "Content-Disposition"?: string;
                    /**
                     * @description `no-store`.
                     * @example no-store
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description `not_authorized`: the token is malformed, not this server's for this run, or expired. */
            403: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRunAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
                /**
                 * @description The attachment's `file_name`, for example `event-payload.json` (the delivery body attached to a
                 *     run started by a webhook delivery).
                 * @example event-payload.json
                 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachment's bytes. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    /**
                     * @description `attachment; filename="<file_name>"`.
                     * @example attachment; filename="event-payload.json"
                     */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "*/*": string;
                    "application/json": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    streamTeamRunEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["EventStreamTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    streamRunEvents: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Resume after the event with this `id`.
                 * @example 12
                 */
                "Last-Event-ID"?: number;
            };
            path: {
                /**
                 * @description Run ID (a UUIDv4 string).
                 * @example 3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c
                 */
                runId: components["parameters"]["RunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["EventStreamTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the signed download URL. */
            302: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    /**
                     * @description The signed, time-limited download URL (`getArtifactContent`).
                     * @example http://localhost:8080/api/v1/agent/artifacts/9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f/content?token=team_01hzx3k4m5n6p7q8r9s0t1v2w3.1777626429.q3J5Ma2ZbGk8vQ1nXx7uTfYcR0pLs9wE4dHiKjNmOaU
                     */
                    Location?: string;
                    /**
                     * @description `no-store`: the URL expires.
                     * @example no-store
                     */
                    "Cache-Control"?: string;
                    /**
                     * @description `nosniff`.
                     * @example nosniff
                     */
                    "X-Content-Type-Options"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getArtifactContent: {
        parameters: {
            query: {
                /**
                 * @description The signature part of the download URL, as issued.
                 * @example team_01hzx3k4m5n6p7q8r9s0t1v2w3.1777626429.q3J5Ma2ZbGk8vQ1nXx7uTfYcR0pLs9wE4dHiKjNmOaU
                 */
                token: string;
            };
            header?: never;
            path: {
                /**
                 * @description Artifact UID (a UUIDv4 string), from an `ArtifactItem`'s `data.artifact_uid`.
                 * @example 9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                artifactUid: components["parameters"]["ArtifactUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact's bytes. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    /**
                     * @description `attachment; filename="<filename>"`.
                     * @example attachment; filename="summary.md"
                     */
                    "Content-Disposition"?: string;
                    /**
                     * @description `nosniff`.
                     * @example nosniff
                     */
                    "X-Content-Type-Options"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "*/*": string;
                    "text/markdown": string;
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["DownloadLinkInvalid"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRunByExternalReferenceURL: {
        parameters: {
            query: {
                /**
                 * @description The external reference's URL.
                 * @example https://linear.app/acme/issue/ENG-42
                 */
                url: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunByExternalReferenceResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSkills: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListSkillsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAgents: {
        parameters: {
            query?: {
                /**
                 * @description Only the skills of this repository, `owner/repo` (a directory of `SKILLS_DIR`, or
                 *     `agent-runs/bundled`). A repository this server does not have lists no agents.
                 */
                repo?: string;
                /** @description Oz API. Accepted without effect (the list is never cached). */
                refresh?: boolean;
                /**
                 * @description `name` (default): agents by name (code-point order). `last_run`: agents whose variants ran most
                 *     recently first; agents never run after them, by name.
                 */
                sort_by?: "name" | "last_run";
                /** @description Also list malformed skills, each variant with `error`. */
                include_malformed_skills?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agents. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAgentsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The models. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListModelsResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listHarnesses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The harnesses. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListHarnessesResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEnvironments: {
        parameters: {
            query?: {
                /**
                 * @description `last_updated` (default): most recently updated first. `name`: by name, ascending (code-point
                 *     order on SQLite, the database's collation on PostgreSQL).
                 */
                sort_by?: "last_updated" | "name";
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of environments. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListEnvironmentsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEnvironmentRequest"];
            };
        };
        responses: {
            201: components["responses"]["Environment201"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Environment ID (`env_…`).
                 * @example env_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                environmentId: components["parameters"]["EnvironmentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Environment200"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Environment ID (`env_…`).
                 * @example env_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                environmentId: components["parameters"]["EnvironmentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Environment ID (`env_…`).
                 * @example env_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                environmentId: components["parameters"]["EnvironmentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEnvironmentRequest"];
            };
        };
        responses: {
            200: components["responses"]["Environment200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listScheduledAgents: {
        parameters: {
            query?: {
                /** @description Maximum number of schedules in the page (default 500, every schedule of a team with the default limit per team). */
                limit?: components["parameters"]["SchedulesLimit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of scheduled agents. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListScheduledAgentsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createScheduledAgent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateScheduledAgentRequest"];
            };
        };
        responses: {
            201: components["responses"]["ScheduledAgent201"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getScheduledAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ScheduledAgent200"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateScheduledAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateScheduledAgentRequest"];
            };
        };
        responses: {
            200: components["responses"]["ScheduledAgent200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteScheduledAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteScheduledAgentResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    pauseScheduledAgent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ScheduledAgent200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resumeScheduledAgent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Scheduled agent ID (`sch_…`).
                 * @example sch_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ScheduledAgent200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFactories: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of factories. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListFactoriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createFactory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFactoryRequest"];
            };
        };
        responses: {
            /** @description The new factory. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Factory"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getFactory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The factory. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Factory"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dispatchFactoryRun: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DispatchFactoryRunRequest"];
            };
        };
        responses: {
            /** @description The dispatched run. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunAgentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    applyFactoryDefinitions: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplyDefinitionsRequest"];
            };
        };
        responses: {
            /** @description What the apply created, updated and deleted. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplyDefinitionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description A file is invalid; nothing was applied. `file_errors` lists every problem. */
            422: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "x-should-retry": components["headers"]["XShouldRetry"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testDraftFilter: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestDraftFilterRequest"];
            };
        };
        responses: {
            200: components["responses"]["TestFilterResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of webhooks. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhooksResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description The new webhook, with its secret shown this once. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Webhook200"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookRequest"];
            };
        };
        responses: {
            200: components["responses"]["Webhook200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateWebhookSecretRequest"];
            };
        };
        responses: {
            /** @description The webhook with its new secret, shown this once. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhookDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description Delivery ID (`dlv_…`).
                 * @example dlv_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                deliveryId: components["parameters"]["DeliveryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description Delivery ID (`dlv_…`).
                 * @example dlv_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                deliveryId: components["parameters"]["DeliveryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The runs the replay started. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayDeliveryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAutomations: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of automations. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAutomationsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createAutomation: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAutomationRequest"];
            };
        };
        responses: {
            /** @description The new automation. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Automation200"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAutomationRequest"];
            };
        };
        responses: {
            200: components["responses"]["Automation200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testAutomationFilter: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Factory UID (`fac_…`).
                 * @example fac_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                factoryUid: components["parameters"]["FactoryUid"];
                /**
                 * @description Automation UID (`aut_…`).
                 * @example aut_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                automationUid: components["parameters"]["AutomationUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestAutomationFilterRequest"];
            };
        };
        responses: {
            200: components["responses"]["TestFilterResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSecrets: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of secret names. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListSecretsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Secret name.
                 * @example GITHUB_WEBHOOK_SECRET
                 */
                name: components["schemas"]["SecretName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutSecretRequest"];
            };
        };
        responses: {
            /** @description The secret's metadata. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretMetadata"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Secret name.
                 * @example GITHUB_WEBHOOK_SECRET
                 */
                name: components["schemas"]["SecretName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of keys. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListApiKeysResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The new key, with its value shown this once. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithValue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCurrentApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calling key and its team. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentApiKey"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description API key ID (`key_…`).
                 * @example key_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listNotificationSubscriptions: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of subscriptions. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListNotificationSubscriptionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createNotificationSubscription: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationSubscriptionRequest"];
            };
        };
        responses: {
            /** @description The new subscription, with its signing secret shown this once. */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationSubscriptionWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getNotificationSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["NotificationSubscription200"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteNotificationSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateNotificationSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationSubscriptionRequest"];
            };
        };
        responses: {
            200: components["responses"]["NotificationSubscription200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateNotificationSubscriptionSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateNotificationSubscriptionSecretRequest"];
            };
        };
        responses: {
            /** @description The subscription with its new secret, shown this once. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationSubscriptionWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listNotificationAttempts: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only attempts of this event (`evt_…`). */
                event_id?: string;
                /** @description Only attempts of events of this run. */
                run_id?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of attempts. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListNotificationAttemptsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replayNotificationEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry. Within 24 hours, the same key with the same body replays the stored
                 *     response (header `Idempotent-Replayed: true`) without acting again; the same key with a different
                 *     body answers `409 conflict` (`x-should-retry: false`); the same key while the first request is
                 *     still running answers `409 conflict` (`retryable: true`). Keys are scoped to the team, method and
                 *     path, and a stored response replays only to the API key that sent the first request (it may hold a
                 *     secret shown once): another key of the team reusing it gets `409 conflict`. 1–255 printable ASCII characters without spaces (`!` to `~`); any other value answers
                 *     `400 invalid_request`.
                 * @example 5b2a9d3e-8c41-4f4e-9a57-0c6d2e1f3a4b
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Notification subscription UID (`sub_…`).
                 * @example sub_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                subscriptionUid: components["parameters"]["SubscriptionUid"];
                /**
                 * @description Event ID (`evt_…`), the `webhook-id` of its deliveries.
                 * @example evt_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                eventId: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is queued for delivery. */
            202: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayNotificationEventResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTeamBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TeamBudget200"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateTeamBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TeamBudgetUpdate"];
            };
        };
        responses: {
            200: components["responses"]["TeamBudget200"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTeamUsage: {
        parameters: {
            query?: {
                /**
                 * @description The month, `YYYY-MM` (default the current month, UTC).
                 * @example 2026-11
                 */
                month?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The team's usage of the month. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamUsage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Maximum number of items in the page. */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `page_info.next_cursor` of the previous page. Opaque: 1–2048 base64url characters
                 *     (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`). A value this server did not issue for this list, filters
                 *     and sort answers `400 invalid_request` naming `query.cursor`.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only events about this kind of resource. */
                resource_type?: components["schemas"]["AuditResourceType"];
                /** @description Only events about the resource with this id (exact match; with `resource_type`, that resource). */
                resource_id?: string;
                /** @description Only changes made with this API key (`key_…`, exact match; a revoked key's events stay). */
                actor_key_id?: string;
                /** @description Only events at or after this instant. */
                since?: string;
                /** @description Only events before this instant. */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit events. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAuditEventsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    receiveWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The sender's own event ID, used as the delivery identity when neither the webhook's
                 *     `delivery_id_header` nor the provider's delivery header is present.
                 * @example evt_20260501_0001
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path: {
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["WebhookPayload"];
        responses: {
            202: components["responses"]["DeliveryAccepted"];
            400: components["responses"]["IngressInvalidJson"];
            401: components["responses"]["IngressUnauthorized"];
            404: components["responses"]["IngressNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["IngressPayloadTooLarge"];
            429: components["responses"]["IngressTooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    receiveWebhookDeliveryWithToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The sender's own event ID, used as the delivery identity when neither the webhook's
                 *     `delivery_id_header` nor the provider's delivery header is present.
                 * @example evt_20260501_0001
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path: {
                /**
                 * @description Webhook UID (`wh_…`).
                 * @example wh_01hzx3k4m5n6p7q8r9s0t1v2w3
                 */
                webhookUid: components["parameters"]["WebhookUid"];
                /**
                 * @description The webhook secret of a `url_token` webhook. The URL is itself the credential.
                 * @example Q2xK8vN3pR5tW7yZ1bD4fH6jL9mP0sU2xA5cE8gI
                 */
                token: string;
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["WebhookPayload"];
        responses: {
            202: components["responses"]["DeliveryAccepted"];
            400: components["responses"]["IngressInvalidJson"];
            401: components["responses"]["IngressUnauthorized"];
            404: components["responses"]["IngressNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["IngressPayloadTooLarge"];
            429: components["responses"]["IngressTooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessResponse"];
                };
            };
            /** @description Not ready. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessResponse"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    receiveRunNotification: {
        parameters: {
            query?: never;
            header: {
                /** @description The event ID (`evt_…`), the same on every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` signatures (two during a secret rotation overlap). */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationEvent"];
            };
        };
        responses: {
            /** @description Delivered. Any other answer (or none within the timeout) is a failed attempt, retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const pathsAgentRunsGetParametersQuerySort_byValues: ReadonlyArray<FlattenedDeepRequired<paths>["/agent/runs"]["get"]["parameters"]["query"]["sort_by"]> = ["created_at", "updated_at", "title", "agent"];
export const pathsAgentRunsGetParametersQuerySort_orderValues: ReadonlyArray<FlattenedDeepRequired<paths>["/agent/runs"]["get"]["parameters"]["query"]["sort_order"]> = ["asc", "desc"];
export const pathsAgentGetParametersQuerySort_byValues: ReadonlyArray<FlattenedDeepRequired<paths>["/agent"]["get"]["parameters"]["query"]["sort_by"]> = ["name", "last_run"];
export const pathsAgentEnvironmentsGetParametersQuerySort_byValues: ReadonlyArray<FlattenedDeepRequired<paths>["/agent/environments"]["get"]["parameters"]["query"]["sort_by"]> = ["last_updated", "name"];
export const runStateValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunState"]> = ["QUEUED", "PENDING", "CLAIMED", "INPROGRESS", "SUCCEEDED", "FAILED", "BLOCKED", "ERROR", "CANCELLED"];
export const runSourceTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunSourceType"]> = ["API", "CLI", "WEB_APP", "SCHEDULED_AGENT", "WEBHOOK", "SLACK", "LINEAR", "GITHUB_ACTION", "CLOUD_MODE", "INTERACTIVE", "LOCAL", "JIRA", "SELF_IMPROVEMENT", "GITHUB_WEBHOOK", "GITLAB_WEBHOOK", "AUTOFIX", "RUN_SCORER", "ORCHESTRATION"];
export const runExecutionLocationValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunExecutionLocation"]> = ["LOCAL", "REMOTE"];
export const runArtifactTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunArtifactType"]> = ["PLAN", "PULL_REQUEST", "SCREENSHOT", "FILE", "EXTERNAL_REFERENCE"];
export const planArtifactArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PlanArtifact"]["artifact_type"]> = ["PLAN"];
export const pullRequestArtifactArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PullRequestArtifact"]["artifact_type"]> = ["PULL_REQUEST"];
export const screenshotArtifactArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ScreenshotArtifact"]["artifact_type"]> = ["SCREENSHOT"];
export const fileArtifactArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FileArtifact"]["artifact_type"]> = ["FILE"];
export const externalReferenceArtifactArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ExternalReferenceArtifact"]["artifact_type"]> = ["EXTERNAL_REFERENCE"];
export const planArtifactResponseArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PlanArtifactResponse"]["artifact_type"]> = ["PLAN"];
export const screenshotArtifactResponseArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ScreenshotArtifactResponse"]["artifact_type"]> = ["SCREENSHOT"];
export const fileArtifactResponseArtifact_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FileArtifactResponse"]["artifact_type"]> = ["FILE"];
export const runCreatorInfoTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunCreatorInfo"]["type"]> = ["user", "service_account"];
export const ambientAgentConfigSession_sharingPublic_accessValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AmbientAgentConfig"]["session_sharing"]["public_access"]> = ["VIEWER", "EDITOR"];
export const runAgentRequestImagesMime_typeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunAgentRequest"]["images"]["mime_type"]> = ["image/jpeg", "image/png", "image/gif", "image/webp"];
export const runAgentRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunAgentRequest"]["mode"]> = ["normal", "plan", "orchestrate"];
export const runFollowupRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunFollowupRequest"]["mode"]> = ["normal", "plan", "orchestrate"];
export const runItemScopeTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RunItem"]["scope"]["type"]> = ["User", "Team"];
export const messageRoleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MessageRole"]> = ["user", "assistant", "tool", "system"];
export const textBlockTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TextBlock"]["type"]> = ["text"];
export const actionCategoryValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ActionCategory"]> = ["command", "files", "search", "integration", "documents", "computer", "review", "skill"];
export const actionBlockTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ActionBlock"]["type"]> = ["action"];
export const actionResultBlockTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ActionResultBlock"]["type"]> = ["action_result"];
export const actionResultBlockStateValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ActionResultBlock"]["state"]> = ["running", "completed", "failed", "denied"];
export const eventBlockTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["EventBlock"]["type"]> = ["event"];
export const modelInfoProviderValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ModelInfo"]["provider"]> = ["OPENAI", "ANTHROPIC", "GOOGLE", "UNKNOWN"];
export const modelInfoDisable_reasonValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ModelInfo"]["disable_reason"]> = ["PROVIDER_OUTAGE", "OUT_OF_REQUESTS", "ADMIN_DISABLED", "REQUIRES_UPGRADE"];
export const cloudEnvironmentScopeTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CloudEnvironment"]["scope"]["type"]> = ["User", "Team"];
export const createScheduledAgentRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["CreateScheduledAgentRequest"]["mode"]> = ["normal", "plan", "orchestrate"];
export const updateScheduledAgentRequestModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["UpdateScheduledAgentRequest"]["mode"]> = ["normal", "plan", "orchestrate"];
export const scheduledAgentItemScopeTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ScheduledAgentItem"]["scope"]["type"]> = ["User", "Team"];
export const definitionSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["DefinitionSource"]> = ["api", "files"];
export const authModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthMode"]> = ["token", "url_token", "signature"];
export const signatureSchemeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SignatureScheme"]> = ["standard-webhooks", "stripe", "slack", "github", "shopify", "linear", "gitlab"];
export const deliveryLabelValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["DeliveryLabel"]> = ["Accepted", "Duplicate", "Rejected (auth)", "Rejected (invalid JSON)", "Rejected (too large)"];
export const identitySourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IdentitySource"]> = ["delivery_id_header", "provider_header", "service_header", "body_hash"];
export const selectedWebhookStateValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SelectedWebhook"]["state"]> = ["enabled", "disabled", "deleted", "unknown"];
export const testFilterResultResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TestFilterResult"]["result"]> = ["Would trigger", "Would not trigger"];
export const apiKeyRoleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ApiKeyRole"]> = ["admin", "member"];
export const auditResourceTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuditResourceType"]> = ["api_key", "secret", "webhook", "webhook_delivery", "environment", "automation", "factory", "schedule", "notification_subscription", "notification_event", "team_budget"];
export const notificationEventTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NotificationEventType"]> = ["run.state_changed", "run.succeeded", "run.failed", "run.error", "run.cancelled", "run.blocked"];
export const notificationDisabledReasonValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NotificationDisabledReason"]> = ["manual", "failing"];
export const notificationAttemptOutcomeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NotificationAttemptOutcome"]> = ["succeeded", "retrying", "failed"];
export const readinessResponseStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadinessResponse"]["status"]> = ["ok", "unavailable"];
export const readinessResponseRolesValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadinessResponse"]["roles"]> = ["api", "ingress", "worker"];
export const readinessResponseChecksValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ReadinessResponse"]["checks"][string]> = ["ok", "failing"];
export const sandboxStatusModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SandboxStatus"]["mode"]> = ["bwrap", "none"];
export const sandboxStatusNetworkValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SandboxStatus"]["network"]> = ["none", "allowlist", "open"];
export const sandboxStatusLimitsValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SandboxStatus"]["limits"]> = ["cgroup v1", "cgroup v2", "rlimit", "none"];
export const sandboxStatusDiskValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SandboxStatus"]["disk"]> = ["loop ext4", "rlimit", "none"];
/** The query parameters of each operation that have a default in the contract (scripts/generate.mjs). */
export interface queryParametersWithDefaults {
    listRuns: "limit" | "sort_by" | "sort_order";
    listAgents: "refresh" | "sort_by" | "include_malformed_skills";
    listEnvironments: "sort_by" | "limit";
    listScheduledAgents: "limit";
    listFactories: "limit";
    listWebhooks: "limit";
    listWebhookDeliveries: "limit";
    listAutomations: "limit";
    listSecrets: "limit";
    listApiKeys: "limit";
    listNotificationSubscriptions: "limit";
    listNotificationAttempts: "limit";
    listAuditEvents: "limit";
}
