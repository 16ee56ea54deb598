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
#                (median of CLEAN_RUNS builds, default 1)
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
CLEAN_RUNS="${CLEAN_RUNS:-1}"
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

# Runs cargo in $1 with its own target dir; prints the wall seconds.
timed_build() { # $1: dir, $2: log file
    local dir="$1" log="$2"
    (
        cd "$dir"
        CARGO_TARGET_DIR="$dir/target" "$TIME" -f "%e" -o "$log.time" \
            cargo build --offline >"$log" 2>&1
    )
    cat "$log.time"
}

median() {
    sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

measure() { # $1: elicit|serde, $2: N -> "clean incremental crates tree lines_per_struct"
    local v="$1" n="$2" dir
    dir="$(generate "$v" "$n")"
    (cd "$dir" && cargo generate-lockfile --quiet && cargo fetch --quiet)
    local cleans=()
    for ((r = 0; r < CLEAN_RUNS; r++)); do
        rm -rf "$dir/target"
        cleans+=("$(timed_build "$dir" "$dir/clean.log")")
    done
    local clean
    clean="$(printf '%s\n' "${cleans[@]}" | median)"
    local crates
    crates="$(grep -c "^ *Compiling " "$dir/clean.log" || true)"
    local incr=()
    for ((r = 0; r < INCREMENTAL_RUNS; r++)); do
        touch "$dir/src/forms.rs"
        incr+=("$(timed_build "$dir" "$dir/incremental-$r.log")")
    done
    local incremental
    incremental="$(printf '%s\n' "${incr[@]}" | median)"
    local tree
    tree="$(cd "$dir" && cargo tree --offline -e normal,build --prefix none | sed 's/ (\*)$//' | sort -u | wc -l)"
    local per_struct="-"
    if [ "$EXPAND" = 1 ]; then
        (
            cd "$dir"
            RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$dir/target-expand" \
                cargo rustc --offline --quiet --lib -- -Zunpretty=expanded >"$dir/expanded.rs" 2>"$dir/expand.log"
        )
        local lines
        lines="$(wc -l <"$dir/expanded.rs")"
        per_struct="$((lines / n))"
    fi
    echo "$clean $incremental $crates $tree $per_struct"
}

{
    echo "# Compile time: #[derive(Elicit)] vs #[derive(Deserialize, JsonSchema)]"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, clean: median of $CLEAN_RUNS, incremental: median of $INCREMENTAL_RUNS, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version)"
    echo
    echo "| structs | elicit clean (s) | serde+schemars clean (s) | ratio | elicit incremental (s) | serde+schemars incremental (s) | ratio | crates compiled (elicit / serde) | cargo tree (elicit / serde) | expanded lines per struct (elicit / serde) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$RESULTS"

for n in "${COUNTS[@]}"; do
    echo "== $n structs" >&2
    read -r ec ei ek et ep <<<"$(measure elicit "$n")"
    read -r sc si sk st sp <<<"$(measure serde "$n")"
    ratio_clean="$(awk -v a="$ec" -v b="$sc" 'BEGIN {printf "%.2f", a / b}')"
    ratio_incr="$(awk -v a="$ei" -v b="$si" 'BEGIN {printf "%.2f", a / b}')"
    echo "| $n | $ec | $sc | $ratio_clean | $ei | $si | $ratio_incr | $ek / $sk | $et / $st | $ep / $sp |" >>"$RESULTS"
    tail -n 1 "$RESULTS" >&2
done

echo >&2
cat "$RESULTS"
