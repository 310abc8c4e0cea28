//! The `bench` signature: a fixed set of endgame positions solved single-threaded with a fixed table size.
//!
//! The total node count identifies the search's behaviour: a change that claims to leave the search alone must leave
//! it unchanged, and every engine commit quotes it. The positions are FFO #1–#19 (14–16 empties) and #20–#29
//! (15–20 empties), from the FFO endgame suite.

use std::time::Duration;

use crate::board::Board;
use crate::search::{SearchError, SolveMode, SolveOptions, Solver};

/// The bench positions: 64 squares a1…h8 (`X` black, `O` white, `-` empty) and the side to move.
pub const POSITIONS: [&str; 29] = [
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
    "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X",
    "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X",
    "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X",
    "--OXXX--OOOXXX--OOOXOXO-OOXOOOX-OOXXXXXXXOOXXOX--OOOOX---XXXXXX- X",
    "--OXXO--XOXXXX--XOOOXXXXXOOXXXXXXOOOOXXX-XXXXXXX--XXOOO----XXOO- X",
    "---X-X--X-XXXX--XXXXOXXXXXXOOOOOXXOXXXO-XOXXXXO-XOOXXX--XOOXXO-- O",
    "--XOXX--O-OOXXXX-OOOXXXX-XOXXXOXXXOXOOOXOXXOXOXX--OXOO----OOOO-- O",
    "-XXXX-----OXXX--XOXOXOXXOXOXXOXXOXXOXOOOXXXOXOOX--OXXO---OOOOO-- O",
    "---O-XOX----XXOX---XXOOXO-XXOXOXXXXOOXOX-XOOXXXXXOOOXX-XOOOOOOO- O",
    "--O--O--X-OOOOX-XXOOOXOOXXOXOXOOXXOXXOOOXXXXOOOO--OXXX---XXXXX-- O",
    "--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X",
    "--XXXXX---OOOX---XOOXXXX-OOOOOOOOOOXXXOOOOOXXOOX--XXOO----XXXXX- X",
    "----O------OOX---OOOXX-XOOOXOOOOOXXOXXOOOXXXOOOOOXXXOOXO--OOOOOX X",
    "-XXXXXX-X-XXXOO-XOXXXOOXXOOXXXOX-OOOXXXX--OOXXXX---OOO----XOX-O- X",
    "-OOOOO----OXXO-XXXOOOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOO----XXXX--- X",
    "-XXX------OOOX--XOOOOOXXOXOXOOXXOXXOOOOOXXXOXOOX--OXXO---OOOOO-- X",
    "--OXXO--XOXXXX--XOOOOXXXXOOOXXXXX-OOOXXX--OOOOXX--XXOOO----XXOO- X",
    "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
    "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
    "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
    "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X",
    "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
    "----X------XXXO--OOOXXXXXOOOOXXO-XXOOXXOOOXOXXXXOOOXX---X-XXXX-- O",
    "-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O X",
    "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X- X",
    "--O-------OOO--X-XOOOOXXXXXXOXOX-XXOXOOXXXOXOOXX-OOOOO-X---OOO-- X",
    "-OXXXX----OXXO--XXOOXOOOXXXOOXOOXXOOXOOOXXXXOO-XX-XXO----------- X",
];

/// Table size used by the bench (2^20 entries, 24 MiB), so that the count does not depend on memory.
pub const HASH_LEVEL: u8 = 20;

/// The bench's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchResult {
    /// Positions solved.
    pub positions: usize,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Total time.
    pub elapsed: Duration,
}

fn parse(text: &str) -> Option<Board> {
    let bytes = text.as_bytes();
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in bytes.get(..64)?.iter().enumerate() {
        match c {
            b'X' => black |= 1 << i,
            b'O' => white |= 1 << i,
            _ => {}
        }
    }
    match bytes.get(65)? {
        b'X' => Board::new(black, white),
        _ => Board::new(white, black),
    }
}

/// Runs the bench single-threaded, clearing the table before each position.
///
/// # Errors
/// [`SearchError`] if the solver cannot be created.
pub fn run() -> Result<BenchResult, SearchError> {
    let solver = Solver::new(SolveOptions::default().with_threads(1).with_hash_level(HASH_LEVEL))?;
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let boards: Vec<Board> = POSITIONS.iter().filter_map(|text| parse(text)).collect();
    for board in &boards {
        solver.clear();
        let result = solver.solve(board, SolveMode::Exact);
        nodes += result.nodes;
        elapsed += result.elapsed;
    }
    Ok(BenchResult { positions: boards.len(), nodes, elapsed })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_parses() {
        for text in super::POSITIONS {
            assert!(super::parse(text).is_some(), "{text}");
        }
    }
}
