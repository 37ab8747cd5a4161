"""Behaviour of the request loop, for the sync and the async client (fixture `h`)."""

from __future__ import annotations

import email.utils
import json
import time

import httpx
import pytest

import agent_runs
from agent_runs import (
    AgentRuns,
    AgentRunsError,
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AsyncAgentRuns,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    Omit,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
)
from agent_runs.types import RunAgentResponse, RunItem

from .conftest import API_KEY, BASE_URL, CREATED, RUN, Harness, ok, problem

# -- retries --------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504])
def test_retryable_statuses_are_retried_then_succeed(h: Harness, status: int) -> None:
    client = h.client([problem(status, "x", retryable=None if status != 409 else True), ok(CREATED)])
    run = h.run(client.agent.runs.create(prompt="hi"))
    assert isinstance(run, RunAgentResponse) and run.state == "QUEUED"
    assert len(h.recorder.requests) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 413, 422])
def test_other_statuses_are_not_retried(h: Harness, status: int) -> None:
    client = h.client([problem(status, "x", retryable=None), ok(CREATED)])
    with pytest.raises(APIStatusError) as info:
        h.run(client.agent.runs.create(prompt="hi"))
    assert info.value.status_code == status
    assert len(h.recorder.requests) == 1


def test_default_max_retries_is_two(h: Harness) -> None:
    client = h.client([problem(503, "unavailable")])
    with pytest.raises(InternalServerError):
        h.run(client.agent.runs.retrieve("r1"))
    assert len(h.recorder.requests) == 3
    assert len(h.sleeps) == 2


def test_max_retries_zero_disables_retries(h: Harness) -> None:
    client = h.client([problem(503, "unavailable")], max_retries=0)
    with pytest.raises(InternalServerError):
        h.run(client.agent.runs.retrieve("r1"))
    assert len(h.recorder.requests) == 1


def test_with_options_overrides_max_retries(h: Harness) -> None:
    client = h.client([problem(500, "internal_error")])
    copy = client.with_options(max_retries=4)
    copy._sleep = client._sleep
    with pytest.raises(InternalServerError):
        h.run(copy.agent.runs.retrieve("r1"))
    assert len(h.recorder.requests) == 5
    assert client.max_retries == 2  # the original is unchanged


def test_x_should_retry_false_overrides_a_retryable_status(h: Harness) -> None:
    client = h.client([problem(503, "x", headers={"x-should-retry": "false"}), ok(RUN)])
    with pytest.raises(InternalServerError):
        h.run(client.agent.runs.retrieve("r1"))
    assert len(h.recorder.requests) == 1


def test_x_should_retry_true_overrides_a_final_status(h: Harness) -> None:
    answer = httpx.Response(400, json={"detail": "try again"}, headers={"x-should-retry": "true"})
    client = h.client([answer, ok(RUN)])
    run = h.run(client.agent.runs.retrieve("r1"))
    assert run.run_id == RUN["run_id"]
    assert len(h.recorder.requests) == 2


def test_problem_retryable_false_is_never_retried(h: Harness) -> None:
    # Even on a status that is retried by default, and even with x-should-retry: true.
    client = h.client([problem(409, "conflict", retryable=False, headers={"x-should-retry": "true"}), ok(CREATED)])
    with pytest.raises(ConflictError) as info:
        h.run(client.agent.runs.cancel("r1"))
    assert info.value.retryable is False
    assert len(h.recorder.requests) == 1


def test_in_flight_idempotency_conflict_is_retried(h: Harness) -> None:
    client = h.client([problem(409, "conflict", retryable=True), ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi"))
    assert len(h.recorder.requests) == 2


def test_connection_errors_are_retried(h: Harness) -> None:
    client = h.client([httpx.ConnectError("refused"), httpx.RemoteProtocolError("reset"), ok(RUN)])
    run = h.run(client.agent.runs.retrieve("r1"))
    assert run.state == "QUEUED"
    assert len(h.recorder.requests) == 3


def test_connection_errors_raise_api_connection_error_when_retries_are_spent(h: Harness) -> None:
    client = h.client([httpx.ConnectError("refused")])
    with pytest.raises(APIConnectionError) as info:
        h.run(client.agent.runs.retrieve("r1"))
    assert not isinstance(info.value, APITimeoutError)
    assert len(h.recorder.requests) == 3


def test_timeouts_are_retried_then_raise_api_timeout_error(h: Harness) -> None:
    client = h.client([httpx.ReadTimeout("slow")])
    with pytest.raises(APITimeoutError) as info:
        h.run(client.agent.runs.retrieve("r1"))
    assert isinstance(info.value, APIConnectionError)
    assert len(h.recorder.requests) == 3


def test_timeout_then_success(h: Harness) -> None:
    client = h.client([httpx.ConnectTimeout("slow"), ok(RUN)])
    assert h.run(client.agent.runs.retrieve("r1")).run_id == RUN["run_id"]


# -- retry delays -----------------------------------------------------------------------------------


def test_retry_after_seconds_is_honoured(h: Harness) -> None:
    client = h.client([problem(429, "rate_limited", headers={"retry-after": "7"}), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert h.sleeps == [7.0]


def test_retry_after_ms_wins_over_retry_after(h: Harness) -> None:
    client = h.client([problem(429, "rate_limited", headers={"retry-after-ms": "250", "retry-after": "7"}), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert h.sleeps == [0.25]


def test_retry_after_http_date_is_honoured(h: Harness) -> None:
    when = email.utils.formatdate(time.time() + 20, usegmt=True)
    client = h.client([problem(503, "unavailable", headers={"retry-after": when}), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert len(h.sleeps) == 1 and 17 <= h.sleeps[0] <= 21


def test_retry_after_zero_retries_at_once(h: Harness) -> None:
    client = h.client([problem(503, "unavailable", headers={"retry-after": "0"}), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert h.sleeps == [0.0]


@pytest.mark.parametrize("value", ["61", "3600", "-5", "soon"])
def test_retry_after_outside_0_to_60_s_falls_back_to_backoff(h: Harness, value: str) -> None:
    client = h.client([problem(503, "unavailable", headers={"retry-after": value}), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert len(h.sleeps) == 1 and 0.375 <= h.sleeps[0] <= 0.5


def test_backoff_doubles_from_half_a_second_with_jitter(h: Harness) -> None:
    client = h.client([problem(500, "internal_error")], max_retries=6)
    with pytest.raises(InternalServerError):
        h.run(client.agent.runs.retrieve("r1"))
    expected = [0.5, 1, 2, 4, 8, 8]
    assert len(h.sleeps) == 6
    for slept, nominal in zip(h.sleeps, expected):
        assert nominal * 0.75 <= slept <= nominal


# -- headers on every attempt -------------------------------------------------------------------------


def test_one_idempotency_key_per_post_reused_on_every_retry(h: Harness) -> None:
    client = h.client([problem(500, "internal_error"), httpx.ReadTimeout("slow"), ok(CREATED), ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi"))
    keys = [r.headers["idempotency-key"] for r in h.recorder.requests]
    assert len(keys) == 3 and len(set(keys)) == 1 and keys[0]
    h.run(client.agent.runs.create(prompt="hi"))
    assert h.recorder.requests[3].headers["idempotency-key"] != keys[0]  # a new logical request


def test_caller_idempotency_key_is_kept(h: Harness) -> None:
    client = h.client([problem(500, "internal_error"), ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi", extra_headers={"Idempotency-Key": "mine"}))
    assert [r.headers["idempotency-key"] for r in h.recorder.requests] == ["mine", "mine"]


def test_no_idempotency_key_on_get_put_patch_delete(h: Harness) -> None:
    client = h.client(
        lambda r: httpx.Response(204)
        if r.method == "DELETE"
        else ok({"name": "A", "created_at": RUN["created_at"], "updated_at": RUN["created_at"]})
    )
    h.run(client.secrets.put("A", value="v"))
    h.run(client.secrets.delete("A"))
    assert all("idempotency-key" not in r.headers for r in h.recorder.requests)


def test_retry_count_header_on_each_attempt(h: Harness) -> None:
    client = h.client([problem(502, "bad_gateway"), problem(502, "bad_gateway"), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1"))
    assert [r.headers["x-retry-count"] for r in h.recorder.requests] == ["0", "1", "2"]


def test_auth_and_default_headers(h: Harness) -> None:
    client = h.client([ok(RUN)], default_headers={"X-Team": "platform"})
    h.run(client.agent.runs.retrieve("r1"))
    req = h.recorder.requests[0]
    assert req.headers["authorization"] == f"Bearer {API_KEY}"
    assert req.headers["x-team"] == "platform"
    assert req.headers["accept"] == "application/json"
    assert req.headers["user-agent"].startswith("AgentRuns/Python ")


def test_extra_headers_override_and_omit_defaults(h: Harness) -> None:
    client = h.client([ok(RUN)], default_headers={"X-Team": "platform"})
    h.run(client.agent.runs.retrieve("r1", extra_headers={"X-Team": Omit(), "X-Trace": "t1"}))
    req = h.recorder.requests[0]
    assert "x-team" not in req.headers and req.headers["x-trace"] == "t1"


# -- request shape --------------------------------------------------------------------------------------


def test_base_url_path_is_kept_and_body_is_json(h: Harness) -> None:
    client = h.client([ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi", title="T", config={"name": "triage", "max_turns": 3}))
    req = h.recorder.requests[0]
    assert str(req.url) == f"{BASE_URL}/agent/runs"
    assert req.method == "POST"
    assert req.headers["content-type"] == "application/json"
    assert h.recorder.json() == {"prompt": "hi", "title": "T", "config": {"name": "triage", "max_turns": 3}}


def test_not_given_params_are_left_out(h: Harness) -> None:
    client = h.client([ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi"))
    assert h.recorder.json() == {"prompt": "hi"}


def test_extra_query_and_extra_body(h: Harness) -> None:
    client = h.client([ok(CREATED)])
    h.run(client.agent.runs.create(prompt="hi", extra_query={"debug": True}, extra_body={"future_field": 1}))
    req = h.recorder.requests[0]
    assert req.url.params["debug"] == "true"
    assert h.recorder.json() == {"prompt": "hi", "future_field": 1}


def test_list_query_repeats_state_and_formats_datetimes(h: Harness) -> None:
    import datetime as dt

    client = h.client([ok({"runs": [], "page_info": {"has_next_page": False, "next_cursor": None}})])
    page = h.run(
        client.agent.runs.list(
            state=["QUEUED", "INPROGRESS"], limit=5, created_after=dt.datetime(2026, 5, 1, tzinfo=dt.timezone.utc)
        )
    )
    assert page.items == []
    params = h.recorder.requests[0].url.params
    assert params.get_list("state") == ["QUEUED", "INPROGRESS"]
    assert params["limit"] == "5"
    assert params["created_after"] == "2026-05-01T00:00:00+00:00"


def test_path_params_are_encoded(h: Harness) -> None:
    client = h.client([ok({"name": "a", "created_at": RUN["created_at"], "updated_at": RUN["created_at"]})])
    h.run(client.secrets.put("A B/C", value="v"))
    assert h.recorder.requests[0].url.raw_path == b"/api/v1/secrets/A%20B%2FC"


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.agent.runs.retrieve(""),
        lambda c: c.agent.runs.cancel(""),
        lambda c: c.agent.runs.followup("", message="m"),
        lambda c: c.agent.runs.conversation(""),
        lambda c: c.agent.runs.events(""),
        lambda c: c.agent.runs.attachment("r1", ""),
        lambda c: c.agent.environments.retrieve(""),
        lambda c: c.factories.retrieve(""),
        lambda c: c.factories.runs.create("", prompt="p"),
        lambda c: c.factories.webhooks.retrieve("", factory_uid="fac_1"),
        lambda c: c.factories.webhooks.retrieve("wh_1", factory_uid=""),
        lambda c: c.factories.webhooks.deliveries.replay("dlv_1", factory_uid="fac_1", webhook_uid=""),
        lambda c: c.factories.automations.test_filter("", factory_uid="fac_1", delivery_id="d"),
        lambda c: c.secrets.put("", value="v"),
        lambda c: c.api_keys.delete(""),
    ],
)
def test_empty_path_id_raises_value_error_before_any_request(h: Harness, call) -> None:  # type: ignore[no-untyped-def]
    client = h.client([ok({})])
    with pytest.raises(ValueError):
        h.run(call(client))
    assert h.recorder.requests == []


def test_params_are_keyword_only(h: Harness) -> None:
    client = h.client([ok(CREATED)])
    with pytest.raises(TypeError):
        client.agent.runs.create("hi")  # type: ignore[misc]
    with pytest.raises(TypeError):
        client.agent.runs.followup("r1", "msg")  # type: ignore[misc]


# -- errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status,code,cls",
    [
        (400, "invalid_request", BadRequestError),
        (401, "authentication_required", AuthenticationError),
        (403, "not_authorized", PermissionDeniedError),
        (404, "resource_not_found", NotFoundError),
        (409, "conflict", ConflictError),
        (422, "validation_failed", UnprocessableEntityError),
        (429, "rate_limited", RateLimitError),
        (500, "internal_error", InternalServerError),
        (503, "unavailable", InternalServerError),
        (405, "method_not_allowed", APIStatusError),
        (413, "payload_too_large", APIStatusError),
    ],
)
def test_error_class_per_status(h: Harness, status: int, code: str, cls: type) -> None:
    client = h.client([problem(status, code, retryable=False, errors=[{"path": "$.prompt", "message": "m"}])])
    with pytest.raises(cls) as info:
        h.run(client.agent.runs.retrieve("r1"))
    err = info.value
    assert type(err) is cls
    assert isinstance(err, APIStatusError) and isinstance(err, agent_runs.APIError)
    assert err.status_code == status
    assert err.code == code
    assert err.detail == f"detail of {code}"
    assert err.retryable is False
    assert err.request_id == "req_1"
    assert err.body["type"].endswith(code)  # type: ignore[index]
    assert err.errors == [{"path": "$.prompt", "message": "m"}]
    assert err.response.status_code == status
    assert f"detail of {code}" in str(err)


def test_non_json_error_body(h: Harness) -> None:
    client = h.client([httpx.Response(502, text="upstream exploded")], max_retries=0)
    with pytest.raises(InternalServerError) as info:
        h.run(client.agent.runs.retrieve("r1"))
    assert info.value.body == "upstream exploded"
    assert info.value.code is None


# -- responses -------------------------------------------------------------------------------------------


def test_unknown_fields_and_enum_values_are_kept(h: Harness) -> None:
    client = h.client([ok({**RUN, "state": "PAUSED", "brand_new": {"x": 1}})])
    run = h.run(client.agent.runs.retrieve("r1"))
    assert isinstance(run, RunItem)
    assert run.state == "PAUSED"
    assert run.brand_new == {"x": 1}  # type: ignore[attr-defined]


def test_cancel_returns_the_bare_json_string(h: Harness) -> None:
    client = h.client([ok(RUN["run_id"])])
    assert h.run(client.agent.runs.cancel("r1")) == RUN["run_id"]


def test_delete_returns_none(h: Harness) -> None:
    client = h.client([httpx.Response(204)])
    assert h.run(client.api_keys.delete("key_1")) is None


def test_attachment_returns_bytes(h: Harness) -> None:
    client = h.client([httpx.Response(200, content=b'{"a":1}', headers={"content-type": "application/json"})])
    assert h.run(client.agent.runs.attachment("r1", "event-payload.json")) == b'{"a":1}'
    assert str(h.recorder.requests[0].url).endswith("/agent/runs/r1/attachments/event-payload.json")


def test_download_artifact_follows_the_redirect_to_the_signed_url(h: Harness) -> None:
    signed = "http://api.test/api/v1/agent/artifacts/a1/content?token=team_x.1.sig"
    client = h.client([httpx.Response(302, headers={"location": signed}), httpx.Response(200, content=b"\x89PNG")])
    assert h.run(client.agent.download_artifact("a1")) == b"\x89PNG"
    assert [str(r.url) for r in h.recorder.requests] == ["http://api.test/api/v1/agent/artifacts/a1/download", signed]


def test_raw_response_exposes_headers_status_and_parse(h: Harness) -> None:
    client = h.client([ok(CREATED, headers={"x-request-id": "req_9", "idempotent-replayed": "true"})])
    raw = h.run(client.agent.runs.with_raw_response.create(prompt="hi"))
    assert raw.status_code == 200
    assert raw.headers["idempotent-replayed"] == "true"
    assert raw.request_id == "req_9"
    assert isinstance(raw.http_response, httpx.Response)
    parsed = h.run(raw.parse())
    assert isinstance(parsed, RunAgentResponse) and parsed.run_id == CREATED["run_id"]
    # The internal marker header never reaches the wire.
    assert not any(k.lower().startswith("x-agent-runs-raw") for k in h.recorder.requests[0].headers)


def test_raw_response_from_the_client_root(h: Harness) -> None:
    client = h.client([ok(RUN)])
    raw = h.run(client.with_raw_response.agent.runs.retrieve("r1"))
    assert h.run(raw.parse()).run_id == RUN["run_id"]


def test_raw_response_still_retries_and_raises(h: Harness) -> None:
    client = h.client([problem(500, "internal_error"), problem(404, "resource_not_found")])
    with pytest.raises(NotFoundError):
        h.run(client.agent.runs.with_raw_response.retrieve("r1"))
    assert len(h.recorder.requests) == 2


def test_streaming_response_reads_the_body_on_demand() -> None:
    h = Harness("sync")
    client = h.client([ok(RUN)])
    with client.agent.runs.with_streaming_response.retrieve("r1") as response:
        assert response.status_code == 200
        assert response.parse().run_id == RUN["run_id"]
    assert response.is_closed
    with client.agent.runs.with_streaming_response.attachment("r1", "a.bin") as response:
        assert json.loads(b"".join(response.iter_bytes())) == RUN


async def test_async_streaming_response_reads_the_body_on_demand() -> None:
    h = Harness("async")
    client = h.client([ok(RUN)])
    async with client.agent.runs.with_streaming_response.retrieve("r1") as response:
        assert response.status_code == 200
        assert (await response.parse()).run_id == RUN["run_id"]
    assert response.is_closed


# -- timeouts ------------------------------------------------------------------------------------------------


def test_per_request_timeout_reaches_the_transport(h: Harness) -> None:
    client = h.client([ok(RUN), ok(RUN), ok(RUN)])
    h.run(client.agent.runs.retrieve("r1", timeout=3.5))
    h.run(client.with_options(timeout=httpx.Timeout(9.0)).agent.runs.retrieve("r1"))
    h.run(client.agent.runs.retrieve("r1"))
    timeouts = [r.extensions["timeout"] for r in h.recorder.requests]
    assert timeouts[0]["read"] == 3.5
    assert timeouts[1]["read"] == 9.0
    assert timeouts[2] == {"connect": 5.0, "read": 60.0, "write": 60.0, "pool": 60.0}


def test_timeout_none_disables_the_timeout(h: Harness) -> None:
    client = h.client([ok(RUN)], timeout=None)
    h.run(client.agent.runs.retrieve("r1"))
    assert h.recorder.requests[0].extensions["timeout"]["read"] is None


# -- configuration -------------------------------------------------------------------------------------------


def test_env_fallbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_RUNS_API_KEY", "from-env")
    monkeypatch.setenv("AGENT_RUNS_BASE_URL", "http://env.test/api/v1")
    client = AgentRuns()
    assert client.api_key == "from-env"
    assert str(client.base_url) == "http://env.test/api/v1/"
    aclient = AsyncAgentRuns()
    assert aclient.api_key == "from-env"


def test_default_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENT_RUNS_BASE_URL", raising=False)
    assert str(AgentRuns(api_key="k").base_url) == "http://localhost:8080/api/v1/"


def test_missing_api_key_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENT_RUNS_API_KEY", raising=False)
    with pytest.raises(AgentRunsError, match="AGENT_RUNS_API_KEY"):
        AgentRuns()
    with pytest.raises(AgentRunsError):
        AsyncAgentRuns()


def test_aliases() -> None:
    assert agent_runs.Client is AgentRuns and agent_runs.AsyncClient is AsyncAgentRuns


def test_http_client_must_match_the_flavour() -> None:
    with pytest.raises(TypeError):
        AgentRuns(api_key="k", http_client=httpx.AsyncClient())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AsyncAgentRuns(api_key="k", http_client=httpx.Client())  # type: ignore[arg-type]


def test_context_manager_closes_the_http_client() -> None:
    http = httpx.Client(transport=httpx.MockTransport(lambda r: ok(RUN)))
    with AgentRuns(api_key="k", http_client=http) as client:
        copy = client.with_options(max_retries=0)
        copy.close()  # a copy shares the pool and does not close it
        assert not http.is_closed
    assert http.is_closed


async def test_async_context_manager_closes_the_http_client() -> None:
    http = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: ok(RUN)))
    async with AsyncAgentRuns(api_key="k", http_client=http) as client:
        await client.agent.runs.retrieve("r1")
    assert http.is_closed


def test_with_options_keeps_the_rest_and_merges_headers(h: Harness) -> None:
    client = h.client([ok(RUN)], default_headers={"X-A": "1"})
    copy = client.with_options(timeout=2.0, default_headers={"X-B": "2"})
    assert copy.api_key == client.api_key and copy.base_url == client.base_url
    assert copy.max_retries == client.max_retries and copy.timeout == 2.0
    h.run(copy.agent.runs.retrieve("r1"))
    req = h.recorder.requests[0]
    assert req.headers["x-a"] == "1" and req.headers["x-b"] == "2"


# -- undocumented endpoints ---------------------------------------------------------------------------------


def test_generic_methods_share_retries_auth_and_errors(h: Harness) -> None:
    client = h.client([problem(503, "unavailable"), ok({"anything": True}), problem(404, "resource_not_found")])
    assert h.run(client.post("/future/thing", body={"a": 1}, query={"q": "v"})) == {"anything": True}
    first, second = h.recorder.requests[:2]
    assert str(first.url) == f"{BASE_URL}/future/thing?q=v"
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]
    assert json.loads(second.content) == {"a": 1}
    with pytest.raises(NotFoundError):
        h.run(client.get("/future/thing"))


def test_generic_get_with_a_model_and_an_absolute_url(h: Harness) -> None:
    client = h.client([ok(RUN), ok({"status": "ok"})])
    run = h.run(client.get("agent/runs/r1", cast_to=RunItem))
    assert isinstance(run, RunItem)
    assert h.run(client.get("http://api.test/healthz")) == {"status": "ok"}
    assert str(h.recorder.requests[1].url) == "http://api.test/healthz"


def test_generic_methods_cover_put_patch_delete(h: Harness) -> None:
    client = h.client(lambda r: ok({"m": r.method}))
    assert h.run(client.put("/x", body={})) == {"m": "PUT"}
    assert h.run(client.patch("/x", body={})) == {"m": "PATCH"}
    assert h.run(client.delete("/x")) == {"m": "DELETE"}
    raw = h.run(client.get("/x", cast_to=httpx.Response))
    assert isinstance(raw, httpx.Response) and raw.status_code == 200
