"""Schemathesis hooks of the contract fuzz run (scripts/schemathesis.mjs; docs/decisions.md, contract fuzzing).

They only keep generated requests from reading as contract failures what the schema cannot say; every
generated value still goes out, as valid or invalid as the schema made it.
"""

import os
import pathlib
import re
import uuid

import schemathesis
import yaml

IDEMPOTENCY_KEY = re.compile(r"[!-~]{1,255}")
# Config fields that must name something that exists (an environment of the team, a skill): no schema can
# say that, and the server rightly refuses unknown ones (400 on run create, 422 on automations). Only values
# the contract's schema accepts are dropped, so a request generated invalid stays invalid.
CONTRACT = pathlib.Path(__file__).resolve().parents[2] / "openapi" / "v1.yaml"
SCHEMAS = yaml.safe_load(CONTRACT.read_text(encoding="utf-8"))["components"]["schemas"]
CONFIG_FIELDS = SCHEMAS["AmbientAgentConfig"]["properties"]
REFERENCE_FIELDS = ("environment_id", "skill_spec")


def schema_valid(field, value):
    schema = CONFIG_FIELDS[field]
    return (
        isinstance(value, str)
        and len(value) >= schema.get("minLength", 0)
        and ("pattern" not in schema or re.search(schema["pattern"], value) is not None)
    )


# The resources scripts/schemathesis.mjs made, named by the [parameters] of schemathesis.toml.
FIXTURE_IDS = {
    value
    for name, value in os.environ.items()
    if name.startswith("FUZZ_") and name not in ("FUZZ_MAX_TIME", "FUZZ_SEED")
}


@schemathesis.hook
def map_headers(context, headers):
    # Generated keys repeat ("0", "A"); the same key with the same body replays the first answer, whose
    # resource the run may have deleted since: a valid key becomes a fresh one.
    if headers and IDEMPOTENCY_KEY.fullmatch(str(headers.get("Idempotency-Key", ""))):
        headers["Idempotency-Key"] = str(uuid.uuid4())
    return headers


@schemathesis.hook
def map_body(context, body):
    # A run's top-level `skill` names a skill too (same forms as config.skill_spec).
    if isinstance(body, dict) and "skill" in body and schema_valid("skill_spec", body["skill"]):
        del body["skill"]
    # A run's configuration is `config`, a scheduled agent's `agent_config` (the Oz API's names).
    for key in ("config", "agent_config"):
        config = body.get(key) if isinstance(body, dict) else None
        if isinstance(config, dict):
            for field in REFERENCE_FIELDS:
                if field in config and schema_valid(field, config[field]):
                    del config[field]
    return body


# The event streams are documented as one text body (`type: string`, each event's `data` described by
# `contentSchema`), which the Prism mock and the examples need; Schemathesis reads an OpenAPI 3.1 stream
# schema as the schema of each parsed event instead.
EVENT_STREAM_OPERATIONS = {"streamRunEvents", "streamTeamRunEvents"}


@schemathesis.hook
def filter_failure(context, failure, case, response):
    operation_id = case.operation.definition.raw.get("operationId")
    if failure.code == "ST108" and operation_id in EVENT_STREAM_OPERATIONS:
        return False
    # The config's [parameters] win over a link's value: a request after a create may name a fixture (one
    # a generated DELETE removed) instead of the created resource, which then is not what was not found.
    if failure.code == "ST302" and FIXTURE_IDS.intersection(map(str, (case.path_parameters or {}).values())):
        return False
    # A cursor is a value the server issued for this list, filters and sort (the contract says an other
    # one answers 400): its pattern cannot tell a generated string from an issued one. The Oz fields the
    # contract keeps in Oz's shape but documents as refused by value (docs/decisions.md, Oz parity), a prompt
    # left out without a skill, and a parent run named by an id that must exist answer 400 by design, naming
    # the field. So does a scheduled agent's expression or zone that fits the schema but not cron's grammar,
    # the minimum interval or the time zone database, and an environment whose repositories would share a
    # checkout path or whose git token names no team secret (createEnvironment says so in words).
    # Cancelling a run already in a terminal state answers 400 as Oz does (docs/decisions.md, Oz parity);
    # the fixture run finishes at once, and no schema can say which state a run is in.
    if failure.code == "ST202" and response.status_code == 400 and operation_id == "cancelRun":
        return False
    if failure.code == "ST202" and response.status_code == 400:
        answer = response.json() or {}
        # No REST input may hold a NUL character (U+0000), keys of free-form objects included: the contract's
        # error table says so; JSON Schema cannot.
        if "NUL character (U+0000)" in str(answer.get("detail", "")):
            return False
        errors = answer.get("errors") or []
        if errors and all(documented_refusal(error.get("path") or "") for error in errors):
            return False
    return True


def documented_refusal(path):
    # Metadata values are limited in bytes (256) and may hold no NUL, which the generated models cannot say.
    # A notification URL must be https (http only to a host the operator lists) and not name an internal
    # address: the contract says so in words (createNotificationSubscription); no schema can. An MCP server by
    # warp_id and an environment's cloud providers are refused under their own names.
    return (
        path in DOCUMENTED_REFUSALS
        or path.startswith(("$.metadata.", "$.providers."))
        or path == "$.url"
        or WARP_MCP_SERVER.fullmatch(path) is not None
        or REPOSITORY_PATH.fullmatch(path) is not None
    )


WARP_MCP_SERVER = re.compile(r"\$\.config\.mcp_servers\..+\.warp_id")
REPOSITORY_PATH = re.compile(r"\$\.(?:github_repos|repos)\[[0-9]+\]\.path")


DOCUMENTED_REFUSALS = {
    "query.cursor",
    "$.prompt",
    "$.parent_run_id",
    "$.mode",
    "$.conversation_id",
    "$.team",
    "$.interactive",
    "$.on_behalf_of",
    "$.agent_identity_uid",
    "$.skill",
    "$.config.skills",
    "$.config.worker_host",
    "$.config.harness.type",
    # A scheduled agent's agent_config is refused exactly as a run's config.
    "$.agent_config.skills",
    "$.agent_config.worker_host",
    "$.agent_config.harness.type",
    "$.cron_schedule",
    "$.time_zone",
    "$.agent_uid",
    "$.config.runner_id",
    "$.config.session_sharing.public_access",
    "$.config.memory_stores",
    "$.config.inference_providers.aws",
    "$.docker_image",
    # `repos` and `github_repos` may name at most 10 repositories in all, which the contract says in words.
    "$.repos",
    "$.git_token_secret_name",
    # A run's cost limit needs a price for its model (MODEL_PRICES), which the contract says in words; the
    # fuzz server prices one model, and generated model ids name others.
    "$.config.max_cost",
    "$.agent_config.max_cost",
}
