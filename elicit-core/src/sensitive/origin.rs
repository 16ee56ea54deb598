//! Where pages are served from.

use std::net::SocketAddr;

/// Where pages are served from: `scheme://host[:port]`, and whether it is
/// `https`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    /// `scheme://authority`, lowercase.
    text: String,
    /// Where the authority starts in `text`.
    authority_at: usize,
    secure: bool,
}

impl Origin {
    /// The loopback server's origin.
    pub(crate) fn loopback(addr: SocketAddr) -> Self {
        let text = format!("http://{addr}");
        Self {
            text,
            authority_at: "http://".len(),
            secure: false,
        }
    }

    /// A hosted service's public URL split into its origin and its path
    /// (without a trailing `/`), if it is `https` (or `http` on a loopback
    /// host) with a host, and no userinfo, query or fragment.
    pub(crate) fn parse_base(url: &str) -> Option<(Self, String)> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let (authority, path) = match rest.find('/') {
            Some(at) => rest.split_at(at),
            None => (rest, ""),
        };
        let authority = authority.to_ascii_lowercase();
        let bad = |c: char| c.is_whitespace() || c.is_control() || "@?#\\".contains(c);
        if authority.is_empty() || authority.contains(bad) || path.contains(bad) {
            return None;
        }
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next()?,
            None => authority.split(':').next()?,
        };
        let secure = match scheme.as_str() {
            "https" => true,
            "http" if is_loopback(host) => false,
            _ => return None,
        };
        let text = format!("{scheme}://{authority}");
        let origin = Self {
            authority_at: scheme.len() + 3,
            text,
            secure,
        };
        Some((origin, path.trim_end_matches('/').to_owned()))
    }

    /// Whether it is `https` (cookies are then `Secure`).
    pub(crate) fn is_secure(&self) -> bool {
        self.secure
    }

    /// `scheme://authority`.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// `host[:port]`.
    pub(crate) fn authority(&self) -> &str {
        &self.text[self.authority_at..]
    }
}

/// Whether `host` is `localhost` or a loopback IP address (`127.0.0.0/8`,
/// `::1`, bracketed or not): the one place plain `http` is allowed, for the
/// pages' own origin and for an OAuth provider's endpoints.
pub(crate) fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
