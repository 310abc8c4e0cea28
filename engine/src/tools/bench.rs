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
    parse_position(text).map(|position| position.board)
}

pub(crate) fn parse_position(text: &str) -> Option<crate::position::Position> {
    let bytes = text.as_bytes();
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in bytes.get(..64)?.iter().enumerate() {
        match c {
            b'X' => black |= 1 << i,
            b'O' => white |= 1 << i,
            _ => {}
        }
    }
    let side = match bytes.get(65)? {
        b'X' => crate::board::Color::Black,
        _ => crate::board::Color::White,
    };
    crate::position::Position::from_colors(black, white, side)
}

/// Midgame bench positions, as move sequences from the initial position: eight XOT openings (52 empties), and five
/// WTHOR games after 20 moves (40 empties) and after 32 (28 empties).
pub const MIDGAME_POSITIONS: [&str; 18] = [
    "f5f6e6d6f7g6h5g4",
    "f5d6c5f4e3c6f6g6",
    "f5d6c3g5e6f3g4g6",
    "f5d6c3d3c4f4c5b3",
    "f5f6e6f4g6c5f3g4",
    "f5d6c4d3c2b3b4b5",
    "f5f4g3g6f3g4e3e2",
    "f5f6d3c5d6c7b5e3",
    "f5d6c6f6c4c3d3f4g5h6h5h4g4f3g3h3d7e3d2c1",
    "f5d6c6f6e6d7c5b4c3d2c4b6c8e8c7b5e7f8f7f3",
    "f5f6d3f4e6d6g4f3g5e3d7h4h5h6h3g3h7g6h2e7",
    "f5f6d3f4e6d6e7d7d8c8g6c7f3h6f7g3h3g4h4e3",
    "f5f6c4c3e6b4d3e3f7d6c6e7f8c7c8g5d7c5h4h5",
    "f5d6c6f6c4c3d3f4g5h6h5h4g4f3g3h3d7e3d2c1d1e1e2e6f2f1g2c2e7e8f8g8",
    "f5d6c6f6e6d7c5b4c3d2c4b6c8e8c7b5e7f8f7f3d3b3a3a4d1a2a5a6b7g5g4a7",
    "f5f6d3f4e6d6g4f3g5e3d7h4h5h6h3g3h7g6h2e7d8f7e8g8e2f2e1d2d1g1g7c3",
    "f5f6d3f4e6d6e7d7d8c8g6c7f3h6f7g3h3g4h4e3c6g5h5h2e8h7d2e2e1c1f2d1",
    "f5f6c4c3e6b4d3e3f7d6c6e7f8c7c8g5d7c5h4h5h6d8e8b6a5a6a7b7g6h7b5h3",
];

/// The midgame bench: every [`MIDGAME_POSITIONS`] searched to `depth` at `selectivity` (with `mpc` as the
/// Multi-ProbCut model, `None` for the bundled one) with a fresh table of 2^20
/// entries, on `threads` threads.
///
/// # Panics
/// Never: the positions are checked by a test.
#[must_use]
pub fn run_midgame(
    weights: std::sync::Arc<crate::eval::Weights>,
    mpc: Option<&crate::search::mpc::MpcModel>,
    depth: u8,
    selectivity: crate::level::Selectivity,
    threads: usize,
) -> BenchResult {
    let mut search = crate::search::midgame::MidgameSearch::new(weights, HASH_LEVEL).with_threads(threads);
    if let Some(model) = mpc {
        search.set_mpc_model(model.clone());
    }
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for text in MIDGAME_POSITIONS {
        let position = crate::notation::parse_transcript(text).expect("bench transcripts are legal").end;
        search.clear();
        let result = search.search(&position, depth, selectivity, &mut |_| {});
        nodes += result.nodes;
        elapsed += result.elapsed;
    }
    BenchResult { positions: MIDGAME_POSITIONS.len(), nodes, elapsed }
}

/// Selective-endgame bench positions: FFO #40–#49 (20–26 empties), as in [`POSITIONS`], with their exact scores.
pub const SELECTIVE_END_POSITIONS: [(&str, i32); 10] = [
    ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38),
    ("-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X", 0),
    ("--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X", 6),
    ("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O", -12),
    ("--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O", -14),
    ("---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X", 6),
    ("---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O- X", -8),
    ("-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O", 4),
    ("-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O", 28),
    ("--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X", 16),
];

/// Table size of the selective-endgame bench (2^22 entries, 96 MiB): its searches are deeper than the others'.
pub const SELECTIVE_END_HASH_LEVEL: u8 = 22;

/// One position of the selective-endgame bench.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectiveEndPosition {
    /// The score the search gave (side to move).
    pub score: i32,
    /// The exact score.
    pub exact: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl BenchResult {
    /// The totals of a selective-endgame bench run.
    #[must_use]
    pub fn from_selective_end(results: &[SelectiveEndPosition]) -> BenchResult {
        BenchResult {
            positions: results.len(),
            nodes: results.iter().map(|r| r.nodes).sum(),
            elapsed: results.iter().map(|r| r.elapsed).sum(),
        }
    }
}

/// The selective-endgame bench: every [`SELECTIVE_END_POSITIONS`] searched to the end of the game at `selectivity`
/// by the midgame search (as an AI level's selective endgame stage does; `mpc` as in [`run_midgame`]), with a fresh
/// table of 2^[`SELECTIVE_END_HASH_LEVEL`] entries, on `threads` threads.
///
/// # Panics
/// Never: the positions are checked by a test.
#[must_use]
pub fn run_selective_end(
    weights: std::sync::Arc<crate::eval::Weights>,
    mpc: Option<&crate::search::mpc::MpcModel>,
    selectivity: crate::level::Selectivity,
    threads: usize,
) -> Vec<SelectiveEndPosition> {
    let positions: Vec<(crate::position::Position, i32)> = SELECTIVE_END_POSITIONS
        .iter()
        .map(|&(text, exact)| (parse_position(text).expect("bench positions are legal"), exact))
        .collect();
    run_selective_end_on(&positions, weights, mpc, selectivity, threads)
}

/// [`run_selective_end`] on other positions, each with its exact score (side to move).
#[must_use]
pub fn run_selective_end_on(
    positions: &[(crate::position::Position, i32)],
    weights: std::sync::Arc<crate::eval::Weights>,
    mpc: Option<&crate::search::mpc::MpcModel>,
    selectivity: crate::level::Selectivity,
    threads: usize,
) -> Vec<SelectiveEndPosition> {
    let mut search =
        crate::search::midgame::MidgameSearch::new(weights, SELECTIVE_END_HASH_LEVEL).with_threads(threads);
    if let Some(model) = mpc {
        search.set_mpc_model(model.clone());
    }
    positions
        .iter()
        .map(|&(position, exact)| {
            search.clear();
            let result = search.search(&position, 60, selectivity, &mut |_| {});
            SelectiveEndPosition { score: result.score, exact, nodes: result.nodes, elapsed: result.elapsed }
        })
        .collect()
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
    /// A search to the end at 100 % gives the exact scores the table lists; one at 98 % visits fewer nodes.
    #[test]
    fn selective_end_bench_searches_to_the_end() {
        use crate::level::Selectivity;
        let weights = std::sync::Arc::new(crate::eval::weights::bundled().unwrap());
        // FFO #40 and #47 (20 and 24 empties): cheap at both selectivities.
        let positions: Vec<_> = [0, 7]
            .iter()
            .map(|&i| {
                let (text, exact) = super::SELECTIVE_END_POSITIONS[i];
                (super::parse_position(text).unwrap(), exact)
            })
            .collect();
        let exact =
            super::run_selective_end_on(&positions, std::sync::Arc::clone(&weights), None, Selectivity::Exact, 1);
        let selective = super::run_selective_end_on(&positions, weights, None, Selectivity::P98, 1);
        for (e, s) in exact.iter().zip(&selective) {
            assert_eq!(e.score, e.exact);
            assert!(s.nodes < e.nodes, "98 %: {} nodes, exact: {}", s.nodes, e.nodes);
        }
    }

    #[test]
    fn every_bench_position_parses() {
        for text in super::POSITIONS {
            assert!(super::parse(text).is_some(), "{text}");
        }
        for (text, _) in super::SELECTIVE_END_POSITIONS {
            assert!(super::parse(text).is_some(), "{text}");
        }
        for text in super::MIDGAME_POSITIONS {
            assert!(crate::notation::parse_transcript(text).is_ok(), "{text}");
        }
    }
}
