//! `rename_all` rules: how a Rust field or variant name becomes a wire name.

/// A case convention, as named in `rename_all = ".."` (serde's names).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

/// Every rule by its name, in the order messages list them.
const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

/// Every accepted name, for error messages and suggestions.
pub fn rule_names() -> Vec<&'static str> {
    RULES.iter().map(|(name, _)| *name).collect()
}

impl RenameRule {
    /// The rule named `name`, if there is one.
    pub fn from_str(name: &str) -> Option<Self> {
        RULES
            .iter()
            .find(|(rule_name, _)| *rule_name == name)
            .map(|(_, rule)| *rule)
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

    /// Writes `words` in this case.
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
