#!/usr/bin/env bash
# Runs the SIGKILL suites (tests/e2e/test/kill-resume-file.test.ts and kill-resume-postgres.test.ts)
# RUNS times each, in a row, while BUSY busy loops keep the CPUs loaded — the conditions in which a
# kill lands late or a killed client's last statement is still running in PostgreSQL.
#
# Usage: scripts/kill-suites-under-load.sh [RUNS=10] [BUSY=3]
#   SUITES="kill-resume-postgres" scripts/kill-suites-under-load.sh 10 0   (one suite, no busy loops of its own)
# Needs the packages built (pnpm build). Prints one line per run and a summary; exits 1 if any run failed.
# The busy loops are bounded (each ends by itself after LOAD_LIMIT_S seconds, default 3 hours) and
# killed when the script ends, however it ends.
set -u
RUNS=${1:-10}
BUSY=${2:-3}
LIMIT=${LOAD_LIMIT_S:-10800}
cd "$(dirname "$0")/.."

load_pids=()
stop_load() {
  for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait "${load_pids[@]}" 2>/dev/null
}
trap stop_load EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$BUSY"); do
  timeout "$LIMIT" sh -c 'while :; do :; done' &
  load_pids+=("$!")
done

SUITES=${SUITES:-kill-resume-file kill-resume-postgres}
failed=0
total=0
for suite in $SUITES; do
  for run in $(seq "$RUNS"); do
    start=$(date +%s)
    total=$((total + 1))
    log=$(mktemp)
    if CI=true pnpm exec vitest run --project e2e "test/$suite.test.ts" >"$log" 2>&1; then outcome=passed; else outcome=FAILED; failed=$((failed + 1)); fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "$suite run $run/$RUNS: $outcome in $(($(date +%s) - start)) s (load average $load)"
    [ "$outcome" = FAILED ] && tail -60 "$log"
    rm -f "$log"
  done
done
echo "$((total - failed))/$total runs passed"
[ "$failed" -eq 0 ]
