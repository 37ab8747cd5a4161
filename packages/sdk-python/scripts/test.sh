#!/usr/bin/env bash
# Run the Python SDK's tests: creates packages/sdk-python/.venv if missing, installs the package
# with its dev extra (only when pyproject.toml changed since the last install), runs pytest with
# the given arguments. Used by the root `pnpm test:python`.
#   packages/sdk-python/scripts/test.sh [pytest args...]
# Env: PYTHON (interpreter for a new venv, default python3), AGENT_RUNS_MOCK_URL (Prism mock),
#      AGENT_RUNS_E2E_BASE_URL + AGENT_RUNS_E2E_API_KEY (real server).
set -euo pipefail

pkg="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$pkg/.venv"
py="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi

# Reinstall only when the dependency declaration changed (the install is editable: code changes
# need no reinstall).
stamp="$venv/.installed-pyproject"  # same stamp as scripts/python-env.mjs
want="$("$venv/bin/python" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$pkg/pyproject.toml")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$pkg[dev]"
  printf %s "$want" > "$stamp"
fi

cd "$pkg"
set +e
"$venv/bin/python" -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "sdk-python: pytest collected no tests (exit 5); treating as a failure." >&2
fi
exit "$rc"
