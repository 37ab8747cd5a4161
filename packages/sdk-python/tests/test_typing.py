"""The generated resources carry the contract's types: pyright (strict, pinned in the dev extras) accepts the
calls the contract allows and reports, line by line, the ones it does not (an enum value outside a ``Literal``,
a missing required argument, an answer used as the wrong type)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ALLOWED = """\
from agent_runs import AgentRuns, AsyncAgentRuns, SyncCursorPage
from agent_runs.types import RunItem


async def main() -> None:
    client = AgentRuns(api_key="ar_live_example")
    page: SyncCursorPage[RunItem] = client.agent.runs.list(
        sort_by="created_at", sort_order="asc", state=["QUEUED", "INPROGRESS"], metadata={"team": "infra"}
    )
    single_state = client.agent.runs.list(state="BLOCKED")
    run: RunItem = client.agent.runs.retrieve("run_1")
    environments = client.agent.environments.list(sort_by="name")
    agents = client.agent.list(sort_by="last_run")
    raw = client.agent.runs.with_raw_response.retrieve("run_1")
    parsed: RunItem = raw.parse()
    aclient = AsyncAgentRuns(api_key="ar_live_example")
    arun: RunItem = await aclient.agent.runs.retrieve("run_1")
    print(page, single_state, run, environments, agents, parsed, arun)
"""

# Each line is one call the contract refuses.
REFUSED = [
    'client.agent.runs.list(sort_by="bogus")',
    'client.agent.runs.list(state="NOT_A_STATE")',
    'client.agent.environments.list(sort_by="created_at")',
    "client.agent.schedules.create(name='nightly')",
    'count: int = client.agent.runs.retrieve("run_1")',
    'client.agent.runs.followup("run_1", message="hi", mode="fast")',
]


HEADER = "from agent_runs import AgentRuns\n\nclient = AgentRuns(api_key='ar_live_example')\n"


@pytest.fixture(scope="module")
def errors_by_file(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    """One pyright run over both samples (it takes seconds to load the SDK): the error lines of each."""
    directory = tmp_path_factory.mktemp("typing")
    (directory / "allowed.py").write_text(ALLOWED, encoding="utf-8")
    (directory / "refused.py").write_text(HEADER + "".join(f"{line}\n" for line in REFUSED), encoding="utf-8")
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.9", "reportUnusedVariable": False}
    (directory / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable, "allowed.py", "refused.py"],
        cwd=directory,
        capture_output=True,
        text=True,
    )
    errors: dict[str, list[int]] = {"allowed.py": [], "refused.py": []}
    for diagnostic in json.loads(proc.stdout)["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            errors[Path(diagnostic["file"]).name].append(diagnostic["range"]["start"]["line"] + 1)
    return {name: sorted(set(lines)) for name, lines in errors.items()}


def test_calls_the_contract_allows_type_check(errors_by_file: dict[str, list[int]]) -> None:
    assert errors_by_file["allowed.py"] == []


def test_calls_the_contract_refuses_are_reported_each_on_its_line(errors_by_file: dict[str, list[int]]) -> None:
    first = HEADER.count("\n") + 1
    assert errors_by_file["refused.py"] == list(range(first, first + len(REFUSED)))
