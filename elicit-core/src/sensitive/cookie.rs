//! The page server's binding cookies, which tie a page or an OAuth flow to
//! the browser that first visited it: how one is set, and how it is read
//! back.

use std::time::SystemTime;

use http::header::{self, HeaderMap, HeaderValue};

use super::token::Token;

/// Which cross-site navigations carry a cookie.
#[derive(Clone, Copy)]
pub(crate) enum SameSite {
    /// None: a form page's cookie.
    Strict,
    /// Top-level ones: the cookie of a flow that comes back from another
    /// site (an OAuth provider's).
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    Lax,
}

/// What [`set`] writes.
pub(crate) struct Cookie<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: Token,
    pub(crate) path: &'a str,
    /// When the cookie stops being sent (its page's or flow's expiry).
    pub(crate) expires_at: SystemTime,
    pub(crate) same_site: SameSite,
    /// `Secure`, on an https origin.
    pub(crate) secure: bool,
}

/// Adds `cookie` to a response's headers, always `HttpOnly`.
pub(crate) fn set(headers: &mut HeaderMap, cookie: &Cookie<'_>) {
    let max_age = cookie
        .expires_at
        .duration_since(SystemTime::now())
        .map_or(0, |d| d.as_secs() + 1);
    let same_site = match cookie.same_site {
        SameSite::Strict => "Strict",
        SameSite::Lax => "Lax",
    };
    let secure = if cookie.secure { "; Secure" } else { "" };
    let value = format!(
        "{}={}; Path={}; Max-Age={max_age}; HttpOnly; SameSite={same_site}{secure}",
        cookie.name, cookie.value, cookie.path
    );
    if let Ok(value) = HeaderValue::from_str(&value) {
        headers.insert(header::SET_COOKIE, value);
    }
}

/// The cookie `name` the request carries: `None` unless there is exactly
/// one, and it is a valid token.
pub(crate) fn read(headers: &HeaderMap, name: &str) -> Option<Token> {
    let mut found = None;
    for value in headers.get_all(header::COOKIE) {
        let text = value.to_str().ok()?;
        for pair in text.split(';') {
            if let Some((n, value)) = pair.trim().split_once('=')
                && n == name
            {
                if found.is_some() {
                    return None;
                }
                found = Some(Token::parse(value)?);
            }
        }
    }
    found
}
