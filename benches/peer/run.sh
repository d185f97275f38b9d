#!/usr/bin/env bash
# `mcptest run` against mcp-assert 0.12.3 on the same 30-file suite
# (benches/peer/suite: the everything, time and filesystem servers pinned by
# .ci/install-e2e.sh), same machine, interleaved rounds; then the command's
# own start-up: from exec to the first server spawn.
#
#   bash benches/peer/run.sh            # ROUNDS=5 by default
#
# Installs what it needs under target/ (the e2e servers, mcp-assert in a venv,
# a release build of the command). Prints a table of medians and the ratio.
# Both tools must pass every file first, or nothing is timed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
ROUNDS="${ROUNDS:-5}"
WORK="$ROOT/target/bench-peer"
mkdir -p "$WORK"

log() { printf '[peer] %s\n' "$*" >&2; }

bash .ci/install-e2e.sh >&2
# shellcheck source=/dev/null
source target/e2e/env.sh

if [ ! -x "$WORK/venv/bin/python" ]; then
  python3 -m venv "$WORK/venv"
fi
if ! "$WORK/venv/bin/python" -m pip show mcp-assert 2>/dev/null | grep -q '^Version: 0.12.3$'; then
  log "pip install mcp-assert==0.12.3"
  "$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check mcp-assert==0.12.3
fi
# Time the Go binary the wheel carries, not the Python shim in front of it.
PEER="$(ls "$WORK"/venv/lib/python3*/site-packages/mcp_assert/bin/mcp-assert)"

log "cargo build --release -p mcptest-cli"
cargo build --release -p mcptest-cli >&2
MCPTEST="$ROOT/target/release/mcptest"

# The suite, with the servers' absolute paths filled in.
SUITE="$WORK/suite"
rm -rf "$SUITE"
mkdir -p "$SUITE"
for f in benches/peer/suite/*.yaml; do
  sed -e "s|@EVERYTHING@|$MCPTEST_E2E_EVERYTHING|" \
      -e "s|@TIME@|$MCPTEST_E2E_TIME|" \
      -e "s|@FILESYSTEM@|$MCPTEST_E2E_FILESYSTEM|" "$f" > "$SUITE/$(basename "$f")"
done
FILES=$(ls "$SUITE" | wc -l)
FIXTURE="$ROOT/benches/peer/fixture"

run_mcptest() { timeout 600 "$MCPTEST" run "$SUITE" --fixture "$FIXTURE"; }
# Server start-up is partly waiting (imports, disk): twice as many jobs as
# cores keeps the cores busy.
JOBS2=$(( 2 * $(nproc) ))
run_mcptest_2x() { timeout 600 "$MCPTEST" run "$SUITE" --fixture "$FIXTURE" --jobs "$JOBS2"; }
run_peer() { timeout 600 "$PEER" run --suite "$SUITE" --fixture "$FIXTURE"; }

log "agreement: both tools pass all $FILES files"
run_mcptest > "$WORK/mcptest.out" 2>&1 || { cat "$WORK/mcptest.out" >&2; log "mcptest failed"; exit 1; }
run_peer > "$WORK/peer.out" 2>&1 || { cat "$WORK/peer.out" >&2; log "mcp-assert failed"; exit 1; }

# Seconds (with microseconds) a command takes.
wall() {
  local start=$EPOCHREALTIME
  "$@" > /dev/null 2>&1
  local end=$EPOCHREALTIME
  python3 -c "print(f'{$end - $start:.3f}')"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

: > "$WORK/mcptest.times"
: > "$WORK/mcptest2x.times"
: > "$WORK/peer.times"
for round in $(seq "$ROUNDS"); do
  # Interleaved, alternating which goes first.
  if [ $((round % 2)) -eq 1 ]; then
    wall run_mcptest >> "$WORK/mcptest.times"; wall run_peer >> "$WORK/peer.times"
    wall run_mcptest_2x >> "$WORK/mcptest2x.times"
  else
    wall run_mcptest_2x >> "$WORK/mcptest2x.times"
    wall run_peer >> "$WORK/peer.times"; wall run_mcptest >> "$WORK/mcptest.times"
  fi
  log "round $round/$ROUNDS: mcptest $(tail -1 "$WORK/mcptest.times") s, --jobs $JOBS2 $(tail -1 "$WORK/mcptest2x.times") s, mcp-assert $(tail -1 "$WORK/peer.times") s"
done
OURS=$(median < "$WORK/mcptest.times")
OURS2=$(median < "$WORK/mcptest2x.times")
PEERS=$(median < "$WORK/peer.times")

# Busy cores: the default run's wall time against its CPU time (the
# command and every server it reaped) spread over the cores; 1.00 would
# keep every core busy from start to end.
: > "$WORK/busy.ratios"
for _ in $(seq "$ROUNDS"); do
  python3 - "$MCPTEST" "$SUITE" "$FIXTURE" >> "$WORK/busy.ratios" <<'PY'
import os, resource, subprocess, sys, time
started = time.time()
subprocess.run([sys.argv[1], "run", sys.argv[2], "--fixture", sys.argv[3]],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
wall = time.time() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall / ((usage.ru_utime + usage.ru_stime) / os.cpu_count()):.2f}")
PY
done
BUSY=$(median < "$WORK/busy.ratios")

# Start-up: from just before exec to the moment the stand-in server runs
# (it writes the time and exits; the run then fails, as expected here). The
# stand-in's own `sh` and `date` start-up is counted too, so this is an upper
# bound.
printf 'name: startup\nassert:\n  tool: x\n  expect:\n    not_error: true\n' > "$WORK/startup.yaml"
: > "$WORK/startup.times"
for _ in $(seq 20); do
  rm -f "$WORK/stamp"
  start=$EPOCHREALTIME
  "$MCPTEST" run "$WORK/startup.yaml" --timeout 5s \
    --server "sh -c 'date +%s.%N > $WORK/stamp'" > /dev/null 2>&1 || true
  python3 -c "print(f'{($(cat "$WORK/stamp") - $start) * 1000:.2f}')" >> "$WORK/startup.times"
done
STARTUP=$(median < "$WORK/startup.times")

cat <<TABLE
| measure | mcptest | mcp-assert 0.12.3 | ratio |
|---|---|---|---|
| $FILES-file suite, median of $ROUNDS interleaved rounds (s) | $OURS | $PEERS | $(python3 -c "print(f'{$PEERS / $OURS:.2f}x')") |
| same, mcptest --jobs $JOBS2 (s) | $OURS2 | $PEERS | $(python3 -c "print(f'{$PEERS / $OURS2:.2f}x')") |
| start-up to first server spawn, median of 20 (ms) | $STARTUP | | target <= 20 |
| wall time / (CPU time / cores), default --jobs, median of $ROUNDS | $BUSY | | target <= 1.15 |
cores: $(nproc); mcptest --jobs default (twice the cores, more while cores sit idle); mcp-assert runs one at a time.
TABLE
