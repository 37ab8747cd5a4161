from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import httpx
from typing_extensions import Literal

from ._utils import as_json_object

__all__ = [
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
]


class AgentRunsError(Exception):
    """Base of every error raised by this SDK."""


class APIError(AgentRunsError):
    """A request to the API failed: an error status, a broken connection, or an unreadable answer."""

    message: str
    request: httpx.Request
    body: object | None
    """The decoded response body (usually the RFC 7807 problem as a dict), or None."""

    def __init__(self, message: str, request: httpx.Request, *, body: object | None) -> None:
        super().__init__(message)
        self.message = message
        self.request = request
        self.body = body

    def __str__(self) -> str:
        return self.message


def _problem(body: object) -> Mapping[str, Any]:
    return as_json_object(body) or {}


class APIStatusError(APIError):
    """The API answered with a 4xx or 5xx status. Fields of the problem body are lifted onto the error."""

    response: httpx.Response
    status_code: int
    request_id: Optional[str]
    code: Optional[str]
    """The problem ``type``'s last segment, e.g. ``resource_not_found``."""
    title: Optional[str]
    detail: Optional[str]
    retryable: Optional[bool]
    errors: Optional[List[Any]]
    """Validation details ``[{path, message}]`` when the API gives them."""

    def __init__(self, message: str, *, response: httpx.Response, body: object | None) -> None:
        super().__init__(message, response.request, body=body)
        self.response = response
        self.status_code = response.status_code
        problem = _problem(body)
        self.request_id = response.headers.get("x-request-id") or _str_or_none(problem.get("trace_id"))
        type_ = problem.get("type")
        self.code = type_.rstrip("/").rsplit("/", 1)[-1] if isinstance(type_, str) and type_ else None
        self.title = _str_or_none(problem.get("title"))
        self.detail = _str_or_none(problem.get("detail"))
        retryable = problem.get("retryable")
        self.retryable = retryable if isinstance(retryable, bool) else None
        errors = problem.get("errors")
        self.errors = errors if isinstance(errors, list) else None

    @property
    def headers(self) -> httpx.Headers:
        return self.response.headers


def _str_or_none(value: object) -> Optional[str]:
    return value if isinstance(value, str) else None


class BadRequestError(APIStatusError):
    status_code: Literal[400] = 400  # type: ignore[assignment]


class AuthenticationError(APIStatusError):
    status_code: Literal[401] = 401  # type: ignore[assignment]


class PermissionDeniedError(APIStatusError):
    status_code: Literal[403] = 403  # type: ignore[assignment]


class NotFoundError(APIStatusError):
    status_code: Literal[404] = 404  # type: ignore[assignment]


class ConflictError(APIStatusError):
    status_code: Literal[409] = 409  # type: ignore[assignment]


class UnprocessableEntityError(APIStatusError):
    status_code: Literal[422] = 422  # type: ignore[assignment]


class RateLimitError(APIStatusError):
    status_code: Literal[429] = 429  # type: ignore[assignment]


class InternalServerError(APIStatusError):
    """Any 5xx."""


_BY_STATUS: Dict[int, type] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def make_status_error(message: str, *, response: httpx.Response, body: object | None) -> APIStatusError:
    cls = _BY_STATUS.get(response.status_code)
    if cls is None:
        cls = InternalServerError if response.status_code >= 500 else APIStatusError
    return cls(message, response=response, body=body)


class APIConnectionError(APIError):
    """The request never got an HTTP answer (DNS, refused connection, reset, ...)."""

    def __init__(self, *, message: str = "Connection error.", request: httpx.Request) -> None:
        super().__init__(message, request, body=None)


class APITimeoutError(APIConnectionError):
    """An attempt exceeded its timeout (and retries, if any, were spent)."""

    def __init__(self, request: httpx.Request) -> None:
        super().__init__(message="Request timed out.", request=request)


class APIResponseValidationError(APIError):
    """A successful response whose body could not be decoded at all (e.g. invalid JSON)."""

    response: httpx.Response
    status_code: int

    def __init__(self, response: httpx.Response, body: object | None, *, message: str | None = None) -> None:
        super().__init__(message or "Data returned by API invalid for expected schema.", response.request, body=body)
        self.response = response
        self.status_code = response.status_code
