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
ENV = {"uid": "env_1", "config": {"name": "n", "setup_commands": []}, "last_updated": TS, "last_task_run_timestamp": None,
       "setup_failed": False, "scope": {"type": "Team", "uid": "team_1"}, "env_var_names": [], "created_at": TS}
AGENTS = {"agents": [{"name": "triage", "variants": [{
    "id": "acme/skills:skills/triage/SKILL.md", "description": "d", "base_prompt": "p", "last_run_timestamp": None,
    "source": {"owner": "acme", "name": "skills", "skill_path": "skills/triage/SKILL.md"}, "environments": []}]}]}
MODELS = {"default_model_id": "m", "models": [{"id": "m", "display_name": "m", "provider": "UNKNOWN", "vision_supported": False}]}
FACTORY = {"uid": "fac_1", "name": "support", "definition_source": "api", "created_at": TS}
WEBHOOK = {
    "uid": "wh_1", "factory_uid": "fac_1", "name": "n", "auth_mode": "token", "signature_scheme": None,
    "secret_name": "S", "secret_configured": True, "delivery_id_header": None, "enabled": True,
    "ingress_url": "http://x/webhooks/w/wh_1", "created_at": TS, "updated_at": TS,
}
DELIVERY = {"delivery_id": "dlv_1", "webhook_uid": "wh_1", "label": "Accepted", "size": 2, "received_at": TS,
            "identity": "sha256:x", "identity_source": "body_hash"}
TRIGGER = {"provider": "webhook", "event": "received", "filter": {"webhook_ids": ["wh_1"], "payload": {"action": ["opened"]}}}
AUTOMATION = {"uid": "aut_1", "factory_uid": "fac_1", "name": "a", "prompt": "p", "enabled": True, "triggers": [TRIGGER],
              "selected_webhooks": [{"uid": "wh_1", "state": "enabled"}], "created_at": TS, "updated_at": TS}
TEST_RESULT = {"result": "Would trigger", "webhook_check": {"passed": True, "reason": "r"},
               "payload_check": {"passed": True, "reason": "r", "path": None}}
SECRET = {"name": "S", "created_at": TS, "updated_at": TS}
KEY = {"key_id": "key_1", "name": "ci", "role": "member", "created_at": TS}
CONVERSATION = {"conversation_id": "conv_1", "steps": [{"id": "step_1", "messages": [], "steps": []}]}

R = "r1"
CASES = [
    # (call, method, path, query, body, answer, expected type)
    (lambda c: c.agent.runs.create(prompt="p", title="t", config={"model_id": "m", "mcp_servers": {"fs": {"command": "npx"}}},
                                   attachments=[{"file_name": "a.txt", "mime_type": "text/plain", "data": "aGk="}]),
     "POST", "/agent/runs", None,
     {"prompt": "p", "title": "t", "config": {"model_id": "m", "mcp_servers": {"fs": {"command": "npx"}}},
      "attachments": [{"file_name": "a.txt", "mime_type": "text/plain", "data": "aGk="}]}, CREATED, t.RunAgentResponse),
    (lambda c: c.agent.runs.list(sort_by="created_at", sort_order="asc", name="triage", model_id="m", creator="key_1",
                                 source="API", factory_uid="fac_1", automation_id="aut_1", cursor="c", limit=3,
                                 created_before="2026-05-02T00:00:00Z", updated_after="2026-04-01T00:00:00Z"),
     "GET", "/agent/runs",
     {"sort_by": "created_at", "sort_order": "asc", "name": "triage", "model_id": "m", "creator": "key_1", "source": "API",
      "factory_uid": "fac_1", "automation_id": "aut_1", "cursor": "c", "limit": "3",
      "created_before": "2026-05-02T00:00:00Z", "updated_after": "2026-04-01T00:00:00Z"},
     None, {"runs": [RUN], "page_info": PAGE}, None),
    (lambda c: c.agent.runs.retrieve(R), "GET", f"/agent/runs/{R}", None, None, RUN, t.RunItem),
    (lambda c: c.agent.runs.cancel(R), "POST", f"/agent/runs/{R}/cancel", None, None, R, str),
    (lambda c: c.agent.runs.followup(R, message="more"), "POST", f"/agent/runs/{R}/followups", None, {"message": "more"}, CREATED, t.RunAgentResponse),
    (lambda c: c.agent.runs.followup(R, message="more", mode="normal"), "POST", f"/agent/runs/{R}/followups", None,
     {"message": "more", "mode": "normal"}, CREATED, t.RunAgentResponse),
    (lambda c: c.agent.runs.download_transcript(R, token="tok"), "GET", f"/agent/runs/{R}/transcript/download", {"token": "tok"}, None,
     None, str),
    (lambda c: c.agent.list(repo="acme/skills", sort_by="last_run", include_malformed_skills=True), "GET", "/agent",
     {"repo": "acme/skills", "sort_by": "last_run", "include_malformed_skills": "true"}, None, AGENTS, t.ListAgentsResponse),
    (lambda c: c.agent.models.list(), "GET", "/agent/models", None, None, MODELS, t.ListModelsResponse),
    (lambda c: c.agent.runs.conversation(R), "GET", f"/agent/runs/{R}/conversation", None, None, CONVERSATION, t.ConversationResponse),
    (lambda c: c.agent.skills.list(), "GET", "/agent/skills", None, None,
     {"skills": [{"id": "s", "name": "S", "description": "d", "bundled": True, "available": True}]}, t.ListSkillsResponse),
    (lambda c: c.agent.environments.create(name="n", description="d", setup_commands=["a"], env_vars={"K": "v"}),
     "POST", "/agent/environments", None, {"name": "n", "description": "d", "setup_commands": ["a"], "env_vars": {"K": "v"}}, ENV, t.CloudEnvironment),
    (lambda c: c.agent.environments.list(sort_by="name", limit=10), "GET", "/agent/environments", {"sort_by": "name", "limit": "10"}, None,
     {"environments": [ENV], "page_info": PAGE}, None),
    (lambda c: c.agent.environments.retrieve("env_1"), "GET", "/agent/environments/env_1", None, None, ENV, t.CloudEnvironment),
    (lambda c: c.agent.environments.update("env_1", description="x"), "PATCH", "/agent/environments/env_1", None, {"description": "x"}, ENV, t.CloudEnvironment),
    (lambda c: c.agent.environments.delete("env_1"), "DELETE", "/agent/environments/env_1", None, None, None, type(None)),
    (lambda c: c.factories.create(name="support", definition_source="files"), "POST", "/factories", None,
     {"name": "support", "definition_source": "files"}, FACTORY, t.Factory),
    (lambda c: c.factories.list(), "GET", "/factories", None, None, {"factories": [FACTORY], "page_info": PAGE}, None),
    (lambda c: c.factories.retrieve("fac_1"), "GET", "/factories/fac_1", None, None, FACTORY, t.Factory),
    (lambda c: c.factories.apply_definitions("fac_1", files=[{"path": "webhooks/gh.yaml", "content": "authMode: token"}]),
     "POST", "/factories/fac_1/definitions/apply", None, {"files": [{"path": "webhooks/gh.yaml", "content": "authMode: token"}]},
     {"webhooks": [], "automations": [], "deleted": {"webhooks": [], "automations": []}}, t.ApplyDefinitionsResponse),
    (lambda c: c.factories.test_filter("fac_1", delivery_id="dlv_1", trigger=TRIGGER), "POST", "/factories/fac_1/test-filter", None,
     {"delivery_id": "dlv_1", "trigger": TRIGGER}, TEST_RESULT, t.TestFilterResult),
    (lambda c: c.factories.runs.create("fac_1", prompt="p", title="t"), "POST", "/factories/fac_1/runs", None,
     {"prompt": "p", "title": "t"}, CREATED, t.RunAgentResponse),
    (lambda c: c.factories.webhooks.create("fac_1", name="GitHub", auth_mode="signature", signature_scheme="github",
                                           provider_secret="s3", secret_name="GH", delivery_id_header="X-GitHub-Delivery", enabled=True),
     "POST", "/factories/fac_1/webhooks", None,
     {"name": "GitHub", "auth_mode": "signature", "signature_scheme": "github", "provider_secret": "s3", "secret_name": "GH",
      "delivery_id_header": "X-GitHub-Delivery", "enabled": True}, {**WEBHOOK, "secret": "s3"}, t.WebhookWithSecret),
    (lambda c: c.factories.webhooks.list("fac_1"), "GET", "/factories/fac_1/webhooks", None, None, {"webhooks": [WEBHOOK], "page_info": PAGE}, None),
    (lambda c: c.factories.webhooks.retrieve("wh_1", factory_uid="fac_1"), "GET", "/factories/fac_1/webhooks/wh_1", None, None, WEBHOOK, t.Webhook),
    (lambda c: c.factories.webhooks.update("wh_1", factory_uid="fac_1", enabled=False, delivery_id_header=None),
     "PATCH", "/factories/fac_1/webhooks/wh_1", None, {"enabled": False, "delivery_id_header": None}, WEBHOOK, t.Webhook),
    (lambda c: c.factories.webhooks.rotate_secret("wh_1", factory_uid="fac_1"), "POST", "/factories/fac_1/webhooks/wh_1/rotate-secret",
     None, {}, {**WEBHOOK, "secret": "new"}, t.WebhookWithSecret),
    (lambda c: c.factories.webhooks.delete("wh_1", factory_uid="fac_1"), "DELETE", "/factories/fac_1/webhooks/wh_1", None, None, None, type(None)),
    (lambda c: c.factories.webhooks.deliveries.list("wh_1", factory_uid="fac_1", limit=50), "GET",
     "/factories/fac_1/webhooks/wh_1/deliveries", {"limit": "50"}, None, {"deliveries": [DELIVERY], "page_info": PAGE}, None),
    (lambda c: c.factories.webhooks.deliveries.retrieve("dlv_1", factory_uid="fac_1", webhook_uid="wh_1"), "GET",
     "/factories/fac_1/webhooks/wh_1/deliveries/dlv_1", None, None, {**DELIVERY, "payload": {"a": 1}}, t.WebhookDelivery),
    (lambda c: c.factories.webhooks.deliveries.replay("dlv_1", factory_uid="fac_1", webhook_uid="wh_1"), "POST",
     "/factories/fac_1/webhooks/wh_1/deliveries/dlv_1/replay", None, None,
     {"delivery_id": "dlv_1", "runs": [{**CREATED, "automation_id": "aut_1"}]}, t.ReplayDeliveryResponse),
    (lambda c: c.factories.automations.create("fac_1", name="a", prompt="p", triggers=[TRIGGER], enabled=False), "POST",
     "/factories/fac_1/automations", None, {"name": "a", "prompt": "p", "triggers": [TRIGGER], "enabled": False}, AUTOMATION, t.Automation),
    (lambda c: c.factories.automations.list("fac_1"), "GET", "/factories/fac_1/automations", None, None,
     {"automations": [AUTOMATION], "page_info": PAGE}, None),
    (lambda c: c.factories.automations.retrieve("aut_1", factory_uid="fac_1"), "GET", "/factories/fac_1/automations/aut_1", None, None, AUTOMATION, t.Automation),
    (lambda c: c.factories.automations.update("aut_1", factory_uid="fac_1", enabled=True, config={"max_turns": 5}), "PATCH",
     "/factories/fac_1/automations/aut_1", None, {"enabled": True, "config": {"max_turns": 5}}, AUTOMATION, t.Automation),
    (lambda c: c.factories.automations.delete("aut_1", factory_uid="fac_1"), "DELETE", "/factories/fac_1/automations/aut_1", None, None, None, type(None)),
    (lambda c: c.factories.automations.test_filter("aut_1", factory_uid="fac_1", delivery_id="dlv_1"), "POST",
     "/factories/fac_1/automations/aut_1/test-filter", None, {"delivery_id": "dlv_1"}, TEST_RESULT, t.TestFilterResult),
    (lambda c: c.secrets.list(), "GET", "/secrets", None, None, {"secrets": [SECRET], "page_info": PAGE}, None),
    (lambda c: c.secrets.put("S", value="v"), "PUT", "/secrets/S", None, {"value": "v"}, SECRET, t.SecretMetadata),
    (lambda c: c.secrets.delete("S"), "DELETE", "/secrets/S", None, None, None, type(None)),
    (lambda c: c.api_keys.create(role="member", name="ci"), "POST", "/api-keys", None, {"role": "member", "name": "ci"},
     {**KEY, "api_key": "ar_live_" + "a" * 43}, t.ApiKeyWithValue),
    (lambda c: c.api_keys.list(), "GET", "/api-keys", None, None, {"api_keys": [KEY], "page_info": PAGE}, None),
    (lambda c: c.api_keys.delete("key_1"), "DELETE", "/api-keys/key_1", None, None, None, type(None)),
]


@pytest.mark.parametrize("call,method,path,query,body,answer,expected", CASES)
def test_method_sends_the_documented_request(
    h: Harness, call: Callable[[Any], Any], method: str, path: str, query: Optional[Dict[str, str]],
    body: Optional[Dict[str, Any]], answer: Any, expected: Optional[type],
) -> None:
    client = h.client([httpx.Response(204) if answer is None else ok(answer, status=201 if method == "POST" and "runs" not in path else 200)])
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
        "createRun": "agent.runs.create", "listRuns": "agent.runs.list", "getRun": "agent.runs.retrieve",
        "createRunFollowup": "agent.runs.followup", "cancelRun": "agent.runs.cancel",
        "getRunConversation": "agent.runs.conversation", "getRunAttachment": "agent.runs.attachment",
        "streamRunEvents": "agent.runs.events", "streamTeamRunEvents": "agent.runs.team_events",
        "listSkills": "agent.skills.list", "listAgents": "agent.list", "listModels": "agent.models.list",
        "getRunTranscript": "agent.runs.transcript", "downloadRunTranscript": "agent.runs.download_transcript",
        "createEnvironment": "agent.environments.create", "listEnvironments": "agent.environments.list",
        "getEnvironment": "agent.environments.retrieve", "updateEnvironment": "agent.environments.update",
        "deleteEnvironment": "agent.environments.delete", "createFactory": "factories.create",
        "listFactories": "factories.list", "getFactory": "factories.retrieve",
        "dispatchFactoryRun": "factories.runs.create", "applyFactoryDefinitions": "factories.apply_definitions",
        "testDraftFilter": "factories.test_filter", "createWebhook": "factories.webhooks.create",
        "listWebhooks": "factories.webhooks.list", "getWebhook": "factories.webhooks.retrieve",
        "updateWebhook": "factories.webhooks.update", "deleteWebhook": "factories.webhooks.delete",
        "rotateWebhookSecret": "factories.webhooks.rotate_secret",
        "listWebhookDeliveries": "factories.webhooks.deliveries.list",
        "getWebhookDelivery": "factories.webhooks.deliveries.retrieve",
        "replayWebhookDelivery": "factories.webhooks.deliveries.replay",
        "createAutomation": "factories.automations.create", "listAutomations": "factories.automations.list",
        "getAutomation": "factories.automations.retrieve", "updateAutomation": "factories.automations.update",
        "deleteAutomation": "factories.automations.delete", "testAutomationFilter": "factories.automations.test_filter",
        "listSecrets": "secrets.list", "putSecret": "secrets.put", "deleteSecret": "secrets.delete",
        "createApiKey": "api_keys.create", "listApiKeys": "api_keys.list", "deleteApiKey": "api_keys.delete",
        "getCurrentApiKey": "api_keys.current",
    }
    # Not wrapped on purpose: the deprecated alias, the ingress (senders use sign_webhook + any HTTP
    # client) and the host-root operations (reachable with client.get("http://host/healthz")).
    unwrapped = {"createRunLegacy", "receiveWebhookDelivery", "receiveWebhookDeliveryWithToken", "getHealth",
                 "getReadiness", "getMetrics"}
    ops = {op["operationId"] for item in spec["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op}
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
