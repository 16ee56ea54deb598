//! The policy's vocabulary: limits, refused schemes, and the public types a
//! review reports ([`UrlRejection`], [`UrlWarning`], [`UrlVerdict`]).

/// Schemes that run code or read local or inline data.
pub(super) const DANGEROUS_SCHEMES: &[&str] = &[
    "javascript",
    "vbscript",
    "data",
    "file",
    "blob",
    "filesystem",
    "about",
    "view-source",
];

/// Why a URL is refused. Each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlRejection {
    /// The URL is empty.
    Empty,
    /// Longer than 4096 bytes ([limits](crate::reference::limits)).
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// A control, whitespace or invisible character (e.g. a bidi override).
    ForbiddenCharacter {
        /// The character.
        character: char,
    },
    /// A `\`, which browsers read as `/`.
    Backslash,
    /// No scheme: not an absolute URL.
    Relative,
    /// `javascript:`, `data:`, `file:` and the like.
    DangerousScheme {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// Any other scheme than `https` / `http`.
    UnsupportedScheme {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// The scheme is not followed by `//host`.
    MissingAuthority,
    /// `user:password@` before the host.
    Userinfo,
    /// No host.
    EmptyHost,
    /// A host that is not a valid domain name or IP address.
    InvalidHost {
        /// What is wrong.
        reason: &'static str,
    },
    /// A host with `%` escapes (browsers decode them).
    PercentEncodedHost,
    /// A host with non-ASCII characters (write it as Punycode).
    NonAsciiHost,
    /// An IPv4 address in a shorthand, hex or octal form.
    NonCanonicalIpv4 {
        /// The host as written.
        host: String,
    },
    /// A port that is not a number up to 65535.
    InvalidPort,
    /// A character that must be percent-encoded.
    InvalidCharacter {
        /// The character.
        character: char,
    },
    /// Non-ASCII characters in the path, query or fragment.
    NotAscii,
    /// A `%` not followed by two hex digits.
    InvalidPercentEncoding,
    /// `http` on a host that is not loopback.
    InsecureHttp {
        /// The host.
        host: String,
    },
    /// A query or fragment parameter whose name looks like a credential.
    CredentialParameter {
        /// The parameter name, percent-decoded.
        name: String,
    },
}

impl std::fmt::Display for UrlRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("the URL is empty: give an absolute https URL"),
            Self::TooLong { length, max } => write!(f, "the URL is {length} bytes long, over the limit of {max}: keep state on the server, \
         keyed by the elicitationId"),
            Self::ForbiddenCharacter { character } => write!(f, "the URL contains U+{:04X}, a control, whitespace or invisible character: remove it \
         (such characters can disguise the real URL)", u32::from(*character)),
            Self::Backslash => f.write_str("the URL contains `\\`, which browsers read as `/`: write `/`"),
            Self::Relative => f.write_str("the URL is not absolute: start it with `https://`"),
            Self::DangerousScheme { scheme } => write!(f, "`{scheme}:` URLs run code or read local data and are never allowed: use an https URL"),
            Self::UnsupportedScheme { scheme } => write!(f, "the `{scheme}` scheme is not allowed: use https (http only on localhost for development)"),
            Self::MissingAuthority => f.write_str("the URL has no `//host` part: write `https://host/...`"),
            Self::Userinfo => f.write_str("the URL has userinfo (`user:password@`) before the host: never put credentials in a \
         URL, and drop the `@` part (it also disguises the real host)"),
            Self::EmptyHost => f.write_str("the URL has no host: write `https://host/...`"),
            Self::InvalidHost { reason } => write!(f, "the host {reason}"),
            Self::PercentEncodedHost => f.write_str("the host is percent-encoded: write it plainly (browsers decode it, so it can disguise \
         the real host)"),
            Self::NonAsciiHost => f.write_str("the host has non-ASCII characters: write it in its Punycode (`xn--`) form"),
            Self::NonCanonicalIpv4 { host } => write!(f, "the host `{host}` is an IPv4 address in a shorthand, hex or octal form (browsers read \
         it as an address): write four decimal numbers, e.g. `127.0.0.1`"),
            Self::InvalidPort => f.write_str("the port is not a number from 0 to 65535"),
            Self::InvalidCharacter { character } => write!(f, "the URL contains `{character}`, which must be percent-encoded"),
            Self::NotAscii => f.write_str("the URL's path, query or fragment has non-ASCII characters: percent-encode them"),
            Self::InvalidPercentEncoding => f.write_str("the URL has a `%` not followed by two hex digits: write a literal `%` as `%25`"),
            Self::InsecureHttp { host } => write!(f, "plain http is allowed only for development on localhost, 127.0.0.0/8 or [::1], not on \
         `{host}`: use https"),
            Self::CredentialParameter { name } => write!(f, "the URL parameter `{name}` looks like a credential: never put secrets in a URL; keep \
         them on the server and identify the flow by its elicitationId"),
        }
    }
}

impl std::error::Error for UrlRejection {}

/// Something a user should be told before consenting to open a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlWarning {
    /// The scheme is not `https`.
    NotHttps {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// A `user@` part before the host: the site opened is the host after it.
    Userinfo,
    /// A Punycode (IDN) label.
    Punycode {
        /// The label as written (`xn--...`).
        label: String,
        /// Its Unicode form, if it decodes.
        decoded: Option<String>,
    },
    /// Non-ASCII characters in the host.
    NonAsciiHost,
    /// A label that mixes writing systems (e.g. Latin and Cyrillic).
    MixedScripts {
        /// The label, in Unicode.
        label: String,
    },
    /// The host is an IP address, not a name.
    IpLiteral,
    /// A very long host, or one with many labels.
    LongHost {
        /// Its length in bytes.
        length: usize,
        /// How many labels it has.
        labels: usize,
    },
    /// The host's first labels look like another domain.
    DeceptiveHost {
        /// What it imitates (`example.com`).
        looks_like: String,
        /// The domain it really is (a heuristic: the last two labels, or
        /// three for `co.uk`-style suffixes).
        domain: String,
    },
    /// A parameter whose name looks like a credential.
    CredentialParameter {
        /// The parameter name, percent-decoded.
        name: String,
    },
}

impl std::fmt::Display for UrlWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotHttps { scheme } => write!(f, "the URL uses `{scheme}`, not https: the connection is not protected"),
            Self::Userinfo => f.write_str("the URL has a `user@` part before the host: the site that opens is the host after the `@`"),
            Self::Punycode { label, decoded } => write!(f, "{}", punycode_message(label, decoded.as_deref())),
            Self::NonAsciiHost => f.write_str("the host contains non-ASCII characters: it may imitate another domain"),
            Self::MixedScripts { label } => write!(f, "the host label `{label}` mixes writing systems (e.g. Latin and Cyrillic), a look-alike \
         trick"),
            Self::IpLiteral => f.write_str("the host is a raw IP address, not a domain name"),
            Self::LongHost { length, labels } => write!(f, "the host is very long ({length} characters, {labels} labels): check its end, which is \
         the real domain"),
            Self::DeceptiveHost { looks_like, domain } => write!(f, "the host starts with `{looks_like}` but the domain is `{domain}`"),
            Self::CredentialParameter { name } => write!(f, "the URL carries a parameter named `{name}`, which looks like a credential"),
        }
    }
}

/// The message of [`UrlWarning::Punycode`]: it depends on whether the label
/// decodes.
fn punycode_message(label: &str, decoded: Option<&str>) -> String {
    match decoded {
        Some(d) => format!(
            "the host contains the Punycode label `{label}` (shown as `{d}`): it may imitate \
             another domain"
        ),
        None => format!("the host contains the label `{label}`, which is not valid Punycode"),
    }
}

/// The policy's decision on a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlVerdict {
    /// An `https` URL with nothing refused (there may still be warnings).
    Allowed,
    /// An `http` URL on a loopback host: acceptable for development only.
    Development,
    /// Refused: the agent must not send it; a client must not open it.
    Refused(UrlRejection),
}

impl UrlVerdict {
    /// Whether the URL is refused.
    pub fn is_refused(&self) -> bool {
        matches!(self, Self::Refused(_))
    }

    /// The refusal, if any.
    pub fn rejection(&self) -> Option<&UrlRejection> {
        match self {
            Self::Refused(r) => Some(r),
            _ => None,
        }
    }
}
