use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(check = dates_in_order)]
struct Booking {
    #[elicit(date)]
    start: String,
    #[elicit(date)]
    end: String,
}

// A check returns `Result<(), ContentError>`, not a `bool`.
fn dates_in_order(booking: &Booking) -> bool {
    booking.start <= booking.end
}

#[derive(Elicit)]
#[elicit(sensitive, check = Self::key_for_account)]
struct ApiKey {
    account: String,
    #[secret]
    key: elicit_core::sensitive::SecretString,
}

impl ApiKey {
    // A check borrows the form.
    fn key_for_account(key: ApiKey) -> Result<(), elicit_core::ContentError> {
        let _ = key;
        Ok(())
    }
}

// With another mistake in the form, both are reported in one build.
#[derive(Elicit)]
#[elicit(check = Self::fits)]
struct Room {
    #[elicit(range(min = 2, max = 1))]
    beds: u8,
}

impl Room {
    fn fits(_: &Room) -> Option<()> {
        None
    }
}

fn main() {}
