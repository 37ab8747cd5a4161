"""Cursor pagination over `{<plural>: [...], page_info: {has_next_page, next_cursor}}`."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import httpx
import pytest

from agent_runs import AsyncCursorPage, SyncCursorPage
from agent_runs.types import ListRunsResponse, RunItem, Webhook

from .conftest import RUN, Harness, ok, problem


def _run(i: int) -> Dict[str, Any]:
    return {**RUN, "run_id": f"run-{i}", "task_id": f"run-{i}"}


PAGES = {
    None: ([_run(1), _run(2)], "c2"),
    "c2": ([_run(3), _run(4)], "c3"),
    "c3": ([_run(5)], None),
}


def pages(request: httpx.Request) -> httpx.Response:
    cursor: Optional[str] = request.url.params.get("cursor")
    items, nxt = PAGES[cursor]
    return ok({"runs": items, "page_info": {"has_next_page": nxt is not None, "next_cursor": nxt}})


def test_iterating_a_list_walks_every_page() -> None:
    h = Harness("sync")
    client = h.client(pages)
    ids = [run.run_id for run in client.agent.runs.list(limit=2, state="QUEUED")]
    assert ids == ["run-1", "run-2", "run-3", "run-4", "run-5"]
    sent = [
        (r.url.params.get("cursor"), r.url.params["limit"], r.url.params.get_list("state")) for r in h.recorder.requests
    ]
    # Filters stay on every page; the cursor is the previous page's next_cursor.
    assert sent == [(None, "2", ["QUEUED"]), ("c2", "2", ["QUEUED"]), ("c3", "2", ["QUEUED"])]


def test_page_by_page() -> None:
    h = Harness("sync")
    client = h.client(pages)
    page = client.agent.runs.list()
    assert isinstance(page, SyncCursorPage)
    assert [r.run_id for r in page.items] == ["run-1", "run-2"]
    assert all(isinstance(r, RunItem) for r in page.items)
    assert page.runs == page.items  # attributes of the answer are readable on the page
    assert page.page_info.next_cursor == "c2"
    assert page.has_next_page()
    second = page.get_next_page()
    assert [r.run_id for r in second.items] == ["run-3", "run-4"]
    last = second.get_next_page()
    assert not last.has_next_page()
    with pytest.raises(RuntimeError):
        last.get_next_page()
    assert [len(p.items) for p in page.iter_pages()] == [2, 2, 1]


def test_a_page_that_repeats_its_cursor_ends_the_walk() -> None:
    h = Harness("sync")
    client = h.client(lambda r: ok({"runs": [_run(1)], "page_info": {"has_next_page": True, "next_cursor": "same"}}))
    assert len(list(client.agent.runs.list())) == 2
    assert len(h.recorder.requests) == 2


def test_errors_on_a_later_page_are_raised_and_retried() -> None:
    h = Harness("sync")
    answers: List[httpx.Response] = [
        ok({"runs": [_run(1)], "page_info": {"has_next_page": True, "next_cursor": "c2"}}),
        problem(503, "unavailable"),
        ok({"runs": [_run(2)], "page_info": {"has_next_page": False, "next_cursor": None}}),
    ]
    client = h.client(answers)
    assert [r.run_id for r in client.agent.runs.list()] == ["run-1", "run-2"]
    assert len(h.recorder.requests) == 3


def test_raw_response_of_a_list_parses_to_a_page() -> None:
    h = Harness("sync")
    client = h.client(pages)
    raw = client.agent.runs.with_raw_response.list()
    assert raw.headers["x-request-id"] == "req_ok"
    page = raw.parse()
    assert isinstance(page, SyncCursorPage)
    assert isinstance(page.to_dict(), dict)
    assert [r.run_id for r in page] == ["run-1", "run-2", "run-3", "run-4", "run-5"]


def test_other_lists_use_their_plural_key() -> None:
    h = Harness("sync")
    webhook = {
        "uid": "wh_1",
        "factory_uid": "fac_1",
        "name": "n",
        "auth_mode": "token",
        "signature_scheme": None,
        "secret_name": "S",
        "secret_configured": True,
        "delivery_id_header": None,
        "enabled": True,
        "ingress_url": "http://x/webhooks/w/wh_1",
        "created_at": RUN["created_at"],
        "updated_at": RUN["created_at"],
    }
    client = h.client([ok({"webhooks": [webhook], "page_info": {"has_next_page": False, "next_cursor": None}})])
    items = list(client.factories.webhooks.list("fac_1"))
    assert len(items) == 1 and isinstance(items[0], Webhook)
    assert str(h.recorder.requests[0].url).endswith("/factories/fac_1/webhooks")


async def test_async_for_walks_every_page() -> None:
    h = Harness("async")
    client = h.client(pages)
    ids = [run.run_id async for run in client.agent.runs.list(limit=2)]
    assert ids == ["run-1", "run-2", "run-3", "run-4", "run-5"]


async def test_async_page_by_page() -> None:
    h = Harness("async")
    client = h.client(pages)
    page = await client.agent.runs.list()
    assert isinstance(page, AsyncCursorPage)
    assert page.has_next_page()
    second = await page.get_next_page()
    assert [r.run_id for r in second.items] == ["run-3", "run-4"]
    assert [r.run_id async for r in second] == ["run-3", "run-4", "run-5"]
    assert [len(p.items) async for p in page.iter_pages()] == [2, 2, 1]


async def test_async_raw_response_of_a_list() -> None:
    h = Harness("async")
    client = h.client(pages)
    raw = await client.agent.runs.with_raw_response.list()
    page = await raw.parse()
    assert isinstance(page, AsyncCursorPage)
    assert isinstance(page._response, ListRunsResponse)
    assert len([r async for r in page]) == 5
