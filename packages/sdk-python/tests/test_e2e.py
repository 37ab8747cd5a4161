"""End to end against a real server (echo runner): create → terminal, events, pagination, follow-up,
cancel, idempotency, errors, and a signed webhook delivery that starts a run. Sync and async.

Needs AGENT_RUNS_E2E_BASE_URL (REST root, …/api/v1) and AGENT_RUNS_E2E_API_KEY (an admin key);
AGENT_RUNS_E2E_INGRESS_URL (host root of the ingress) is optional. `pnpm test:python` starts a server.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from typing import Any, Callable, List, TypeVar

import httpx
import pytest

from agent_runs import (
    TERMINAL_RUN_STATES,
    AgentRuns,
    AsyncAgentRuns,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    UnprocessableEntityError,
    sign_webhook,
)
from agent_runs.types import RunItem

BASE_URL = os.environ.get("AGENT_RUNS_E2E_BASE_URL")
API_KEY = os.environ.get("AGENT_RUNS_E2E_API_KEY")
INGRESS_URL = os.environ.get("AGENT_RUNS_E2E_INGRESS_URL")

pytestmark = pytest.mark.skipif(
    not (BASE_URL and API_KEY),
    reason="AGENT_RUNS_E2E_BASE_URL and AGENT_RUNS_E2E_API_KEY are not set (start a server: pnpm start)",
)

_T = TypeVar("_T")


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def eventually(fn: Callable[[], _T], *, timeout: float = 20.0, interval: float = 0.1) -> _T:
    deadline = time.monotonic() + timeout
    while True:
        result = fn()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(interval)


def ingress(url: str) -> str:
    """The webhook's ingress URL, pointed at AGENT_RUNS_E2E_INGRESS_URL when given."""
    if not INGRESS_URL:
        return url
    parsed = httpx.URL(url)
    return str(httpx.URL(INGRESS_URL.rstrip("/") + parsed.raw_path.decode()))


@pytest.fixture(scope="module")
def client() -> Any:
    with AgentRuns(api_key=API_KEY, base_url=BASE_URL) as c:
        yield c


def test_create_then_events_until_terminal(client: AgentRuns) -> None:
    name = unique("py-e2e")
    created = client.agent.runs.create(prompt="Say hello\nsecond line", config={"name": name})
    assert created.state == "QUEUED" and created.task_id == created.run_id
    events = list(client.agent.runs.events(created.run_id))
    assert events[-1].is_terminal and events[-1].data.state == "SUCCEEDED"
    ids = [int(e.id) for e in events if e.id is not None]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert any(e.event == "content" for e in events)
    run = client.agent.runs.retrieve(created.run_id)
    assert isinstance(run, RunItem) and run.state == "SUCCEEDED"
    assert run.title == "Say hello" and run.source == "API"
    assert run.agent_config is not None and run.agent_config.name == name
    conversation = client.agent.runs.conversation(created.run_id)
    assert conversation.steps and conversation.steps[0].messages


def test_team_events_current_key_and_session_filter(client: AgentRuns) -> None:
    me = client.api_keys.current()
    assert me.key.role == "admin" and me.team.team_id.startswith("team_")

    with client.agent.runs.team_events() as stream:
        run_ids = [client.agent.runs.create(prompt=f"team {i}").run_id for i in range(2)]
        states: dict = {run_id: [] for run_id in run_ids}
        for event in stream:
            if event.event == "state" and event.data.run_id in states:
                states[event.data.run_id].append(event.data.state)
                assert event.id is None
            if all(seen and seen[-1] == "SUCCEEDED" for seen in states.values()):
                break
    for seen in states.values():
        assert seen == ["QUEUED", "CLAIMED", "INPROGRESS", "SUCCEEDED"]

    run = client.agent.runs.retrieve(run_ids[0])
    assert [r.run_id for r in client.agent.runs.list(session_id=run.session_id)] == [run_ids[0]]


def test_create_and_wait(client: AgentRuns) -> None:
    run = client.agent.runs.create_and_wait(prompt="wait for me", max_wait=30)
    assert run.state in TERMINAL_RUN_STATES


def test_events_resume_after_a_given_id(client: AgentRuns) -> None:
    run = client.agent.runs.create_and_wait(prompt="resume me", max_wait=30)
    all_events = list(client.agent.runs.events(run.run_id))
    # A terminal run's stream sends its state and closes; resuming after the first event gives the rest.
    assert all_events[-1].is_terminal
    first = list(client.agent.runs.events(run.run_id, last_event_id=0))
    assert first[-1].is_terminal and int(first[0].id) >= 1


def test_pagination_walks_every_page(client: AgentRuns) -> None:
    name = unique("py-page")
    made = {client.agent.runs.create(prompt=f"page {i}", config={"name": name}).run_id for i in range(5)}
    # Sorted by created_at: updated_at moves while the runs execute, which would reorder pages.
    page = client.agent.runs.list(name=name, limit=2, sort_by="created_at")
    assert len(page.items) == 2 and page.has_next_page()
    seen = [run.run_id for run in client.agent.runs.list(name=name, limit=2, sort_by="created_at")]
    assert set(seen) == made and len(seen) == 5
    pages = list(client.agent.runs.list(name=name, limit=2, sort_by="created_at").iter_pages())
    assert [len(p.items) for p in pages] == [2, 2, 1]


def test_follow_up_requeues_a_finished_run(client: AgentRuns) -> None:
    run = client.agent.runs.create_and_wait(prompt="first turn", max_wait=30)
    answer = client.agent.runs.followup(run.run_id, message="second turn")
    assert answer.run_id == run.run_id and answer.state == "QUEUED"
    again = client.agent.runs.wait(run.run_id, max_wait=30)
    assert again.state == "SUCCEEDED"
    steps = client.agent.runs.conversation(run.run_id).steps
    assert len(steps) == 2


def test_cancel(client: AgentRuns) -> None:
    slow = client.with_options(max_retries=0)
    created = slow.agent.runs.create(prompt="cancel me")
    try:
        assert slow.agent.runs.cancel(created.run_id) == created.run_id
        assert client.agent.runs.retrieve(created.run_id).state == "CANCELLED"
        with pytest.raises(BadRequestError):  # CANCELLED is terminal (as in the Oz API)
            slow.agent.runs.cancel(created.run_id)
    except BadRequestError as err:  # the echo runner finished first
        assert err.code == "invalid_request"
    finished = client.agent.runs.create_and_wait(prompt="done already", max_wait=30)
    with pytest.raises(BadRequestError) as info:
        client.agent.runs.cancel(finished.run_id)
    assert info.value.retryable is False and info.value.request_id


def test_oz_parity_metadata_parent_skill_filters(client: AgentRuns) -> None:
    marker = unique("oz")
    parent = client.agent.runs.create(prompt=f"parent {marker}", metadata={"ticket": marker, "team": "web"})
    child = client.agent.runs.create(prompt="child", parent_run_id=parent.run_id, metadata={"team": "infra"})
    run = client.agent.runs.retrieve(child.run_id)
    assert run.metadata == {"ticket": marker, "team": "infra"} and run.parent_run_id == parent.run_id
    assert run.execution_location == "REMOTE" and run.is_run_type_cancellable is True and run.artifacts == []
    assert [r.run_id for r in client.agent.runs.list(metadata={"ticket": marker, "team": "infra"})] == [child.run_id]
    assert [r.run_id for r in client.agent.runs.list(ancestor_run_id=parent.run_id)] == [child.run_id]
    assert [r.run_id for r in client.agent.runs.list(q=marker.upper())] == [parent.run_id]
    assert list(client.agent.runs.list(schedule_id="sched_1")) == []
    with pytest.raises(BadRequestError) as info:
        client.agent.runs.create(prompt="p", parent_run_id=str(uuid.uuid4()))
    assert info.value.code == "invalid_request"
    with pytest.raises(BadRequestError):
        client.agent.runs.create(title="neither prompt nor skill")


def test_idempotency_key_replays_instead_of_creating_twice(client: AgentRuns) -> None:
    key = str(uuid.uuid4())
    first = client.agent.runs.with_raw_response.create(prompt="once", extra_headers={"Idempotency-Key": key})
    second = client.agent.runs.with_raw_response.create(prompt="once", extra_headers={"Idempotency-Key": key})
    assert first.parse().run_id == second.parse().run_id
    assert second.headers.get("idempotent-replayed") == "true"
    with pytest.raises(ConflictError):
        client.agent.runs.create(prompt="another body", extra_headers={"Idempotency-Key": key})


def test_errors_map_to_classes(client: AgentRuns) -> None:
    with pytest.raises(NotFoundError) as info:
        client.agent.runs.retrieve(str(uuid.uuid4()))
    assert info.value.code == "resource_not_found" and info.value.request_id
    with pytest.raises(AuthenticationError):
        client.with_options(api_key="ar_live_wrong").agent.runs.list()
    with pytest.raises(ValueError):
        client.agent.runs.retrieve("")


def test_raw_response_and_undocumented_endpoint(client: AgentRuns) -> None:
    raw = client.agent.skills.with_raw_response.list()
    assert raw.status_code == 200 and raw.headers["x-request-id"]
    assert raw.parse().skills
    assert client.get("/agent/skills")["skills"]  # type: ignore[index]


def test_signed_webhook_delivery_starts_a_run(client: AgentRuns) -> None:
    factory = client.factories.create(name=unique("py-factory"))
    webhook = client.factories.webhooks.create(
        factory.uid, name=unique("py-hook"), auth_mode="signature", signature_scheme="standard-webhooks"
    )
    assert webhook.secret and webhook.secret_configured
    automation = client.factories.automations.create(
        factory.uid,
        name=unique("py-automation"),
        prompt="Triage the issue in the payload",
        triggers=[
            {
                "provider": "webhook",
                "event": "received",
                "filter": {"webhook_ids": [webhook.uid], "payload": {"action": ["opened"]}},
            }
        ],
    )
    payload = json.dumps({"action": "opened", "issue": {"number": 42}})
    headers = sign_webhook(webhook.secret, payload)
    response = httpx.post(
        ingress(webhook.ingress_url), content=payload, headers={**headers, "content-type": "application/json"}
    )
    assert response.status_code == 202, response.text
    delivery_id = response.json()["delivery_id"]

    # An unsigned delivery is rejected and logged.
    bad = httpx.post(ingress(webhook.ingress_url), content=payload, headers={"content-type": "application/json"})
    assert bad.status_code == 401

    runs = eventually(lambda: list(client.agent.runs.list(factory_uid=factory.uid)))
    (run,) = runs
    assert run.automation_id == automation.uid and run.delivery_id == delivery_id and run.source == "WEBHOOK"
    done = client.agent.runs.wait(run.run_id, max_wait=30)
    assert done.state == "SUCCEEDED"
    assert json.loads(client.agent.runs.attachment(run.run_id, "event-payload.json")) == json.loads(payload)

    deliveries = list(client.factories.webhooks.deliveries.list(webhook.uid, factory_uid=factory.uid))
    assert {d.label for d in deliveries} >= {"Accepted", "Rejected (auth)"}
    stored = client.factories.webhooks.deliveries.retrieve(
        delivery_id, factory_uid=factory.uid, webhook_uid=webhook.uid
    )
    assert stored.payload == json.loads(payload)
    result = client.factories.automations.test_filter(automation.uid, factory_uid=factory.uid, delivery_id=delivery_id)
    assert result.result == "Would trigger"
    replay = client.factories.webhooks.deliveries.replay(delivery_id, factory_uid=factory.uid, webhook_uid=webhook.uid)
    assert replay.delivery_id == delivery_id and len(replay.runs) == 1
    # The delivery's runs: the one it started on arrival and the replay's.
    started = [
        r.run_id for r in client.agent.runs.list(delivery_id=delivery_id, sort_by="created_at", sort_order="asc")
    ]
    assert started == [run.run_id, replay.runs[0].run_id]

    # The same delivery again is a duplicate: logged, starts nothing.
    again = httpx.post(
        ingress(webhook.ingress_url), content=payload, headers={**headers, "content-type": "application/json"}
    )
    assert again.status_code == 202


def test_invalid_filter_is_422_with_its_path(client: AgentRuns) -> None:
    factory = client.factories.create(name=unique("py-factory"))
    webhook = client.factories.webhooks.create(factory.uid, name=unique("py-hook"))
    with pytest.raises(UnprocessableEntityError) as info:
        client.factories.automations.create(
            factory.uid,
            name="bad",
            prompt="p",
            triggers=[
                {
                    "provider": "webhook",
                    "event": "received",
                    "filter": {"webhook_ids": [webhook.uid], "payload": {"action": {"in": ["a"], "x": 1}}},
                }
            ],
        )
    assert info.value.errors and info.value.errors[0]["path"].startswith("$.triggers[0].filter.payload")


def test_admin_resources_round_trip(client: AgentRuns) -> None:
    secret_name = "PY_E2E_" + uuid.uuid4().hex[:8].upper()
    meta = client.secrets.put(secret_name, value="s3cret")
    assert meta.name == secret_name
    assert secret_name in {s.name for s in client.secrets.list()}
    client.secrets.delete(secret_name)
    key = client.api_keys.create(role="member", name=unique("py-key"))
    assert key.api_key.startswith("ar_live_")
    member = client.with_options(api_key=key.api_key)
    assert member.agent.runs.list(limit=1) is not None
    client.api_keys.delete(key.key_id)
    with pytest.raises(AuthenticationError):
        member.agent.runs.list(limit=1)
    env = client.agent.environments.create(
        name=unique("py-env"), setup_commands=["true"], env_vars={"A": "1"}, github_repos=[]
    )
    assert env.env_var_names == ["A"] and env.config.setup_commands == ["true"] and env.setup_failed is False
    assert env.scope.type == "Team" and env.last_task_run_timestamp is None
    assert client.agent.environments.update(env.uid, description="d").config.description == "d"
    assert env.uid in [e.uid for e in client.agent.environments.list(sort_by="name")]
    with pytest.raises(BadRequestError) as info:
        client.agent.environments.create(name=unique("py-env"), docker_image="10.1.2.3:5000/ubuntu:latest")
    assert info.value.errors and info.value.errors[0]["path"] == "$.docker_image"
    client.agent.environments.delete(env.uid)
    with pytest.raises(NotFoundError):
        client.agent.environments.retrieve(env.uid)


def test_audit_events_list_every_page_of_the_filtered_log(client: AgentRuns) -> None:
    names = [f"PY_AUDIT_{uuid.uuid4().hex[:8].upper()}" for _ in range(3)]
    for name in names:
        client.secrets.put(name, value=f"py-audit-value-{name}")
    client.secrets.delete(names[0])
    events = [e for e in client.audit_events.list(resource_type="secret", limit=2) if e.resource.id in names]
    assert [(e.action, e.resource.id) for e in events] == [
        ("deleted", names[0]),
        ("created", names[2]),
        ("created", names[1]),
        ("created", names[0]),
    ]
    assert all(e.operation_id in ("putSecret", "deleteSecret") and e.changed_fields in (["value"], []) for e in events)
    assert "py-audit-value" not in json.dumps([e.model_dump(mode="json") for e in events])
    only = client.audit_events.list(resource_type="secret", resource_id=names[0])
    assert [e.operation_id for e in only] == ["deleteSecret", "putSecret"]


def test_transcript_models_and_agents(client: AgentRuns) -> None:
    run = client.agent.runs.create_and_wait(prompt="transcribe me", max_wait=30)
    lines = [json.loads(line) for line in client.agent.runs.transcript(run.run_id).splitlines()]
    assert lines[0]["role"] == "user" and lines[0]["content"] == [{"type": "text", "text": "transcribe me"}]
    assert lines[-1]["role"] == "assistant"
    raw = client.with_options(max_retries=0).agent.runs.with_raw_response.transcript(run.run_id)
    assert raw.headers["content-type"].startswith("application/x-ndjson")
    token = httpx.URL(str(raw.http_response.history[0].headers["location"])).params["token"]
    assert client.agent.runs.download_transcript(run.run_id, token=token) == client.agent.runs.transcript(run.run_id)
    models = client.agent.models.list()
    assert models.default_model_id in [m.id for m in models.models]
    agents = client.agent.list(repo="agent-runs/bundled")
    assert agents.agents and all(v.source.owner == "agent-runs" for a in agents.agents for v in a.variants)
    assert client.agent.list(sort_by="last_run", include_malformed_skills=True).agents


def test_schedules_round_trip(client: AgentRuns) -> None:
    """Every schedule operation against the real server (its clock is real: firing is tested in the server's
    and the TypeScript SDK's suites, which move an injected clock)."""
    name = unique("py-schedule")
    created = client.agent.schedules.create(
        name=name, cron_schedule="0 9 * * 1-5", time_zone="europe/paris", prompt="Review", metadata={"team": "py"}
    )
    assert created.time_zone == "Europe/Paris" and created.enabled and created.history.next_run is not None
    assert created.history.last_outcome is None and created.history.skipped_slots == 0
    assert created.id in {s.id for s in client.agent.schedules.list()}
    assert client.agent.schedules.retrieve(created.id).name == name
    updated = client.agent.schedules.update(
        created.id, name=name, cron_schedule="30 9 * * *", enabled=True, prompt="Again"
    )
    assert updated.prompt == "Again" and updated.metadata is None and updated.time_zone == "Europe/Paris"
    paused = client.agent.schedules.pause(created.id)
    assert not paused.enabled and paused.history.next_run is None
    assert client.agent.schedules.resume(created.id).history.next_run is not None
    with pytest.raises(BadRequestError) as info:
        client.agent.schedules.create(name="bad", cron_schedule="61 * * * *", prompt="x")
    assert info.value.errors and info.value.errors[0]["path"] == "$.cron_schedule"
    assert client.agent.schedules.delete(created.id).success is True
    with pytest.raises(NotFoundError):
        client.agent.schedules.retrieve(created.id)
    assert list(client.agent.runs.list(schedule_id=created.id)) == []


async def test_async_schedules() -> None:
    async with AsyncAgentRuns(api_key=API_KEY, base_url=BASE_URL) as client:
        created = await client.agent.schedules.create(
            name=unique("py-async-schedule"), cron_schedule="@hourly", prompt="tick"
        )
        assert created.id in [s.id async for s in client.agent.schedules.list(limit=1)]
        assert (await client.agent.schedules.retrieve(created.id)).cron_schedule == "@hourly"
        renamed = await client.agent.schedules.update(
            created.id, name="renamed", cron_schedule="@daily", enabled=False, prompt="tock"
        )
        assert renamed.enabled is False and renamed.prompt == "tock"
        assert (await client.agent.schedules.resume(created.id)).enabled is True
        assert (await client.agent.schedules.pause(created.id)).enabled is False
        assert (await client.agent.schedules.delete(created.id)).success is True


async def test_async_end_to_end() -> None:
    async with AsyncAgentRuns(api_key=API_KEY, base_url=BASE_URL) as client:
        name = unique("py-async")
        created = await client.agent.runs.create(prompt="async hello", config={"name": name})
        events = [e async for e in await client.agent.runs.events(created.run_id)]
        assert events[-1].is_terminal
        await asyncio.gather(*(client.agent.runs.create(prompt=f"p{i}", config={"name": name}) for i in range(2)))
        ids: List[str] = [r.run_id async for r in client.agent.runs.list(name=name, limit=1, sort_by="created_at")]
        assert len(ids) == 3 and created.run_id in ids
        answer = await client.agent.runs.followup(created.run_id, message="more")
        assert answer.state == "QUEUED"
        assert (await client.agent.runs.wait(created.run_id, max_wait=30)).state == "SUCCEEDED"
        with pytest.raises(NotFoundError):
            await client.agent.runs.retrieve(str(uuid.uuid4()))
