//! Property tests: for random values of the derived test types,
//! `T::from_content(&v.to_content()) == Ok(v)` and the content validates
//! against `T::schema()`.

mod common;

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;

use common::Strategy;
use common::*;
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
