from __future__ import annotations

import functools
import json
from types import TracebackType
from typing import (
    TYPE_CHECKING,
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Dict,
    Generic,
    Iterator,
    Optional,
    Type,
    TypeVar,
    Union,
    cast,
)

import httpx
from typing_extensions import ParamSpec

from ._constants import RAW_RESPONSE_HEADER
from ._exceptions import APIResponseValidationError
from ._models import construct_type

if TYPE_CHECKING:
    from ._base_client import FinalRequestOptions

__all__ = [
    "APIResponse",
    "AsyncAPIResponse",
    "to_raw_response_wrapper",
    "async_to_raw_response_wrapper",
    "to_streamed_response_wrapper",
    "async_to_streamed_response_wrapper",
]

P = ParamSpec("P")
R = TypeVar("R")
_T = TypeVar("_T")


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


class _BaseAPIResponse(Generic[R]):
    """What the server answered, before (or without) parsing it into a model."""

    http_response: httpx.Response
    retries_taken: int

    def __init__(
        self,
        *,
        raw: httpx.Response,
        cast_to: Any,
        client: Any,
        options: "FinalRequestOptions",
        stream: bool,
        stream_cls: Optional[type],
        retries_taken: int = 0,
    ) -> None:
        self.http_response = raw
        self.retries_taken = retries_taken
        self._cast_to = cast_to
        self._client = client
        self._options = options
        self._stream = stream
        self._stream_cls = stream_cls
        self._parsed: dict[Any, Any] = {}

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def request_id(self) -> Optional[str]:
        return self.http_response.headers.get("x-request-id")

    @property
    def url(self) -> httpx.URL:
        return self.http_response.url

    @property
    def method(self) -> str:
        return self.http_response.request.method

    @property
    def http_request(self) -> httpx.Request:
        return self.http_response.request

    @property
    def elapsed(self):  # type: ignore[no-untyped-def]
        return self.http_response.elapsed

    @property
    def is_closed(self) -> bool:
        return self.http_response.is_closed

    def __repr__(self) -> str:
        return (
            f"<{self.__class__.__name__} [{self.status_code} {self.http_response.reason_phrase}] type={self._cast_to}>"
        )

    def _parse_loaded(self, to: Any) -> Any:
        """Turn an already-read body into ``to``."""
        response = self.http_response
        cast_to = to if to is not None else self._cast_to
        if cast_to is httpx.Response:
            return response
        if cast_to is None or cast_to is type(None):
            return None
        if cast_to is bytes:
            return response.content
        content_type = response.headers.get("content-type", "")
        if response.status_code == 204 or not response.content:
            return None if cast_to is not str else ""
        if cast_to is str and not _is_json(content_type):
            return response.text
        try:
            data = json.loads(response.text)
        except ValueError as err:
            raise APIResponseValidationError(
                response, response.text, message=f"Expected a JSON body, got {content_type or 'no content type'}"
            ) from err
        if cast_to is object or cast_to is Any:
            parsed = data
        else:
            parsed = construct_type(type_=cast_to, value=data)
        if to is None and self._options.post_parser is not None:
            parsed = self._options.post_parser(parsed)
        return parsed


class APIResponse(_BaseAPIResponse[R]):
    """Returned by ``.with_raw_response.<method>()`` (body already read) and
    ``.with_streaming_response.<method>()`` (body read on demand)."""

    def parse(self, *, to: Optional[Type[_T]] = None) -> Union[R, _T]:
        """The body as the method's return type (or as ``to``). Cached."""
        key = to if to is not None else "__default__"
        if key in self._parsed:
            return cast(R, self._parsed[key])
        if self._stream and to is None:
            parsed: Any = self._stream_cls(
                cast_to=self._cast_to, response=self.http_response, client=self._client, options=self._options
            )  # type: ignore[misc]
        else:
            self.read()
            parsed = self._parse_loaded(to)
        self._parsed[key] = parsed
        return cast(R, parsed)

    def read(self) -> bytes:
        return self.http_response.read()

    def text(self) -> str:
        self.read()
        return self.http_response.text

    def json(self) -> Any:
        self.read()
        return self.http_response.json()

    def iter_bytes(self, chunk_size: Optional[int] = None) -> Iterator[bytes]:
        yield from self.http_response.iter_bytes(chunk_size)

    def iter_text(self, chunk_size: Optional[int] = None) -> Iterator[str]:
        yield from self.http_response.iter_text(chunk_size)

    def iter_lines(self) -> Iterator[str]:
        yield from self.http_response.iter_lines()

    def close(self) -> None:
        self.http_response.close()


class AsyncAPIResponse(_BaseAPIResponse[R]):
    async def parse(self, *, to: Optional[Type[_T]] = None) -> Union[R, _T]:
        key = to if to is not None else "__default__"
        if key in self._parsed:
            return cast(R, self._parsed[key])
        if self._stream and to is None:
            parsed: Any = self._stream_cls(
                cast_to=self._cast_to, response=self.http_response, client=self._client, options=self._options
            )  # type: ignore[misc]
        else:
            await self.read()
            parsed = self._parse_loaded(to)
        self._parsed[key] = parsed
        return cast(R, parsed)

    async def read(self) -> bytes:
        return await self.http_response.aread()

    async def text(self) -> str:
        await self.read()
        return self.http_response.text

    async def json(self) -> Any:
        await self.read()
        return self.http_response.json()

    async def iter_bytes(self, chunk_size: Optional[int] = None) -> AsyncIterator[bytes]:
        async for chunk in self.http_response.aiter_bytes(chunk_size):
            yield chunk

    async def iter_text(self, chunk_size: Optional[int] = None) -> AsyncIterator[str]:
        async for chunk in self.http_response.aiter_text(chunk_size):
            yield chunk

    async def iter_lines(self) -> AsyncIterator[str]:
        async for line in self.http_response.aiter_lines():
            yield line

    async def close(self) -> None:
        await self.http_response.aclose()


class ResponseContextManager(Generic[R]):
    """``with client.agent.runs.with_streaming_response.retrieve(run_id=...) as response:``"""

    def __init__(self, request_func: Callable[[], APIResponse[R]]) -> None:
        self._request_func = request_func
        self._response: Optional[APIResponse[R]] = None

    def __enter__(self) -> APIResponse[R]:
        self._response = self._request_func()
        return self._response

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        exc_tb: Optional[TracebackType],
    ) -> None:
        if self._response is not None:
            self._response.close()


class AsyncResponseContextManager(Generic[R]):
    def __init__(self, api_request: Awaitable[AsyncAPIResponse[R]]) -> None:
        self._api_request = api_request
        self._response: Optional[AsyncAPIResponse[R]] = None

    async def __aenter__(self) -> AsyncAPIResponse[R]:
        self._response = await self._api_request
        return self._response

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        exc_tb: Optional[TracebackType],
    ) -> None:
        if self._response is not None:
            await self._response.close()


def _with_mode(kwargs: Dict[str, Any], mode: str) -> Dict[str, Any]:
    extra = dict(kwargs.get("extra_headers") or {})
    extra[RAW_RESPONSE_HEADER] = mode
    kwargs["extra_headers"] = extra
    return kwargs


def to_raw_response_wrapper(func: Callable[P, R]) -> Callable[P, APIResponse[R]]:
    @functools.wraps(func)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> APIResponse[R]:
        return cast(APIResponse[R], func(*args, **_with_mode(kwargs, "raw")))

    return wrapped


def async_to_raw_response_wrapper(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[AsyncAPIResponse[R]]]:
    @functools.wraps(func)
    async def wrapped(*args: P.args, **kwargs: P.kwargs) -> AsyncAPIResponse[R]:
        return cast(AsyncAPIResponse[R], await func(*args, **_with_mode(kwargs, "raw")))

    return wrapped


def to_streamed_response_wrapper(func: Callable[P, R]) -> Callable[P, ResponseContextManager[R]]:
    @functools.wraps(func)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> ResponseContextManager[R]:
        kwargs = _with_mode(kwargs, "stream")  # type: ignore[assignment]
        return ResponseContextManager(lambda: cast(APIResponse[R], func(*args, **kwargs)))

    return wrapped


def async_to_streamed_response_wrapper(
    func: Callable[P, Awaitable[R]],
) -> Callable[P, AsyncResponseContextManager[R]]:
    @functools.wraps(func)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> AsyncResponseContextManager[R]:
        kwargs = _with_mode(kwargs, "stream")  # type: ignore[assignment]
        return AsyncResponseContextManager(cast(Awaitable[AsyncAPIResponse[R]], _await(func(*args, **kwargs))))

    return wrapped


async def _await(value: Awaitable[Any]) -> Any:
    return await value
