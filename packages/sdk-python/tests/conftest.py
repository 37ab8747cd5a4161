from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Callable, Dict, List, Optional

import httpx
import pytest

from agent_runs import AgentRuns, AsyncAgentRuns

BASE_URL = "http://api.test/api/v1"
API_KEY = "ar_live_test"

Handler = Callable[[httpx.Request], httpx.Response]


def problem(
    status: int, code: str, *, retryable: Optional[bool] = None, headers: Optional[Dict[str, str]] = None, **extra: Any
) -> httpx.Response:
    """An RFC 7807 answer shaped like the server's."""
    body: Dict[str, Any] = {
        "type": f"https://agent-runs.dev/errors/{code}",
        "title": code.replace("_", " ").capitalize(),
        "status": status,
        "detail": f"detail of {code}",
        "instance": "/api/v1/x",
        "error": f"{code}: detail",
        "retryable": (status >= 500 or status in (408, 429)) if retryable is None else retryable,
        "trace_id": "req_1",
        **extra,
    }
    return httpx.Response(
        status,
        headers={"content-type": "application/problem+json", "x-request-id": "req_1", **(headers or {})},
        content=json.dumps(body).encode(),
    )


def ok(body: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers={"x-request-id": "req_ok", **(headers or {})})


RUN = {
    "run_id": "3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c",
    "task_id": "3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c",
    "title": "t",
    "state": "QUEUED",
    "prompt": "p",
    "created_at": "2026-05-01T09:00:00Z",
    "updated_at": "2026-05-01T09:00:00Z",
}
CREATED = {"run_id": RUN["run_id"], "task_id": RUN["task_id"], "state": "QUEUED"}


class Recorder:
    """A scripted transport: answers from a list (or a function) and keeps every request."""

    def __init__(self, answers: Any) -> None:
        self.answers = answers
        self.requests: List[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        if callable(self.answers):
            answer = self.answers(request)
        else:
            answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def json(self, i: int = -1) -> Any:
        return json.loads(self.requests[i].content)


class Harness:
    """Runs one test against the sync client or the async one: `h.run(x)` awaits x when async."""

    def __init__(self, flavor: str) -> None:
        self.flavor = flavor
        self.sleeps: List[float] = []

    @property
    def is_async(self) -> bool:
        return self.flavor == "async"

    def client(self, answers: Any, **kwargs: Any) -> Any:
        recorder = answers if isinstance(answers, Recorder) else Recorder(answers)
        self.recorder = recorder
        kwargs.setdefault("api_key", API_KEY)
        kwargs.setdefault("base_url", BASE_URL)
        transport = httpx.MockTransport(recorder)
        if self.is_async:
            client: Any = AsyncAgentRuns(http_client=httpx.AsyncClient(transport=transport), **kwargs)

            async def _sleep(seconds: float) -> None:
                self.sleeps.append(seconds)

        else:
            client = AgentRuns(http_client=httpx.Client(transport=transport), **kwargs)

            def _sleep(seconds: float) -> None:  # type: ignore[misc]
                self.sleeps.append(seconds)

        client._sleep = _sleep
        return client

    def run(self, value: Any) -> Any:
        if inspect.isawaitable(value):

            async def _await() -> Any:
                return await value

            return asyncio.run(_await())
        return value


@pytest.fixture(params=["sync", "async"])
def h(request: pytest.FixtureRequest) -> Harness:
    return Harness(request.param)
