//! Times perft from a position: `cargo run --release -p engine-src --example perft -- [DEPTH] [FEN]`
//! (default: depth 6 from the start position).

use std::time::Instant;

use engine_src::{perft::perft, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = match args.next().map(|text| text.parse::<u32>()) {
        None => 6,
        Some(Ok(depth)) => depth,
        Some(Err(error)) => {
            eprintln!("error: depth must be a number: {error}");
            std::process::exit(2);
        }
    };
    let fen: Vec<String> = args.collect();
    let position = if fen.is_empty() {
        Position::start()
    } else {
        match Position::from_fen(&fen.join(" ")) {
            Ok(position) => position,
            Err(error) => {
                eprintln!("error: {error}");
                std::process::exit(2);
            }
        }
    };
    let started = Instant::now();
    let leaves = perft(&position, depth);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {leaves} in {:.3} s ({:.1} M leaves/s)",
        seconds,
        leaves as f64 / seconds / 1e6
    );
}
