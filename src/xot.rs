//! Operate ▸ Generate XOT Position and new games from XOT: our own list of balanced openings 8 moves deep
//! (`resources/xot/shirokuro-xot.txt`, made with `shirokuro-cli xot`, see docs/xot.md), compiled into the app.

use std::sync::OnceLock;

use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Move, Square};

/// The list as shipped: `#` comment lines, then one move sequence a line.
const LIST: &str = include_str!("../resources/xot/shirokuro-xot.txt");

/// The openings' moves, read once; a line that does not parse is left out (the tests check there is none).
pub fn openings() -> &'static [Vec<Square>] {
    static OPENINGS: OnceLock<Vec<Vec<Square>>> = OnceLock::new();
    OPENINGS.get_or_init(|| {
        LIST.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .filter_map(|line| parse_transcript(line).ok())
            .map(|transcript| transcript.moves.iter().copied().filter_map(Move::square).collect())
            .collect()
    })
}

/// One opening drawn with `rng`, or `None` if the list is empty.
pub fn random(rng: &mut GameRng) -> Option<&'static [Square]> {
    let openings = openings();
    if openings.is_empty() {
        return None;
    }
    openings.get(rng.below(openings.len())).map(Vec::as_slice)
}

/// A generator seeded from the clock, for a user's draw.
#[must_use]
pub fn clock_rng() -> GameRng {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos());
    GameRng::new(u64::try_from(nanos & u128::from(u64::MAX)).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_list_is_eight_legal_moves_and_they_are_distinct() {
        let lines: Vec<&str> = LIST.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
        assert!(lines.len() > 1000, "{} openings", lines.len());
        assert_eq!(openings().len(), lines.len(), "every line parses");
        assert!(openings().iter().all(|moves| moves.len() == 8));
        let mut ends: Vec<_> = openings()
            .iter()
            .map(|moves| {
                let transcript = moves.iter().map(ToString::to_string).collect::<String>();
                parse_transcript(&transcript).unwrap().end.board.canonical().0
            })
            .collect();
        ends.sort_unstable_by_key(|b| (b.player.0, b.opponent.0));
        ends.dedup();
        assert_eq!(ends.len(), lines.len(), "no two lines reach the same position up to symmetry");
    }

    #[test]
    fn draws_come_from_the_list() {
        let mut rng = GameRng::new(7);
        let drawn = random(&mut rng).unwrap();
        assert!(openings().iter().any(|moves| moves.as_slice() == drawn));
    }
}
