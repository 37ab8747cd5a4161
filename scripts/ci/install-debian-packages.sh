#!/usr/bin/env bash
# Installs the Debian packages of scripts/ci/debian-packages.txt that are missing (CI and developer
# machines run as root). Prints nothing when everything is already there.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
while read -r name; do
  case "$name" in '' | '#'*) continue ;; esac
  dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'install ok installed' || missing+=("$name")
done < debian-packages.txt
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
