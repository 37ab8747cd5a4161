"""``verify_notification`` against the Standard Webhooks reference library's signatures, and against real
signed deliveries of the server (AGENT_RUNS_E2E_BASE_URL, as in test_e2e.py) to a receiver on 127.0.0.1,
through the sync and the async subscription resources."""

from __future__ import annotations

import asyncio
import datetime as dt
import http.server
import json
import os
import threading
import time
from typing import Dict, Iterator, List, Tuple

import pytest

from agent_runs import AgentRuns, AsyncAgentRuns, NotFoundError, WebhookVerificationError, verify_notification
from agent_runs.types import NotificationEvent

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
PREVIOUS = "whsec_" + "QW5vdGhlciBzZWNyZXQgYmVmb3JlIHRoZSByb3RhdGlvbg=="
EVENT = {
    "id": "evt_01hzx3k4m5n6p7q8r9s0t1v2w3",
    "type": "run.failed",
    "timestamp": "2026-05-01T10:00:00Z",
    "data": {
        "run_id": "3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c",
        "title": "Nightly",
        "state": "FAILED",
        "previous_state": "INPROGRESS",
        "status_message": {"message": "tests failed"},
        "source": "API",
        "factory_uid": None,
        "automation_id": None,
        "session_link": "http://localhost:8080/sessions/x",
        "sequence": 6,
        "created_at": "2026-05-01T09:58:00Z",
        "updated_at": "2026-05-01T10:00:00Z",
    },
}
BODY = json.dumps(EVENT)
SENT_AT = 1777629602


def signed(secrets: List[str], body: str = BODY, msg_id: str = EVENT["id"]) -> Dict[str, str]:
    standardwebhooks = pytest.importorskip("standardwebhooks")
    at = dt.datetime.fromtimestamp(SENT_AT, tz=dt.timezone.utc)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(SENT_AT),
        "webhook-signature": " ".join(standardwebhooks.Webhook(s).sign(msg_id, at, body) for s in secrets),
    }


def test_answers_the_typed_event_of_a_signed_notification() -> None:
    event = verify_notification(BODY, signed([SECRET]), SECRET, now=SENT_AT)
    assert isinstance(event, NotificationEvent)
    assert (event.type, event.data.state, event.data.previous_state, event.data.sequence) == (
        "run.failed",
        "FAILED",
        "INPROGRESS",
        6,
    )
    assert (
        verify_notification(BODY.encode(), {k.upper(): v for k, v in signed([SECRET]).items()}, SECRET, now=SENT_AT)
        == event
    )


def test_either_secret_verifies_during_a_rotation_overlap() -> None:
    both = signed([SECRET, PREVIOUS])
    assert verify_notification(BODY, both, SECRET, now=SENT_AT).id == EVENT["id"]
    assert verify_notification(BODY, both, PREVIOUS, now=SENT_AT).id == EVENT["id"]
    with pytest.raises(WebhookVerificationError):
        verify_notification(BODY, signed([SECRET]), PREVIOUS, now=SENT_AT)


@pytest.mark.parametrize(
    "body,headers,now",
    [
        (BODY.replace("FAILED", "SUCCEEDED"), None, SENT_AT),  # a changed body
        (BODY, None, SENT_AT + 301),  # too old
        (BODY, None, SENT_AT - 301),  # from the future
        (BODY, {"webhook-id": EVENT["id"]}, SENT_AT),  # headers missing
    ],
)
def test_refuses_what_does_not_verify(body: str, headers: Dict[str, str], now: int) -> None:
    with pytest.raises(WebhookVerificationError):
        verify_notification(body, headers if headers is not None else signed([SECRET]), SECRET, now=now)


def test_refuses_a_body_that_is_not_the_event_its_id_names() -> None:
    other = json.dumps({**EVENT, "id": "evt_other"})
    with pytest.raises(WebhookVerificationError):
        verify_notification(other, signed([SECRET], other), SECRET, now=SENT_AT)
    with pytest.raises(WebhookVerificationError):
        verify_notification("not json", signed([SECRET], "not json"), SECRET, now=SENT_AT)


# --------------------------------------------------------------------------------------------------
# Real deliveries of the server

BASE_URL = os.environ.get("AGENT_RUNS_E2E_BASE_URL")
API_KEY = os.environ.get("AGENT_RUNS_E2E_API_KEY")
e2e = pytest.mark.skipif(
    not (BASE_URL and API_KEY), reason="AGENT_RUNS_E2E_BASE_URL and AGENT_RUNS_E2E_API_KEY are not set"
)

Delivery = Tuple[str, Dict[str, str]]


@pytest.fixture
def receiver() -> Iterator[Tuple[str, List[Delivery]]]:
    """An HTTP receiver on 127.0.0.1 that records every delivery and answers 204."""
    received: List[Delivery] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode("utf-8")
            received.append((body, dict(self.headers.items())))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks", received
    finally:
        server.shutdown()
        server.server_close()


def wait_for(received: List[Delivery], count: int, timeout: float = 20.0) -> List[Delivery]:
    deadline = time.monotonic() + timeout
    while len(received) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"got {len(received)} of {count} deliveries")
        time.sleep(0.05)
    return received[:count]


@e2e
def test_every_real_delivery_verifies_sync(receiver: Tuple[str, List[Delivery]]) -> None:
    url, received = receiver
    client = AgentRuns(api_key=API_KEY, base_url=BASE_URL)
    subscription = client.notifications.subscriptions.create(
        url=url, event_types=["run.state_changed", "run.succeeded"]
    )
    try:
        assert subscription.secret.startswith("whsec_")
        run = client.agent.runs.create(prompt="notify the Python SDK")
        events = [verify_notification(body, headers, subscription.secret) for body, headers in wait_for(received, 5)]
        assert [(e.type, e.data.state) for e in events] == [
            ("run.state_changed", "QUEUED"),
            ("run.state_changed", "CLAIMED"),
            ("run.state_changed", "INPROGRESS"),
            ("run.state_changed", "SUCCEEDED"),
            ("run.succeeded", "SUCCEEDED"),
        ]
        assert all(e.data.run_id == run.run_id for e in events)
        attempts = list(client.notifications.subscriptions.attempts.list(subscription.uid, limit=2))
        assert len(attempts) == 5 and all(a.outcome == "succeeded" for a in attempts)

        rotated = client.notifications.subscriptions.rotate_secret(subscription.uid)
        client.notifications.subscriptions.events.replay(events[0].id, subscription_uid=subscription.uid)
        body, headers = wait_for(received, 6)[5]
        assert verify_notification(body, headers, rotated.secret).id == events[0].id
        assert verify_notification(body, headers, subscription.secret).id == events[0].id
    finally:
        client.notifications.subscriptions.delete(subscription.uid)
    with pytest.raises(NotFoundError):
        client.notifications.subscriptions.retrieve(subscription.uid)


@e2e
def test_every_real_delivery_verifies_async(receiver: Tuple[str, List[Delivery]]) -> None:
    url, received = receiver

    async def scenario() -> None:
        async with AsyncAgentRuns(api_key=API_KEY, base_url=BASE_URL) as client:
            subscription = await client.notifications.subscriptions.create(url=url, event_types=["run.succeeded"])
            try:
                run = await client.agent.runs.create(prompt="notify the async Python SDK")
                deadline = time.monotonic() + 20
                while not received:
                    assert time.monotonic() < deadline, "no delivery"
                    await asyncio.sleep(0.05)
                body, headers = received[0]
                event = verify_notification(body, headers, subscription.secret)
                assert (event.type, event.data.run_id) == ("run.succeeded", run.run_id)
                updated = await client.notifications.subscriptions.update(subscription.uid, enabled=False)
                assert (updated.enabled, updated.disabled_reason) == (False, "manual")
                page = await client.notifications.subscriptions.list()
                assert subscription.uid in [s.uid for s in page.items]
            finally:
                await client.notifications.subscriptions.delete(subscription.uid)

    asyncio.run(scenario())
