use elicit_core::{ContentError, Elicit};

#[derive(Elicit)]
#[elicit(check = "Self::dates_in_order")]
struct Booking {
    start: String,
    end: String,
}

#[derive(Elicit)]
#[elicit(check = Self::one, check = Self::two)]
struct Twice {
    name: String,
}

impl Twice {
    fn one(_: &Self) -> Result<(), ContentError> {
        Ok(())
    }
    fn two(_: &Self) -> Result<(), ContentError> {
        Ok(())
    }
}

#[derive(Elicit)]
#[elicit(check)]
struct Bare {
    name: String,
}

fn main() {}
