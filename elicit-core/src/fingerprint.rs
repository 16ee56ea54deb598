//! How an id is logged: a short hash that does not give the id away
//! (`trace::fingerprint`, feature `tracing`).

use std::fmt;

/// An id written as 12 hex digits of the 64-bit FNV-1a hash of its text,
/// computed when it is written (an event that no subscriber wants costs
/// nothing).
pub(crate) struct Fingerprint<T>(pub(crate) T);

impl<T: fmt::Display> fmt::Display for Fingerprint<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
        fmt::write(&mut hasher, format_args!("{}", self.0))?;
        write!(f, "{:012x}", hasher.0 >> 16)
    }
}

/// FNV-1a, 64 bits, fed by `write!`.
struct Fnv(u64);

impl fmt::Write for Fnv {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for byte in text.bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}
