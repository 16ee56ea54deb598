use elicit_core::Elicit;

#[derive(Elicit)]
struct Login {
    user: String,
    #[secret]
    password: String,
}

fn main() {}
