"""The SSE parser and the run-events iterators (resume with Last-Event-ID, stop at a terminal state)."""

from __future__ import annotations

import json
from typing import Any, AsyncIterator, Iterator, List

import httpx
import pytest

from agent_runs import APIConnectionError, AsyncRunEventStream, NotFoundError, RunEventStream, run_question
from agent_runs._streaming import SSEDecoder
from agent_runs.types import RunContentEvent, RunEvent, RunItem, RunStateEvent

from .conftest import RUN, Harness, problem

RID = RUN["run_id"]


def decode(*chunks: bytes) -> List[Any]:
    return list(SSEDecoder().iter_events(chunks))


# -- parser -------------------------------------------------------------------------------------------


def test_parses_events_ids_and_comments() -> None:
    events = decode(b'id: 1\nevent: state\ndata: {"a":1}\n\n: keepalive\n\nid: 2\nevent: content\ndata: x\n\n')
    assert [(e.id, e.event, e.data) for e in events] == [("1", "state", '{"a":1}'), ("2", "content", "x")]
    assert events[0].json() == {"a": 1}


def test_joins_multi_line_data_and_defaults_the_event_name() -> None:
    (event,) = decode(b"data: one\ndata:two\ndata\n\n")
    assert event.event == "message" and event.data == "one\ntwo\n"


@pytest.mark.parametrize("sep", [b"\n", b"\r\n", b"\r"])
def test_any_line_ending(sep: bytes) -> None:
    body = sep.join([b"id: 7", b"event: state", b"data: hi", b"", b""])
    (event,) = decode(body)
    assert (event.id, event.event, event.data) == ("7", "state", "hi")


def test_chunk_boundaries_anywhere() -> None:
    body = "id: 1\r\nevent: content\r\ndata: h\u00e9llo\r\n\r\nid: 2\r\ndata: end\r\n\r\n".encode()
    whole = [(e.id, e.event, e.data) for e in decode(body)]
    for size in (1, 2, 3, 5, 7):
        chunks = [body[i : i + size] for i in range(0, len(body), size)]
        assert [(e.id, e.event, e.data) for e in decode(*chunks)] == whole
    assert whole == [("1", "content", "héllo"), ("2", "message", "end")]


def test_id_carries_over_and_retry_is_read() -> None:
    events = decode(b"retry: 2500\nid: 4\ndata: a\n\ndata: b\n\nid\ndata: c\n\n")
    assert [(e.id, e.retry) for e in events] == [("4", 2500), ("4", None), ("", None)]


def test_bom_and_unterminated_last_event() -> None:
    events = decode(b"\xef\xbb\xbfdata: first\n\ndata: never dispatched")
    assert [e.data for e in events] == ["first"]


def test_empty_data_does_not_dispatch() -> None:
    assert decode(b"event: state\n\n") == []


def test_run_event_types_its_data() -> None:
    events = [
        RunEvent.from_sse(e)
        for e in decode(sse(1, "state", "INPROGRESS"), sse_content(2), b"event: other\ndata: [1]\n\n")
    ]
    assert isinstance(events[0].data, RunStateEvent) and events[0].data.state == "INPROGRESS"
    assert isinstance(events[1].data, RunContentEvent) and events[1].data.block.text == "hi"  # type: ignore[union-attr]
    assert events[2].event == "other" and events[2].data == [1]
    assert not events[0].is_terminal
    assert RunEvent.from_sse(decode(sse(3, "state", "CANCELLED"))[0]).is_terminal


# -- run events ---------------------------------------------------------------------------------------


def sse(i: int, event: str, state: str) -> bytes:
    data = {"run_id": RID, "state": state, "updated_at": "2026-05-01T09:00:00Z"}
    return f"id: {i}\nevent: {event}\ndata: {json.dumps(data)}\n\n".encode()


def sse_content(i: int) -> bytes:
    data = {
        "run_id": RID,
        "step_id": "step_1",
        "message_id": "msg_1",
        "role": "assistant",
        "timestamp": "2026-05-01T09:00:00Z",
        "block": {"type": "text", "text": "hi"},
    }
    return f"id: {i}\nevent: content\ndata: {json.dumps(data)}\n\n".encode()


class Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that sends some chunks, then drops the connection (or just ends)."""

    def __init__(self, chunks: List[bytes], drop: bool = True) -> None:
        self.chunks = chunks
        self.drop = drop

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.drop:
            raise httpx.ReadError("connection reset")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.drop:
            raise httpx.ReadError("connection reset")


def stream(chunks: List[bytes], drop: bool = False) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Broken(chunks, drop))


def scripted(request: httpx.Request) -> httpx.Response:
    """Event 1-2, connection drops; resume after 2 gives 3 (content) and the stream ends cleanly
    without a terminal state; resume after 3 gives the terminal state 4 and the server closes."""
    last = request.headers.get("last-event-id")
    if last is None:
        return stream([sse(1, "state", "QUEUED"), sse(2, "state", "INPROGRESS")], drop=True)
    if last == "2":
        return stream([b": keepalive\n\n", sse_content(3)])
    if last == "3":
        return stream([sse(4, "state", "SUCCEEDED")])
    raise AssertionError(f"unexpected Last-Event-ID {last}")


def test_events_resume_with_last_event_id_until_terminal() -> None:
    h = Harness("sync")
    client = h.client(scripted)
    events = client.agent.runs.events(RID)
    assert isinstance(events, RunEventStream)
    seen = [(e.id, e.event, getattr(e.data, "state", None)) for e in events]
    assert seen == [
        ("1", "state", "QUEUED"),
        ("2", "state", "INPROGRESS"),
        ("3", "content", None),
        ("4", "state", "SUCCEEDED"),
    ]
    sent = [r.headers.get("last-event-id") for r in h.recorder.requests]
    assert sent == [None, "2", "3"]
    assert all(r.headers["accept"] == "text/event-stream" for r in h.recorder.requests)
    assert str(h.recorder.requests[0].url).endswith(f"/agent/runs/{RID}/events")
    assert events.last_event_id == "4"


def test_events_read_past_a_replayed_terminal_state_of_a_resumed_run() -> None:
    # A run that finished, was resumed by a follow-up and finished again: replaying from the start shows
    # the first SUCCEEDED in the middle; only the one the server closes the stream after ends it.
    h = Harness("sync")
    answers = [stream([sse(1, "state", "SUCCEEDED"), sse(2, "state", "QUEUED"), sse(3, "state", "SUCCEEDED")])]
    client = h.client(answers)
    assert [e.id for e in client.agent.runs.events(RID)] == ["1", "2", "3"]
    assert len(h.recorder.requests) == 1


def test_events_start_after_a_given_event_id() -> None:
    h = Harness("sync")
    client = h.client(scripted)
    seen = [e.id for e in client.agent.runs.events(RID, last_event_id=3)]
    assert seen == ["4"]
    assert h.recorder.requests[0].headers["last-event-id"] == "3"


def test_events_give_up_after_reconnects_that_bring_nothing() -> None:
    h = Harness("sync")
    client = h.client(lambda r: stream([b": keepalive\n\n"]))
    with pytest.raises(APIConnectionError):
        list(client.agent.runs.events(RID))
    assert len(h.recorder.requests) == 1 + RunEventStream.max_reconnects


def test_events_honour_the_server_retry_field() -> None:
    h = Harness("sync")
    answers = [stream([b"retry: 1500\n", sse(1, "state", "QUEUED")], drop=True), stream([sse(2, "state", "FAILED")])]
    client = h.client(answers)
    assert [e.id for e in client.agent.runs.events(RID)] == ["1", "2"]
    assert h.sleeps == [1.5]


def test_events_errors_are_raised() -> None:
    h = Harness("sync")
    client = h.client([problem(404, "resource_not_found")])
    with pytest.raises(NotFoundError):
        client.agent.runs.events(RID)


def test_events_stop_early_with_the_context_manager() -> None:
    h = Harness("sync")
    client = h.client(scripted)
    with client.agent.runs.events(RID) as events:
        first = next(iter(events))
        assert first.id == "1"
    assert events.response.is_closed
    assert len(h.recorder.requests) == 1


def test_events_raw_response() -> None:
    h = Harness("sync")
    client = h.client(scripted)
    raw = client.agent.runs.with_raw_response.events(RID)
    assert raw.headers["content-type"] == "text/event-stream"
    assert [e.id for e in raw.parse()] == ["1", "2", "3", "4"]


def test_create_and_wait_follows_events_then_retrieves() -> None:
    h = Harness("sync")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(200, json={"run_id": RID, "task_id": RID, "state": "QUEUED"})
        if request.url.path.endswith("/events"):
            return scripted(request)
        return httpx.Response(200, json={**RUN, "state": "SUCCEEDED"})

    client = h.client(handler)
    run = client.agent.runs.create_and_wait(prompt="hi")
    assert run.state == "SUCCEEDED"


def test_wait_falls_back_to_polling() -> None:
    h = Harness("sync")
    states = iter(["INPROGRESS", "INPROGRESS", "FAILED"])

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            raise httpx.ConnectError("no streaming here")
        return httpx.Response(200, json={**RUN, "state": next(states)})

    client = h.client(handler)
    assert client.agent.runs.wait(RID, poll_interval=0.01).state == "FAILED"
    assert h.sleeps[-2:] == [0.01, 0.01]


async def test_async_events_resume_with_last_event_id_until_terminal() -> None:
    h = Harness("async")
    client = h.client(scripted)
    events = await client.agent.runs.events(RID)
    assert isinstance(events, AsyncRunEventStream)
    seen = [e.id async for e in events]
    assert seen == ["1", "2", "3", "4"]
    assert [r.headers.get("last-event-id") for r in h.recorder.requests] == [None, "2", "3"]


async def test_async_events_give_up_after_reconnects_that_bring_nothing() -> None:
    h = Harness("async")
    client = h.client(lambda r: stream([b": keepalive\n\n"]))
    with pytest.raises(APIConnectionError):
        [e async for e in await client.agent.runs.events(RID)]
    assert len(h.recorder.requests) == 1 + AsyncRunEventStream.max_reconnects


async def test_async_create_and_wait() -> None:
    h = Harness("async")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(200, json={"run_id": RID, "task_id": RID, "state": "QUEUED"})
        if request.url.path.endswith("/events"):
            return scripted(request)
        return httpx.Response(200, json={**RUN, "state": "SUCCEEDED"})

    client = h.client(handler)
    assert (await client.agent.runs.create_and_wait(prompt="hi")).state == "SUCCEEDED"


def test_a_complete_last_event_without_its_blank_line_is_delivered_at_a_clean_end() -> None:
    assert [e.data for e in decode(b"data: a\n\ndata: last\n")] == ["a", "last"]


def test_events_repeated_after_a_resume_are_skipped() -> None:
    h = Harness("sync")
    answers = [
        stream([sse(1, "state", "QUEUED"), sse(2, "state", "INPROGRESS")], drop=True),
        stream([sse(1, "state", "QUEUED"), sse(2, "state", "INPROGRESS"), sse(3, "state", "SUCCEEDED")]),
    ]
    client = h.client(answers)
    assert [e.id for e in client.agent.runs.events(RID)] == ["1", "2", "3"]


def test_a_server_that_only_replays_old_events_is_given_up_on() -> None:
    h = Harness("sync")
    client = h.client(lambda r: stream([sse(1, "state", "QUEUED")]))
    with pytest.raises(APIConnectionError):
        [e.id for e in client.agent.runs.events(RID)]
    assert len(h.recorder.requests) == 1 + RunEventStream.max_reconnects


def test_wait_stops_at_blocked_and_answer_sends_the_follow_up(h: Harness) -> None:
    """A run that asks a question: its stream stays open for the answer, so wait() stops at the BLOCKED event,
    run_question() reads the question, and answer() is the follow-up; sync and async alike."""
    blocked = {**RUN, "state": "BLOCKED", "status_message": {"message": "Which branch?"}}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            # A stream that would go on: after BLOCKED it only keeps alive (a wait reading on would reconnect and poll).
            return stream([sse(1, "state", "INPROGRESS"), sse(2, "state", "BLOCKED"), b": keepalive\n\n"], drop=True)
        if request.method == "POST":
            return httpx.Response(200, json={"run_id": RID, "task_id": RID, "state": "QUEUED"})
        return httpx.Response(200, json=blocked)

    client = h.client(handler)
    run = h.run(client.agent.runs.wait(RID))
    assert run.state == "BLOCKED"
    assert run_question(run) == "Which branch?"
    assert [r.url.path for r in h.recorder.requests] == [
        f"/api/v1/agent/runs/{RID}/events",
        f"/api/v1/agent/runs/{RID}",
    ]
    answered = h.run(client.agent.runs.answer(RID, "main"))
    assert answered.state == "QUEUED"
    assert h.recorder.requests[-1].url.path == f"/api/v1/agent/runs/{RID}/followups"
    assert json.loads(h.recorder.requests[-1].content) == {"message": "main"}
    assert (
        run_question(RunItem.model_construct(**{**RUN, "state": "FAILED", "status_message": {"message": "x"}})) is None
    )
