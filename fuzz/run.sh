#!/usr/bin/env bash
# Runs fuzz targets one after the other (see BENCHMARKS.md, "Fuzzing").
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#
#   fuzz/run.sh                         every target, 600 s each
#   fuzz/run.sh 3600                    every target, one hour each
#   fuzz/run.sh 300 url_review acp_convert
#
# Targets: from_content schema_pair url_review client_receive schema_wire
# acp_convert page_body mcp_client_request (one job each, one after the other: the machine has two
# cores, shared).
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). cargo-fuzz builds with
# nightly-only flags (`-Zsanitizer=address`); on the stable toolchain this
# script sets RUSTC_BOOTSTRAP=1, which lets stable rustc accept them. Only
# this fuzz build uses it; nothing in the workspace does. Set NICE=0 to run
# at normal priority (default: `nice -n 10`).
#
# Each run reads fuzz/seeds/<target>/ (small, committed; regenerate with
# `python3 fuzz/seeds.py` from the tests' inputs) and grows
# fuzz/corpus/<target>/ (not committed), so a later run starts where this
# one stopped; fuzz/findings/<target>/ (committed) holds the inputs of past
# findings, read too. Crashes land in fuzz/artifacts/<target>/ with the run's log
# (last-run.log, whose final stats go into BENCHMARKS.md); each one found
# becomes a test in tests/it/fuzz_regressions.rs. To reproduce one:
#
#   RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/crash-...
#   RUSTC_BOOTSTRAP=1 cargo fuzz tmin <target> fuzz/artifacts/<target>/crash-...
#
# The url_review oracle (in src/lib.rs) also runs without libFuzzer, on
# stable: `cargo test --lib` here replays its seeds and findings and
# 200,000 generated inputs.
set -euo pipefail
cd "$(dirname "$0")"

all=(from_content schema_pair url_review client_receive schema_wire acp_convert page_body mcp_client_request)
seconds="${1:-600}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=("${all[@]}")
fi

export RUSTC_BOOTSTRAP=1
status=0
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    seeds=()
    if [ -d "seeds/$target" ]; then
        seeds=("seeds/$target")
    fi
    # Past findings (fixed, each a test in tests/it/fuzz_regressions.rs) are
    # replayed first, so a regression stops the run at once.
    if [ -d "findings/$target" ]; then
        seeds+=("findings/$target")
    fi
    echo "== $target: ${seconds}s"
    # One job on one core. A crash stops this target, not the others.
    nice -n "${NICE:-10}" cargo fuzz run "$target" "corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10 \
        2>&1 | tee "artifacts/$target/last-run.log" || status=1
done
exit "$status"
