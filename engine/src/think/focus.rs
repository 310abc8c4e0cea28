//! Egaroucid's AI's Focus (its "local strategy" view): how much each disc on the board is worth to its owner, found by
//! turning it over and searching again.
//!
//! At each level from 1 up to the one asked, the position is searched, then every disc is given the other colour (a
//! disc on an edge whose two corners are empty turns with the run of same-coloured discs along that edge that holds it,
//! since a lone changed disc there is not a position any game reaches) and the changed position is searched at the same
//! level. A disc's value is the drop of its owner's score when it is turned, shared among the discs turned with it —
//! in discs, Black's view: positive where a disc helps Black (a black disc Black would miss, or a white disc White
//! would rather not have), negative where it helps White. The caller draws `tanh(0.2 × value)` as a tint.

use crate::board::Color;
use crate::level::Level;
use crate::position::Position;
use crate::square::Square;

use super::Thinker;

/// The values of one level: each disc's square with its value for Black.
#[derive(Debug, Clone, PartialEq)]
pub struct Focus {
    /// The level the values were found at.
    pub level: Level,
    /// Every disc's square and value (discs, Black's view).
    pub values: Vec<(Square, f64)>,
}

/// The edges as lines of squares from corner to corner.
const EDGES: [[u8; 8]; 4] = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [56, 57, 58, 59, 60, 61, 62, 63],
    [0, 8, 16, 24, 32, 40, 48, 56],
    [7, 15, 23, 31, 39, 47, 55, 63],
];

/// The squares turned with the disc on `square`: the disc alone, or its same-coloured run along an edge whose corners
/// are both empty.
fn turned_with(black: u64, white: u64, square: Square) -> u64 {
    let index = square as u8;
    let bit = |i: u8| 1u64 << i;
    let own = if black & bit(index) != 0 { black } else { white };
    let occupied = black | white;
    for edge in EDGES {
        let Some(at) = edge.iter().position(|&i| i == index) else { continue };
        if occupied & (bit(edge[0]) | bit(edge[7])) != 0 {
            continue;
        }
        let mut run = 0;
        for &i in edge[..=at].iter().rev().take_while(|&&i| own & bit(i) != 0) {
            run |= bit(i);
        }
        for &i in edge[at..].iter().take_while(|&&i| own & bit(i) != 0) {
            run |= bit(i);
        }
        return run;
    }
    bit(index)
}

impl Thinker {
    /// AI's Focus for `position` at levels 1 to `level`, each level's values given to `report` as they are found;
    /// returns `false` when the search was stopped (the levels reported so far stand).
    pub fn focus(&self, position: &Position, level: Level, report: &mut dyn FnMut(&Focus)) -> bool {
        let black = position.black().0;
        let white = position.white().0;
        let squares: Vec<Square> = Square::ALL.into_iter().filter(|s| (black | white) & s.bitboard().0 != 0).collect();
        let black_score = |p: &Position, level: Level| -> Option<f64> {
            let thought = self.think(p, level);
            if thought.stopped {
                return None;
            }
            let score = f64::from(thought.score);
            Some(if p.side_to_move == Color::Black { score } else { -score })
        };
        for l in 1..=level.get() {
            let at = Level::clamped(l);
            let Some(base) = black_score(position, at) else { return false };
            let mut values = Vec::with_capacity(squares.len());
            for &square in &squares {
                let turned = turned_with(black, white, square);
                let (b, w) = (black ^ turned, white ^ turned);
                let Some(changed) = Position::from_colors(b, w, position.side_to_move) else { continue };
                let Some(score) = black_score(&changed, at) else { return false };
                // Egaroucid's Δ = −(v′ − v) / n: a black disc that Black misses when it turns white lowers Black's
                // score (positive: good for Black); a white disc that helps White raises it when turned (negative).
                let n = f64::from(turned.count_ones().max(1));
                values.push((square, (base - score) / n));
            }
            report(&Focus { level: at, values });
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::search::SolveOptions;

    #[test]
    fn an_edge_run_turns_whole_when_its_corners_are_empty() {
        let sq = |name: &str| name.parse::<Square>().unwrap();
        let bits = |names: &[&str]| names.iter().fold(0u64, |b, n| b | sq(n).bitboard().0);
        let black = bits(&["c1", "d1", "e1", "d4"]);
        let white = bits(&["f1", "e4"]);
        assert_eq!(turned_with(black, white, sq("d1")), bits(&["c1", "d1", "e1"]));
        assert_eq!(turned_with(black, white, sq("f1")), bits(&["f1"]));
        assert_eq!(turned_with(black, white, sq("d4")), bits(&["d4"]), "not on an edge");
        // A corner taken: discs turn alone.
        assert_eq!(turned_with(black | bits(&["a1"]), white, sq("d1")), bits(&["d1"]));
    }

    #[test]
    fn every_disc_gets_a_value_at_every_level() {
        let thinker = Thinker::new(
            Arc::new(crate::eval::weights::bundled().unwrap()),
            SolveOptions::default().with_hash_level(16).with_threads(1),
        )
        .unwrap();
        let position = crate::notation::parse_transcript("f5d6c3d3c4f4f6f3e6e7").unwrap().end;
        let mut levels = Vec::new();
        let done = thinker.focus(&position, Level::new(3).unwrap(), &mut |f| levels.push(f.clone()));
        assert!(done);
        assert_eq!(levels.iter().map(|f| f.level.get()).collect::<Vec<_>>(), [1, 2, 3]);
        let discs = (position.black().0 | position.white().0).count_ones() as usize;
        assert!(levels.iter().all(|f| f.values.len() == discs));
        // Turning discs over changes the score: not every value is zero.
        assert!(levels[2].values.iter().any(|(_, v)| v.abs() > 0.5), "{:?}", levels[2].values);
    }
}
