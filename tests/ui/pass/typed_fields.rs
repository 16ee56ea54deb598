use std::num::{NonZero, NonZeroI16, NonZeroU64};

use elicit_core::Elicit;

#[derive(Elicit, Clone, Copy)]
#[elicit(transparent)]
struct Port(#[elicit(range(min = 1024, max = 65535))] u16);

#[derive(Elicit)]
#[elicit(transparent)]
struct Day {
    #[elicit(date, title = "Day")]
    text: String,
}

#[derive(Elicit)]
#[elicit(transparent)]
struct Level(#[elicit(range(min = 1))] NonZeroI16);

#[derive(Elicit, Clone)]
#[elicit(from = "u16", into = "u16")]
struct Count(u16);

impl From<u16> for Count {
    fn from(n: u16) -> Self {
        Self(n)
    }
}

impl From<Count> for u16 {
    fn from(c: Count) -> Self {
        c.0
    }
}

#[derive(Elicit, Clone)]
#[elicit(try_from = "Port", into = "Port")]
struct HighPort(Port);

impl TryFrom<Port> for HighPort {
    type Error = &'static str;
    fn try_from(p: Port) -> Result<Self, Self::Error> {
        if p.0 >= 49152 {
            Ok(Self(p))
        } else {
            Err("not a dynamic port")
        }
    }
}

impl From<HighPort> for Port {
    fn from(p: HighPort) -> Self {
        p.0
    }
}

#[derive(Elicit)]
struct Form {
    initial: char,
    #[elicit(default = 'n')]
    confirm: Option<char>,
    #[elicit(range(max = 1000))]
    big: NonZeroU64,
    #[elicit(range(max = -1))]
    below: NonZero<i8>,
    port: Port,
    #[elicit(default = "2026-01-01")]
    day: Day,
    level: Level,
    count: Option<Count>,
    high: HighPort,
    #[elicit(default = const { NonZeroU64::new(4).unwrap() })]
    four: NonZeroU64,
}

pub fn main() {
    let schema = serde_json::to_value(Form::schema()).unwrap();
    assert_eq!(schema["properties"]["day"]["default"], "2026-01-01");
    assert_eq!(schema["properties"]["below"]["maximum"], -1);
    assert_eq!(schema["properties"]["four"]["default"], 4);
}
