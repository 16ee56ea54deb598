#!/usr/bin/env bash
# Compile-time benchmark (see BENCHMARKS.md): what a user pays to build forms.
#
#   bench/compile-time.sh [N...]        default: 1 50 200 structs
#
# For each N it generates two crates with N ten-field form structs (the
# fields of benches/forms: strings with length/pattern/format, integers with
# ranges, a number, a bool, a single- and a multi-select):
#
#   elicit   #[derive(Elicit)], depending on this repository's elicit-core
#   serde    #[derive(Deserialize, JsonSchema)] with serde, serde_json and
#            schemars 1 (what an rmcp user writes for the same form)
#
# and measures, in one run, with cargo and /usr/bin/time only:
#
#   clean        `cargo build` (dev profile) in an empty target directory:
#                every dependency is compiled, as on a first build or in CI
#                (median of CLEAN_RUNS builds, default 3; the two variants
#                alternate, run by run, so a change in load falls on both)
#   incremental  `touch src/forms.rs && cargo build`: the file with the forms
#                is rebuilt (macros expanded again), dependencies are not
#                (median of INCREMENTAL_RUNS, default 3)
#   crates       how many crates the clean build compiled, and the size of
#                `cargo tree` (normal + build dependencies)
#   expanded     lines of the crate after macro expansion, per struct (this
#                one needs `-Zunpretty=expanded`, i.e. RUSTC_BOOTSTRAP=1 on
#                stable; set EXPAND=0 to skip it)
#
# Every variant has its own target directory, so each clean build is clean;
# the cargo registry (CARGO_HOME) is shared and fetched before timing, so no
# download is timed. Everything is generated under target/compile-time/
# (never committed). Results: target/compile-time/results.md.
#
# The machine is shared: run it when nothing else builds, and compare the
# two variants of one run (the ratio), not absolute times across machines.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${COMPILE_TIME_DIR:-$ROOT/target/compile-time}"
COUNTS=("$@")
if [ "${#COUNTS[@]}" -eq 0 ]; then
    COUNTS=(1 50 200)
fi
CLEAN_RUNS="${CLEAN_RUNS:-3}"
INCREMENTAL_RUNS="${INCREMENTAL_RUNS:-3}"
EXPAND="${EXPAND:-1}"
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "needs /usr/bin/time (Debian: apt-get install time)" >&2
    exit 1
fi

mkdir -p "$WORK"
RESULTS="$WORK/results.md"

# --- generation --------------------------------------------------------------

enums() { # $1: elicit|serde
    local derive
    if [ "$1" = elicit ]; then
        derive='#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "lowercase")]'
    else
        derive='#[derive(Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]'
    fi
    cat <<EOF
$derive
pub enum Strategy {
    Conservative,
    Balanced,
    Aggressive,
}

$derive
pub enum Environment {
    Dev,
    Staging,
    Production,
}
EOF
}

form_struct() { # $1: elicit|serde, $2: index
    local v="$1" i="$2"
    if [ "$v" = elicit ]; then
        cat <<EOF

/// Form number $i.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Form$i {
    /// The name shown to others.
    #[elicit(length(min = 2, max = 40))]
    pub name: String,
    /// A lowercase handle.
    #[elicit(pattern = "^[a-z][a-z0-9_]*\$", length(max = 16))]
    pub handle: String,
    /// Where to write to.
    #[elicit(email)]
    pub email: String,
    /// A home page, if any.
    #[elicit(uri)]
    pub homepage: Option<String>,
    /// Age in years.
    #[elicit(range(min = 13, max = 120))]
    pub age: u8,
    /// How many replicas to run.
    #[elicit(range(min = 1, max = 64))]
    pub replicas: i32,
    /// The share of traffic, from 0 to 1.
    #[elicit(range(min = 0.0, max = 1.0))]
    pub ratio: f64,
    /// Whether to notify the team.
    pub notify: bool,
    /// How aggressive to be.
    pub strategy: Strategy,
    /// Where to deploy.
    #[elicit(length(min = 1, max = 3))]
    pub envs: Vec<Environment>,
}
EOF
    else
        cat <<EOF

/// Form number $i.
#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Form$i {
    /// The name shown to others.
    #[schemars(length(min = 2, max = 40))]
    pub name: String,
    /// A lowercase handle.
    #[schemars(regex(pattern = "^[a-z][a-z0-9_]*\$"), length(max = 16))]
    pub handle: String,
    /// Where to write to.
    #[schemars(email)]
    pub email: String,
    /// A home page, if any.
    #[schemars(url)]
    pub homepage: Option<String>,
    /// Age in years.
    #[schemars(range(min = 13, max = 120))]
    pub age: u8,
    /// How many replicas to run.
    #[schemars(range(min = 1, max = 64))]
    pub replicas: i32,
    /// The share of traffic, from 0 to 1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ratio: f64,
    /// Whether to notify the team.
    pub notify: bool,
    /// How aggressive to be.
    pub strategy: Strategy,
    /// Where to deploy.
    #[schemars(length(min = 1, max = 3))]
    pub envs: Vec<Environment>,
}
EOF
    fi
}

generate() { # $1: elicit|serde, $2: N -> crate directory
    local v="$1" n="$2" dir="$WORK/$1-$2"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    {
        cat <<EOF
[package]
name = "forms-$v-$n"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
EOF
        if [ "$v" = elicit ]; then
            echo "elicit-core = { path = \"$ROOT/elicit-core\" }"
        else
            echo 'serde = { version = "1.0.200", features = ["derive"] }'
            echo 'serde_json = "1.0.120"'
            echo 'schemars = "1.0"'
        fi
        echo
        echo "# Not part of the repository's workspace."
        echo "[workspace]"
    } >"$dir/Cargo.toml"
    {
        echo "//! $n generated ten-field forms."
        echo "#![allow(dead_code)]"
        echo
        if [ "$v" = elicit ]; then
            echo "use elicit_core::Elicit;"
        else
            echo "use schemars::JsonSchema;"
            echo "use serde::Deserialize;"
        fi
        echo
        enums "$v"
        echo
        echo "mod forms;"
        echo "pub use forms::*;"
    } >"$dir/src/lib.rs"
    {
        echo "use super::*;"
        for ((i = 0; i < n; i++)); do
            form_struct "$v" "$i"
        done
    } >"$dir/src/forms.rs"
    echo "$dir"
}

# --- measurement --------------------------------------------------------------

# Runs cargo in $1 with its own target dir; prints "wall cpu" in seconds
# (cpu = user + system of cargo and every rustc it ran).
timed_build() { # $1: dir, $2: log file
    local dir="$1" log="$2"
    (
        cd "$dir"
        CARGO_TARGET_DIR="$dir/target" "$TIME" -f "%e %U %S" -o "$log.time" \
            cargo build --offline >"$log" 2>&1
    )
    awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$log.time"
}

median() {
    sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

# "clean incremental" medians (wall) and CPU medians of a list of
# "wall cpu" lines: prints "wall_median cpu_median".
medians() {
    local lines="$1"
    echo "$(cut -d' ' -f1 <<<"$lines" | median) $(cut -d' ' -f2 <<<"$lines" | median)"
}

crates_and_tree() { # $1: dir -> "crates tree"
    local dir="$1" crates tree
    crates="$(grep -c "^ *Compiling " "$dir/clean.log" || true)"
    tree="$(cd "$dir" && cargo tree --offline -e normal,build --prefix none | sed 's/ (\*)$//' | sort -u | wc -l)"
    echo "$crates $tree"
}

expanded_per_struct() { # $1: dir, $2: N
    local dir="$1" n="$2"
    if [ "$EXPAND" != 1 ]; then
        echo "-"
        return
    fi
    (
        cd "$dir"
        RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$dir/target-expand" \
            cargo rustc --offline --quiet --lib -- -Zunpretty=expanded >"$dir/expanded.rs" 2>"$dir/expand.log"
    )
    echo "$(($(wc -l <"$dir/expanded.rs") / n))"
}

{
    echo "# Compile time: #[derive(Elicit)] vs #[derive(Deserialize, JsonSchema)]"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, medians of $CLEAN_RUNS clean and $INCREMENTAL_RUNS incremental builds, the two variants alternating, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version)"
    echo
    echo "| structs | elicit clean (s) | serde+schemars clean (s) | ratio | CPU ratio | elicit touch (s) | serde+schemars touch (s) | ratio | CPU ratio | crates compiled (elicit / serde) | cargo tree (elicit / serde) | expanded lines per struct (elicit / serde) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$RESULTS"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

for n in "${COUNTS[@]}"; do
    echo "== $n structs" >&2
    e="$(generate elicit "$n")"
    s="$(generate serde "$n")"
    for dir in "$e" "$s"; do
        (cd "$dir" && cargo generate-lockfile --quiet && cargo fetch --quiet)
    done
    # Clean builds, alternating elicit / serde so that a change in the
    # machine's load falls on both.
    ec_runs="" sc_runs=""
    for ((r = 0; r < CLEAN_RUNS; r++)); do
        rm -rf "$e/target" "$s/target"
        ec_runs+="$(timed_build "$e" "$e/clean.log")"$'\n'
        sc_runs+="$(timed_build "$s" "$s/clean.log")"$'\n'
    done
    ei_runs="" si_runs=""
    for ((r = 0; r < INCREMENTAL_RUNS; r++)); do
        touch "$e/src/forms.rs" "$s/src/forms.rs"
        ei_runs+="$(timed_build "$e" "$e/incremental-$r.log")"$'\n'
        si_runs+="$(timed_build "$s" "$s/incremental-$r.log")"$'\n'
    done
    read -r ec ecc <<<"$(medians "${ec_runs%$'\n'}")"
    read -r sc scc <<<"$(medians "${sc_runs%$'\n'}")"
    read -r ei eic <<<"$(medians "${ei_runs%$'\n'}")"
    read -r si sic <<<"$(medians "${si_runs%$'\n'}")"
    read -r ek et <<<"$(crates_and_tree "$e")"
    read -r sk st <<<"$(crates_and_tree "$s")"
    ep="$(expanded_per_struct "$e" "$n")"
    sp="$(expanded_per_struct "$s" "$n")"
    echo "| $n | $ec | $sc | $(ratio "$ec" "$sc") | $(ratio "$ecc" "$scc") | $ei | $si | $(ratio "$ei" "$si") | $(ratio "$eic" "$sic") | $ek / $sk | $et / $st | $ep / $sp |" >>"$RESULTS"
    tail -n 1 "$RESULTS" >&2
done

echo >&2
cat "$RESULTS"
