#!/usr/bin/env bash
# Runs the fuzz targets one after the other (see BENCHMARKS.md).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]    default: 600 s, both targets
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). cargo-fuzz builds with
# nightly-only flags (`-Zsanitizer=address`); on the stable toolchain this
# script sets RUSTC_BOOTSTRAP=1, which lets stable rustc accept them. Only
# this fuzz build uses it; nothing in the workspace does.
#
# Crashes land in fuzz/artifacts/<target>/; each one found becomes a test in
# tests/fuzz_regressions.rs. The corpus (fuzz/corpus/, not committed) makes a
# later run start where this one stopped.
set -euo pipefail
cd "$(dirname "$0")"

seconds="${1:-600}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(from_content schema_pair)
fi

export RUSTC_BOOTSTRAP=1
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "== $target: ${seconds}s"
    # One job on one core: the machine has two, shared.
    cargo fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10 \
        2>&1 | tee "artifacts/$target/last-run.log"
done
