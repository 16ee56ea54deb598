#!/usr/bin/env bash
# What a user pays to build elicit (BENCHMARKS.md, "Build cost").
#
#   bench/build-cost.sh                 every table: forms, shapes, agent,
#                                       features
#   bench/build-cost.sh forms [N]       N ten-field forms (default 200):
#                                       #[derive(Elicit)] against
#                                       #[derive(Deserialize, JsonSchema)]
#   bench/build-cost.sh agent           a realistic ACP agent (the SDK over
#                                       stdio, futures' executor, 20 forms
#                                       asked in turn by one prompt handler):
#                                       elicit-core `acp-sdk` against the same
#                                       agent by hand (serde + schemars, the
#                                       schema sent untyped, nothing checked)
#   bench/build-cost.sh shapes [N]      N ten-field forms (default 200), each
#                                       with its own enum, a multi-select of
#                                       it (`Vec<LevelI>`), an `email`, a
#                                       `date`, a range and a length, and
#                                       used: its schema written as JSON, an
#                                       answer read from owned content; both
#                                       ways, as `forms`
#   bench/build-cost.sh check [N]       what a form's own rule costs: N
#                                       ten-field forms (default 200) three
#                                       ways: without rules; with a
#                                       cross-field rule `pub fn(&Form) ->
#                                       Result<(), ContentError>` per form
#                                       (compiled either way), not attached;
#                                       attached with
#                                       `#[elicit(check = FormI::rule)]`
#   bench/build-cost.sh features        elicit-core alone: default features,
#                                       then with `unicode`, with `sensitive`,
#                                       with `oauth` (which needs `sensitive`)
#
# Every crate is generated under target/build-cost/ (BUILD_COST_DIR), outside
# the workspace, with a `[workspace]` of its own, so no feature of the
# workspace is unified in: what is measured is what a user builds. Each has
# its own target directory. Cargo.lock is seeded from the workspace's, so the
# versions are the ones CI tests; the registry is fetched before timing.
#
# clean   `cargo build` (dev profile) in an empty target directory, every
#         dependency compiled: the median of CLEAN_RUNS (3), the variants
#         alternating run by run, so a change in the machine's load falls on
#         all of them.
# touch   `touch` the file with the forms, `cargo build`: the median of
#         TOUCH_RUNS (3), as a user rebuilds (incremental on, the default).
# crates  the `Compiling` lines of a clean build.
#
# The variables that change what cargo builds (CARGO_INCREMENTAL, RUSTFLAGS,
# CARGO_PROFILE_*, CARGO_BUILD_*) are cleared: a user has none of them.
# Run it when nothing else builds; compare the variants of one run.
# Results: target/build-cost/results.md (each table is also printed).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${BUILD_COST_DIR:-$ROOT/target/build-cost}"
CLEAN_RUNS="${CLEAN_RUNS:-3}"
TOUCH_RUNS="${TOUCH_RUNS:-3}"
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "needs /usr/bin/time (Debian: apt-get install time)" >&2
    exit 1
fi
for v in $(env | grep -oE '^(CARGO_INCREMENTAL|RUSTFLAGS|CARGO_ENCODED_RUSTFLAGS|CARGO_PROFILE_[A-Z_]+|CARGO_BUILD_[A-Z_]+)=' | tr -d =); do
    unset "$v"
done
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

# One ten-field form: strings with a length, a pattern, an email, an optional
# URI; bounded integers; a float; a bool; a single- and a multi-select.
form_struct() { # $1: elicit|serde, $2: index
    local i="$2" a
    if [ "$1" = elicit ]; then a=elicit; else a=schemars; fi
    local derive='#[derive(Elicit, Debug, Clone, PartialEq)]'
    [ "$1" = serde ] && derive='#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]'
    local pattern='pattern = "^[a-z][a-z0-9_]*$"' uri=uri
    [ "$1" = serde ] && pattern='regex(pattern = "^[a-z][a-z0-9_]*$")' && uri=url
    cat <<EOF

/// Form number $i.
$derive
pub struct Form$i {
    /// The name shown to others.
    #[$a(length(min = 2, max = 40))]
    pub name: String,
    /// A lowercase handle.
    #[$a($pattern, length(max = 16))]
    pub handle: String,
    /// Where to write to.
    #[$a(email)]
    pub email: String,
    /// A home page, if any.
    #[$a($uri)]
    pub homepage: Option<String>,
    /// Age in years.
    #[$a(range(min = 13, max = 120))]
    pub age: u8,
    /// How many replicas to run.
    #[$a(range(min = 1, max = 64))]
    pub replicas: i32,
    /// The share of traffic, from 0 to 1.
    #[$a(range(min = 0.0, max = 1.0))]
    pub ratio: f64,
    /// Whether to notify the team.
    pub notify: Option<bool>,
    /// How aggressive to be.
    pub strategy: Strategy,
    /// Where to deploy.
    #[$a(length(min = 1, max = 3))]
    pub envs: Vec<Environment>,
}
EOF
}

new_crate() { # $1: dir, $2: name, $3: kind (lib|bin), then dependency lines
    local dir="$1" name="$2" kind="$3"
    shift 3
    rm -rf "$dir"
    mkdir -p "$dir/src"
    {
        printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n' "$name"
        printf '%s\n' "$@"
        printf '\n# Not part of the repository'"'"'s workspace.\n[workspace]\n'
    } >"$dir/Cargo.toml"
    cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
}

forms_file() { # $1: elicit|serde, $2: N -> stdout
    echo "use super::*;"
    for ((i = 0; i < $2; i++)); do
        form_struct "$1" "$i"
    done
}

# A crate of generated forms: on elicit-core, or on serde, serde_json and
# schemars.
new_forms_crate() { # $1: dir, $2: name, $3: elicit|serde
    if [ "$3" = elicit ]; then
        new_crate "$1" "$2" lib "elicit-core = { path = \"$ROOT/elicit-core\" }"
    else
        new_crate "$1" "$2" lib 'serde = { version = "1.0.200", features = ["derive"] }' \
            'serde_json = "1.0.120"' 'schemars = "1.0"'
    fi
}

gen_forms() { # $1: elicit|serde, $2: N -> dir
    local v="$1" n="$2" dir="$WORK/forms-$1-$2"
    new_forms_crate "$dir" "forms-$v-$n" "$v"
    {
        echo "//! $n generated ten-field forms."
        echo "#![allow(dead_code)]"
        if [ "$v" = elicit ]; then
            echo "use elicit_core::Elicit;"
        else
            printf 'use schemars::JsonSchema;\nuse serde::Deserialize;\n'
        fi
        enums "$v"
        printf '\nmod forms;\npub use forms::*;\n'
    } >"$dir/src/lib.rs"
    forms_file "$v" "$n" >"$dir/src/forms.rs"
    echo "$dir"
}

# The forms of gen_forms, each with a cross-field rule: $1 fns (the rule
# written, not attached) or attr (`#[elicit(check = ..)]`), $2: N -> dir.
gen_forms_rule() {
    local how="$1" n="$2" dir="$WORK/forms-rule-$1-$2" i
    new_crate "$dir" "forms-rule-$how-$n" lib "elicit-core = { path = \"$ROOT/elicit-core\" }"
    {
        echo "//! $n generated ten-field forms, each with a rule ($how)."
        echo "#![allow(dead_code)]"
        echo "use elicit_core::Elicit;"
        enums elicit
        printf '\nmod forms;\npub use forms::*;\n'
    } >"$dir/src/lib.rs"
    {
        forms_file elicit "$n" |
            if [ "$how" = attr ]; then
                sed -E 's/^pub struct Form([0-9]+) \{$/#[elicit(check = Form\1::rule)]\npub struct Form\1 {/'
            else
                cat
            fi
        for ((i = 0; i < n; i++)); do
            cat <<EOF

impl Form$i {
    /// A rule across fields: the handle is not the name. \`pub\`, so it is
    /// compiled whether attached or not: the rows differ by the glue only.
    pub fn rule(&self) -> Result<(), elicit_core::ContentError> {
        if self.handle == self.name {
            return Err(elicit_core::FieldError::rule("handle", "must differ from the name").into());
        }
        Ok(())
    }
}
EOF
        done
    } >"$dir/src/forms.rs"
    echo "$dir"
}

# The user-like shape (`shapes`): each ten-field form with its own
# single-select enum, a multi-select of it (`Vec<LevelI>`), an `email` and a
# `date` field, a range and a length; each used (gen_shapes).
shape_struct() { # $1: elicit|serde, $2: index
    local i="$2" a=elicit derive='#[derive(Elicit, Debug, Clone, PartialEq)]'
    local ederive='#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "lowercase")]' date=date
    if [ "$1" = serde ]; then
        a=schemars derive='#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]'
        ederive='#[derive(Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]' date='extend("format" = "date")'
    fi
    cat <<EOF

/// The levels of form number $i.
$ederive
pub enum Level$i {
    Low,
    Medium,
    High,
}

/// Form number $i.
$derive
pub struct Shape$i {
    /// The name shown to others.
    #[$a(length(min = 2, max = 40))]
    pub name: String,
    /// Where to write to.
    #[$a(email)]
    pub email: String,
    /// The day it starts.
    #[$a($date)]
    pub start: String,
    /// How many replicas to run.
    #[$a(range(min = 1, max = 64))]
    pub replicas: i32,
    /// The level.
    pub level: Level$i,
    /// The levels to watch.
    #[$a(length(min = 1, max = 3))]
    pub levels: Vec<Level$i>,
    /// Whether to notify the team.
    pub notify: Option<bool>,
    /// The share of traffic, from 0 to 1.
    #[$a(range(min = 0.0, max = 1.0))]
    pub ratio: f64,
    /// A note, if any.
    pub note: Option<String>,
    /// How many to keep.
    pub keep: u16,
}
EOF
}

gen_shapes() { # $1: elicit|serde, $2: N -> dir
    local v="$1" n="$2" dir="$WORK/shapes-$1-$2" i
    new_forms_crate "$dir" "shapes-$v-$n" "$v"
    {
        echo "//! $n generated ten-field forms, each with its own enum, each read"
        echo "//! from owned content and its schema written."
        echo "#![allow(dead_code)]"
        printf '\nmod forms;\npub use forms::*;\n'
    } >"$dir/src/lib.rs"
    {
        if [ "$v" = elicit ]; then
            echo "use elicit_core::{Content, ContentError, Elicit};"
        else
            printf 'use schemars::JsonSchema;\nuse serde::Deserialize;\n'
        fi
        for ((i = 0; i < n; i++)); do
            shape_struct "$v" "$i"
            # Used as a program uses a form: its schema sent, an answer
            # read. (Code compiled where it is used is compiled here.)
            if [ "$v" = elicit ]; then
                cat <<EOF

pub fn schema$i() -> String {
    Shape$i::schema_json().into_owned()
}

pub fn read$i(content: Content) -> Result<Shape$i, ContentError> {
    Shape$i::from_content_owned(content)
}
EOF
            else
                cat <<EOF

pub fn schema$i() -> String {
    serde_json::to_string(&schemars::schema_for!(Shape$i)).unwrap()
}

pub fn read$i(content: serde_json::Map<String, serde_json::Value>) -> serde_json::Result<Shape$i> {
    serde_json::from_value(serde_json::Value::Object(content))
}
EOF
            fi
        done
    } >"$dir/src/forms.rs"
    echo "$dir"
}

AGENT_FORMS=20

# The agent's `serve`, the same handlers both ways: $1 the state it keeps
# (lines, or nothing), $2 what `initialize` records (or nothing), $3 how the
# turn starts off the dispatch loop, $4 the call that asks form N (`N` is
# the number), $5 and $6 the patterns of an accepted answer and of any other.
agent_serve() {
    echo
    echo "async fn serve(transport: impl ConnectTo<Agent> + 'static) -> Result<(), agent_client_protocol::Error> {"
    if [ -n "$1" ]; then printf '%s\n' "$1"; fi
    cat <<'EOF'
    Agent
        .v1()
        .name("agent")
        .on_receive_request(
            async move |request: InitializeRequest, responder, _cx| {
EOF
    if [ -n "$2" ]; then printf '%s\n' "$2"; fi
    cat <<'EOF'
                responder.respond(InitializeResponse::new(request.protocol_version))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |_: NewSessionRequest, responder, _cx| responder.respond(NewSessionResponse::new("s")),
            on_receive_request!(),
        )
        .on_receive_request(
            async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
EOF
    printf '%s\n' "$3"
    echo "                    let mut accepted = 0;"
    local i ask
    for ((i = 0; i < AGENT_FORMS; i++)); do
        ask="${4//N/$i}"
        cat <<EOF
                    match $ask.await {
                        $5 => accepted += usize::from(form.notify.unwrap_or(true)),
                        $6 => {}
                        Err(error) => eprintln!("form $i: {error}"),
                    }
EOF
    done
    cat <<'EOF'
                    eprintln!("{accepted} accepted");
                    responder.respond(PromptResponse::new(StopReason::EndTurn))
                })
            },
            on_receive_request!(),
        )
        .connect_to(transport)
        .await
}
EOF
}

# The agent both ways: `initialize`, `session/new`, and a `session/prompt`
# that asks its forms in turn, off the dispatch loop, and answers with how
# many were accepted.
gen_agent() { # $1: elicit|serde -> dir
    local v="$1" dir="$WORK/agent-$1"
    local sdk='agent-client-protocol = { version = "5.2", features = ["stdio"] }'
    local fut='futures = { version = "0.3", features = ["executor"] }'
    if [ "$v" = elicit ]; then
        new_crate "$dir" "agent-$v" bin "elicit-core = { path = \"$ROOT/elicit-core\", features = [\"acp-sdk\"] }" "$sdk" "$fut"
    else
        new_crate "$dir" "agent-$v" bin "$sdk" "$fut" 'serde = { version = "1.0.200", features = ["derive"] }' \
            'serde_json = "1.0.120"' 'schemars = "1.0"'
    fi
    forms_file "$v" "$AGENT_FORMS" >"$dir/src/forms.rs"
    {
        cat <<'EOF'
//! A generated ACP agent that asks its forms in turn.
#![allow(dead_code)]
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    InitializeRequest, InitializeResponse, NewSessionRequest, NewSessionResponse, PromptRequest,
    PromptResponse, StopReason,
};
use agent_client_protocol::{Agent, Client, ConnectTo, on_receive_request};
EOF
        if [ "$v" = elicit ]; then
            cat <<'EOF'
use elicit_core::acp::sdk::prelude::*;

mod forms;
use forms::*;
EOF
            enums elicit
            agent_serve '    let elicitations = AgentElicitations::new();
    let on_initialize = elicitations.clone();' \
                '                on_initialize.initialize(&request);' \
                '                elicitations.spawn(&cx, async move |elicitor| {
                    let scope = ElicitationScope::session(prompt.session_id.to_string());' \
                'elicitor.elicit_form::<FormN>(scope.clone(), "Form N")' 'Ok(Outcome::Accepted(form))' 'Ok(_)'
        else
            cat <<'EOF'
use agent_client_protocol::UntypedMessage;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;

mod forms;
use forms::*;
EOF
            enums serde
            cat <<'EOF'

/// Sends the form's schema untyped and reads an accepted answer with serde:
/// nothing the schema says is checked.
async fn ask<T: DeserializeOwned + JsonSchema>(
    cx: &ConnectionTo<Client>,
    session: &str,
    message: &str,
) -> Result<Option<T>, agent_client_protocol::Error> {
    let params = serde_json::json!({
        "sessionId": session,
        "mode": "form",
        "message": message,
        "requestedSchema": schemars::schema_for!(T),
    });
    let response = cx
        .send_request(UntypedMessage::new("elicitation/create", params)?)
        .block_task()
        .await?;
    if response["action"] != "accept" {
        return Ok(None);
    }
    serde_json::from_value(response["content"].clone())
        .map(Some)
        .map_err(agent_client_protocol::Error::into_internal_error)
}
EOF
            agent_serve '' '' \
                '                let task = cx.clone();
                cx.spawn(async move {
                    let session = prompt.session_id.to_string();' \
                'ask::<FormN>(&task, &session, "Form N")' 'Ok(Some(form))' 'Ok(None)'
        fi
        cat <<'EOF'

fn main() -> Result<(), agent_client_protocol::Error> {
    futures::executor::block_on(serve(agent_client_protocol::Stdio::new()))
}
EOF
    } >"$dir/src/main.rs"
    echo "$dir"
}

gen_features() { # $1: feature list (comma-separated) -> dir
    local dir="$WORK/features-${1//,/-}" list=""
    local f
    IFS=, read -ra fs <<<"$1"
    for f in "${fs[@]}"; do list+="\"$f\", "; done
    new_crate "$dir" "features-${1//,/-}" lib \
        "elicit-core = { path = \"$ROOT/elicit-core\", default-features = false, features = [${list%, }] }"
    echo '//! elicit-core alone.' >"$dir/src/lib.rs"
    echo "$dir"
}

# --- measurement --------------------------------------------------------------

# Builds in $1 with its own target directory; prints "wall cpu" in seconds
# (cpu = user + system of cargo and every rustc it ran).
timed_build() { # $1: dir, $2: log file
    (
        cd "$1"
        CARGO_TARGET_DIR="$1/target" "$TIME" -f "%e %U %S" -o "$2.time" \
            cargo build --offline >"$2" 2>&1
    ) || { cat "$2" >&2; exit 1; }
    awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$2.time"
}

median() {
    sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

# "wall_median cpu_median" of "wall cpu" lines.
medians() {
    echo "$(cut -d' ' -f1 <<<"$1" | median) $(cut -d' ' -f2 <<<"$1" | median)"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
crates() { grep -c "^ *Compiling " "$1/clean.log" || true; }

prepare() { # dirs...: lockfile settled and registry fetched before timing
    local d
    for d in "$@"; do
        (cd "$d" && cargo fetch --quiet)
    done
}

# Clean builds of every dir, alternating; sets CLEAN[dir]="wall cpu".
declare -A CLEAN TOUCH
clean_all() {
    local r d runs
    declare -A acc=()
    for ((r = 0; r < CLEAN_RUNS; r++)); do
        for d in "$@"; do
            rm -rf "$d/target"
            acc[$d]+="$(timed_build "$d" "$d/clean.log")"$'\n'
        done
    done
    for d in "$@"; do
        runs="${acc[$d]}"
        CLEAN[$d]="$(medians "${runs%$'\n'}")"
    done
}

# Touch rebuilds of every dir (its src/forms.rs), alternating.
touch_all() {
    local r d runs
    declare -A acc=()
    for ((r = 0; r < TOUCH_RUNS; r++)); do
        for d in "$@"; do
            touch "$d/src/forms.rs"
            acc[$d]+="$(timed_build "$d" "$d/touch.log")"$'\n'
        done
    done
    for d in "$@"; do
        runs="${acc[$d]}"
        TOUCH[$d]="$(medians "${runs%$'\n'}")"
    done
}

header() {
    echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version); medians of $CLEAN_RUNS clean and $TOUCH_RUNS touch builds, alternating; elicit at $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- elicit-core elicit-derive elicit-pattern || echo ' (with uncommitted changes)')"
}

# A two-variant table: elicit against the hand-written baseline.
compare() { # $1: title, $2: elicit dir, $3: baseline dir, $4: baseline name
    local e="$2" b="$3" ec ecc bc bcc et etc bt btc
    prepare "$e" "$b"
    clean_all "$e" "$b"
    touch_all "$e" "$b"
    read -r ec ecc <<<"${CLEAN[$e]}"
    read -r bc bcc <<<"${CLEAN[$b]}"
    read -r et etc <<<"${TOUCH[$e]}"
    read -r bt btc <<<"${TOUCH[$b]}"
    {
        echo
        echo "## $1"
        echo
        header
        echo
        echo "| | crates | clean wall | clean CPU | touch wall | touch CPU |"
        echo "|---|---|---|---|---|---|"
        echo "| elicit | $(crates "$e") | $ec s | $ecc s | $et s | $etc s |"
        echo "| $4 | $(crates "$b") | $bc s | $bcc s | $bt s | $btc s |"
        echo "| **ratio** | | **$(ratio "$ec" "$bc")** | $(ratio "$ecc" "$bcc") | **$(ratio "$et" "$bt")** | $(ratio "$etc" "$btc") |"
    } | tee -a "$RESULTS"
}

run_forms() {
    local n="${1:-200}"
    compare "$n ten-field forms: #[derive(Elicit)] against #[derive(Deserialize, JsonSchema)]" \
        "$(gen_forms elicit "$n")" "$(gen_forms serde "$n")" "serde + schemars"
}

run_shapes() {
    local n="${1:-200}"
    compare "$n ten-field forms, each with its own enum, a multi-select of it, an email and a date: #[derive(Elicit)] against #[derive(Deserialize, JsonSchema)]" \
        "$(gen_shapes elicit "$n")" "$(gen_shapes serde "$n")" "serde + schemars"
}

run_check() {
    local n="${1:-200}" plain fns attr d w c tw tc
    plain="$(gen_forms elicit "$n")"
    fns="$(gen_forms_rule fns "$n")"
    attr="$(gen_forms_rule attr "$n")"
    prepare "$plain" "$fns" "$attr"
    clean_all "$plain" "$fns" "$attr"
    touch_all "$plain" "$fns" "$attr"
    {
        echo
        echo "## A form's own rule: $n ten-field forms, \`#[elicit(check = path)]\` on each"
        echo
        header
        echo
        echo "| forms | clean wall | clean CPU | touch wall | touch CPU |"
        echo "|---|---|---|---|---|"
        for d in "$plain" "$fns" "$attr"; do
            read -r w c <<<"${CLEAN[$d]}"
            read -r tw tc <<<"${TOUCH[$d]}"
            case "$d" in
            "$plain") echo "| without rules | $w s | $c s | $tw s | $tc s |" ;;
            "$fns") echo "| a rule fn per form, not attached | $w s | $c s | $tw s | $tc s |" ;;
            *) echo "| the rule attached (\`check = FormI::rule\`) | $w s | $c s | $tw s | $tc s |" ;;
            esac
        done
    } | tee -a "$RESULTS"
}

run_agent() {
    compare "An ACP agent with $AGENT_FORMS forms: elicit-core (acp-sdk) against the same agent by hand" \
        "$(gen_agent elicit)" "$(gen_agent serde)" "by hand (serde + schemars)"
}

run_features() {
    # Each set, and the set its cost is counted over.
    local sets=(derive derive,unicode derive,sensitive derive,oauth)
    local bases=("" derive derive derive,sensitive)
    local dirs=() s d
    for s in "${sets[@]}"; do dirs+=("$(gen_features "$s")"); done
    prepare "${dirs[@]}"
    clean_all "${dirs[@]}"
    {
        echo
        echo "## elicit-core's features (elicit-core alone, \`default-features = false\`)"
        echo
        header
        echo
        echo "| features | crates | clean wall | clean CPU | CPU over |"
        echo "|---|---|---|---|---|"
        declare -A cpu=()
        for ((i = 0; i < ${#sets[@]}; i++)); do
            d="${dirs[$i]}"
            read -r w c <<<"${CLEAN[$d]}"
            cpu[${sets[$i]}]="$c"
            base="${bases[$i]}"
            if [ -n "$base" ]; then
                over="\`$base\`: +$(awk -v a="$c" -v b="${cpu[$base]}" 'BEGIN {printf "%.2f", a - b}') s"
            else
                over="-"
            fi
            echo "| \`${sets[$i]}\` | $(crates "$d") | $w s | $c s | $over |"
        done
    } | tee -a "$RESULTS"
}

what="${1:-all}"
[ $# -gt 0 ] && shift
echo "# Build cost" >"$RESULTS"
case "$what" in
forms) run_forms "$@" ;;
shapes) run_shapes "$@" ;;
check) run_check "$@" ;;
agent) run_agent ;;
features) run_features ;;
all)
    run_forms 200
    run_shapes 200
    run_agent
    run_features
    ;;
*)
    echo "usage: bench/build-cost.sh [forms [N] | shapes [N] | check [N] | agent | features | all]" >&2
    exit 2
    ;;
esac
