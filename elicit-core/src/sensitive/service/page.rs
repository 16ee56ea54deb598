//! A sensitive form's page: `GET` shows it (binding its first browser),
//! `POST` checks the answer and ends the page with it.

use std::sync::Arc;

use http::header;
use http::{Method, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Limited};

use super::checks::{
    CookieRule, is_form_urlencoded, same_origin_post, set_cookie, visiting_browser,
};
use crate::sensitive::body::read;
use crate::sensitive::cookie::{self, SameSite};
use crate::sensitive::form::check_submission;
use crate::sensitive::html::{Notice, PageForm};
use crate::sensitive::origin::Origin;
use crate::sensitive::response::{PageResponse, not_saved, notice, page, refusal, unavailable};
use crate::sensitive::shared::Shared;
use crate::sensitive::store::{Answer, End, PageAsk, Record, StoreError};
use crate::sensitive::token::{PageId, Token};

/// The name of the hidden field that carries the CSRF token.
pub(crate) const CSRF_FIELD: &str = "csrf";
/// The name of the cookie that binds a page to its first browser.
pub(crate) const COOKIE: &str = "elicit_binding";

/// A request for the page `id`, its record found waiting.
pub(crate) async fn respond<B>(
    shared: &Arc<Shared>,
    origin: &Origin,
    id: PageId,
    record: Record,
    parts: http::request::Parts,
    body: B,
) -> PageResponse
where
    B: Body + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let Some(asked) = record.asked_page() else {
        refused!(PageUnknown);
        return notice(StatusCode::NOT_FOUND, Notice::Expired);
    };
    let page = Page {
        shared,
        origin,
        id,
        record: &record,
        asked,
        parts: &parts,
    };
    if parts.method == Method::GET {
        return page.show().await;
    }
    page.post(body).await
}

/// A request for a page whose record was found waiting.
struct Page<'a> {
    shared: &'a Arc<Shared>,
    origin: &'a Origin,
    id: PageId,
    record: &'a Record,
    asked: &'a PageAsk,
    parts: &'a http::request::Parts,
}

/// How a page's binding cookie is written.
fn cookie_rule(shared: &Shared, id: PageId) -> CookieRule {
    CookieRule {
        name: COOKIE.to_owned(),
        path: format!("{}/{id}", shared.config.base_path),
        same_site: SameSite::Strict,
    }
}

/// The page's two methods.
impl Page<'_> {
    /// `GET`: binds the page to this browser on its first visit, refuses
    /// any other browser, and shows the form.
    async fn show(&self) -> PageResponse {
        let rule = cookie_rule(self.shared, self.id);
        let (binding, set) =
            match visiting_browser(self.shared, self.id, self.record, self.parts, &rule).await {
                Ok(visit) => visit,
                Err(response) => return response,
            };
        let secrets: Vec<&str> = self.asked.secrets.iter().map(String::as_str).collect();
        let csrf = binding.csrf.to_string();
        // A page that asks again shows why the last answer was refused.
        let errors: Vec<crate::FieldError> = self
            .asked
            .errors
            .iter()
            .map(|(field, message)| crate::FieldError::rule(field, message))
            .collect();
        let Ok(html) = PageForm::new(&self.asked.message, &self.asked.schema)
            .secrets(&secrets)
            .errors(&errors)
            .hidden(CSRF_FIELD, &csrf)
            .render()
        else {
            return unavailable();
        };
        let mut response = page(StatusCode::OK, html);
        if set {
            set_cookie(&mut response, &rule, &binding, self.record, self.origin);
        }
        response
    }

    /// `POST`: from the page itself, in the browser it is bound to, with its
    /// CSRF token; the answer checked by the form's rules, and the page ended
    /// with it (a refused answer shows its errors and leaves the page open).
    async fn post<B>(&self, body: B) -> PageResponse
    where
        B: Body + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        // Cross-site posts: the browser says where the post comes from.
        if !same_origin_post(&self.parts.headers, self.origin) {
            refused!(CrossSitePost);
            return refusal(
                StatusCode::FORBIDDEN,
                "Refused",
                "This form can only be sent from its own page.",
            );
        }
        // The browser the page is bound to, and no other.
        let Some(binding) = self.record.binding else {
            refused!(OtherBrowser, step = "post before any visit");
            return notice(StatusCode::FORBIDDEN, Notice::Refused);
        };
        let cookie = cookie::read(&self.parts.headers, COOKIE);
        if !cookie.is_some_and(|c| c.matches(&binding.cookie)) {
            refused!(OtherBrowser, step = "post", cookie = cookie.is_some());
            return notice(StatusCode::FORBIDDEN, Notice::Refused);
        }
        if !is_form_urlencoded(&self.parts.headers) {
            refused!(BadRequest, problem = "content-type");
            return refusal(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Unsupported",
                "This page accepts only its own form.",
            );
        }
        let limit = self.shared.config.body_limit;
        let declared = self
            .parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            return too_large();
        }
        let bytes = match Limited::new(body, limit).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(error) if error.is::<http_body_util::LengthLimitError>() => return too_large(),
            Err(_) => {
                refused!(BadRequest, problem = "body");
                return refusal(
                    StatusCode::BAD_REQUEST,
                    "Not received",
                    "The form did not arrive whole.",
                );
            }
        };
        let secrets: Vec<&str> = self.asked.secrets.iter().map(String::as_str).collect();
        let posted = match read(&bytes, &self.asked.schema, &secrets, &[CSRF_FIELD]) {
            Ok(posted) => posted,
            Err(error) => {
                refused!(BadRequest, problem = "form");
                return refusal(StatusCode::BAD_REQUEST, "Not readable", &error.to_string());
            }
        };
        // Cross-site request forgery: the token the page gave this browser.
        let token = posted.extra.get(CSRF_FIELD).and_then(|t| Token::parse(t));
        if !token.is_some_and(|t| t.matches(&binding.csrf)) {
            refused!(Csrf, token = token.is_some());
            return refusal(
                StatusCode::FORBIDDEN,
                "Refused",
                "This form can only be sent from its own page. Reload it and try again.",
            );
        }
        let submission = posted.submission;
        if let Err(errors) = check_submission(&self.asked.schema, &self.asked.secrets, &submission)
        {
            // Shown again, with the errors; the page stays open.
            refused!(InvalidSubmission, errors = errors.errors().len());
            let csrf = binding.csrf.to_string();
            let html = PageForm::new(&self.asked.message, &self.asked.schema)
                .secrets(&secrets)
                .previous(submission.values())
                .errors(errors.errors())
                .hidden(CSRF_FIELD, &csrf)
                .render();
            return match html {
                Ok(html) => page(StatusCode::UNPROCESSABLE_ENTITY, html),
                Err(_) => unavailable(),
            };
        }
        match self
            .shared
            .store
            .end(&self.id, End::Answered(Answer::Page(submission)))
            .await
        {
            Ok(true) => {
                note!("page answered");
                notice(StatusCode::OK, Notice::Done)
            }
            // Answered, expired or cancelled meanwhile: the first end counts.
            Ok(false) => {
                refused!(PageUsed);
                notice(StatusCode::GONE, Notice::Used)
            }
            // It did not count: the page stays open and takes the post
            // again (the browser's Back keeps what was typed).
            Err(error @ (StoreError::NotReplicated | StoreError::Busy)) => {
                refused!(StoreFailed, step = "end", cause = error.cause());
                not_saved()
            }
            Err(error) => {
                refused!(StoreFailed, step = "end", cause = error.cause());
                unavailable()
            }
        }
    }
}

fn too_large() -> PageResponse {
    refused!(BodyTooLarge);
    refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        "Too large",
        "This form's answer is too large.",
    )
}
