//! The crate's one door to `tracing`: call sites write one line
//! (`refused!(Replay)`, `note!("round asked", round = n)`), and without
//! the feature `tracing` each macro compiles to nothing but a borrow of its
//! values (no `#[cfg]` at a call site, no unused variable). What is
//! emitted, and the rule that nothing secret is: module `trace`.
//!
//! - `refused!(Reason, field = value, ..)`: the event of a refusal or a
//!   failure, at the reason's level, with `reason` and the fields (each
//!   written with `Display`); `refused!(@dyn expr, ..)` for a reason
//!   computed at run time.
//! - `note!("message", field = value, ..)`: a `DEBUG` event (a message
//!   sent or received, a round).
//! - `span!("name", field = value, ..; empty, ..)`: an `INFO` span, its
//!   fields after `;` recorded later with `record!`.
//! - `in_span!(span, future)`: the future, run in the span.
//! - `record!(field = value)`: records a declared field of the current
//!   span.
//! - `carried!(closure)`: the closure, run on another thread in the
//!   current span and subscriber.

// Each build uses the macros its features' modules call.
#![allow(unused_macros)]

#[cfg(feature = "tracing")]
macro_rules! refused {
    ($reason:ident $(, $name:ident = $value:expr)* $(,)?) => {
        refused!(@dyn $crate::trace::Reason::$reason $(, $name = $value)*)
    };
    (@dyn $reason:expr $(, $name:ident = $value:expr)* $(,)?) => {{
        let reason: $crate::trace::Reason = $reason;
        let level = reason.level();
        if level == ::tracing::Level::ERROR {
            ::tracing::error!(reason = reason.as_str(), $($name = %$value,)* "{}", reason.message());
        } else if level == ::tracing::Level::WARN {
            ::tracing::warn!(reason = reason.as_str(), $($name = %$value,)* "{}", reason.message());
        } else if level == ::tracing::Level::INFO {
            ::tracing::info!(reason = reason.as_str(), $($name = %$value,)* "{}", reason.message());
        } else {
            ::tracing::debug!(reason = reason.as_str(), $($name = %$value,)* "{}", reason.message());
        }
    }};
}

#[cfg(not(feature = "tracing"))]
macro_rules! refused {
    ($reason:ident $(, $name:ident = $value:expr)* $(,)?) => {{
        $(let _ = &$value;)*
    }};
    (@dyn $reason:expr $(, $name:ident = $value:expr)* $(,)?) => {{
        $(let _ = &$value;)*
    }};
}

#[cfg(feature = "tracing")]
macro_rules! note {
    ($message:literal $(, $name:ident = $value:expr)* $(,)?) => {
        ::tracing::debug!($($name = %$value,)* $message)
    };
}

#[cfg(not(feature = "tracing"))]
macro_rules! note {
    ($message:literal $(, $name:ident = $value:expr)* $(,)?) => {{
        $(let _ = &$value;)*
    }};
}

/// The one `INFO` line of an ended flow (`flow ended`): its outcome (and
/// how long it took, where one process saw it whole), never a value.
#[cfg(feature = "tracing")]
macro_rules! flow_ended {
    ($outcome:expr, $took:expr $(,)?) => {
        ::tracing::info!(
            outcome = $outcome,
            duration_ms = u64::try_from($took.as_millis()).unwrap_or(u64::MAX),
            "flow ended"
        )
    };
    ($outcome:expr $(,)?) => {
        ::tracing::info!(outcome = $outcome, "flow ended")
    };
}

#[cfg(not(feature = "tracing"))]
macro_rules! flow_ended {
    ($outcome:expr $(, $took:expr)? $(,)?) => {{
        let _ = &$outcome;
        $(let _ = &$took;)?
    }};
}

#[cfg(feature = "tracing")]
macro_rules! span {
    ($name:literal $(, $field:ident = $value:expr)* $(; $($empty:ident),* )? $(,)?) => {
        ::tracing::info_span!(
            $name
            $(, $field = %$value)*
            $($(, $empty = ::tracing::field::Empty)*)?
        )
    };
}

/// What `span!` gives: the span a flow runs in.
#[cfg(feature = "tracing")]
#[allow(dead_code)] // As the macros: a build without the flows.
pub(crate) type Span = ::tracing::Span;
/// What `span!` gives without the feature: nothing to enter.
#[cfg(not(feature = "tracing"))]
#[allow(dead_code)] // As the macros: a build without the flows.
pub(crate) type Span = NoSpan;

/// What `span!` gives without the feature: nothing to enter.
#[cfg(not(feature = "tracing"))]
#[allow(dead_code)] // As the macros: a build whose modules open no span.
pub(crate) struct NoSpan;

#[cfg(not(feature = "tracing"))]
macro_rules! span {
    ($name:literal $(, $field:ident = $value:expr)* $(; $($empty:ident),* )? $(,)?) => {{
        $(let _ = &$value;)*
        $crate::traced::NoSpan
    }};
}

#[cfg(feature = "tracing")]
macro_rules! in_span {
    ($span:expr, $future:expr $(,)?) => {
        ::tracing::Instrument::instrument($future, $span)
    };
}

#[cfg(not(feature = "tracing"))]
macro_rules! in_span {
    ($span:expr, $future:expr $(,)?) => {{
        let $crate::traced::NoSpan = $span;
        $future
    }};
}

#[cfg(feature = "tracing")]
macro_rules! record {
    ($field:ident = $value:expr $(,)?) => {
        ::tracing::Span::current().record(stringify!($field), ::tracing::field::display(&$value))
    };
}

#[cfg(not(feature = "tracing"))]
macro_rules! record {
    ($field:ident = $value:expr $(,)?) => {{
        let _ = &$value;
    }};
}

/// `f` (a closure), to run on another thread in the current span and under
/// the current subscriber (a scoped one included): what the renderer's
/// thread emits belongs to its request.
#[cfg(feature = "tracing")]
macro_rules! carried {
    ($f:expr $(,)?) => {{
        let dispatch = ::tracing::dispatcher::get_default(|dispatch| dispatch.clone());
        let span = ::tracing::Span::current();
        let f = $f;
        move || ::tracing::dispatcher::with_default(&dispatch, || span.in_scope(f))
    }};
}

#[cfg(not(feature = "tracing"))]
macro_rules! carried {
    ($f:expr $(,)?) => {
        $f
    };
}
