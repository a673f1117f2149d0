//! Deterministic identifiers and pseudo-random choices: everything derives
//! from seeded generators, so the seed is byte-identical on every start and a
//! given sequence of requests yields the same ids.

use uuid::Uuid;

/// SplitMix64 finaliser: a fast, well-mixed 64-bit hash.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes two values into one.
pub(crate) fn mix2(a: u64, b: u64) -> u64 {
    mix(a ^ mix(b).rotate_left(17))
}

/// Hashes a string (FNV-1a then mixed).
pub(crate) fn hash_str(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

/// A v4-shaped UUID derived from a 64-bit seed, as text.
pub(crate) fn uuid_from(seed: u64) -> String {
    uuid_of(seed).hyphenated().to_string()
}

/// A v4-shaped UUID derived from a 64-bit seed.
pub(crate) fn uuid_of(seed: u64) -> Uuid {
    let hi = mix(seed);
    let lo = mix(seed ^ 0xA5A5_A5A5_5A5A_5A5A);
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&hi.to_be_bytes());
    bytes[8..].copy_from_slice(&lo.to_be_bytes());
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

/// A uniform float in `0..1` derived from a seed.
pub(crate) fn unit(seed: u64) -> f64 {
    (mix(seed) >> 11) as f64 / (1u64 << 53) as f64
}

/// Picks an element of a non-empty slice from a seed.
pub(crate) fn pick<T: Copy>(seed: u64, items: &[T]) -> T {
    items[index(mix(seed), items.len())]
}

/// `seed` reduced to an index below `len` (0 when `len` is 0).
pub(crate) fn index(seed: u64, len: usize) -> usize {
    let len = u64::try_from(len).unwrap_or(u64::MAX);
    // The remainder is below `len`, which came from a `usize`: it fits.
    usize::try_from(seed.checked_rem(len).unwrap_or(0)).unwrap_or(0)
}

/// A 64-hex-character digest (for `definitionHash`).
pub(crate) fn hex64(seed: u64) -> String {
    (0..4u64)
        .map(|i| format!("{:016x}", mix2(seed, i)))
        .collect()
}

/// Whether a path segment is a well-formed UUID (ids of other shapes are
/// simply unknown, hence 404).
#[cfg(test)]
pub(crate) fn is_uuid(s: &str) -> bool {
    Uuid::parse_str(s).is_ok()
}

/// The generator of ids minted while the service runs.
#[derive(Debug)]
pub(crate) struct IdGen {
    rng: fastrand::Rng,
}

impl IdGen {
    /// A generator seeded with `seed`.
    pub(crate) fn new(seed: u64) -> IdGen {
        IdGen {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A fresh UUID string.
    pub(crate) fn uuid(&mut self) -> String {
        uuid_from(self.rng.u64(..))
    }

    /// A fresh UUID (the same as [`IdGen::uuid`] would have written).
    pub(crate) fn next_uuid(&mut self) -> Uuid {
        uuid_of(self.rng.u64(..))
    }

    /// A fresh 64-bit seed.
    pub(crate) fn seed(&mut self) -> u64 {
        self.rng.u64(..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_uuids() {
        let a = uuid_from(7);
        assert_eq!(a, uuid_from(7));
        assert_ne!(a, uuid_from(8));
        assert!(is_uuid(&a));
        assert_eq!(hex64(1).len(), 64);
        let mut g1 = IdGen::new(3);
        let mut g2 = IdGen::new(3);
        assert_eq!(g1.uuid(), g2.uuid());
    }
}
