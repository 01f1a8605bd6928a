//! Emulated machine cycles as time on a DMG (1,048,576 machine cycles a second), as
//! perft, verify and bench print it.

use crate::harness::CYCLES_PER_SECOND;

/// `cycles` in DMG seconds.
pub fn seconds(cycles: u64) -> f64 {
    cycles as f64 / CYCLES_PER_SECOND as f64
}

/// `117.74 DMG seconds`.
pub fn describe(cycles: u64) -> String {
    format!("{:.2} DMG seconds", seconds(cycles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_is_1_048_576_machine_cycles() {
        assert_eq!(seconds(CYCLES_PER_SECOND), 1.0);
        assert_eq!(describe(3_538_680), "3.37 DMG seconds");
    }
}
