//! Float-to-integer conversions that cannot wrap. Service data and simulated
//! values pass through these instead of a bare `as` (a 1e19 total once
//! panicked this app): each truncates toward zero, clamps to the target's
//! range, and maps NaN to 0.
//!
//! Float-to-int `as` saturates exactly so (Rust 1.45 and later); these name
//! that intent in one place, so the truncation lint is allowed only here.

/// `f` as a whole `u64`, clamped to `0..=u64::MAX`; NaN is 0.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "saturating by definition"
)]
pub(crate) fn f64_to_u64(f: f64) -> u64 {
    f as u64
}

/// `f` as a whole `i64`, clamped to `i64::MIN..=i64::MAX`; NaN is 0.
#[expect(clippy::cast_possible_truncation, reason = "saturating by definition")]
pub(crate) fn f64_to_i64(f: f64) -> i64 {
    f as i64
}

/// `f` as a whole `u32`, clamped to `0..=u32::MAX`; NaN is 0.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "saturating by definition"
)]
pub(crate) fn f64_to_u32(f: f64) -> u32 {
    f as u32
}

/// `f` as a whole `u16`, clamped to `0..=u16::MAX`; NaN is 0.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "saturating by definition"
)]
pub(crate) fn f64_to_u16(f: f64) -> u16 {
    f as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_clamp_instead_of_wrapping() {
        assert_eq!(f64_to_u64(1e19), 10_000_000_000_000_000_000);
        assert_eq!(f64_to_u64(1e30), u64::MAX);
        assert_eq!(f64_to_u64(-5.0), 0);
        assert_eq!(f64_to_u64(f64::NAN), 0);
        assert_eq!(f64_to_i64(-1e30), i64::MIN);
        assert_eq!(f64_to_i64(1e30), i64::MAX);
        assert_eq!(f64_to_u32(1e19), u32::MAX);
        assert_eq!(f64_to_u16(70_000.0), u16::MAX);
        assert_eq!(f64_to_u16(-1.0), 0);
    }

    #[test]
    fn fractions_truncate_toward_zero() {
        assert_eq!(f64_to_u64(12.7), 12);
        assert_eq!(f64_to_i64(-2.9), -2);
        assert_eq!(f64_to_u32(0.999), 0);
        assert_eq!(f64_to_u16(989.5), 989);
    }
}
