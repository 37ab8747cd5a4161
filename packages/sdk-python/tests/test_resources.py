"""Every method sends the request the contract describes (method, path, query, body) and parses
the answer into its model, for the sync and the async client."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional

import httpx
import pytest

from agent_runs import types as t

from .conftest import CREATED, RUN, Harness, ok

TS = "2026-05-01T08:00:00Z"
PAGE = {"has_next_page": False, "next_cursor": None}
ENV = {
    "uid": "env_1",
    "config": {"name": "n", "setup_commands": []},
    "last_updated": TS,
    "last_task_run_timestamp": None,
    "setup_failed": False,
    "scope": {"type": "Team", "uid": "team_1"},
    "env_var_names": [],
    "plain_env_vars": {},
    "created_at": TS,
}
AGENTS = {
    "agents": [
        {
            "name": "triage",
            "variants": [
                {
                    "id": "acme/skills:skills/triage/SKILL.md",
                    "description": "d",
                    "base_prompt": "p",
                    "last_run_timestamp": None,
                    "source": {"owner": "acme", "name": "skills", "skill_path": "skills/triage/SKILL.md"},
                    "environments": [],
                }
            ],
        }
    ]
}
MODELS = {
    "default_model_id": "m",
    "models": [{"id": "m", "display_name": "m", "provider": "UNKNOWN", "vision_supported": False}],
}
HARNESSES = {
    "harnesses": [
        {
            "type": "codex",
            "name": "Codex",
            "npm_package": "@openai/codex",
            "version": "0.171.0",
            "command": "codex",
            "installed": True,
        }
    ]
}
FACTORY = {"uid": "fac_1", "name": "support", "definition_source": "api", "created_at": TS}
WEBHOOK = {
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
    "created_at": TS,
    "updated_at": TS,
}
DELIVERY = {
    "delivery_id": "dlv_1",
    "webhook_uid": "wh_1",
    "label": "Accepted",
    "size": 2,
    "received_at": TS,
    "identity": "sha256:x",
    "identity_source": "body_hash",
}
TRIGGER = {
    "provider": "webhook",
    "event": "received",
    "filter": {"webhook_ids": ["wh_1"], "payload": {"action": ["opened"]}},
}
AUTOMATION = {
    "uid": "aut_1",
    "factory_uid": "fac_1",
    "name": "a",
    "prompt": "p",
    "enabled": True,
    "triggers": [TRIGGER],
    "selected_webhooks": [{"uid": "wh_1", "state": "enabled"}],
    "created_at": TS,
    "updated_at": TS,
}
TEST_RESULT = {
    "result": "Would trigger",
    "webhook_check": {"passed": True, "reason": "r"},
    "payload_check": {"passed": True, "reason": "r", "path": None},
}
SECRET = {"name": "S", "created_at": TS, "updated_at": TS}
BUDGET = {
    "max_tokens_per_month": 1000,
    "max_cost_usd_per_month": None,
    "month": "2026-11",
    "used_tokens": 10,
    "exceeded": False,
    "updated_at": TS,
}
USAGE = {
    "month": "2026-10",
    "prompt_tokens": 7,
    "completion_tokens": 3,
    "total_tokens": 10,
    "cost_usd": 0.5,
    "models": [{"model_id": "m", "prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10, "cost_usd": 0.5}],
}
KEY = {"key_id": "key_1", "name": "ci", "role": "member", "created_at": TS}
AUDIT_EVENT = {
    "id": "aud_1",
    "occurred_at": TS,
    "actor": {"key_id": "key_1", "name": "ops"},
    "operation_id": "putSecret",
    "action": "updated",
    "resource": {"type": "secret", "id": "S"},
    "address": "203.0.113.7",
    "changed_fields": ["value"],
}
CREATOR = {"type": "service_account", "uid": "key_1", "display_name": "ops"}
SCHEDULE = {
    "id": "sch_1",
    "name": "nightly",
    "cron_schedule": "0 2 * * *",
    "time_zone": "UTC",
    "enabled": True,
    "prompt": "p",
    "last_spawn_error": None,
    "created_at": TS,
    "updated_at": TS,
    "created_by": CREATOR,
    "updated_by": CREATOR,
    "history": {
        "last_ran": None,
        "next_run": TS,
        "last_run_id": None,
        "last_slot": None,
        "last_fired_at": None,
        "last_outcome": None,
        "skipped_slots": 0,
    },
    "scope": {"type": "Team", "uid": "team_1"},
}
CONVERSATION = {"conversation_id": "conv_1", "steps": [{"id": "step_1", "messages": [], "steps": []}]}
SUBSCRIPTION = {
    "uid": "sub_1",
    "url": "https://hooks.test/",
    "description": None,
    "event_types": ["run.failed"],
    "filter": {"factory_uid": "fac_1", "automation_id": None},
    "enabled": True,
    "disabled_reason": None,
    "disabled_at": None,
    "failing_since": None,
    "previous_secret_expires_at": None,
    "created_at": TS,
    "updated_at": TS,
}
ATTEMPT = {
    "uid": "att_1",
    "event_id": "evt_1",
    "event_type": "run.failed",
    "run_id": "r1",
    "attempt": 1,
    "attempted_at": TS,
    "outcome": "retrying",
    "status_code": 503,
    "latency_ms": 12,
    "error": None,
    "response_excerpt": "down",
    "next_attempt_at": TS,
}

FILE_ARTIFACT = {
    "artifact_uid": "a1",
    "artifact_type": "FILE",
    "created_at": TS,
    "data": {
        "download_url": "http://api.test/api/v1/agent/artifacts/a1/content?token=t",
        "expires_at": TS,
        "content_type": "text/plain",
        "filepath": "out/r.txt",
        "filename": "r.txt",
        "size_bytes": 2,
    },
}

R = "r1"
CASES = [
    # (call, method, path, query, body, answer, expected type)
    (
        lambda c: c.agent.runs.create(
            prompt="p",
            title="t",
            config={"model_id": "m", "mcp_servers": {"fs": {"command": "npx"}}},
            attachments=[{"file_name": "a.txt", "mime_type": "text/plain", "data": "aGk="}],
        ),
        "POST",
        "/agent/runs",
        None,
        {
            "prompt": "p",
            "title": "t",
            "config": {"model_id": "m", "mcp_servers": {"fs": {"command": "npx"}}},
            "attachments": [{"file_name": "a.txt", "mime_type": "text/plain", "data": "aGk="}],
        },
        CREATED,
        t.RunAgentResponse,
    ),
    (
        lambda c: c.agent.runs.list(
            sort_by="created_at",
            sort_order="asc",
            name="triage",
            model_id="m",
            creator="key_1",
            source="API",
            factory_uid="fac_1",
            automation_id="aut_1",
            cursor="c",
            limit=3,
            created_before="2026-05-02T00:00:00Z",
            updated_after="2026-04-01T00:00:00Z",
        ),
        "GET",
        "/agent/runs",
        {
            "sort_by": "created_at",
            "sort_order": "asc",
            "name": "triage",
            "model_id": "m",
            "creator": "key_1",
            "source": "API",
            "factory_uid": "fac_1",
            "automation_id": "aut_1",
            "cursor": "c",
            "limit": "3",
            "created_before": "2026-05-02T00:00:00Z",
            "updated_after": "2026-04-01T00:00:00Z",
        },
        None,
        {"runs": [RUN], "page_info": PAGE},
        None,
    ),
    (lambda c: c.agent.runs.retrieve(R), "GET", f"/agent/runs/{R}", None, None, RUN, t.RunItem),
    (
        lambda c: c.agent.runs.retrieve_by_external_reference("https://issues.example.com/ENG-1"),
        "GET",
        "/agent/run-by-external-reference",
        {"url": "https://issues.example.com/ENG-1"},
        None,
        {"run_id": R},
        t.RunByExternalReferenceResponse,
    ),
    (
        lambda c: c.agent.get_artifact("a1"),
        "GET",
        "/agent/artifacts/a1",
        None,
        None,
        FILE_ARTIFACT,
        t.FileArtifactResponse,
    ),
    (lambda c: c.agent.runs.cancel(R), "POST", f"/agent/runs/{R}/cancel", None, None, R, str),
    (
        lambda c: c.agent.runs.followup(R, message="more"),
        "POST",
        f"/agent/runs/{R}/followups",
        None,
        {"message": "more"},
        CREATED,
        t.RunAgentResponse,
    ),
    (
        lambda c: c.agent.runs.followup(R, message="more", mode="normal"),
        "POST",
        f"/agent/runs/{R}/followups",
        None,
        {"message": "more", "mode": "normal"},
        CREATED,
        t.RunAgentResponse,
    ),
    (
        lambda c: c.agent.runs.download_transcript(R, token="tok"),
        "GET",
        f"/agent/runs/{R}/transcript/download",
        {"token": "tok"},
        None,
        None,
        str,
    ),
    (
        lambda c: c.agent.list(repo="acme/skills", sort_by="last_run", include_malformed_skills=True),
        "GET",
        "/agent",
        {"repo": "acme/skills", "sort_by": "last_run", "include_malformed_skills": "true"},
        None,
        AGENTS,
        t.ListAgentsResponse,
    ),
    (lambda c: c.agent.models.list(), "GET", "/agent/models", None, None, MODELS, t.ListModelsResponse),
    (lambda c: c.agent.harnesses.list(), "GET", "/agent/harnesses", None, None, HARNESSES, t.ListHarnessesResponse),
    (
        lambda c: c.agent.runs.conversation(R),
        "GET",
        f"/agent/runs/{R}/conversation",
        None,
        None,
        CONVERSATION,
        t.ConversationResponse,
    ),
    (
        lambda c: c.agent.skills.list(),
        "GET",
        "/agent/skills",
        None,
        None,
        {"skills": [{"id": "s", "name": "S", "description": "d", "bundled": True, "available": True}]},
        t.ListSkillsResponse,
    ),
    (
        lambda c: c.agent.environments.create(name="n", description="d", setup_commands=["a"], env_vars={"K": "v"}),
        "POST",
        "/agent/environments",
        None,
        {"name": "n", "description": "d", "setup_commands": ["a"], "env_vars": {"K": "v"}},
        ENV,
        t.CloudEnvironment,
    ),
    (
        lambda c: c.agent.environments.list(sort_by="name", limit=10),
        "GET",
        "/agent/environments",
        {"sort_by": "name", "limit": "10"},
        None,
        {"environments": [ENV], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.agent.environments.retrieve("env_1"),
        "GET",
        "/agent/environments/env_1",
        None,
        None,
        ENV,
        t.CloudEnvironment,
    ),
    (
        lambda c: c.agent.environments.update("env_1", description="x"),
        "PATCH",
        "/agent/environments/env_1",
        None,
        {"description": "x"},
        ENV,
        t.CloudEnvironment,
    ),
    (
        lambda c: c.agent.environments.delete("env_1"),
        "DELETE",
        "/agent/environments/env_1",
        None,
        None,
        None,
        type(None),
    ),
    (
        lambda c: c.agent.schedules.create(
            name="nightly",
            cron_schedule="0 2 * * *",
            time_zone="Europe/Paris",
            prompt="p",
            agent_config={"name": "n"},
            metadata={"k": "v"},
        ),
        "POST",
        "/agent/schedules",
        None,
        {
            "name": "nightly",
            "cron_schedule": "0 2 * * *",
            "time_zone": "Europe/Paris",
            "prompt": "p",
            "agent_config": {"name": "n"},
            "metadata": {"k": "v"},
        },
        SCHEDULE,
        t.ScheduledAgentItem,
    ),
    (
        lambda c: c.agent.schedules.list(limit=10),
        "GET",
        "/agent/schedules",
        {"limit": "10"},
        None,
        {"schedules": [SCHEDULE], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.agent.schedules.retrieve("sch_1"),
        "GET",
        "/agent/schedules/sch_1",
        None,
        None,
        SCHEDULE,
        t.ScheduledAgentItem,
    ),
    (
        lambda c: c.agent.schedules.update("sch_1", name="n", cron_schedule="0 3 * * *", enabled=False),
        "PUT",
        "/agent/schedules/sch_1",
        None,
        {"name": "n", "cron_schedule": "0 3 * * *", "enabled": False},
        SCHEDULE,
        t.ScheduledAgentItem,
    ),
    (
        lambda c: c.agent.schedules.delete("sch_1"),
        "DELETE",
        "/agent/schedules/sch_1",
        None,
        None,
        {"success": True},
        t.DeleteScheduledAgentResponse,
    ),
    (
        lambda c: c.agent.schedules.pause("sch_1"),
        "POST",
        "/agent/schedules/sch_1/pause",
        None,
        None,
        SCHEDULE,
        t.ScheduledAgentItem,
    ),
    (
        lambda c: c.agent.schedules.resume("sch_1"),
        "POST",
        "/agent/schedules/sch_1/resume",
        None,
        None,
        SCHEDULE,
        t.ScheduledAgentItem,
    ),
    (
        lambda c: c.factories.create(name="support", definition_source="files"),
        "POST",
        "/factories",
        None,
        {"name": "support", "definition_source": "files"},
        FACTORY,
        t.Factory,
    ),
    (lambda c: c.factories.list(), "GET", "/factories", None, None, {"factories": [FACTORY], "page_info": PAGE}, None),
    (lambda c: c.factories.retrieve("fac_1"), "GET", "/factories/fac_1", None, None, FACTORY, t.Factory),
    (
        lambda c: c.factories.apply_definitions(
            "fac_1", files=[{"path": "webhooks/gh.yaml", "content": "authMode: token"}]
        ),
        "POST",
        "/factories/fac_1/definitions/apply",
        None,
        {"files": [{"path": "webhooks/gh.yaml", "content": "authMode: token"}]},
        {"webhooks": [], "automations": [], "deleted": {"webhooks": [], "automations": []}},
        t.ApplyDefinitionsResponse,
    ),
    (
        lambda c: c.factories.test_filter("fac_1", delivery_id="dlv_1", trigger=TRIGGER),
        "POST",
        "/factories/fac_1/test-filter",
        None,
        {"delivery_id": "dlv_1", "trigger": TRIGGER},
        TEST_RESULT,
        t.TestFilterResult,
    ),
    (
        lambda c: c.factories.runs.create("fac_1", prompt="p", title="t"),
        "POST",
        "/factories/fac_1/runs",
        None,
        {"prompt": "p", "title": "t"},
        CREATED,
        t.RunAgentResponse,
    ),
    (
        lambda c: c.factories.webhooks.create(
            "fac_1",
            name="GitHub",
            auth_mode="signature",
            signature_scheme="github",
            provider_secret="s3",
            secret_name="GH",
            delivery_id_header="X-GitHub-Delivery",
            enabled=True,
        ),
        "POST",
        "/factories/fac_1/webhooks",
        None,
        {
            "name": "GitHub",
            "auth_mode": "signature",
            "signature_scheme": "github",
            "provider_secret": "s3",
            "secret_name": "GH",
            "delivery_id_header": "X-GitHub-Delivery",
            "enabled": True,
        },
        {**WEBHOOK, "secret": "s3"},
        t.WebhookWithSecret,
    ),
    (
        lambda c: c.factories.webhooks.list("fac_1"),
        "GET",
        "/factories/fac_1/webhooks",
        None,
        None,
        {"webhooks": [WEBHOOK], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.factories.webhooks.retrieve("wh_1", factory_uid="fac_1"),
        "GET",
        "/factories/fac_1/webhooks/wh_1",
        None,
        None,
        WEBHOOK,
        t.Webhook,
    ),
    (
        lambda c: c.factories.webhooks.update("wh_1", factory_uid="fac_1", enabled=False, delivery_id_header=None),
        "PATCH",
        "/factories/fac_1/webhooks/wh_1",
        None,
        {"enabled": False, "delivery_id_header": None},
        WEBHOOK,
        t.Webhook,
    ),
    (
        lambda c: c.factories.webhooks.rotate_secret("wh_1", factory_uid="fac_1"),
        "POST",
        "/factories/fac_1/webhooks/wh_1/rotate-secret",
        None,
        {},
        {**WEBHOOK, "secret": "new"},
        t.WebhookWithSecret,
    ),
    (
        lambda c: c.factories.webhooks.delete("wh_1", factory_uid="fac_1"),
        "DELETE",
        "/factories/fac_1/webhooks/wh_1",
        None,
        None,
        None,
        type(None),
    ),
    (
        lambda c: c.factories.webhooks.deliveries.list("wh_1", factory_uid="fac_1", limit=50),
        "GET",
        "/factories/fac_1/webhooks/wh_1/deliveries",
        {"limit": "50"},
        None,
        {"deliveries": [DELIVERY], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.factories.webhooks.deliveries.retrieve("dlv_1", factory_uid="fac_1", webhook_uid="wh_1"),
        "GET",
        "/factories/fac_1/webhooks/wh_1/deliveries/dlv_1",
        None,
        None,
        {**DELIVERY, "payload": {"a": 1}},
        t.WebhookDelivery,
    ),
    (
        lambda c: c.factories.webhooks.deliveries.replay("dlv_1", factory_uid="fac_1", webhook_uid="wh_1"),
        "POST",
        "/factories/fac_1/webhooks/wh_1/deliveries/dlv_1/replay",
        None,
        None,
        {"delivery_id": "dlv_1", "runs": [{**CREATED, "automation_id": "aut_1"}]},
        t.ReplayDeliveryResponse,
    ),
    (
        lambda c: c.factories.automations.create("fac_1", name="a", prompt="p", triggers=[TRIGGER], enabled=False),
        "POST",
        "/factories/fac_1/automations",
        None,
        {"name": "a", "prompt": "p", "triggers": [TRIGGER], "enabled": False},
        AUTOMATION,
        t.Automation,
    ),
    (
        lambda c: c.factories.automations.list("fac_1"),
        "GET",
        "/factories/fac_1/automations",
        None,
        None,
        {"automations": [AUTOMATION], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.factories.automations.retrieve("aut_1", factory_uid="fac_1"),
        "GET",
        "/factories/fac_1/automations/aut_1",
        None,
        None,
        AUTOMATION,
        t.Automation,
    ),
    (
        lambda c: c.factories.automations.update("aut_1", factory_uid="fac_1", enabled=True, config={"max_turns": 5}),
        "PATCH",
        "/factories/fac_1/automations/aut_1",
        None,
        {"enabled": True, "config": {"max_turns": 5}},
        AUTOMATION,
        t.Automation,
    ),
    (
        lambda c: c.factories.automations.delete("aut_1", factory_uid="fac_1"),
        "DELETE",
        "/factories/fac_1/automations/aut_1",
        None,
        None,
        None,
        type(None),
    ),
    (
        lambda c: c.factories.automations.test_filter("aut_1", factory_uid="fac_1", delivery_id="dlv_1"),
        "POST",
        "/factories/fac_1/automations/aut_1/test-filter",
        None,
        {"delivery_id": "dlv_1"},
        TEST_RESULT,
        t.TestFilterResult,
    ),
    (lambda c: c.secrets.list(), "GET", "/secrets", None, None, {"secrets": [SECRET], "page_info": PAGE}, None),
    (lambda c: c.secrets.put("S", value="v"), "PUT", "/secrets/S", None, {"value": "v"}, SECRET, t.SecretMetadata),
    (lambda c: c.secrets.delete("S"), "DELETE", "/secrets/S", None, None, None, type(None)),
    (lambda c: c.budget.retrieve(), "GET", "/team/budget", None, None, BUDGET, t.TeamBudget),
    (
        lambda c: c.budget.update(max_tokens_per_month=1000, max_cost_usd_per_month=None),
        "PUT",
        "/team/budget",
        None,
        {"max_tokens_per_month": 1000, "max_cost_usd_per_month": None},
        BUDGET,
        t.TeamBudget,
    ),
    (lambda c: c.usage.retrieve(month="2026-10"), "GET", "/usage", {"month": "2026-10"}, None, USAGE, t.TeamUsage),
    (
        lambda c: c.api_keys.create(role="member", name="ci"),
        "POST",
        "/api-keys",
        None,
        {"role": "member", "name": "ci"},
        {**KEY, "api_key": "ar_live_" + "a" * 43},
        t.ApiKeyWithValue,
    ),
    (lambda c: c.api_keys.list(), "GET", "/api-keys", None, None, {"api_keys": [KEY], "page_info": PAGE}, None),
    (lambda c: c.api_keys.delete("key_1"), "DELETE", "/api-keys/key_1", None, None, None, type(None)),
    (
        lambda c: c.audit_events.list(resource_type="secret", resource_id="S", actor_key_id="key_1", since=TS, limit=5),
        "GET",
        "/audit-events",
        {"resource_type": "secret", "resource_id": "S", "actor_key_id": "key_1", "since": TS, "limit": "5"},
        None,
        {"audit_events": [AUDIT_EVENT], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.notifications.subscriptions.create(
            url="https://hooks.test/", event_types=["run.failed"], filter={"factory_uid": "fac_1"}
        ),
        "POST",
        "/notifications/subscriptions",
        None,
        {"url": "https://hooks.test/", "event_types": ["run.failed"], "filter": {"factory_uid": "fac_1"}},
        {**SUBSCRIPTION, "secret": "whsec_" + "A" * 43 + "="},
        t.NotificationSubscriptionWithSecret,
    ),
    (
        lambda c: c.notifications.subscriptions.list(limit=5),
        "GET",
        "/notifications/subscriptions",
        {"limit": "5"},
        None,
        {"subscriptions": [SUBSCRIPTION], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.notifications.subscriptions.retrieve("sub_1"),
        "GET",
        "/notifications/subscriptions/sub_1",
        None,
        None,
        SUBSCRIPTION,
        t.NotificationSubscription,
    ),
    (
        lambda c: c.notifications.subscriptions.update(
            "sub_1", description=None, enabled=True, event_types=["run.error"]
        ),
        "PATCH",
        "/notifications/subscriptions/sub_1",
        None,
        {"description": None, "enabled": True, "event_types": ["run.error"]},
        SUBSCRIPTION,
        t.NotificationSubscription,
    ),
    (
        lambda c: c.notifications.subscriptions.rotate_secret("sub_1"),
        "POST",
        "/notifications/subscriptions/sub_1/rotate-secret",
        None,
        {},
        {**SUBSCRIPTION, "secret": "whsec_" + "A" * 43 + "="},
        t.NotificationSubscriptionWithSecret,
    ),
    (
        lambda c: c.notifications.subscriptions.delete("sub_1"),
        "DELETE",
        "/notifications/subscriptions/sub_1",
        None,
        None,
        None,
        type(None),
    ),
    (
        lambda c: c.notifications.subscriptions.attempts.list("sub_1", event_id="evt_1", limit=5),
        "GET",
        "/notifications/subscriptions/sub_1/attempts",
        {"event_id": "evt_1", "limit": "5"},
        None,
        {"attempts": [ATTEMPT], "page_info": PAGE},
        None,
    ),
    (
        lambda c: c.notifications.subscriptions.events.replay("evt_1", subscription_uid="sub_1"),
        "POST",
        "/notifications/subscriptions/sub_1/events/evt_1/replay",
        None,
        None,
        {"event_id": "evt_1", "subscription_uid": "sub_1", "next_attempt_at": TS},
        t.ReplayNotificationEventResponse,
    ),
]


@pytest.mark.parametrize("call,method,path,query,body,answer,expected", CASES)
def test_method_sends_the_documented_request(
    h: Harness,
    call: Callable[[Any], Any],
    method: str,
    path: str,
    query: Optional[Dict[str, str]],
    body: Optional[Dict[str, Any]],
    answer: Any,
    expected: Optional[type],
) -> None:
    client = h.client(
        [
            httpx.Response(204)
            if answer is None
            else ok(answer, status=201 if method == "POST" and "runs" not in path else 200)
        ]
    )
    result = call(client)
    if expected is None:  # a list: the first page (await it when async)
        page = h.run(result)
        items = page.items
        assert len(items) == 1
    else:
        parsed = h.run(result)
        assert isinstance(parsed, expected)
    (request,) = h.recorder.requests
    assert request.method == method
    assert request.url.path == "/api/v1" + path
    assert dict(request.url.params) == (query or {})
    if body is None:
        assert request.content in (b"", b"null")
    else:
        assert json.loads(request.content) == body
    assert ("idempotency-key" in request.headers) == (method == "POST")


def test_every_operation_of_the_contract_has_a_method() -> None:
    """operationIds (docs/decisions.md) → SDK methods; fails when the spec gains an operation the
    SDK does not wrap."""
    import pathlib

    import yaml

    spec_path = pathlib.Path(__file__).resolve().parents[3] / "openapi" / "v1.yaml"
    if not spec_path.exists():
        pytest.skip("openapi/v1.yaml not present")
    spec = yaml.safe_load(spec_path.read_text())
    covered = {
        "createRun": "agent.runs.create",
        "listRuns": "agent.runs.list",
        "getRun": "agent.runs.retrieve",
        "createRunFollowup": "agent.runs.followup",
        "cancelRun": "agent.runs.cancel",
        "getRunConversation": "agent.runs.conversation",
        "getRunAttachment": "agent.runs.attachment",
        "getRunSetupLog": "agent.runs.setup_log",
        "streamRunEvents": "agent.runs.events",
        "streamTeamRunEvents": "agent.runs.team_events",
        "listSkills": "agent.skills.list",
        "listAgents": "agent.list",
        "listModels": "agent.models.list",
        "listHarnesses": "agent.harnesses.list",
        "getRunTranscript": "agent.runs.transcript",
        "downloadRunTranscript": "agent.runs.download_transcript",
        "createEnvironment": "agent.environments.create",
        "listEnvironments": "agent.environments.list",
        "getEnvironment": "agent.environments.retrieve",
        "updateEnvironment": "agent.environments.update",
        "deleteEnvironment": "agent.environments.delete",
        "createScheduledAgent": "agent.schedules.create",
        "listScheduledAgents": "agent.schedules.list",
        "getScheduledAgent": "agent.schedules.retrieve",
        "updateScheduledAgent": "agent.schedules.update",
        "deleteScheduledAgent": "agent.schedules.delete",
        "pauseScheduledAgent": "agent.schedules.pause",
        "resumeScheduledAgent": "agent.schedules.resume",
        "createFactory": "factories.create",
        "listFactories": "factories.list",
        "getFactory": "factories.retrieve",
        "dispatchFactoryRun": "factories.runs.create",
        "applyFactoryDefinitions": "factories.apply_definitions",
        "testDraftFilter": "factories.test_filter",
        "createWebhook": "factories.webhooks.create",
        "listWebhooks": "factories.webhooks.list",
        "getWebhook": "factories.webhooks.retrieve",
        "updateWebhook": "factories.webhooks.update",
        "deleteWebhook": "factories.webhooks.delete",
        "rotateWebhookSecret": "factories.webhooks.rotate_secret",
        "listWebhookDeliveries": "factories.webhooks.deliveries.list",
        "getWebhookDelivery": "factories.webhooks.deliveries.retrieve",
        "replayWebhookDelivery": "factories.webhooks.deliveries.replay",
        "createAutomation": "factories.automations.create",
        "listAutomations": "factories.automations.list",
        "getAutomation": "factories.automations.retrieve",
        "updateAutomation": "factories.automations.update",
        "deleteAutomation": "factories.automations.delete",
        "testAutomationFilter": "factories.automations.test_filter",
        "listSecrets": "secrets.list",
        "putSecret": "secrets.put",
        "deleteSecret": "secrets.delete",
        "createApiKey": "api_keys.create",
        "listApiKeys": "api_keys.list",
        "deleteApiKey": "api_keys.delete",
        "getCurrentApiKey": "api_keys.current",
        "listAuditEvents": "audit_events.list",
        "getTeamBudget": "budget.retrieve",
        "updateTeamBudget": "budget.update",
        "getTeamUsage": "usage.retrieve",
        "getArtifact": "agent.get_artifact",
        "downloadArtifact": "agent.download_artifact",
        "getRunByExternalReferenceURL": "agent.runs.retrieve_by_external_reference",
        "createNotificationSubscription": "notifications.subscriptions.create",
        "listNotificationSubscriptions": "notifications.subscriptions.list",
        "getNotificationSubscription": "notifications.subscriptions.retrieve",
        "updateNotificationSubscription": "notifications.subscriptions.update",
        "deleteNotificationSubscription": "notifications.subscriptions.delete",
        "rotateNotificationSubscriptionSecret": "notifications.subscriptions.rotate_secret",
        "listNotificationAttempts": "notifications.subscriptions.attempts.list",
        "replayNotificationEvent": "notifications.subscriptions.events.replay",
    }
    # Not wrapped on purpose: the deprecated alias, the ingress (senders use sign_webhook + any HTTP
    # client), the host-root operations (reachable with client.get("http://host/healthz")) and the signed URL.
    unwrapped = {
        "createRunLegacy",
        "receiveWebhookDelivery",
        "receiveWebhookDeliveryWithToken",
        "getHealth",
        "getReadiness",
        "getMetrics",
        # the signed download URL: download_artifact follows the redirect to it, any HTTP client can fetch it
        "getArtifactContent",
    }
    ops = {
        op["operationId"]
        for item in spec["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert ops - unwrapped == set(covered), f"unwrapped operations: {sorted(ops - unwrapped - set(covered))}"
    from agent_runs import AgentRuns, AsyncAgentRuns

    for cls in (AgentRuns, AsyncAgentRuns):
        client = cls(api_key="k")
        for dotted in covered.values():
            target: Any = client
            for part in dotted.split("."):
                target = getattr(target, part)
            assert callable(target), dotted
            raw: Any = client.with_raw_response
            for part in dotted.split("."):
                raw = getattr(raw, part)
            assert callable(raw), f"with_raw_response.{dotted}"
            streamed: Any = client.with_streaming_response
            for part in dotted.split("."):
                streamed = getattr(streamed, part)
            assert callable(streamed), f"with_streaming_response.{dotted}"
