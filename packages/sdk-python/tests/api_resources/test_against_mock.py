"""Every method against the Prism mock of openapi/v1.yaml (`pnpm mock`): it rejects a request that
breaks the contract as the server does (400 invalid_request) and answers the contract's examples,
which must parse into the method's return type. Sync and async.

Needs AGENT_RUNS_MOCK_URL (the mock's REST root, e.g. http://127.0.0.1:4010/api/v1); `pnpm test:python`
starts one.
"""

from __future__ import annotations

import inspect
import os
from typing import Any, Callable

import pydantic
import pytest

from agent_runs import AgentRuns, AsyncAgentRuns, AsyncCursorPage, SyncCursorPage
from agent_runs import types as t

MOCK_URL = os.environ.get("AGENT_RUNS_MOCK_URL")
pytestmark = pytest.mark.skipif(not MOCK_URL, reason="AGENT_RUNS_MOCK_URL is not set (start a Prism mock: pnpm mock)")

RUN_ID = "3f8c2a4e-9b1d-4c6e-8f2a-1d2e3f4a5b6c"
FAC = "fac_01hzx3k4m5n6p7q8r9s0t1v2w3"
WH = "wh_01hzx3k4m5n6p7q8r9s0t1v2w3"
DLV = "dlv_01hzx3k4m5n6p7q8r9s0t1v2w3"
AUT = "aut_01hzx3k4m5n6p7q8r9s0t1v2w3"
ENV = "env_01hzx3k4m5n6p7q8r9s0t1v2w3"
SCH = "sch_01hzx3k4m5n6p7q8r9s0t1v2w3"
SUB = "sub_01hzx3k4m5n6p7q8r9s0t1v2w3"
EVT = "evt_01hzx3k4m5n6p7q8r9s0t1v2w3"
TRIGGER: Any = {
    "provider": "webhook",
    "event": "received",
    "filter": {
        "webhook_ids": [WH],
        "payload": {"action": ["opened", "reopened"], "issue": {"labels": {"not_in": ["wontfix"]}}},
    },
}
CONFIG: Any = {
    "name": "review",
    "model_id": "gpt-4.1-mini",
    "mcp_servers": {
        "fs": {"command": "npx", "args": ["-y", "server"]},
        "search": {"url": "https://mcp.example.org/search"},
    },
    "max_turns": 30,
}

CASES = [
    (
        "agent.runs.create",
        lambda c: c.agent.runs.create(
            prompt="Review the diff",
            title="Review",
            config=CONFIG,
            attachments=[{"file_name": "change.diff", "mime_type": "text/x-diff", "data": "ZGlmZgo="}],
        ),
        t.RunAgentResponse,
    ),
    (
        "agent.runs.list",
        lambda c: c.agent.runs.list(
            state=["QUEUED", "SUCCEEDED"],
            limit=5,
            sort_by="created_at",
            sort_order="asc",
            source="API",
            created_after="2026-05-01T00:00:00Z",
        ),
        "page",
    ),
    ("agent.runs.retrieve", lambda c: c.agent.runs.retrieve(RUN_ID), t.RunItem),
    (
        "agent.runs.followup",
        lambda c: c.agent.runs.followup(RUN_ID, message="Also list security issues"),
        t.RunAgentResponse,
    ),
    ("agent.runs.cancel", lambda c: c.agent.runs.cancel(RUN_ID), str),
    ("agent.runs.conversation", lambda c: c.agent.runs.conversation(RUN_ID), t.ConversationResponse),
    ("agent.runs.attachment", lambda c: c.agent.runs.attachment(RUN_ID, "event-payload.json"), bytes),
    (
        "agent.runs.retrieve_by_external_reference",
        lambda c: c.agent.runs.retrieve_by_external_reference("https://issues.example.com/ENG-42"),
        t.RunByExternalReferenceResponse,
    ),
    # download_artifact redirects to the example's host (localhost:8080), which is not the mock: covered by test_client.
    (
        "agent.get_artifact",
        lambda c: c.agent.get_artifact("9d2c4f1e-6a7b-4c8d-9e0f-1a2b3c4d5e6f"),
        t.FileArtifactResponse,
    ),
    ("agent.runs.transcript", lambda c: c.agent.runs.transcript(RUN_ID), str),
    ("agent.runs.download_transcript", lambda c: c.agent.runs.download_transcript(RUN_ID, token="signed-token"), str),
    ("agent.list", lambda c: c.agent.list(repo="acme/skills", sort_by="name"), t.ListAgentsResponse),
    ("agent.models.list", lambda c: c.agent.models.list(), t.ListModelsResponse),
    ("agent.skills.list", lambda c: c.agent.skills.list(), t.ListSkillsResponse),
    (
        "agent.environments.create",
        lambda c: c.agent.environments.create(
            name="node-20",
            description="Node 20",
            setup_commands=["corepack enable"],
            env_vars={"NPM_TOKEN": "x"},
            github_repos=[],
        ),
        t.CloudEnvironment,
    ),
    ("agent.environments.list", lambda c: c.agent.environments.list(sort_by="last_updated", limit=10), "page"),
    ("agent.environments.retrieve", lambda c: c.agent.environments.retrieve(ENV), t.CloudEnvironment),
    (
        "agent.environments.update",
        lambda c: c.agent.environments.update(ENV, description="Node 20 + pnpm"),
        t.CloudEnvironment,
    ),
    ("agent.environments.delete", lambda c: c.agent.environments.delete(ENV), type(None)),
    (
        "agent.schedules.create",
        lambda c: c.agent.schedules.create(
            name="Daily code review",
            cron_schedule="0 9 * * 1-5",
            time_zone="Europe/Paris",
            prompt="Review the open pull requests.",
            agent_config={"name": "code-review"},
            metadata={"team": "platform"},
        ),
        t.ScheduledAgentItem,
    ),
    ("agent.schedules.list", lambda c: c.agent.schedules.list(limit=100), "page"),
    ("agent.schedules.retrieve", lambda c: c.agent.schedules.retrieve(SCH), t.ScheduledAgentItem),
    (
        "agent.schedules.update",
        lambda c: c.agent.schedules.update(
            SCH, name="Daily code review", cron_schedule="0 10 * * 1-5", enabled=True, prompt="Review."
        ),
        t.ScheduledAgentItem,
    ),
    ("agent.schedules.delete", lambda c: c.agent.schedules.delete(SCH), t.DeleteScheduledAgentResponse),
    ("agent.schedules.pause", lambda c: c.agent.schedules.pause(SCH), t.ScheduledAgentItem),
    ("agent.schedules.resume", lambda c: c.agent.schedules.resume(SCH), t.ScheduledAgentItem),
    ("factories.create", lambda c: c.factories.create(name="support", definition_source="api"), t.Factory),
    ("factories.list", lambda c: c.factories.list(), "page"),
    ("factories.retrieve", lambda c: c.factories.retrieve(FAC), t.Factory),
    (
        "factories.apply_definitions",
        lambda c: c.factories.apply_definitions(
            FAC, files=[{"path": "webhooks/github.yaml", "content": "authMode: token\nsecretName: GH\n"}]
        ),
        t.ApplyDefinitionsResponse,
    ),
    (
        "factories.test_filter",
        lambda c: c.factories.test_filter(FAC, delivery_id=DLV, trigger=TRIGGER),
        t.TestFilterResult,
    ),
    (
        "factories.runs.create",
        lambda c: c.factories.runs.create(FAC, prompt="Reply to the customer", title="Reply"),
        t.RunAgentResponse,
    ),
    (
        "factories.webhooks.create",
        lambda c: c.factories.webhooks.create(
            FAC,
            name="GitHub issues",
            auth_mode="signature",
            signature_scheme="github",
            provider_secret="8f14e45f",
            delivery_id_header="X-GitHub-Delivery",
        ),
        t.WebhookWithSecret,
    ),
    ("factories.webhooks.list", lambda c: c.factories.webhooks.list(FAC), "page"),
    ("factories.webhooks.retrieve", lambda c: c.factories.webhooks.retrieve(WH, factory_uid=FAC), t.Webhook),
    (
        "factories.webhooks.update",
        lambda c: c.factories.webhooks.update(WH, factory_uid=FAC, enabled=False, delivery_id_header=None),
        t.Webhook,
    ),
    (
        "factories.webhooks.rotate_secret",
        lambda c: c.factories.webhooks.rotate_secret(WH, factory_uid=FAC),
        t.WebhookWithSecret,
    ),
    ("factories.webhooks.delete", lambda c: c.factories.webhooks.delete(WH, factory_uid=FAC), type(None)),
    (
        "factories.webhooks.deliveries.list",
        lambda c: c.factories.webhooks.deliveries.list(WH, factory_uid=FAC, limit=50),
        "page",
    ),
    (
        "factories.webhooks.deliveries.retrieve",
        lambda c: c.factories.webhooks.deliveries.retrieve(DLV, factory_uid=FAC, webhook_uid=WH),
        t.WebhookDelivery,
    ),
    (
        "factories.webhooks.deliveries.replay",
        lambda c: c.factories.webhooks.deliveries.replay(DLV, factory_uid=FAC, webhook_uid=WH),
        t.ReplayDeliveryResponse,
    ),
    (
        "factories.automations.create",
        lambda c: c.factories.automations.create(
            FAC, name="Issue triage", prompt="Triage the issue", triggers=[TRIGGER], config={"model_id": "gpt-4.1-mini"}
        ),
        t.Automation,
    ),
    ("factories.automations.list", lambda c: c.factories.automations.list(FAC), "page"),
    ("factories.automations.retrieve", lambda c: c.factories.automations.retrieve(AUT, factory_uid=FAC), t.Automation),
    (
        "factories.automations.update",
        lambda c: c.factories.automations.update(AUT, factory_uid=FAC, enabled=False),
        t.Automation,
    ),
    ("factories.automations.delete", lambda c: c.factories.automations.delete(AUT, factory_uid=FAC), type(None)),
    (
        "factories.automations.test_filter",
        lambda c: c.factories.automations.test_filter(AUT, factory_uid=FAC, delivery_id=DLV),
        t.TestFilterResult,
    ),
    ("secrets.list", lambda c: c.secrets.list(), "page"),
    ("secrets.put", lambda c: c.secrets.put("GITHUB_WEBHOOK_SECRET", value="8f14e45f"), t.SecretMetadata),
    ("secrets.delete", lambda c: c.secrets.delete("GITHUB_WEBHOOK_SECRET"), type(None)),
    ("api_keys.create", lambda c: c.api_keys.create(name="ci", role="member"), t.ApiKeyWithValue),
    ("api_keys.list", lambda c: c.api_keys.list(), "page"),
    ("api_keys.delete", lambda c: c.api_keys.delete("key_01hzx3k4m5n6p7q8r9s0t1v2w3"), type(None)),
    (
        "audit_events.list",
        lambda c: c.audit_events.list(resource_type="secret", since="2026-05-01T00:00:00Z", limit=10),
        "page",
    ),
    (
        "notifications.subscriptions.create",
        lambda c: c.notifications.subscriptions.create(
            url="https://alerts.example.com/agent-runs",
            event_types=["run.failed", "run.error"],
            filter={"factory_uid": FAC},
        ),
        t.NotificationSubscriptionWithSecret,
    ),
    ("notifications.subscriptions.list", lambda c: c.notifications.subscriptions.list(limit=10), "page"),
    (
        "notifications.subscriptions.retrieve",
        lambda c: c.notifications.subscriptions.retrieve(SUB),
        t.NotificationSubscription,
    ),
    (
        "notifications.subscriptions.update",
        lambda c: c.notifications.subscriptions.update(SUB, enabled=True, description=None),
        t.NotificationSubscription,
    ),
    (
        "notifications.subscriptions.rotate_secret",
        lambda c: c.notifications.subscriptions.rotate_secret(SUB),
        t.NotificationSubscriptionWithSecret,
    ),
    ("notifications.subscriptions.delete", lambda c: c.notifications.subscriptions.delete(SUB), type(None)),
    (
        "notifications.subscriptions.attempts.list",
        lambda c: c.notifications.subscriptions.attempts.list(SUB, event_id=EVT),
        "page",
    ),
    (
        "notifications.subscriptions.events.replay",
        lambda c: c.notifications.subscriptions.events.replay(EVT, subscription_uid=SUB),
        t.ReplayNotificationEventResponse,
    ),
]


def _check(result: Any, expected: Any) -> None:
    if expected == "page":
        assert isinstance(result, (SyncCursorPage, AsyncCursorPage))
        assert result.page_info is not None
        for item in result.items:
            assert not isinstance(item, dict), f"list item not parsed into a model: {item!r}"
    else:
        assert isinstance(result, expected), f"{type(result)} is not {expected}"


def _strict(model: Any) -> None:
    """The example validates against the generated model as is (not only loosely)."""
    type(model).model_validate(model.model_dump(mode="json", by_alias=True, exclude_unset=True))


@pytest.fixture(scope="module")
def client() -> AgentRuns:
    return AgentRuns(api_key="ar_live_mock", base_url=MOCK_URL, max_retries=0)


@pytest.fixture(scope="module")
def async_client() -> AsyncAgentRuns:
    return AsyncAgentRuns(api_key="ar_live_mock", base_url=MOCK_URL, max_retries=0)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_sync(client: AgentRuns, name: str, call: Callable[[Any], Any], expected: Any) -> None:
    result = call(client)
    _check(result, expected)
    if isinstance(result, pydantic.BaseModel):
        _strict(result)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
async def test_async(name: str, call: Callable[[Any], Any], expected: Any) -> None:
    async with AsyncAgentRuns(api_key="ar_live_mock", base_url=MOCK_URL, max_retries=0) as client:
        pending = call(client)
        result = await pending if inspect.isawaitable(pending) else pending
        _check(result, expected)


def test_sync_raw_response(client: AgentRuns) -> None:
    raw = client.agent.runs.with_raw_response.retrieve(RUN_ID)
    assert raw.status_code == 200
    assert isinstance(raw.parse(), t.RunItem)


def test_sync_events(client: AgentRuns) -> None:
    events = list(client.agent.runs.events(RUN_ID))
    assert events and events[-1].is_terminal
    assert {e.event for e in events} <= {"state", "content"}


async def test_async_events() -> None:
    async with AsyncAgentRuns(api_key="ar_live_mock", base_url=MOCK_URL, max_retries=0) as client:
        events = [e async for e in await client.agent.runs.events(RUN_ID)]
        assert events and events[-1].is_terminal


def test_a_request_that_breaks_the_contract_is_refused(client: AgentRuns) -> None:
    from agent_runs import APIStatusError

    with pytest.raises(APIStatusError) as info:
        client.post("/agent/runs", body={"prompt": 5})
    assert info.value.status_code == 400
