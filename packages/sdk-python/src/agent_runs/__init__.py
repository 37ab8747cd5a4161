"""Python SDK for the Agent Runs API.

from agent_runs import AgentRuns

client = AgentRuns()  # AGENT_RUNS_API_KEY, AGENT_RUNS_BASE_URL
run = client.agent.runs.create(prompt="Summarise the open issues")
"""

from . import types
from ._base_client import AsyncPaginator
from ._client import AgentRuns, AsyncAgentRuns, AsyncClient, Client
from ._constants import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, SETTLED_RUN_STATES, TERMINAL_RUN_STATES
from ._exceptions import (
    AgentRunsError,
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
)
from ._response import APIResponse, AsyncAPIResponse
from ._streaming import (
    AsyncRunEventStream,
    AsyncTeamRunEventStream,
    RunEventStream,
    ServerSentEvent,
    TeamRunEventStream,
)
from ._types import NOT_GIVEN, NotGiven, Omit, RequestOptions, Timeout
from ._version import __title__, __version__
from .lib.notifications import verify_notification
from .lib.runs import run_question
from .lib.webhooks import WebhookVerificationError, sign_webhook, verify_webhook
from .pagination import AsyncCursorPage, SyncCursorPage

__all__ = [
    "AgentRuns",
    "AsyncAgentRuns",
    "Client",
    "AsyncClient",
    "types",
    "AgentRunsError",
    "APIError",
    "APIStatusError",
    "APIConnectionError",
    "APITimeoutError",
    "APIResponseValidationError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "UnprocessableEntityError",
    "RateLimitError",
    "InternalServerError",
    "APIResponse",
    "AsyncAPIResponse",
    "SyncCursorPage",
    "AsyncCursorPage",
    "AsyncPaginator",
    "RunEventStream",
    "AsyncRunEventStream",
    "TeamRunEventStream",
    "AsyncTeamRunEventStream",
    "ServerSentEvent",
    "NOT_GIVEN",
    "NotGiven",
    "Omit",
    "RequestOptions",
    "Timeout",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_RETRIES",
    "TERMINAL_RUN_STATES",
    "SETTLED_RUN_STATES",
    "run_question",
    "sign_webhook",
    "verify_webhook",
    "verify_notification",
    "WebhookVerificationError",
    "__version__",
    "__title__",
]
