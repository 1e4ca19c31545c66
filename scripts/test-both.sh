#!/usr/bin/env bash
# npm test: every suite on SQLite, and the integration and hardening suites on PostgreSQL, side by
# side (docs/development.md: Development). The two runs share nothing but the machine: each server has its
# own port and database, each PostgreSQL cluster its own folder and port. The SQLite run prints as
# it goes; the PostgreSQL run's output follows it whole, so that neither interleaves the other.
# Exits non-zero when either run failed.
set -u
cd "$(dirname "$0")/.."
bun=node_modules/.bin/bun
postgres_log=$(mktemp)
trap 'rm -f "$postgres_log"' EXIT
SHORTENER_TEST_ENGINE=postgres "$bun" test test/integration test/hardening > "$postgres_log" 2>&1 &
postgres_pid=$!
"$bun" test "$@"
sqlite=$?
wait "$postgres_pid"
postgres=$?
echo
echo "=== the same integration and hardening suites on PostgreSQL"
cat "$postgres_log"
[ "$sqlite" -eq 0 ] && [ "$postgres" -eq 0 ]
