use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Github {
    github_access_token: String,
}

fn main() {}
