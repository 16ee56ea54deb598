//! Page ids, binding cookies and CSRF tokens: 128 bits from the OS RNG.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many random bytes a token holds: 128 bits.
const BYTES: usize = 16;

/// 128 bits from the operating system's RNG, written as 32 lowercase hex
/// digits. Compared in constant time.
#[derive(Clone, Copy)]
pub(crate) struct Token([u8; BYTES]);

impl Token {
    /// A fresh token, or the OS RNG's error.
    pub(crate) fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0; BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes))
    }

    /// The token written as `text`, if it is exactly 32 lowercase hex digits.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let text = text.as_bytes();
        if text.len() != 2 * BYTES {
            return None;
        }
        let digit = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            _ => None,
        };
        let mut bytes = [0; BYTES];
        for (byte, pair) in bytes.iter_mut().zip(text.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Self(bytes))
    }

    /// Whether `self` and `other` are equal, in time that does not depend
    /// on where they differ.
    pub(crate) fn matches(&self, other: &Self) -> bool {
        let diff = self
            .0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        // Keeps the fold from being turned into an early-exit comparison.
        std::hint::black_box(diff) == 0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Never printed: a token is a credential.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Serialize for Token {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).ok_or_else(|| serde::de::Error::custom("not a 32-digit hex token"))
    }
}

/// The id of a pending page: the only thing its URL carries. 128 bits from
/// the OS RNG, 32 lowercase hex digits; it is the page's path segment and
/// the URL elicitation's `elicitationId`.
///
/// ```
/// use elicit_core::sensitive::PageId;
///
/// let id: PageId = "00112233445566778899aabbccddeeff".parse().unwrap();
/// assert_eq!(id.to_string(), "00112233445566778899aabbccddeeff");
/// assert!("0011".parse::<PageId>().is_err());
/// ```
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PageId(Token);

impl PageId {
    /// A fresh id from the OS RNG.
    pub(crate) fn random() -> Result<Self, getrandom::Error> {
        Token::random().map(Self)
    }

    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn from_bytes(bytes: [u8; BYTES]) -> Self {
        Self(Token(bytes))
    }
}

impl PartialEq for PageId {
    fn eq(&self, other: &Self) -> bool {
        self.0.matches(&other.0)
    }
}

impl Eq for PageId {}

impl std::hash::Hash for PageId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.0.hash(state);
    }
}

impl fmt::Display for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The id is in the page's URL, so it may be shown.
impl fmt::Debug for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PageId({self})")
    }
}

/// Not 32 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPageId;
impl std::fmt::Display for BadPageId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self => f.write_str("a page id is 32 lowercase hex digits"),
        }
    }
}

impl std::error::Error for BadPageId {}

impl FromStr for PageId {
    type Err = BadPageId;
    fn from_str(s: &str) -> Result<Self, BadPageId> {
        Token::parse(s).map(Self).ok_or(BadPageId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_random_bits_written_in_hex() {
        let a = Token::random().unwrap();
        let b = Token::random().unwrap();
        assert_eq!(a.to_string().len(), 32);
        assert!(!a.matches(&b), "two draws of 128 bits collided");
        let again = Token::parse(&a.to_string()).unwrap();
        assert!(again.matches(&a));
        assert!(
            Token::parse(&a.to_string().to_uppercase()).is_none()
                || a.to_string().chars().all(|c| c.is_ascii_digit())
        );
        assert!(Token::parse("zz112233445566778899aabbccddeeff").is_none());
        assert_eq!(format!("{a:?}"), "Token(..)");
    }
}
