//! Names that look like credentials.
//!
//! Form mode must never collect secrets, and URLs must never carry them. This
//! is the one word list both checks use: the derive rejects a field whose
//! wire name matches (at compile time, through a `const` evaluation of
//! [`looks_like_credential`]), and the URL-mode checks refuse a query
//! parameter whose name matches.
//!
//! A name is split into words at `_`, `-`, `.`, spaces, digits-to-letters
//! boundaries and lower-to-upper case changes (`apiKey`, `API_KEY`,
//! `api-key` are all `api` + `key`), compared without case. It matches when
//! one word is a credential word, or two adjacent words form a credential
//! phrase. `username`, `email`, `token_count` or `max_tokens` do not match.

/// The compile error of a form field whose wire name
/// [looks like a credential](looks_like_credential), reported at that name.
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const FORM_FIELD_MESSAGE: &str = "this field's wire name looks like a credential: form mode \
     must not collect secrets (passwords, API keys, tokens, private keys, recovery codes, payment \
     data). Collect it on a page through URL mode: `#[elicit(sensitive)]` on the struct, and \
     `#[secret]` on this field as a `SecretString` (elicit-core's feature `sensitive`); or, if it \
     is not a credential, say why with `#[elicit(not_secret = \"..\")]`";

/// Single words that name a credential.
pub const CREDENTIAL_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "credential",
    "credentials",
    "apikey",
    "accesstoken",
    "refreshtoken",
    "authtoken",
    "bearertoken",
    "privatekey",
    "secretkey",
    "recoverycode",
    "backupcode",
    "otp",
    "totp",
    "cvv",
    "cvc",
    "cardnumber",
];

/// Two adjacent words that name a credential.
pub const CREDENTIAL_PHRASES: &[(&str, &str)] = &[
    ("api", "key"),
    ("access", "token"),
    ("refresh", "token"),
    ("auth", "token"),
    ("bearer", "token"),
    ("private", "key"),
    ("secret", "key"),
    ("recovery", "code"),
    ("backup", "code"),
    ("card", "number"),
];

/// Whether `name` looks like it names a credential (see the module docs):
/// `api_key`, `githubAccessToken` and `NEW_PASSWORD` do, `username` and
/// `max_tokens` do not (the tests below).
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const fn looks_like_credential(name: &str) -> bool {
    let bytes = name.as_bytes();
    // (start, end) of the previous word; end == 0 means none yet.
    let mut prev = (0, 0);
    let mut i = 0;
    while i < bytes.len() {
        let (start, end) = next_word(bytes, i);
        if start == end {
            break;
        }
        if matches_word(bytes, start, end) {
            return true;
        }
        if prev.1 > 0 && matches_phrase(bytes, prev, (start, end)) {
            return true;
        }
        prev = (start, end);
        i = end;
    }
    false
}

const fn is_separator(b: u8) -> bool {
    !b.is_ascii_alphanumeric() && b < 0x80
}

/// The next word at or after `from`: `(start, end)`, empty at the end.
const fn next_word(bytes: &[u8], from: usize) -> (usize, usize) {
    let mut start = from;
    while start < bytes.len() && is_separator(bytes[start]) {
        start += 1;
    }
    let mut end = start;
    while end < bytes.len() && !is_separator(bytes[end]) {
        if end > start {
            let (a, b) = (bytes[end - 1], bytes[end]);
            let case_change = a.is_ascii_lowercase() && b.is_ascii_uppercase();
            let digit_change = a.is_ascii_digit() != b.is_ascii_digit();
            // `HTTPServer`: the last capital of a run starts the next word.
            let acronym_end = end + 1 < bytes.len()
                && a.is_ascii_uppercase()
                && b.is_ascii_uppercase()
                && bytes[end + 1].is_ascii_lowercase();
            if case_change || digit_change || acronym_end {
                break;
            }
        }
        end += 1;
    }
    (start, end)
}

const fn eq_ignore_case(bytes: &[u8], start: usize, end: usize, word: &str) -> bool {
    let w = word.as_bytes();
    if end - start != w.len() {
        return false;
    }
    let mut k = 0;
    while k < w.len() {
        if bytes[start + k].to_ascii_lowercase() != w[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// For each word length below 32, the first letters (bit `c - b'a'`) that
/// some listed word of that length starts with. Checking a word against
/// this first settles almost every word with one lookup, which matters
/// because the derive runs [`looks_like_credential`] in `const` evaluation,
/// once per field, where every loop step is interpreted.
struct Starts([u32; 32]);

impl Starts {
    const fn of_words(words: &[&str]) -> Self {
        let mut starts = Self([0; 32]);
        let mut k = 0;
        while k < words.len() {
            starts.add(words[k]);
            k += 1;
        }
        starts
    }

    const fn of_phrases(phrases: &[(&str, &str)], second: bool) -> Self {
        let mut starts = Self([0; 32]);
        let mut k = 0;
        while k < phrases.len() {
            starts.add(if second { phrases[k].1 } else { phrases[k].0 });
            k += 1;
        }
        starts
    }

    /// Records `word` (non-empty lowercase ASCII letters, shorter than 32
    /// bytes: a compile error in this crate otherwise).
    const fn add(&mut self, word: &str) {
        let b = word.as_bytes();
        self.0[b.len()] |= 1 << (b[0] - b'a');
    }

    /// Whether some recorded word could equal `bytes[start..end]`.
    const fn may_match(&self, bytes: &[u8], start: usize, end: usize) -> bool {
        let len = end - start;
        let c = bytes[start].to_ascii_lowercase();
        len < 32 && c.is_ascii_lowercase() && self.0[len] & (1 << (c - b'a')) != 0
    }
}

const WORD_STARTS: Starts = Starts::of_words(CREDENTIAL_WORDS);
const PHRASE_FIRST_STARTS: Starts = Starts::of_phrases(CREDENTIAL_PHRASES, false);
const PHRASE_SECOND_STARTS: Starts = Starts::of_phrases(CREDENTIAL_PHRASES, true);

const fn matches_word(bytes: &[u8], start: usize, end: usize) -> bool {
    if !WORD_STARTS.may_match(bytes, start, end) {
        return false;
    }
    let mut k = 0;
    while k < CREDENTIAL_WORDS.len() {
        if eq_ignore_case(bytes, start, end, CREDENTIAL_WORDS[k]) {
            return true;
        }
        k += 1;
    }
    false
}

const fn matches_phrase(bytes: &[u8], first: (usize, usize), second: (usize, usize)) -> bool {
    if !PHRASE_FIRST_STARTS.may_match(bytes, first.0, first.1)
        || !PHRASE_SECOND_STARTS.may_match(bytes, second.0, second.1)
    {
        return false;
    }
    let mut k = 0;
    while k < CREDENTIAL_PHRASES.len() {
        let (a, b) = CREDENTIAL_PHRASES[k];
        if eq_ignore_case(bytes, first.0, first.1, a)
            && eq_ignore_case(bytes, second.0, second.1, b)
        {
            return true;
        }
        k += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_documented_examples() {
        assert!(super::looks_like_credential("api_key"));
        assert!(super::looks_like_credential("githubAccessToken"));
        assert!(super::looks_like_credential("NEW_PASSWORD"));
        assert!(!super::looks_like_credential("username"));
        assert!(!super::looks_like_credential("max_tokens"));
    }

    use super::looks_like_credential;

    #[test]
    fn credential_names_match() {
        for name in [
            "password",
            "new_password",
            "passwd",
            "passphrase",
            "client_secret",
            "secret",
            "credential",
            "aws_credentials",
            "api_key",
            "apikey",
            "apiKey",
            "API_KEY",
            "openai-api-key",
            "access_token",
            "githubAccessToken",
            "refresh_token",
            "auth_token",
            "bearer_token",
            "private_key",
            "ssh_private_key",
            "secret_key",
            "recovery_code",
            "backup_code",
            "otp",
            "totp",
            "totp_code",
            "cvv",
            "cvc",
            "card_number",
            "cardNumber",
            "OTP2",
        ] {
            assert!(looks_like_credential(name), "{name} should match");
        }
    }

    #[test]
    fn ordinary_names_do_not_match() {
        for name in [
            "username",
            "email",
            "token_count",
            "max_tokens",
            "display_name",
            "api_version",
            "key_count",
            "access_level",
            "keyboard_layout",
            "secretary",
            "passage",
            "card_holder_name",
            "code_style",
            "otpless",
            "recovery",
            "",
            "__",
        ] {
            assert!(!looks_like_credential(name), "{name} should not match");
        }
    }

    #[test]
    fn evaluates_in_const() {
        const YES: bool = looks_like_credential("api_key");
        const NO: bool = looks_like_credential("username");
        const { assert!(YES && !NO) };
    }
}
