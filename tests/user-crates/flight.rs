//! The form both user crates send: declared in an order that is not
//! alphabetical (`to, seats, cabin, meal, contact`; sorted it would be
//! `cabin, contact, meal, seats, to`), so a map that sorts shows on the wire.
//! It has a rule across two fields (`#[elicit(check = ..)]`): a meal is
//! served in business only.

use elicit_core::{ContentError, Elicit, FieldError};

/// The cabin class.
#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
pub enum Cabin {
    /// The cheap seats.
    Economy,
    /// More room.
    Business,
}

/// Book a flight.
#[derive(Elicit, Debug)]
#[elicit(check = Flight::meals_in_business)]
pub struct Flight {
    /// Where to.
    #[elicit(length(min = 3, max = 3))]
    pub to: String,
    /// How many seats.
    #[elicit(range(min = 1, max = 9), default = 1)]
    pub seats: u8,
    /// Which cabin.
    pub cabin: Cabin,
    /// A meal on board?
    pub meal: Option<bool>,
    /// Where the booking goes.
    #[elicit(email)]
    pub contact: String,
}

impl Flight {
    /// A meal is served in business only: a rule across two fields, which
    /// no client can check.
    fn meals_in_business(&self) -> Result<(), ContentError> {
        if self.meal == Some(true) && matches!(self.cabin, Cabin::Economy) {
            return Err(FieldError::rule("meal", "is served in business only").into());
        }
        Ok(())
    }
}

/// What the user crates say for an accepted form.
pub fn booked(flight: &Flight) -> String {
    format!(
        "Booked {} seat(s) to {} in {:?} for {}.",
        flight.seats, flight.to, flight.cabin, flight.contact
    )
}
