//! Property tests: for random values of the derived test types,
//! `T::from_content(&v.to_content()) == Ok(v)` and the content validates
//! against `T::schema()`.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;

use crate::common::Strategy;
use crate::common::*;
use elicit_core::Elicit;
use proptest::prelude::*;
use proptest::strategy::Strategy as Gen;

fn round_trip<T: Elicit + PartialEq + Debug>(value: &T) -> Result<(), TestCaseError> {
    let content = value.to_content();
    prop_assert_eq!(T::schema().validate(&content), Ok(()), "{:?}", content);
    let parsed = T::from_content(&content);
    prop_assert_eq!(parsed.as_ref(), Ok(value), "{:?}", content);
    // Through JSON text too, as the content travels.
    let text = serde_json::to_string(&content).unwrap();
    let back: elicit_core::Content = serde_json::from_str(&text).unwrap();
    let parsed = T::from_content(&back);
    prop_assert_eq!(parsed.as_ref(), Ok(value));
    Ok(())
}

fn strategy() -> impl Gen<Value = Strategy> {
    prop_oneof![
        Just(Strategy::Conservative),
        Just(Strategy::Balanced),
        Just(Strategy::Aggressive)
    ]
}

fn environment() -> impl Gen<Value = Environment> {
    prop_oneof![
        Just(Environment::Staging),
        Just(Environment::Production),
        Just(Environment::LocalDev)
    ]
}

/// Text of any Unicode scalar values, `min..=max` characters long.
fn text(min: usize, max: usize) -> impl Gen<Value = String> {
    proptest::collection::vec(any::<char>(), min..=max).prop_map(|c| c.into_iter().collect())
}

fn date() -> impl Gen<Value = String> {
    (0u32..=9999, 1u32..=12, 1u32..=28).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
}

fn date_time() -> impl Gen<Value = String> {
    (date(), 0u32..24, 0u32..60, 0u32..60, prop::bool::ANY).prop_map(|(d, h, m, s, z)| {
        let offset = if z {
            "Z".to_owned()
        } else {
            "+05:30".to_owned()
        };
        format!("{d}T{h:02}:{m:02}:{s:02}{offset}")
    })
}

/// f64 values that survive JSON (finite).
fn finite() -> impl Gen<Value = f64> {
    prop::num::f64::NORMAL | prop::num::f64::ZERO | prop::num::f64::SUBNORMAL
}

proptest! {
    #[test]
    fn refactor(strategy in strategy()) {
        round_trip(&Refactor { strategy })?;
    }

    #[test]
    fn deploy(env in environment(), replicas in 1u8..=16, notify in any::<Option<bool>>()) {
        round_trip(&Deploy { env, replicas, notify })?;
    }

    #[test]
    fn profile(
        name in text(2, 20),
        handle in "[a-z][a-z0-9_]{0,15}",
        email in "[a-z0-9.]{0,10}[a-z0-9]@[a-z]{1,10}(\\.[a-z]{2,5}){0,2}",
        homepage in proptest::option::of("https://[a-z]{1,12}\\.example/[a-z0-9/]{0,12}"),
        birthday in proptest::option::of(date()),
        callback_at in proptest::option::of(date_time()),
    ) {
        prop_assume!(!email.starts_with('.') && !email.contains(".."));
        round_trip(&Profile { name, handle, email, homepage, birthday, callback_at })?;
    }

    #[test]
    fn integers(
        a_i8 in any::<i8>(), a_i16 in any::<i16>(), a_i32 in -5i32..=5, a_i64 in any::<i64>(),
        a_u8 in any::<u8>(), a_u16 in 0u16..=1000, a_u32 in any::<u32>(),
        a_u64 in 0u64..=i64::MAX as u64, a_isize in any::<isize>(), a_usize in 1usize..=i64::MAX as usize,
    ) {
        round_trip(&Integers { a_i8, a_i16, a_i32, a_i64, a_u8, a_u16, a_u32, a_u64, a_isize, a_usize })?;
    }

    #[test]
    fn numbers(ratio in 0.0f32..=1.0, temperature in -273.15f64..1e300, percent in 0.0f64..=100.0) {
        round_trip(&Numbers { ratio, temperature, percent })?;
    }

    #[test]
    fn optionals(
        text in proptest::option::of(text(0, 30)),
        flag in any::<Option<bool>>(),
        count in any::<Option<u32>>(),
        amount in proptest::option::of(finite()),
        strategy in proptest::option::of(strategy()),
        envs in proptest::option::of(prop::sample::subsequence(
            vec![Environment::Staging, Environment::Production, Environment::LocalDev], 0..=3)),
    ) {
        round_trip(&Optionals { text, flag, count, amount, strategy, envs })?;
    }

    #[test]
    fn multi_selects(
        strategies in prop::sample::subsequence(
            vec![Strategy::Conservative, Strategy::Balanced, Strategy::Aggressive], 1..=2),
        envs in prop::sample::subsequence(
            vec![Environment::Staging, Environment::Production, Environment::LocalDev], 0..=3),
        any_of in prop::sample::subsequence(
            vec![Strategy::Conservative, Strategy::Balanced, Strategy::Aggressive], 0..=3),
    ) {
        round_trip(&MultiSelects {
            strategies,
            envs: envs.into_iter().collect::<BTreeSet<_>>(),
            any_of: any_of.into_iter().collect::<HashSet<_>>(),
        })?;
    }

    #[test]
    fn renamed(first_name in text(0, 12), last_name in text(0, 12), age in any::<u8>()) {
        round_trip(&Renamed { first_name, last_name, age })?;
    }

    #[test]
    fn serde_renamed(max_retries in any::<u8>(), dry_run in any::<bool>()) {
        round_trip(&SerdeRenamed { max_retries, dry_run })?;
    }

    #[test]
    fn feedback(stars in 1u8..=5, comment in proptest::option::of(text(0, 40))) {
        // `internal_id` is skipped: it comes back as its default.
        round_trip(&Feedback { stars, comment, internal_id: 0 })?;
    }

    #[test]
    fn defaults(
        branch in text(0, 10), force in any::<bool>(), strategy in strategy(),
        offset in any::<i64>(), retries in any::<Option<u8>>(),
    ) {
        // A `None` with a default comes back as the default: the field is
        // left out of the content, and the default fills it.
        let expected_retries = retries.or(Some(3));
        let value = Defaults { branch, force, strategy, offset, retries };
        let parsed = Defaults::from_content(&value.to_content()).unwrap();
        prop_assert_eq!(parsed, Defaults { retries: expected_retries, ..value.clone() });
        if value.retries.is_some() {
            round_trip(&value)?;
        }
    }

    #[test]
    fn reexported(question in text(0, 20), answer in any::<bool>()) {
        round_trip(&Reexported { question, answer })?;
    }

    #[test]
    fn generic(choice in strategy(), more in prop::sample::subsequence(
        vec![Strategy::Conservative, Strategy::Balanced, Strategy::Aggressive], 0..=3)) {
        round_trip(&Pick { choice, more })?;
    }
}

// ---------------------------------------------------------------------------
// Typed fields.

/// An e-mail address the `email` format accepts.
fn email() -> impl Gen<Value = String> {
    "[a-z0-9]{1,10}@[a-z]{1,10}(\\.[a-z]{2,5}){0,2}"
}

/// Year, month and day of a date that exists, years 0000 to 9999.
fn ymd() -> impl Gen<Value = (i32, u8, u8)> {
    (0i32..=9999, 1u8..=12, 1u8..=31).prop_filter_map("a day that exists", |(y, m, d)| {
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let days = match m {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        (d <= days).then_some((y, m, d))
    })
}

/// An RFC 3339 offset in minutes (no seconds: RFC 3339 cannot write them),
/// within the `date-time` format's `-23:59..=+23:59`.
fn offset_minutes() -> impl Gen<Value = i32> {
    -(23 * 60 + 59)..=(23 * 60 + 59)
}

proptest! {
    #[test]
    fn std_typed(
        workers in 1u8..=255, threads in proptest::option::of(1u16..=64), step in 1i32..=10,
        back in i64::MIN..=-1, initial in any::<char>(), answer in any::<char>(),
        port in 1024u16..=65535, fallback in proptest::option::of(1024u16..=65535),
        contact in email(), escalation in email(), handle in "[a-z0-9]{2,16}",
    ) {
        use std::num::NonZero;
        round_trip(&StdTyped {
            workers: NonZero::new(workers).unwrap(),
            threads: threads.map(|t| NonZero::new(t).unwrap()),
            step: NonZero::new(step).unwrap(),
            back: NonZero::new(back).unwrap(),
            initial,
            answer,
            port: Port(port),
            fallback: fallback.map(Port),
            contact: Contact { address: contact },
            escalation: Contact { address: escalation },
            handle: Handle::new(&handle),
        })?;
    }

    /// Every text the `date` format accepts is a date for every date type,
    /// and the reverse: the format and the types' parsers agree on
    /// `YYYY-MM-DD` over years 0000 to 9999 (days 29 to 31 of every month
    /// included).
    #[test]
    fn date_format_and_date_types_agree(y in 0i32..=9999, m in 0u8..=13, d in 0u8..=32) {
        let text = format!("{y:04}-{m:02}-{d:02}");
        let format = elicit_core::format::Format::Date.matches(&text);
        #[cfg(feature = "chrono")]
        prop_assert_eq!(text.parse::<chrono::NaiveDate>().is_ok(), format, "chrono {}", text);
        #[cfg(feature = "time")]
        prop_assert_eq!(
            time::Date::parse(&text, &time::format_description::well_known::Iso8601::DATE).is_ok(),
            format, "time {}", text
        );
        #[cfg(feature = "jiff")]
        prop_assert_eq!(text.parse::<jiff::civil::Date>().is_ok(), format, "jiff {}", text);
        let _ = format;
    }
}

#[cfg(feature = "chrono")]
proptest! {
    #[test]
    fn chrono_typed(
        (y, m, d) in ymd(), start in ymd(), secs in -62_167_219_200i64..=253_402_300_799,
        nanos in 0u32..1_000_000_000, local in proptest::option::of((ymd(), 0u32..86_400, offset_minutes())),
        meeting in (ymd(), 0u32..86_400, offset_minutes()),
    ) {
        use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeZone};
        let date = |(y, m, d): (i32, u8, u8)| NaiveDate::from_ymd_opt(y, m.into(), d.into()).unwrap();
        let zoned = |(ymd, secs, offset): ((i32, u8, u8), u32, i32)| -> DateTime<FixedOffset> {
            let time = NaiveTime::from_num_seconds_from_midnight_opt(secs, 0).unwrap();
            FixedOffset::east_opt(offset * 60).unwrap()
                .from_local_datetime(&date(ymd).and_time(time)).single().unwrap()
        };
        let value = ChronoTyped {
            day: date((y, m, d)),
            start: date(start),
            at: DateTime::from_timestamp(secs, nanos).unwrap(),
            local: local.map(zoned),
            meeting: zoned(meeting),
        };
        round_trip(&value)?;
        // chrono compares instants only: the offset comes back too.
        let back = ChronoTyped::from_content(&value.to_content()).unwrap();
        prop_assert_eq!(back.meeting.offset(), value.meeting.offset());
        prop_assert_eq!(back.local.map(|l| *l.offset()), value.local.map(|l| *l.offset()));
    }
}

#[cfg(feature = "time")]
proptest! {
    #[test]
    fn time_typed(
        (y, m, d) in ymd(), start in ymd(),
        at in (ymd(), 0u32..86_400, 0u32..1_000_000_000, offset_minutes()),
        until in proptest::option::of((ymd(), 0u32..86_400, offset_minutes())),
        meeting in (ymd(), 0u32..86_400, offset_minutes()),
    ) {
        use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
        let date = |(y, m, d): (i32, u8, u8)| {
            Date::from_calendar_date(y, Month::try_from(m).unwrap(), d).unwrap()
        };
        let zoned = |ymd, secs: u32, nanos: u32, offset: i32| -> OffsetDateTime {
            #[allow(clippy::cast_possible_truncation)]
            let time = Time::from_hms_nano((secs / 3600) as u8, (secs / 60 % 60) as u8, (secs % 60) as u8, nanos).unwrap();
            #[allow(clippy::cast_possible_truncation)]
            let offset = UtcOffset::from_hms((offset / 60) as i8, (offset % 60) as i8, 0).unwrap();
            PrimitiveDateTime::new(date(ymd), time).assume_offset(offset)
        };
        let value = TimeTyped {
            day: date((y, m, d)),
            start: date(start),
            at: zoned(at.0, at.1, at.2, at.3),
            until: until.map(|(ymd, secs, offset)| zoned(ymd, secs, 0, offset)),
            meeting: zoned(meeting.0, meeting.1, 0, meeting.2),
        };
        round_trip(&value)?;
        let back = TimeTyped::from_content(&value.to_content()).unwrap();
        prop_assert_eq!(back.at.offset(), value.at.offset());
    }
}

#[cfg(feature = "jiff")]
proptest! {
    #[test]
    fn jiff_typed(
        (y, m, d) in ymd(), start in ymd(),
        // 0000-01-01T00:00:00Z to jiff's last instant, 9999-12-30T22:00:00Z.
        secs in -62_167_219_200i64..=253_402_207_200, nanos in 0i32..1_000_000_000,
        meeting in -62_167_219_200i64..=253_402_207_200, end in proptest::option::of(ymd()),
    ) {
        use jiff::Timestamp;
        use jiff::civil::Date;
        #[allow(clippy::cast_possible_truncation)]
        let date = |(y, m, d): (i32, u8, u8)| Date::new(y as i16, m as i8, d as i8).unwrap();
        let at = Timestamp::new(secs, if secs == 253_402_207_200 { 0 } else { nanos }).unwrap();
        round_trip(&JiffTyped {
            day: date((y, m, d)),
            start: date(start),
            at,
            meeting: Timestamp::from_second(meeting).unwrap(),
            end: end.map(date),
        })?;
    }
}

#[cfg(feature = "url")]
proptest! {
    #[test]
    fn url_typed(
        endpoint in "https://[a-z]{1,12}\\.example(:[1-9][0-9]{0,3})?/[a-z0-9/]{0,12}(\\?[a-z]=[a-z0-9]{0,5})?",
        docs in "http://[a-z]{1,8}\\.test/[a-z0-9]{0,8}",
        mirror in proptest::option::of("(ftp|https)://[a-z]{1,8}\\.example/[a-z0-9_.-]{0,10}"),
    ) {
        let parse = |s: &str| url::Url::parse(s).unwrap();
        round_trip(&UrlTyped {
            endpoint: parse(&endpoint),
            docs: parse(&docs),
            mirror: mirror.as_deref().map(parse),
        })?;
    }
}

#[cfg(feature = "uuid")]
proptest! {
    #[test]
    fn uuid_typed(id in any::<u128>(), parent in any::<u128>(), other in any::<Option<u128>>()) {
        use uuid::Uuid;
        round_trip(&UuidTyped {
            id: Uuid::from_u128(id),
            parent: Uuid::from_u128(parent),
            other: other.map(Uuid::from_u128),
        })?;
    }

    /// The pattern and the `const fn` rule of a literal default say the
    /// same, and every text they accept is a UUID for the `uuid` crate.
    #[test]
    fn uuid_pattern_and_is_uuid_agree(text in "[0-9a-fA-F-]{30,38}|[0-9a-fA-FxX{}-]{36}") {
        let pattern = elicit_core::Pattern::new(crate::common::UUID_PATTERN);
        let ours = elicit_core::format::LiteralRule::Uuid.check(&text).is_ok();
        prop_assert_eq!(pattern.is_match(&text), Ok(ours), "{}", text);
        if ours {
            prop_assert!(uuid::Uuid::parse_str(&text).is_ok(), "{}", text);
        }
    }
}
