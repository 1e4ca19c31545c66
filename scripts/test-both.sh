#!/usr/bin/env bash
# npm test: every suite on SQLite, and the integration and hardening suites on PostgreSQL, side by
# side (docs/development.md: Development). The two runs share nothing but the machine: each server has its
# own port and database, each PostgreSQL cluster its own folder and port. The SQLite run prints as
# it goes; the PostgreSQL run's output follows it whole, so that neither interleaves the other.
# Exits non-zero when either run failed. Side by side, a test's server or command takes longer to
# start than bun's default 5 s allows a hook: 30 s each (a test that asks for more keeps its own).
set -u
cd "$(dirname "$0")/.."
bun=node_modules/.bin/bun
postgres_log=$(mktemp)
trap 'rm -f "$postgres_log"' EXIT
SHORTENER_TEST_ENGINE=postgres "$bun" test --timeout 30000 test/integration test/hardening > "$postgres_log" 2>&1 &
postgres_pid=$!
"$bun" test --timeout 30000 "$@"
sqlite=$?
wait "$postgres_pid"
postgres=$?
echo
echo "=== the same integration and hardening suites on PostgreSQL"
# Not cat: bun leaves the stdout it shares with us non-blocking, and cat stops at the first full
# pipe (EAGAIN, "Resource temporarily unavailable"), cutting the log and its summary; node waits.
node -e 'process.stdout.write(require("fs").readFileSync(process.argv[1]))' "$postgres_log"
[ "$sqlite" -eq 0 ] && [ "$postgres" -eq 0 ]
