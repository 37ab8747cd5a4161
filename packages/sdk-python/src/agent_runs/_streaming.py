"""Server-sent events: a spec-following parser, and the run-events iterators that resume with
``Last-Event-ID`` until the run reaches a terminal state."""

from __future__ import annotations

import codecs
import json
from typing import (
    TYPE_CHECKING,
    Any,
    AsyncIterable,
    AsyncIterator,
    Callable,
    Dict,
    Generic,
    Iterable,
    Iterator,
    List,
    Optional,
    TypeVar,
)

import httpx

from ._base_client import retry_delay
from ._constants import RAW_RESPONSE_HEADER, TERMINAL_RUN_STATES
from ._exceptions import APIConnectionError
from ._utils import as_json_object

if TYPE_CHECKING:
    from ._base_client import AsyncAPIClient, FinalRequestOptions, SyncAPIClient

__all__ = ["ServerSentEvent", "SSEDecoder", "Stream", "AsyncStream", "RunEventStream", "AsyncRunEventStream"]

_T = TypeVar("_T")

# Consecutive reconnects that bring no new event before the iterator gives up.
DEFAULT_MAX_RECONNECTS = 5


class ServerSentEvent:
    """One dispatched event: ``event`` defaults to ``"message"``; ``id`` is the last event id seen."""

    __slots__ = ("event", "data", "id", "retry", "has_id")

    def __init__(
        self,
        *,
        event: Optional[str] = None,
        data: str = "",
        id: Optional[str] = None,
        retry: Optional[int] = None,
        has_id: bool = False,
    ) -> None:
        self.event = event or "message"
        self.data = data
        self.id = id
        self.retry = retry
        self.has_id = has_id
        """Whether this event carried its own ``id:`` line (else ``id`` is inherited)."""

    def json(self) -> Any:
        return json.loads(self.data)

    def __repr__(self) -> str:
        return f"ServerSentEvent(event={self.event!r}, id={self.id!r}, data={self.data!r}, retry={self.retry!r})"


class SSEDecoder:
    """Incremental parser for ``text/event-stream`` (WHATWG HTML §9.2.6).

    Lines end in CRLF, LF or CR (also when split across chunks); ``:`` lines are comments
    (keep-alives); the last event id carries over to later events.
    """

    def __init__(self) -> None:
        self._event: Optional[str] = None
        self._data: List[str] = []
        self._last_event_id: Optional[str] = None
        self._retry: Optional[int] = None
        self._has_id = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pending_cr = False
        self._first = True

    @property
    def last_event_id(self) -> Optional[str]:
        return self._last_event_id

    def feed(self, chunk: bytes) -> List[ServerSentEvent]:
        text = self._decoder.decode(chunk)
        return self._feed_text(text)

    def flush(self) -> List[ServerSentEvent]:
        """Clean end of stream. The spec discards a last event that lacks its blank line; we deliver
        it when its lines are complete (some servers and mocks omit the final blank line), and drop
        it when the stream stopped mid-line."""
        events = self._feed_text(self._decoder.decode(b"", final=True))
        if self._data and not self._buffer:
            event = self.decode_line("")
            if event is not None:
                events.append(event)
        self._buffer = ""
        self._event, self._data, self._has_id = None, [], False
        return events

    def _feed_text(self, text: str) -> List[ServerSentEvent]:
        if self._first and text:
            if text.startswith("\ufeff"):
                text = text[1:]
            self._first = False
        if self._pending_cr and text.startswith("\n"):
            text = text[1:]
        self._pending_cr = False
        events: List[ServerSentEvent] = []
        buf = self._buffer + text
        start = 0
        i = 0
        n = len(buf)
        while i < n:
            ch = buf[i]
            if ch == "\r" or ch == "\n":
                line = buf[start:i]
                if ch == "\r":
                    if i + 1 < n:
                        if buf[i + 1] == "\n":
                            i += 1
                    else:
                        self._pending_cr = True
                event = self.decode_line(line)
                if event is not None:
                    events.append(event)
                start = i + 1
            i += 1
        self._buffer = buf[start:]
        return events

    def decode_line(self, line: str) -> Optional[ServerSentEvent]:
        if not line:
            if not self._data:
                self._event, self._has_id = None, False
                return None
            event = ServerSentEvent(
                event=self._event,
                data="\n".join(self._data),
                id=self._last_event_id,
                retry=self._retry,
                has_id=self._has_id,
            )
            self._event, self._data, self._retry, self._has_id = None, [], None, False
            return event
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id":
            if "\0" not in value:
                self._last_event_id = value
                self._has_id = True
        elif field == "retry":
            if value.isdigit():
                self._retry = int(value)
        return None

    def iter_events(self, chunks: Iterable[bytes]) -> Iterator[ServerSentEvent]:
        for chunk in chunks:
            yield from self.feed(chunk)
        yield from self.flush()

    async def aiter_events(self, chunks: AsyncIterable[bytes]) -> AsyncIterator[ServerSentEvent]:
        async for chunk in chunks:
            for event in self.feed(chunk):
                yield event
        for event in self.flush():
            yield event


# ---------------------------------------------------------------------------------------------
# Generic streams: one HTTP response, decoded into items by `cast_to`.


class Stream(Generic[_T]):
    """Iterate the events of one ``text/event-stream`` response (no reconnect)."""

    def __init__(
        self, *, cast_to: Any, response: httpx.Response, client: "SyncAPIClient", options: "FinalRequestOptions"
    ) -> None:
        self.response = response
        self._cast_to = cast_to
        self._client = client
        self._options = options
        self._iterator = self.__stream__()

    def __iter__(self) -> Iterator[_T]:
        return self._iterator

    def __next__(self) -> _T:
        return next(self._iterator)

    def __stream__(self) -> Iterator[_T]:
        try:
            for sse in SSEDecoder().iter_events(self.response.iter_bytes()):
                yield _convert(self._cast_to, sse)
        finally:
            self.response.close()

    def close(self) -> None:
        self.response.close()

    def __enter__(self) -> "Stream[_T]":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


class AsyncStream(Generic[_T]):
    def __init__(
        self, *, cast_to: Any, response: httpx.Response, client: "AsyncAPIClient", options: "FinalRequestOptions"
    ) -> None:
        self.response = response
        self._cast_to = cast_to
        self._client = client
        self._options = options
        self._iterator = self.__stream__()

    def __aiter__(self) -> AsyncIterator[_T]:
        return self._iterator

    async def __anext__(self) -> _T:
        return await self._iterator.__anext__()

    async def __stream__(self) -> AsyncIterator[_T]:
        try:
            async for sse in SSEDecoder().aiter_events(self.response.aiter_bytes()):
                yield _convert(self._cast_to, sse)
        finally:
            await self.response.aclose()

    async def close(self) -> None:
        await self.response.aclose()

    async def __aenter__(self) -> "AsyncStream[_T]":
        return self

    async def __aexit__(self, *args: Any) -> None:
        await self.close()


def _convert(cast_to: Any, sse: ServerSentEvent) -> Any:
    if cast_to is None or cast_to is ServerSentEvent:
        return sse
    builder: Optional[Callable[[ServerSentEvent], Any]] = getattr(cast_to, "from_sse", None)
    if builder is not None:
        return builder(sse)
    return sse


# ---------------------------------------------------------------------------------------------
# Run events: resume with Last-Event-ID until a terminal `state` event.


def _is_terminal(event: Any) -> bool:
    if getattr(event, "event", None) != "state":
        return False
    data = getattr(event, "data", None)
    fields = as_json_object(data)
    state = fields.get("state") if fields is not None else getattr(data, "state", None)
    return isinstance(state, str) and state in TERMINAL_RUN_STATES


def _already_seen(sse: ServerSentEvent, last_event_id: Optional[str]) -> bool:
    """After a resume, a server may repeat events up to Last-Event-ID: skip ids not above it."""
    if not sse.has_id or sse.id is None or last_event_id is None:
        return False
    try:
        return int(sse.id) <= int(last_event_id)
    except ValueError:
        return False


def _reconnect_options(options: "FinalRequestOptions", last_event_id: Optional[str]) -> "FinalRequestOptions":
    headers: Dict[str, Any] = {
        k: v
        for k, v in (options.headers or {}).items()
        if k.lower() not in ("last-event-id", RAW_RESPONSE_HEADER.lower())
    }
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    headers[RAW_RESPONSE_HEADER] = "stream"
    return options.copy(headers=headers)


class RunEventStream(Stream[_T]):
    """``for event in client.agent.runs.events(run_id=...)``: every event of the run, in order, across
    dropped connections (each reconnect sends ``Last-Event-ID``), ending after the terminal ``state``
    event. Raises `APIConnectionError` after ``max_reconnects`` reconnects in a row bring nothing new."""

    max_reconnects: int = DEFAULT_MAX_RECONNECTS
    #: False for the team-wide stream, where one run's terminal state is not the end.
    ends_at_terminal: bool = True

    def __init__(
        self, *, cast_to: Any, response: httpx.Response, client: "SyncAPIClient", options: "FinalRequestOptions"
    ) -> None:
        self.last_event_id: Optional[str] = (options.headers or {}).get("Last-Event-ID")  # type: ignore[assignment]
        super().__init__(cast_to=cast_to, response=response, client=client, options=options)

    def __stream__(self) -> Iterator[_T]:
        failures = 0
        retry_ms: Optional[int] = None
        while True:
            decoder = SSEDecoder()
            ended_at_terminal = False
            try:
                for sse in decoder.iter_events(self.response.iter_bytes()):
                    if sse.retry is not None:
                        retry_ms = sse.retry
                    if _already_seen(sse, self.last_event_id):
                        continue
                    if sse.has_id:
                        self.last_event_id = sse.id
                    failures = 0
                    event = _convert(self._cast_to, sse)
                    ended_at_terminal = self.ends_at_terminal and _is_terminal(event)
                    yield event
                # Ends only when the server closed the stream right after a terminal state: a replayed
                # terminal state followed by more events (a run resumed by a follow-up) does not end it.
                if ended_at_terminal:
                    return
            except httpx.TransportError:
                pass  # dropped mid-stream: resume below
            finally:
                self.response.close()
            failures += 1
            if failures > self.max_reconnects:
                raise APIConnectionError(
                    request=self.response.request,
                    message="Run event stream ended before the run reached a terminal state",
                )
            self._client._sleep(retry_ms / 1000.0 if retry_ms is not None else retry_delay(failures - 1, None))
            raw = self._client.request(
                self._cast_to, _reconnect_options(self._options, self.last_event_id), stream=True
            )
            self.response = raw.http_response


class AsyncRunEventStream(AsyncStream[_T]):
    """``async for event in client.agent.runs.events(run_id=...)``; see `RunEventStream`."""

    max_reconnects: int = DEFAULT_MAX_RECONNECTS
    ends_at_terminal: bool = True

    def __init__(
        self, *, cast_to: Any, response: httpx.Response, client: "AsyncAPIClient", options: "FinalRequestOptions"
    ) -> None:
        self.last_event_id: Optional[str] = (options.headers or {}).get("Last-Event-ID")  # type: ignore[assignment]
        super().__init__(cast_to=cast_to, response=response, client=client, options=options)

    async def __stream__(self) -> AsyncIterator[_T]:
        failures = 0
        retry_ms: Optional[int] = None
        while True:
            decoder = SSEDecoder()
            ended_at_terminal = False
            try:
                async for sse in decoder.aiter_events(self.response.aiter_bytes()):
                    if sse.retry is not None:
                        retry_ms = sse.retry
                    if _already_seen(sse, self.last_event_id):
                        continue
                    if sse.has_id:
                        self.last_event_id = sse.id
                    failures = 0
                    event = _convert(self._cast_to, sse)
                    ended_at_terminal = self.ends_at_terminal and _is_terminal(event)
                    yield event
                # Ends only when the server closed the stream right after a terminal state: a replayed
                # terminal state followed by more events (a run resumed by a follow-up) does not end it.
                if ended_at_terminal:
                    return
            except httpx.TransportError:
                pass
            finally:
                await self.response.aclose()
            failures += 1
            if failures > self.max_reconnects:
                raise APIConnectionError(
                    request=self.response.request,
                    message="Run event stream ended before the run reached a terminal state",
                )
            await self._client._sleep(retry_ms / 1000.0 if retry_ms is not None else retry_delay(failures - 1, None))
            raw = await self._client.request(
                self._cast_to, _reconnect_options(self._options, self.last_event_id), stream=True
            )
            self.response = raw.http_response


class TeamRunEventStream(RunEventStream[_T]):
    """``for event in client.agent.runs.team_events()``: the ``state`` events of every run of the team
    (no ids, no replay), reconnecting when the connection drops; it never ends by itself."""

    ends_at_terminal = False


class AsyncTeamRunEventStream(AsyncRunEventStream[_T]):
    """``async for event in await client.agent.runs.team_events()``; see `TeamRunEventStream`."""

    ends_at_terminal = False
