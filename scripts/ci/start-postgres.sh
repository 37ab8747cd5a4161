#!/usr/bin/env bash
# Installs PostgreSQL from Debian packages if needed and starts a throwaway cluster on 127.0.0.1:5432.
# Prints the admin URL for TEST_POSTGRES_URL. Needs root (CI and the developer machines run as root).
set -euo pipefail
PGD=${PGCI_DIR:-/tmp/pgci}
PGPORT=${PGCI_PORT:-5432}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT"; then
  # Nothing is serving: start from a fresh throwaway cluster (a leftover one may hold a stale pid file).
  rm -rf "$PGD"
  install -d -o postgres -g postgres -m 700 "$PGD"
  echo postgres > "$PGD/pw" && chown postgres "$PGD/pw" && chmod 600 "$PGD/pw"
  runuser -u postgres -- "$PGBIN/initdb" -D "$PGD/data" -U postgres --pwfile="$PGD/pw" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >&2
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGD -c fsync=off -c max_connections=200" start >&2
fi
echo "postgres://postgres:postgres@127.0.0.1:$PGPORT/postgres"
