#!/usr/bin/env bash
# What mcptest costs a new user's build: a small rmcp server crate
# (template/: the server, three test files with #[mcp_test], checks, a
# snapshot and an in-process `handler =` test), built cold in its own target
# dir three times —
#   alone:   the server alone (no tests/, no mcptest);
#   default: with mcptest's default features and those tests;
#   schema:  the same plus the checks a tool author reaches for first
#            (template/tests-schema/: `input_schemas_valid`,
#            `matches_output_schema`), with whatever feature of mcptest they
#            need beyond the default (read from mcptest's Cargo.toml, so the
#            variant builds whether or not they join the default)
# — then, on each mcptest copy, a no-op rebuild, a touched test file and a
# touched src/lib.rs (three times, the median taken). Prints the figures and
# the ratios.
#
#   bash benches/build-cost/run.sh          # ROUNDS=1 by default; ROUNDS=3 adds the medians
#   SOURCE=path bash benches/build-cost/run.sh
#
# mcptest reaches the copies as a user's crate gets it from crates.io: a
# dependency that is not a local path, which cargo builds without
# incremental compilation (and with its lints capped). A git repository of
# this working tree (committed or not; a snapshot under target/) stands in
# for the registry, which no benchmark may publish to. SOURCE=path gives the
# copies a `path =` dependency instead, as for a crate inside this
# workspace: cargo then builds mcptest's crates incrementally, which costs a
# cold build more (about 4 s of mcptest-core's 17 s on a 2-core machine).
#
# Each round builds the three copies cold one after the other (the order
# rotating between rounds), so each ratio is taken against a baseline of the
# same round. Beside wall seconds, each build's CPU seconds (user + system of
# cargo and every rustc it ran) are printed with their ratios: on a machine
# shared with other work the CPU ratio moves much less than the wall one,
# and the load average is printed before and after every build. The targets
# (<= 1.7x default, <= 2.0x schema, <= 3 s touched src/lib.rs) are judged on
# the wall figures of a quiet machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ROUNDS="${ROUNDS:-1}"
WORK="$ROOT/target/bench-build-cost"
TEMPLATE="$ROOT/benches/build-cost/template"
SOURCE="${SOURCE:-git}"
RMCP=$(awk '/^name = "rmcp"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")

log() { printf '[build-cost] %s\n' "$*" >&2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# The features of mcptest the schema checks need beyond its default: the
# `json-schema` feature while it exists and is not a default one, else none.
SCHEMA_FEATURES=$(python3 - "$ROOT/mcptest/Cargo.toml" <<'PY'
import sys, tomllib
features = tomllib.load(open(sys.argv[1], "rb")).get("features", {})
default = set(features.get("default", []))
print("json-schema" if "json-schema" in features and "json-schema" not in default else "")
PY
)

# The dependency line's source of mcptest: a git snapshot of the working
# tree (the files git would add: tracked, or new and not ignored), committed
# with fixed dates so that the same tree is the same commit, whose checkout
# cargo then reuses; or the path itself.
case "$SOURCE" in
  git)
    SNAPSHOT="$WORK/source"
    rm -rf "$SNAPSHOT"
    mkdir -p "$SNAPSHOT"
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
      | tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$SNAPSHOT"
    (cd "$SNAPSHOT" && git init -q && git add -A \
      && GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        git -c user.name=bench -c user.email=bench@localhost commit -q -m snapshot)
    MCPTEST_DEP="git = \"file://$SNAPSHOT\""
    ;;
  path) MCPTEST_DEP="path = \"$ROOT/mcptest\"" ;;
  *) log "SOURCE must be git or path, not $SOURCE"; exit 2 ;;
esac

# copy NAME: a fresh copy of the template, with the same dependency versions
# as this workspace (its Cargo.lock).
copy() {
  local dir="$WORK/$1" features=""
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$TEMPLATE/src" "$dir/"
  [ "$1" = schema ] && [ -n "$SCHEMA_FEATURES" ] && features=", features = [\"$SCHEMA_FEATURES\"]"
  sed -e "s|@RMCP@|=$RMCP|" -e "s|@MCPTEST@|$MCPTEST_DEP$features|" \
    "$TEMPLATE/Cargo.toml.in" > "$dir/Cargo.toml"
  cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
  case "$1" in
    alone) sed -i -e '/^\[dev-dependencies\]/,$d' "$dir/Cargo.toml" ;;
    default) cp -r "$TEMPLATE/tests" "$dir/" ;;
    schema) cp -r "$TEMPLATE/tests" "$dir/" && cp "$TEMPLATE"/tests-schema/*.rs "$dir/tests/" ;;
  esac
  echo "$dir"
}

# build DIR LOG: wall seconds, CPU seconds and crates compiled of
# `cargo test --no-run`, its output kept in LOG.
build() {
  local dir="$1" log="$2" times
  times=$(mktemp)
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" /usr/bin/time -o "$times" -f '%e %U %S' \
    cargo test --no-run --color never) > "$log" 2>&1 \
    || { cat "$log" >&2; rm -f "$times"; log "build failed in $dir"; exit 1; }
  read -r wall user sys < "$times"
  rm -f "$times"
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }') $(grep -c '^ *Compiling ' "$log")"
}

size() { du -sm "$1/target" | cut -f1; }

declare -A WALL CPU CRATES LOADS
# Each round's ratios, for their median over the rounds (the wall ratio of
# one round moves by ±0.1x with the machine's state).
declare -A RATIOS
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'; }
for round in $(seq 1 "$ROUNDS"); do
  log "round $round/$ROUNDS (rmcp $RMCP; mcptest as a $SOURCE dependency; schema checks need: ${SCHEMA_FEATURES:-the default})"
  rm -f "$WORK"/*.log
  order=(alone default schema)
  for _ in $(seq 2 "$round"); do order=("${order[@]:1}" "${order[0]}"); done
  for name in "${order[@]}"; do
    dir=$(copy "$name")
    before=$(load)
    read -r WALL[$name] CPU[$name] CRATES[$name] <<<"$(build "$dir" "$dir.cold.log")"
    # A failed build exits only the $(..) it ran in: stop here, so that no
    # figure is ever printed for a build that did not happen.
    [ -n "${WALL[$name]}" ] || { log "no figures for $name: its build failed (above)"; exit 1; }
    LOADS[$name]="$before → $(load)"
    log "$name: ${WALL[$name]} s wall, ${CPU[$name]} s CPU (load ${LOADS[$name]})"
  done
  printf '\nround %s\n' "$round"
  printf '| cold `cargo test --no-run` | wall | ratio | CPU | ratio | crates | ratio | target | load before → after |\n'
  printf '|---|---|---|---|---|---|---|---|---|\n'
  for name in default schema; do
    RATIOS[$name.wall]+=" $(ratio "${WALL[$name]}" "${WALL[alone]}")"
    RATIOS[$name.cpu]+=" $(ratio "${CPU[$name]}" "${CPU[alone]}")"
  done
  for name in alone default schema; do
    case $name in default) target='<= 1.7x' ;; schema) target='<= 2.0x' ;; *) target='' ;; esac
    printf '| %s | %s s | %sx | %s s | %sx | %s | %sx | %s | %s |\n' "$name" \
      "${WALL[$name]}" "$(ratio "${WALL[$name]}" "${WALL[alone]}")" \
      "${CPU[$name]}" "$(ratio "${CPU[$name]}" "${CPU[alone]}")" \
      "${CRATES[$name]}" "$(ratio "${CRATES[$name]}" "${CRATES[alone]}")" "$target" "${LOADS[$name]}"
  done
  printf '\n| rebuild | copy | wall | target | load |\n|---|---|---|---|---|\n'
  for name in default schema; do
    dir="$WORK/$name"
    printf '| no-op | %s | %s s | | %s |\n' "$name" "$(build "$dir" "$dir.noop.log" | cut -d' ' -f1)" "$(load)"
    touch "$dir/tests/tools.rs"
    printf '| touched tests/tools.rs | %s | %s s | | %s |\n' "$name" "$(build "$dir" "$dir.test.log" | cut -d' ' -f1)" "$(load)"
    # The first rebuild after a cold build is sometimes much slower than the
    # next ones (7-12 s against ~3 s on a 2-core machine, cause not pinned
    # down): the median of three, each sample shown.
    samples=()
    for _ in 1 2 3; do
      touch "$dir/src/lib.rs"
      samples+=("$(build "$dir" "$dir.lib.log" | cut -d' ' -f1)")
    done
    printf '| touched src/lib.rs (median of %s s) | %s | %s s | <= 3 s | %s |\n' "${samples[*]}" "$name" \
      "$(printf '%s\n' "${samples[@]}" | sort -g | sed -n 2p)" "$(load)"
  done
  printf '\ntarget directories: alone %s MB, default %s MB, schema %s MB\n' \
    "$(size "$WORK/alone")" "$(size "$WORK/default")" "$(size "$WORK/schema")"
  printf 'what mcptest adds by default (packages compiled only with it): '
  comm -13 <(grep -o 'Compiling [^ ]*' "$WORK/alone.cold.log" | sort -u) \
           <(grep -o 'Compiling [^ ]*' "$WORK/default.cold.log" | sort -u) | cut -d' ' -f2 | tr '\n' ' '
  printf '\nwhat the schema checks add to that: '
  comm -13 <(grep -o 'Compiling [^ ]*' "$WORK/default.cold.log" | sort -u) \
           <(grep -o 'Compiling [^ ]*' "$WORK/schema.cold.log" | sort -u) | cut -d' ' -f2 | tr '\n' ' '
  echo
done
if [ "$ROUNDS" -gt 1 ]; then
  printf '\nmedian over %s rounds (each round: ratio to its own "alone" build)\n' "$ROUNDS"
  printf '| build | wall ratio (rounds) | CPU ratio (rounds) | target |\n|---|---|---|---|\n'
  for name in default schema; do
    case $name in default) target='<= 1.7x' ;; schema) target='<= 2.0x' ;; esac
    # shellcheck disable=SC2086 # the rounds' ratios, one word each
    printf '| %s | %sx (%s) | %sx (%s) | %s |\n' "$name" \
      "$(median ${RATIOS[$name.wall]})" "${RATIOS[$name.wall]# }" \
      "$(median ${RATIOS[$name.cpu]})" "${RATIOS[$name.cpu]# }" "$target"
  done
fi
