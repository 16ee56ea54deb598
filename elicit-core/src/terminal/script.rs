//! The scripted side: JSON-lines answers (see the module docs).

use std::io::{self, BufRead};

use serde_json::{Map, Value};

use super::style::say;
use crate::Content;
use crate::protocol::client::{FormAnswer, FormElicitation, UrlAnswer};

/// Where the lines come from.
enum Source {
    /// The process's stdin (its own buffer, shared with any other reader).
    Stdin,
    /// Any reader.
    Reader(Box<dyn BufRead + Send>),
}

/// The scripted answers, and how many were read.
pub(super) struct Script {
    source: Source,
    answered: usize,
    exhausted: bool,
}

impl Script {
    pub(super) fn stdin() -> Self {
        Self::new(Source::Stdin)
    }

    pub(super) fn reader(reader: Box<dyn BufRead + Send>) -> Self {
        Self::new(Source::Reader(reader))
    }

    fn new(source: Source) -> Self {
        Self {
            source,
            answered: 0,
            exhausted: false,
        }
    }

    /// The next scripted answer: `None` at the end of input.
    fn next_answer(&mut self) -> Option<Result<Scripted, String>> {
        if self.exhausted {
            return None;
        }
        loop {
            let mut line = String::new();
            let read = match &mut self.source {
                Source::Stdin => io::stdin().read_line(&mut line),
                Source::Reader(reader) => reader.read_line(&mut line),
            };
            match read {
                Ok(0) | Err(_) => {
                    self.exhausted = true;
                    return None;
                }
                Ok(_) => {}
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.answered += 1;
            say(format!("  scripted answer #{}: {line}", self.answered));
            return Some(Scripted::parse(line));
        }
    }

    /// The next answer to `form`: its `content` over the declared defaults.
    /// Lines that are no answer are rejected here and the next line is read.
    pub(super) fn form(&mut self, form: &FormElicitation) -> FormAnswer {
        loop {
            let answer = match self.next_answer() {
                None => {
                    say("  no more scripted answers: cancelling".to_owned());
                    return FormAnswer::Cancel;
                }
                Some(Err(problem)) => {
                    reject(&problem);
                    continue;
                }
                Some(Ok(answer)) => answer,
            };
            match answer {
                Scripted::Decline => return FormAnswer::Decline,
                Scripted::Cancel => return FormAnswer::Cancel,
                Scripted::Accept(given) => {
                    let mut content = form.initial_content();
                    for (name, value) in given {
                        if value.is_null() {
                            content.remove(&name);
                        } else {
                            content.insert(name, value);
                        }
                    }
                    return FormAnswer::Accept(content);
                }
            }
        }
    }

    /// The next answer to a URL request (any `content` is ignored).
    pub(super) fn url(&mut self) -> UrlAnswer {
        loop {
            match self.next_answer() {
                None => {
                    say("  no more scripted answers: cancelling".to_owned());
                    return UrlAnswer::Cancel;
                }
                Some(Err(problem)) => reject(&problem),
                Some(Ok(Scripted::Accept(_))) => return UrlAnswer::Consent,
                Some(Ok(Scripted::Decline)) => return UrlAnswer::Decline,
                Some(Ok(Scripted::Cancel)) => return UrlAnswer::Cancel,
            }
        }
    }
}

/// One scripted answer line.
enum Scripted {
    Accept(Content),
    Decline,
    Cancel,
}

impl Scripted {
    fn parse(line: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
        let Value::Object(mut fields) = value else {
            return Err("not a JSON object".to_owned());
        };
        match fields.get("action").and_then(Value::as_str) {
            Some("accept") => match fields.remove("content") {
                None | Some(Value::Null) => Ok(Self::Accept(Map::new())),
                Some(Value::Object(content)) => Ok(Self::Accept(content)),
                Some(_) => Err("`content` must be an object".to_owned()),
            },
            Some("decline") => Ok(Self::Decline),
            Some("cancel") => Ok(Self::Cancel),
            Some(other) => Err(format!(
                "unknown action `{other}`: use accept, decline or cancel"
            )),
            None => Err("missing `action` (accept, decline or cancel)".to_owned()),
        }
    }
}

/// Reports an answer that is not sent; the next line is the retry.
pub(super) fn reject(problem: &str) {
    say(format!(
        "  rejected, not sent: {problem} (reading the next line as a retry)"
    ));
}
