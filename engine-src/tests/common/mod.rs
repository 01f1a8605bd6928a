//! Helpers shared by the integration tests.

use engine_src::Position;

/// Positions reached by a fixed pseudo-random walk from the start (`games` walks of up
/// to `plies` plies each, every position along the way). `seed` picks the walk.
pub fn walk_positions(seed: u64, games: u64, plies: usize) -> Vec<Position> {
    let mut state = seed;
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::start();
        for _ in 0..plies {
            positions.push(position);
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            position.play_unchecked(&moves[(state % moves.len() as u64) as usize]);
        }
    }
    positions
}
