//! elicit-core's limits as its users read them: the tables of
//! `elicit-core/docs/limits.md` (`elicit_core::reference::limits`), whose
//! every value a unit test of elicit-core checks against the code. Read at
//! compile time, so a test states a limit the way a user would look it up.
//! (Shared by `tests/memory.rs` and the fuzz targets through `#[path]`.)

/// The reference page.
const PAGE: &[u8] = include_bytes!("../../../elicit-core/docs/limits.md");

/// The number at the start of the value cell of the row whose first cell is
/// `name` (`| echoed characters | 64 characters | ..`). A missing row or a
/// value that is not a number fails the build.
pub const fn limit(name: &str) -> usize {
    let name = name.as_bytes();
    let mut at = 0;
    while at + name.len() + 4 < PAGE.len() {
        if (at == 0 || PAGE[at - 1] == b'\n') && row_named(at, name) {
            let mut i = at + 2 + name.len() + 3;
            let mut value = 0usize;
            let start = i;
            while i < PAGE.len() && PAGE[i].is_ascii_digit() {
                value = value * 10 + (PAGE[i] - b'0') as usize;
                i += 1;
            }
            assert!(i > start, "the row's value is not a number");
            return value;
        }
        at += 1;
    }
    panic!("no such row in elicit-core/docs/limits.md")
}

/// Whether the line at `at` is `| <name> | `.
const fn row_named(at: usize, name: &[u8]) -> bool {
    if PAGE[at] != b'|' || PAGE[at + 1] != b' ' {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        if PAGE[at + 2 + i] != name[i] {
            return false;
        }
        i += 1;
    }
    PAGE[at + 2 + i] == b' ' && PAGE[at + 3 + i] == b'|'
}

/// The most characters of a submitted value an error repeats.
#[allow(dead_code)]
pub const MAX_ECHOED_CHARS: usize = limit("echoed characters");
/// The most unknown keys a `deny_unknown_fields` form lists.
#[allow(dead_code)]
pub const MAX_UNKNOWN_FIELDS_LISTED: usize = limit("unknown fields listed");
/// The most URL elicitations a client tracks.
#[allow(dead_code)]
pub const MAX_PENDING_URLS: usize = limit("URLs a client tracks");
/// The most URL elicitations an agent keeps outstanding.
#[allow(dead_code)]
pub const MAX_OUTSTANDING_URLS: usize = limit("URLs an agent keeps outstanding");
/// The longest pattern source, in bytes.
#[allow(dead_code)]
pub const MAX_PATTERN_LEN: usize = limit("pattern source");
/// The most pairs in a page's posted body.
#[allow(dead_code)]
pub const MAX_BODY_PAIRS: usize = limit("pairs in a page's body");
/// How many times the MCP host retries a call answered `-32042`.
#[allow(dead_code)]
pub const URL_REQUIRED_RETRIES: usize = limit("retries of a call answered `-32042`");
/// The replicas' clock skew, in seconds.
#[allow(dead_code)]
pub const CLOCK_SKEW_SECS: usize = limit("the replicas' clock skew");
