#!/usr/bin/env bash
# What mcptest costs a new user's build: a small rmcp server crate
# (template/: the server, three test files with #[mcp_test], checks, a
# snapshot and an in-process `handler =` test), built cold in its own target
# dir twice — the server alone (no tests/, no mcptest) and with mcptest's
# default features — then, with mcptest, a no-op rebuild, a touched test
# file and a touched src/lib.rs. Prints the figures and the ratios.
#
#   bash benches/build-cost/run.sh          # ROUNDS=1 by default
#
# Each round builds both copies cold (same machine, one after the other, the
# order alternating), so each ratio is taken against a baseline of the same
# round. The load average is printed with each round: a busy machine
# stretches both builds, not always equally.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ROUNDS="${ROUNDS:-1}"
WORK="$ROOT/target/bench-build-cost"
TEMPLATE="$ROOT/benches/build-cost/template"
RMCP=$(awk '/^name = "rmcp"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")

log() { printf '[build-cost] %s\n' "$*" >&2; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# copy NAME WITH_MCPTEST: a fresh copy of the template, with the same
# dependency versions as this workspace (its Cargo.lock).
copy() {
  local dir="$WORK/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$TEMPLATE/src" "$dir/"
  sed -e "s|@RMCP@|=$RMCP|" -e "s|@MCPTEST@|$ROOT/mcptest|" "$TEMPLATE/Cargo.toml.in" > "$dir/Cargo.toml"
  cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
  if [ "$2" = yes ]; then
    cp -r "$TEMPLATE/tests" "$dir/"
  else
    sed -i -e '/^\[dev-dependencies\]/,$d' "$dir/Cargo.toml"
  fi
  echo "$dir"
}

# build DIR LOG: seconds and crates compiled of `cargo test --no-run`, its
# output kept in LOG.
build() {
  local dir="$1" start end log="$2"
  start=$(now)
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo test --no-run --color never) > "$log" 2>&1 \
    || { cat "$log" >&2; log "build failed in $dir"; exit 1; }
  end=$(now)
  echo "$(secs "$start" "$end") $(grep -c '^ *Compiling ' "$log")"
}

size() { du -sm "$1/target" | cut -f1; }

for round in $(seq 1 "$ROUNDS"); do
  log "round $round/$ROUNDS (rmcp $RMCP, load $(load))"
  alone=$(copy alone no)
  with=$(copy with yes)
  rm -f "$WORK"/*.log
  if [ $((round % 2)) -eq 1 ]; then
    read -r alone_s alone_n <<<"$(build "$alone" "$alone.cold.log")"
    read -r with_s with_n <<<"$(build "$with" "$with.cold.log")"
  else
    read -r with_s with_n <<<"$(build "$with" "$with.cold.log")"
    read -r alone_s alone_n <<<"$(build "$alone" "$alone.cold.log")"
  fi
  noop_s=$(build "$with" "$with.noop.log" | cut -d' ' -f1)
  touch "$with/tests/tools.rs"
  test_s=$(build "$with" "$with.test.log" | cut -d' ' -f1)
  touch "$with/src/lib.rs"
  lib_s=$(build "$with" "$with.lib.log" | cut -d' ' -f1)
  printf '\nround %s, load average at the end %s\n' "$round" "$(load)"
  printf '| build | server alone | with mcptest | ratio | target |\n|---|---|---|---|---|\n'
  printf '| cold `cargo test --no-run` | %s s | %s s | %sx | <= 2.0x |\n' "$alone_s" "$with_s" "$(ratio "$with_s" "$alone_s")"
  printf '| crates compiled | %s | %s | %sx | <= 1.6x |\n' "$alone_n" "$with_n" "$(ratio "$with_n" "$alone_n")"
  printf '| target directory | %s MB | %s MB | %sx | |\n' "$(size "$alone")" "$(size "$with")" "$(ratio "$(size "$with")" "$(size "$alone")")"
  printf '| no-op rebuild | | %s s | | |\n' "$noop_s"
  printf '| touched tests/tools.rs | | %s s | | |\n' "$test_s"
  printf '| touched src/lib.rs | | %s s | | <= 3 s |\n' "$lib_s"
  printf '\nwhat mcptest adds (packages compiled only with it): '
  comm -13 <(grep -o 'Compiling [^ ]*' "$alone.cold.log" | sort -u) \
           <(grep -o 'Compiling [^ ]*' "$with.cold.log" | sort -u) | cut -d' ' -f2 | tr '\n' ' '
  echo
done
