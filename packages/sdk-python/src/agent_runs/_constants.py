import httpx

DEFAULT_BASE_URL = "http://localhost:8080/api/v1"
API_KEY_ENV = "AGENT_RUNS_API_KEY"
BASE_URL_ENV = "AGENT_RUNS_BASE_URL"

# Per attempt, as in the TypeScript SDK: 60 s overall, 5 s to connect.
DEFAULT_TIMEOUT = httpx.Timeout(timeout=60.0, connect=5.0)
DEFAULT_MAX_RETRIES = 2
DEFAULT_CONNECTION_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20)

INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
# A server-sent Retry-After / retry-after-ms is honoured only inside [0, 60] seconds.
MAX_RETRY_AFTER = 60.0

IDEMPOTENCY_HEADER = "Idempotency-Key"
RETRY_COUNT_HEADER = "x-retry-count"

# Internal marker headers: set by `.with_raw_response` / `.with_streaming_response`,
# stripped before the request is sent.
RAW_RESPONSE_HEADER = "X-Agent-Runs-Raw-Response"
OVERRIDE_CAST_TO_HEADER = "____agent_runs_override_cast_to"

TERMINAL_RUN_STATES = frozenset({"SUCCEEDED", "FAILED", "ERROR", "CANCELLED"})
# Where ``runs.wait()`` stops: a terminal state, or BLOCKED (the run asked a question; answer it with
# ``runs.answer()``).
SETTLED_RUN_STATES = TERMINAL_RUN_STATES | {"BLOCKED"}
