"""The reference docs' Python samples (scripts/lib/code-samples.mjs, put in the page by `pnpm docs:build`)
run against the Prism mock of openapi/v1.yaml, which refuses a request that breaks the contract: a sample
that drifts from the contract or from this SDK fails here. (test/contract/code-samples.test.ts runs the
curl and TypeScript ones.)

Needs AGENT_RUNS_MOCK_URL (the mock's REST root); `pnpm test:python` starts one.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
from typing import Any, List, Tuple

import pytest

MOCK_URL = os.environ.get("AGENT_RUNS_MOCK_URL")
pytestmark = pytest.mark.skipif(not MOCK_URL, reason="AGENT_RUNS_MOCK_URL is not set (start a Prism mock: pnpm mock)")

REPOSITORY_ROOT = pathlib.Path(__file__).resolve().parents[3]
DUMP = (
    "import { codeSamples } from './scripts/lib/code-samples.mjs';"
    "const { samples } = codeSamples(process.cwd());"
    "console.log(JSON.stringify([...samples].flatMap(([id, list]) =>"
    " list.filter((s) => s.label === 'Python SDK').map((s) => [id, s.source]))));"
)


def _python_samples() -> List[Tuple[str, str]]:
    dumped = subprocess.run(
        ["node", "--input-type=module", "-e", DUMP], cwd=REPOSITORY_ROOT, capture_output=True, text=True, check=True
    )
    return [(operation_id, source) for operation_id, source in json.loads(dumped.stdout)]


SAMPLES = _python_samples()


def test_every_sdk_operation_has_a_python_sample() -> None:
    assert len(SAMPLES) > 60


@pytest.mark.parametrize("operation_id,source", SAMPLES, ids=[operation_id for operation_id, _ in SAMPLES])
def test_sample_runs_against_the_mock(operation_id: str, source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_RUNS_BASE_URL", str(MOCK_URL))
    monkeypatch.setenv("AGENT_RUNS_API_KEY", "ar_live_example")
    # A loop stops at its first item: the mock's example page always says another follows, and the team's
    # event stream never ends.
    code = re.sub(r"(\n    print\(item\))", r"\1\n    break", source)
    printed: List[Any] = []
    exec(compile(code, f"<sample {operation_id}>", "exec"), {"__name__": "sample", "print": printed.append})
    if "print(" in source:
        assert printed, operation_id
