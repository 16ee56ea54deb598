//! `rename_all` rules: how a Rust field or variant name becomes a wire name.

/// A case convention, as named in `rename_all = ".."` (serde's names).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// Every accepted name, for error messages and suggestions.
pub const RULE_NAMES: &[&str] = &[
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
];

impl RenameRule {
    pub fn from_str(name: &str) -> Option<Self> {
        Some(match name {
            "lowercase" => Self::Lower,
            "UPPERCASE" => Self::Upper,
            "PascalCase" => Self::Pascal,
            "camelCase" => Self::Camel,
            "snake_case" => Self::Snake,
            "SCREAMING_SNAKE_CASE" => Self::ScreamingSnake,
            "kebab-case" => Self::Kebab,
            "SCREAMING-KEBAB-CASE" => Self::ScreamingKebab,
            _ => return None,
        })
    }

    /// Applies the rule to a field name (written in `snake_case`).
    pub fn apply_to_field(self, field: &str) -> String {
        self.join(
            field
                .split('_')
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect(),
        )
    }

    /// Applies the rule to a variant name (written in `PascalCase`).
    pub fn apply_to_variant(self, variant: &str) -> String {
        self.join(split_pascal(variant))
    }

    fn join(self, words: Vec<String>) -> String {
        let lower = |w: &String| w.to_lowercase();
        let upper = |w: &String| w.to_uppercase();
        let capital = |w: &String| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first
                    .to_uppercase()
                    .chain(chars.flat_map(char::to_lowercase))
                    .collect(),
                None => String::new(),
            }
        };
        match self {
            Self::Lower => words.iter().map(lower).collect(),
            Self::Upper => words.iter().map(upper).collect(),
            Self::Pascal => words.iter().map(capital).collect(),
            Self::Camel => words
                .iter()
                .enumerate()
                .map(|(i, w)| if i == 0 { lower(w) } else { capital(w) })
                .collect(),
            Self::Snake => words.iter().map(lower).collect::<Vec<_>>().join("_"),
            Self::ScreamingSnake => words.iter().map(upper).collect::<Vec<_>>().join("_"),
            Self::Kebab => words.iter().map(lower).collect::<Vec<_>>().join("-"),
            Self::ScreamingKebab => words.iter().map(upper).collect::<Vec<_>>().join("-"),
        }
    }
}

/// `HttpServer2` -> `["Http", "Server2"]`.
fn split_pascal(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        if c == '_' {
            words.push(String::new());
            continue;
        }
        match words.last_mut() {
            Some(w) if !c.is_uppercase() || w.is_empty() => w.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words.retain(|w| !w.is_empty());
    words
}
