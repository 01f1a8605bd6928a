//! The one seeded random generator of the tools and the tests: a seed always replays
//! the same games, on every machine.

/// SplitMix64 (Steele, Lea and Flood): a tiny, well-mixed deterministic generator,
/// plenty for choosing random moves.
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0); the modulo bias is negligible for move counts.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs for seed 1234567 (the Rosetta Code task "Pseudo-random
        // numbers/Splitmix64" lists the same): a seed must keep replaying the same games.
        let mut rng = SplitMix64::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
        assert_eq!(rng.next_u64(), 9817491932198370423);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..700 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }
}
