//! The page of a sensitive form, written to stdout as HTML: as a user first
//! sees it, or (with `--rejected`) after a submission the rules refused. With
//! `--accepted`, a valid submission read into the struct instead.
//!
//! ```sh
//! cargo run -p elicit-core --features sensitive --example sensitive_page > page.html
//! cargo run -p elicit-core --features sensitive --example sensitive_page -- --rejected > page.html
//! cargo run -p elicit-core --features sensitive --example sensitive_page -- --accepted
//! ```

use elicit_core::Elicit;
use elicit_core::sensitive::{ExposeSecret, PageForm, SecretString, SensitiveForm, Submission};

/// Where to deploy.
#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
enum Environment {
    /// Live traffic.
    #[elicit(title = "Production")]
    Production,
    /// A copy for testing.
    #[elicit(title = "Staging")]
    Staging,
}

/// Connect your deployment provider.
#[derive(Elicit, Debug)]
#[elicit(sensitive, title = "Connect Acme Cloud")]
struct Connect {
    /// The environment this key deploys to.
    environment: Environment,
    /// Your Acme account name, as on your dashboard.
    #[elicit(length(min = 2, max = 40))]
    account: String,
    /// From Settings → API keys. It starts with `sk-`.
    #[secret]
    #[elicit(title = "API key", length(min = 20, max = 80), pattern = "^sk-")]
    api_key: SecretString,
    /// How many replicas to start.
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
    /// Email me when the deploy is done.
    notify: Option<bool>,
}

fn main() {
    if std::env::args().any(|a| a == "--accepted") {
        let submission = Submission::new()
            .value("environment", "staging".into())
            .value("account", "shop".into())
            .secret("api_key", SecretString::from("sk-live-0123456789abcdef"));
        match Connect::from_submission(submission) {
            Ok(c) => println!(
                "{} replicas of `{}` to {:?}, notify: {:?}; the key has {} characters \
                 (never printed)",
                c.replicas,
                c.account,
                c.environment,
                c.notify,
                c.api_key.expose_secret().chars().count()
            ),
            Err(e) => eprintln!("{e}"),
        }
        return;
    }
    let schema = Connect::schema();
    let message = "The deploy agent needs your Acme API key to deploy `shop-web`.\n\
                   It is used for this deploy only and never shown to the model.";
    let page = PageForm::new(message, &schema)
        .secrets(Connect::SECRET_FIELDS)
        .hidden("csrf", "3q2-example-token");
    let html = if std::env::args().any(|a| a == "--rejected") {
        let submission = Submission::new()
            .value("environment", "production".into())
            .value("account", "a".into())
            .value("replicas", 40.into())
            .secret("api_key", SecretString::from("pk-wrong"));
        let previous = submission.values().clone();
        let errors = match Connect::from_submission(submission) {
            Err(error) => error.errors().to_vec(),
            Ok(_) => Vec::new(),
        };
        page.previous(&previous).errors(&errors).render()
    } else {
        page.render()
    };
    match html {
        Ok(html) => println!("{html}"),
        Err(e) => eprintln!("{e}"),
    }
}
