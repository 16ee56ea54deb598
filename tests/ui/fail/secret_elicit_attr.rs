use elicit_core::Elicit;

#[derive(Elicit)]
struct Login {
    user: String,
    #[elicit(secret)]
    password: String,
}

fn main() {}
