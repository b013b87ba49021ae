#!/usr/bin/env bash
# Issue 26, acceptance 6: sqlgate in front of a real Fluss 0.9.1 cluster
# against pyfluss 1.0.0 on the same tables, in one run (main.go says what is
# measured). Not part of `make test` or `make bench`: run it by hand and copy
# the table into bench/LEDGER.md with the date, commit and load it prints.
#
#   bench/fluss/run.sh [FLAGS...]    # e.g. --rows 1000000 --duration 10s
#   CPUPROFILE=/tmp/sg.prof bench/fluss/run.sh ...
#                                    # also profiles sqlgate's side (whole run)
#
# Starts its own cluster (one tablet server, scripts/fluss-cluster.sh run),
# serves it with sqlgate in a separate process (bench/cmd/benchserver:
# server.Start with `sqlgate serve`'s settings, plus profiling), then runs
# main.go. Needs what `make test-cluster` needs plus the pyfluss venv of
# scripts/install-test-deps.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ -z "${SQLGATE_FLUSS_BOOTSTRAP:-}" ]; then
  export SQLGATE_FLUSS_TABLETS=1
  exec "$root/scripts/fluss-cluster.sh" run "$0" "$@"
fi

tmp=$(mktemp -d)
sg=""
cleanup() {
  if [ -n "$sg" ]; then
    kill "$sg" 2>/dev/null || true
    wait "$sg" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$root/bench" && go build -o "$tmp/benchserver" ./cmd/benchserver)
"$tmp/benchserver" --data "$tmp/data" --fluss "$SQLGATE_FLUSS_BOOTSTRAP" ${CPUPROFILE:+--cpuprofile "$CPUPROFILE"} \
  >"$tmp/sqlgate.out" 2>"$tmp/sqlgate.err" &
sg=$!
addr=""
for _ in $(seq 300); do
  addr=$(sed -n 's/^listening //p' "$tmp/sqlgate.out")
  [ -n "$addr" ] && break
  kill -0 "$sg" 2>/dev/null || { cat "$tmp/sqlgate.err" >&2; exit 1; }
  sleep 0.1
done
[ -n "$addr" ] || { echo "bench/fluss: sqlgate did not start" >&2; exit 1; }
[ -n "${CPUPROFILE:-}" ] && kill -USR1 "$sg"

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  commit: $(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet HEAD || echo +dirty)"
echo "machine: $(nproc) cores; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$here"
go run . --url "postgres://sqlgate@$addr/sqlgate?sslmode=disable" --bootstrap "$SQLGATE_FLUSS_BOOTSTRAP" --script "$here/pyfluss_side.py" "$@"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
