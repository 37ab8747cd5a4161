"""The request loop shared by every method: auth, headers, retries, timeouts, errors, parsing.

One retry loop per client flavour (sync and async); the decisions it takes — should this answer be
retried, how long to wait, what error to raise — live in `BaseClient` and are shared by both.
"""

from __future__ import annotations

import asyncio
import dataclasses
import email.utils
import json
import logging
import math
import platform
import random
import time
import uuid
from types import TracebackType
from typing import (
    Any,
    AsyncIterator,
    Callable,
    Dict,
    Generator,
    Generic,
    Mapping,
    Optional,
    Type,
    TypeVar,
    Union,
    cast,
)

import httpx

from ._constants import (
    DEFAULT_CONNECTION_LIMITS,
    IDEMPOTENCY_HEADER,
    INITIAL_RETRY_DELAY,
    MAX_RETRY_AFTER,
    MAX_RETRY_DELAY,
    RAW_RESPONSE_HEADER,
    RETRY_COUNT_HEADER,
)
from ._exceptions import APIConnectionError, APIStatusError, APITimeoutError, make_status_error
from ._response import APIResponse, AsyncAPIResponse
from ._types import NOT_GIVEN, Body, Headers, NotGiven, Omit, Query, Timeout
from ._utils import as_json_object, json_dumps, merge_mappings, stringify_query
from ._version import __version__

log = logging.getLogger("agent_runs")

_T = TypeVar("_T")
_HttpxClientT = TypeVar("_HttpxClientT", httpx.Client, httpx.AsyncClient)


@dataclasses.dataclass
class FinalRequestOptions:
    """Everything needed to (re)build one logical request; each retry rebuilds from this."""

    method: str
    url: str
    params: Mapping[str, object] = dataclasses.field(default_factory=lambda: {})
    headers: Mapping[str, Union[str, Omit]] = dataclasses.field(default_factory=lambda: {})
    json_data: Optional[Body] = None
    extra_json: Optional[Body] = None
    content: Optional[bytes] = None
    timeout: Union[Timeout, NotGiven] = NOT_GIVEN
    max_retries: Union[int, NotGiven] = NOT_GIVEN
    idempotency_key: Optional[str] = None
    post_parser: Optional[Callable[[Any], Any]] = None
    # None: the httpx client's own setting (True for the SDK's default client).
    follow_redirects: Optional[bool] = None

    def copy(self, **changes: Any) -> "FinalRequestOptions":
        return dataclasses.replace(self, **changes)


def make_request_options(
    *,
    query: Optional[Query] = None,
    extra_headers: Optional[Headers] = None,
    extra_query: Optional[Query] = None,
    extra_body: Optional[Body] = None,
    timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    post_parser: Optional[Callable[[Any], Any]] = None,
) -> Dict[str, Any]:
    """The per-call options every resource method accepts, as keyword arguments for `FinalRequestOptions`."""
    options: Dict[str, Any] = {}
    params: Dict[str, object] = {}
    if query:
        params.update(query)
    if extra_query:
        params.update(extra_query)
    if params:
        options["params"] = params
    if extra_headers:
        options["headers"] = extra_headers
    if extra_body is not None:
        options["extra_json"] = extra_body
    if not isinstance(timeout, NotGiven):
        options["timeout"] = timeout
    if post_parser is not None:
        options["post_parser"] = post_parser
    return options


def _redirects(options: FinalRequestOptions) -> Dict[str, Any]:
    """`follow_redirects` for httpx's send, when the call sets it (a user's own httpx client may not follow)."""
    return {} if options.follow_redirects is None else {"follow_redirects": options.follow_redirects}


def _decode_error_body(response: httpx.Response) -> object:
    text = response.text
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_retry_after(headers: httpx.Headers, now: Optional[float] = None) -> Optional[float]:
    """Seconds the server asks us to wait: `retry-after-ms`, else `Retry-After` (seconds or HTTP-date)."""
    value = headers.get("retry-after-ms")
    if value is not None:
        try:
            return float(value) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    try:
        return float(email.utils.mktime_tz(parsed) - (time.time() if now is None else now))
    except (OverflowError, ValueError):
        return None


def retry_delay(retries_taken: int, headers: Optional[httpx.Headers]) -> float:
    """Seconds to wait before retry number ``retries_taken + 1``.

    A server-sent delay of 0–60 s is honoured as is; otherwise 0.5 s doubling per retry, capped at
    8 s, minus up to 25 % jitter.
    """
    if headers is not None:
        after = parse_retry_after(headers)
        if after is not None and math.isfinite(after) and 0 <= after <= MAX_RETRY_AFTER:
            return after
    delay = min(INITIAL_RETRY_DELAY * (2.0 ** min(retries_taken, 32)), MAX_RETRY_DELAY)
    return delay * (1 - 0.25 * random.random())


def should_retry(response: httpx.Response, body: object) -> bool:
    """Whether an error answer may be retried (the caller checks the retry budget)."""
    problem = as_json_object(body)
    if problem is not None and problem.get("retryable") is False:
        return False  # the problem body says so: never retried, whatever the status
    header = response.headers.get("x-should-retry", "").strip().lower()
    if header == "true":
        return True
    if header == "false":
        return False
    status = response.status_code
    return status in (408, 409, 429) or status >= 500


class BaseClient(Generic[_HttpxClientT]):
    _client: _HttpxClientT
    _owns_http_client: bool

    def __init__(
        self,
        *,
        base_url: Union[str, httpx.URL],
        api_key: Optional[str],
        timeout: Timeout,
        max_retries: int,
        default_headers: Optional[Mapping[str, str]] = None,
        default_query: Optional[Mapping[str, object]] = None,
    ) -> None:
        if max_retries is None or max_retries < 0:  # type: ignore[redundant-expr]
            raise ValueError("max_retries must be an integer ≥ 0 (0 disables retries)")
        self.api_key = api_key
        self.base_url = base_url  # type: ignore[assignment]
        self.timeout = timeout
        self.max_retries = max_retries
        self._custom_headers: Dict[str, str] = dict(default_headers or {})
        self._custom_query: Dict[str, object] = dict(default_query or {})

    # -- configuration -------------------------------------------------------------------

    @property
    def base_url(self) -> httpx.URL:
        return self._base_url

    @base_url.setter
    def base_url(self, url: Union[str, httpx.URL]) -> None:
        url = httpx.URL(str(url))
        if not url.raw_path.endswith(b"/"):
            url = url.copy_with(raw_path=url.raw_path + b"/")
        self._base_url = url

    @property
    def user_agent(self) -> str:
        return f"AgentRuns/Python {__version__}"

    @property
    def auth_headers(self) -> Dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    @property
    def default_headers(self) -> Dict[str, Union[str, Omit]]:
        return {
            "Accept": "application/json",
            "User-Agent": self.user_agent,
            "X-Agent-Runs-Lang": "python",
            "X-Agent-Runs-Runtime": platform.python_implementation(),
            "X-Agent-Runs-Runtime-Version": platform.python_version(),
            **self.auth_headers,
            **self._custom_headers,
        }

    @property
    def default_query(self) -> Dict[str, object]:
        return dict(self._custom_query)

    # -- building requests ---------------------------------------------------------------

    def _prepare_url(self, url: str) -> httpx.URL:
        """Join a relative path onto base_url (keeping its /api/v1); absolute URLs pass through."""
        merge = httpx.URL(url)
        if merge.is_relative_url:
            raw_path = self.base_url.raw_path + merge.raw_path.lstrip(b"/")
            return self.base_url.copy_with(raw_path=raw_path)
        return merge

    def _build_headers(self, options: FinalRequestOptions, *, retries_taken: int) -> httpx.Headers:
        custom = dict(options.headers or {})
        custom.pop(RAW_RESPONSE_HEADER, None)
        headers = httpx.Headers(merge_mappings(self.default_headers, custom))
        lower_custom = {k.lower() for k in custom}
        if options.idempotency_key and IDEMPOTENCY_HEADER.lower() not in lower_custom:
            headers[IDEMPOTENCY_HEADER] = options.idempotency_key
        if RETRY_COUNT_HEADER not in lower_custom:
            headers[RETRY_COUNT_HEADER] = str(retries_taken)
        return headers

    def _build_request(self, options: FinalRequestOptions, *, retries_taken: int = 0) -> httpx.Request:
        headers = self._build_headers(options, retries_taken=retries_taken)
        json_data = options.json_data
        extra = options.extra_json
        if extra is not None:
            if not isinstance(extra, Mapping):
                raise TypeError(f"extra_body must be a mapping, got {type(extra).__name__}")
            extra_fields = cast("Mapping[str, object]", extra)
            if json_data is None:
                json_data = dict(extra_fields)
            elif isinstance(json_data, Mapping):
                json_data = {**cast("Mapping[str, object]", json_data), **extra_fields}
            else:
                raise TypeError(f"Cannot merge extra_body into a {type(json_data).__name__} body")

        kwargs: Dict[str, Any] = {}
        if options.method.upper() != "GET":
            if options.content is not None:
                kwargs["content"] = options.content
            elif json_data is not None:
                kwargs["content"] = json_dumps(json_data)
                if "content-type" not in headers:
                    headers["Content-Type"] = "application/json"

        url = self._prepare_url(options.url)
        params = {**self.default_query, **dict(options.params or {})}
        query = stringify_query(params)
        if url.query and query:
            query = list(url.params.multi_items()) + query
            url = url.copy_with(query=None)
        timeout = self.timeout if isinstance(options.timeout, NotGiven) else options.timeout
        if not isinstance(timeout, httpx.Timeout):
            timeout = httpx.Timeout(timeout)
        return self._client.build_request(
            method=options.method.upper(),
            url=url,
            params=cast(Any, query) or None,
            headers=headers,
            timeout=timeout,
            **kwargs,
        )

    def _prepare_options(self, options: FinalRequestOptions) -> FinalRequestOptions:
        # One Idempotency-Key per logical POST, generated before the first attempt so every
        # retry carries the same key and the server replays instead of creating twice.
        if options.method.upper() == "POST" and options.idempotency_key is None:
            options = options.copy(idempotency_key=str(uuid.uuid4()))
        return options

    def _max_retries(self, options: FinalRequestOptions) -> int:
        return self.max_retries if isinstance(options.max_retries, NotGiven) else options.max_retries

    @staticmethod
    def _response_mode(options: FinalRequestOptions) -> Optional[str]:
        mode = (options.headers or {}).get(RAW_RESPONSE_HEADER)
        return mode if isinstance(mode, str) else None

    def _make_status_error(self, response: httpx.Response, body: object) -> APIStatusError:
        detail = None
        problem = as_json_object(body)
        if problem is not None:
            detail = problem.get("detail") or problem.get("error") or problem.get("title")
        elif isinstance(body, str) and body:
            detail = body
        message = f"Error code: {response.status_code}" + (f" - {detail}" if detail else "")
        return make_status_error(message, response=response, body=body)

    @staticmethod
    def _is_non_retryable_transport_error(err: Exception) -> bool:
        return isinstance(err, (httpx.UnsupportedProtocol, httpx.InvalidURL))


def _default_http_client_kwargs(timeout: Timeout) -> Dict[str, Any]:
    return {"timeout": timeout, "limits": DEFAULT_CONNECTION_LIMITS, "follow_redirects": True}


class SyncAPIClient(BaseClient[httpx.Client]):
    def __init__(
        self,
        *,
        http_client: Optional[httpx.Client] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if http_client is not None and not isinstance(http_client, httpx.Client):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"http_client must be an httpx.Client, got {type(http_client).__name__}")
        self._client = http_client or httpx.Client(**_default_http_client_kwargs(self.timeout))
        self._owns_http_client = True

    def _sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    @staticmethod
    def _read_error_body(response: httpx.Response) -> object:
        try:
            response.read()
            return _decode_error_body(response)
        except httpx.HTTPError:
            return None  # the body broke off; the status alone decides

    def is_closed(self) -> bool:
        return self._client.is_closed

    def close(self) -> None:
        """Close the underlying HTTP client (only the client that opened it closes it)."""
        if self._owns_http_client and hasattr(self, "_client"):
            self._client.close()

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        exc_tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def request(
        self,
        cast_to: Any,
        options: FinalRequestOptions,
        *,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        options = self._prepare_options(options)
        mode = self._response_mode(options)
        max_retries = self._max_retries(options)
        retries_taken = 0
        while True:
            request = self._build_request(options, retries_taken=retries_taken)
            try:
                response = self._client.send(request, stream=stream or mode == "stream", **_redirects(options))
            except httpx.TimeoutException as err:
                if retries_taken < max_retries:
                    self._sleep(retry_delay(retries_taken, None))
                    retries_taken += 1
                    continue
                raise APITimeoutError(request=request) from err
            except httpx.TransportError as err:
                if retries_taken < max_retries and not self._is_non_retryable_transport_error(err):
                    self._sleep(retry_delay(retries_taken, None))
                    retries_taken += 1
                    continue
                raise APIConnectionError(request=request, message=f"Connection error: {err}") from err

            if response.is_error:
                body = self._read_error_body(response)
                response.close()
                if retries_taken < max_retries and should_retry(response, body):
                    self._sleep(retry_delay(retries_taken, response.headers))
                    retries_taken += 1
                    continue
                raise self._make_status_error(response, body)

            api_response: APIResponse[Any] = APIResponse(
                raw=response,
                cast_to=cast_to,
                client=self,
                options=options,
                stream=stream,
                stream_cls=stream_cls,
                retries_taken=retries_taken,
            )
            if mode is not None:
                return api_response
            return api_response.parse()

    # -- helpers used by resources and by the public get/post/... -----------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        cast_to: Any,
        body: Optional[Body] = None,
        options: Optional[Mapping[str, Any]] = None,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        opts = FinalRequestOptions(method=method, url=path, json_data=body, **dict(options or {}))
        return self.request(cast_to, opts, stream=stream, stream_cls=stream_cls)

    def _get_api_list(
        self, path: str, *, page: Type[_T], model: Any, items_key: str, options: Optional[Mapping[str, Any]] = None
    ) -> _T:
        opts = FinalRequestOptions(method="GET", url=path, **dict(options or {}))
        return cast(_T, self._request_page(page, model, items_key, opts))

    def _request_page(self, page: Any, model: Any, items_key: str, options: FinalRequestOptions) -> Any:
        def _build(parsed: Any) -> Any:
            return page(parsed, items_key=items_key, client=self, model=model, options=options)

        return self.request(model, options.copy(post_parser=_build))


class AsyncAPIClient(BaseClient[httpx.AsyncClient]):
    def __init__(
        self,
        *,
        http_client: Optional[httpx.AsyncClient] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if http_client is not None and not isinstance(http_client, httpx.AsyncClient):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"http_client must be an httpx.AsyncClient, got {type(http_client).__name__}")
        self._client = http_client or httpx.AsyncClient(**_default_http_client_kwargs(self.timeout))
        self._owns_http_client = True

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    @staticmethod
    async def _read_error_body(response: httpx.Response) -> object:
        try:
            await response.aread()
            return _decode_error_body(response)
        except httpx.HTTPError:
            return None

    def is_closed(self) -> bool:
        return self._client.is_closed

    async def close(self) -> None:
        if self._owns_http_client and hasattr(self, "_client"):
            await self._client.aclose()

    async def __aenter__(self: _T) -> _T:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        exc_tb: Optional[TracebackType],
    ) -> None:
        await self.close()

    async def request(
        self,
        cast_to: Any,
        options: FinalRequestOptions,
        *,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        options = self._prepare_options(options)
        mode = self._response_mode(options)
        max_retries = self._max_retries(options)
        retries_taken = 0
        while True:
            request = self._build_request(options, retries_taken=retries_taken)
            try:
                response = await self._client.send(request, stream=stream or mode == "stream", **_redirects(options))
            except httpx.TimeoutException as err:
                if retries_taken < max_retries:
                    await self._sleep(retry_delay(retries_taken, None))
                    retries_taken += 1
                    continue
                raise APITimeoutError(request=request) from err
            except httpx.TransportError as err:
                if retries_taken < max_retries and not self._is_non_retryable_transport_error(err):
                    await self._sleep(retry_delay(retries_taken, None))
                    retries_taken += 1
                    continue
                raise APIConnectionError(request=request, message=f"Connection error: {err}") from err

            if response.is_error:
                body = await self._read_error_body(response)
                await response.aclose()
                if retries_taken < max_retries and should_retry(response, body):
                    await self._sleep(retry_delay(retries_taken, response.headers))
                    retries_taken += 1
                    continue
                raise self._make_status_error(response, body)

            api_response: AsyncAPIResponse[Any] = AsyncAPIResponse(
                raw=response,
                cast_to=cast_to,
                client=self,
                options=options,
                stream=stream,
                stream_cls=stream_cls,
                retries_taken=retries_taken,
            )
            if mode is not None:
                return api_response
            return await api_response.parse()

    async def _request(
        self,
        method: str,
        path: str,
        *,
        cast_to: Any,
        body: Optional[Body] = None,
        options: Optional[Mapping[str, Any]] = None,
        stream: bool = False,
        stream_cls: Optional[type] = None,
    ) -> Any:
        opts = FinalRequestOptions(method=method, url=path, json_data=body, **dict(options or {}))
        return await self.request(cast_to, opts, stream=stream, stream_cls=stream_cls)

    def _get_api_list(
        self, path: str, *, page: Type[_T], model: Any, items_key: str, options: Optional[Mapping[str, Any]] = None
    ) -> "AsyncPaginator[Any, _T]":
        opts = FinalRequestOptions(method="GET", url=path, **dict(options or {}))
        return AsyncPaginator(client=self, options=opts, page_cls=page, model=model, items_key=items_key)

    async def _request_page(self, page: Any, model: Any, items_key: str, options: FinalRequestOptions) -> Any:
        def _build(parsed: Any) -> Any:
            return page(parsed, items_key=items_key, client=self, model=model, options=options)

        return await self.request(model, options.copy(post_parser=_build))


_ItemT = TypeVar("_ItemT")
_PageT = TypeVar("_PageT")


class AsyncPaginator(Generic[_ItemT, _PageT]):
    """What an async ``list()`` returns: ``await`` it for the first page, or ``async for`` over
    every item of every page."""

    def __init__(
        self, *, client: AsyncAPIClient, options: FinalRequestOptions, page_cls: Any, model: Any, items_key: str
    ) -> None:
        self._client = client
        self._options = options
        self._page_cls = page_cls
        self._model = model
        self._items_key = items_key

    def __await__(self) -> Generator[Any, None, _PageT]:
        return self._client._request_page(self._page_cls, self._model, self._items_key, self._options).__await__()

    async def __aiter__(self) -> AsyncIterator[_ItemT]:
        page = await self
        async for item in page:  # type: ignore[attr-defined]
            yield item
