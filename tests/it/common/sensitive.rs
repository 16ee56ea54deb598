//! What the sensitive-input tests share: a sensitive form, a secret, and a
//! user who answers a page over raw HTTP.

use elicit_core::Elicit;
use elicit_core::sensitive::SecretString;

use super::http::Req;

/// Connect a provider.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
pub struct Connect {
    /// The account name.
    #[elicit(length(min = 2, max = 20))]
    pub account: String,
    /// The API token.
    #[secret]
    #[elicit(length(min = 8, max = 64))]
    pub token: SecretString,
}

/// A secret the tests type, and look for where it must not be.
pub const SECRET: &str = "sk-correct-horse-battery";

/// Answers the page at `url` as its user's browser does: a first visit,
/// then a post of `fields` (`name=value&...`, already encoded) with the
/// binding cookie and the page's CSRF token. Returns the post's status.
pub fn answer_page(url: &str, fields: &str) -> u16 {
    answer_page_seen(url, fields).status
}

/// A page's post, with what its browser held: the binding cookie
/// (`name=value`) and the CSRF token.
#[derive(Debug, Clone)]
pub struct Answered {
    pub status: u16,
    /// The page as its visit showed it (HTML).
    pub page: String,
    pub cookie: String,
    pub csrf: String,
}

/// [`answer_page`], with the cookie and the CSRF token it used.
pub fn answer_page_seen(url: &str, fields: &str) -> Answered {
    let (addr, path) = super::http::split_url(url);
    let page = Req::get(path).send(addr);
    let cookie = page.cookie().expect("a binding cookie");
    let csrf = page.csrf().expect("a CSRF token");
    let status = Req::post(path, format!("csrf={csrf}&{fields}"))
        .header("cookie", &cookie)
        .same_origin(addr)
        .send(addr)
        .status;
    Answered {
        status,
        page: page.body,
        cookie,
        csrf,
    }
}

/// A page's answer as the tests hold it: the form when the page was
/// answered, else how it ended (or failed), in words.
pub trait Answer<T> {
    /// The answered form, or why there is none.
    fn answered(self) -> Result<T, String>;
}

impl<T> Answer<T>
    for Result<elicit_core::sensitive::SecretOutcome<T>, elicit_core::sensitive::PageError>
{
    fn answered(self) -> Result<T, String> {
        use elicit_core::sensitive::SecretOutcome;
        match self {
            Ok(SecretOutcome::Answered(value)) => Ok(value),
            Ok(SecretOutcome::Expired) => Err("expired".to_owned()),
            Ok(SecretOutcome::Cancelled) => Err("cancelled".to_owned()),
            Ok(_) => Err("not answered".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    }
}
