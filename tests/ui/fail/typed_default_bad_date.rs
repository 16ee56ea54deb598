use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(transparent)]
struct Day(#[elicit(date)] String);

#[derive(Elicit)]
struct Form {
    #[elicit(default = "2026-02-30")]
    day: Day,
    #[elicit(default = "2026-01-01T09:00")]
    day_after: Day,
}

fn main() {}
