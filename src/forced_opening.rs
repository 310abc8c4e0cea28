//! Settings ▸ Force AI's Opening (Egaroucid's forced openings, inventory §7.6): lines the AI follows while the game
//! is on one of them, kept as a tree of folders in the data folder.
//!
//! On disk, as Egaroucid keeps them (`<data>/forced_openings/`): each folder has `summary.csv`, one opening a line,
//! `transcript,weight,enabled` (e.g. `f5d6c3d3c4,1,true`), and `folder_state.json`, two lines: whether the folder is
//! enabled and its weight. Subfolders are folders of the same kind.
//!
//! The choice: every enabled opening (in enabled folders) that passes through the current position — the same
//! position, reached by any order of moves — and goes on proposes its next move, with its weight times the weights of
//! its folders; the AI draws a move in proportion. A forced move comes before the book and before Accept AI's Loss.

pub mod store;

use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Move, Position, Square};

/// One opening: a line from the initial position.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The moves (passes are made by themselves).
    pub moves: Vec<Square>,
    /// Its weight (> 0).
    pub weight: f64,
    /// Whether the AI follows it.
    pub enabled: bool,
}

impl Opening {
    /// The opening written as a transcript (`f5d6c3`).
    #[must_use]
    pub fn transcript(&self) -> String {
        self.moves.iter().map(|square| square.to_lowercase()).collect()
    }
}

/// A folder of openings and folders.
#[derive(Debug, Clone, PartialEq)]
pub struct Folder {
    /// Its name (the folder's name on disk; empty for the root).
    pub name: String,
    /// Whether its openings are followed.
    pub enabled: bool,
    /// Its weight (> 0), multiplied into its openings'.
    pub weight: f64,
    /// Its openings.
    pub openings: Vec<Opening>,
    /// Its subfolders.
    pub folders: Vec<Folder>,
}

impl Default for Folder {
    fn default() -> Folder {
        Folder { name: String::new(), enabled: true, weight: 1.0, openings: Vec::new(), folders: Vec::new() }
    }
}

impl Folder {
    /// The folder at `path` (indices of subfolders from this one).
    #[must_use]
    pub fn at(&self, path: &[usize]) -> Option<&Folder> {
        path.iter().try_fold(self, |folder, &i| folder.folders.get(i))
    }

    /// The folder at `path`, mutably.
    pub fn at_mut(&mut self, path: &[usize]) -> Option<&mut Folder> {
        path.iter().try_fold(self, |folder, &i| folder.folders.get_mut(i))
    }

    /// Every enabled opening with its weight times its folders' weights (none under a disabled folder).
    #[must_use]
    pub fn enabled_lines(&self) -> Vec<(Vec<Square>, f64)> {
        let mut lines = Vec::new();
        self.collect(1.0, &mut lines);
        lines
    }

    fn collect(&self, factor: f64, lines: &mut Vec<(Vec<Square>, f64)>) {
        if !self.enabled {
            return;
        }
        let factor = factor * self.weight;
        lines.extend(self.openings.iter().filter(|o| o.enabled).map(|o| (o.moves.clone(), o.weight * factor)));
        for folder in &self.folders {
            folder.collect(factor, lines);
        }
    }
}

/// Where the game stands against the forced openings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Forced {
    /// On a line: the move to play (drawn by weight).
    Move(Square),
    /// A line ends at this position (Egaroucid's "Forced Line Ended").
    Ended,
    /// No line passes through this position (Egaroucid's "Forced Line Out").
    Out,
}

/// The moves the enabled lines propose at `position`, with their summed weights, best first; and whether a line ends
/// there.
#[must_use]
pub fn proposals(lines: &[(Vec<Square>, f64)], position: &Position) -> (Vec<(Square, f64)>, bool) {
    let discs = 64 - position.board.empty_count();
    let mut moves: Vec<(Square, f64)> = Vec::new();
    let mut ended = false;
    for (line, weight) in lines {
        let mut at = Position::INITIAL;
        for (i, &square) in line.iter().enumerate() {
            if 64 - at.board.empty_count() == discs {
                if at == *position {
                    match moves.iter_mut().find(|(s, _)| *s == square) {
                        Some((_, total)) => *total += weight,
                        None => moves.push((square, *weight)),
                    }
                }
                break;
            }
            let Some(next) = step(&at, square) else { break };
            at = next;
            if i + 1 == line.len() && at == *position {
                ended = true;
            }
        }
    }
    moves.sort_by(|a, b| b.1.total_cmp(&a.1));
    (moves, ended)
}

/// Plays `square` and the opponent's forced pass, as lines are kept.
fn step(position: &Position, square: Square) -> Option<Position> {
    let next = position.play(Move::Place(square)).ok()?;
    if next.board.must_pass() && !next.board.is_game_over() { next.play(Move::Pass).ok() } else { Some(next) }
}

/// The forced move at `position`, drawn from `rng` in proportion to the weights, or why there is none.
pub fn choose(lines: &[(Vec<Square>, f64)], position: &Position, rng: &mut GameRng) -> Forced {
    let (moves, ended) = proposals(lines, position);
    let total: f64 = moves.iter().map(|(_, w)| w).sum();
    if moves.is_empty() || total <= 0.0 {
        return if ended { Forced::Ended } else { Forced::Out };
    }
    // A uniform draw in [0, total).
    let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (square, weight) in &moves {
        if draw < *weight {
            return Forced::Move(*square);
        }
        draw -= weight;
    }
    moves.last().map_or(Forced::Out, |(square, _)| Forced::Move(*square))
}

#[cfg(test)]
mod tests {
    use shirokuro_engine::notation::parse_transcript;

    use super::*;

    fn opening(text: &str, weight: f64, enabled: bool) -> Opening {
        let moves =
            parse_transcript(text).unwrap().moves.into_iter().filter_map(shirokuro_engine::Move::square).collect();
        Opening { moves, weight, enabled }
    }

    fn at(text: &str) -> Position {
        parse_transcript(text).unwrap().end
    }

    #[test]
    fn lines_propose_their_next_move_by_position_and_weight() {
        let mut root = Folder::default();
        root.openings.push(opening("f5d6c3d3c4", 3.0, true));
        root.openings.push(opening("f5d6c5", 1.0, true));
        root.openings.push(opening("f5f6", 5.0, false));
        let mut sub = Folder { name: "sub".into(), weight: 2.0, ..Folder::default() };
        sub.openings.push(opening("f5d6c5f4", 1.0, true));
        root.folders.push(sub);
        let lines = root.enabled_lines();
        let (moves, ended) = proposals(&lines, &at("f5d6"));
        // c3 (weight 3); c5 from two lines: 1, and 1 times its folder's 2.
        let sq = |name: &str| name.parse::<Square>().unwrap();
        assert_eq!(moves, vec![(sq("c3"), 3.0), (sq("c5"), 3.0)], "{moves:?}");
        assert!(!ended);
        // The same position by another order (a transposition) is on the line too.
        let (moves, ended) = proposals(&lines, &at("f5d6c5"));
        assert_eq!(moves, vec![(sq("f4"), 2.0)]);
        assert!(ended, "f5d6c5 itself ends there");
        // Off every line.
        let mut rng = GameRng::new(1);
        assert_eq!(choose(&lines, &at("f5f6"), &mut rng), Forced::Out);
        assert_eq!(choose(&lines, &at("f5d6c3d3c4"), &mut rng), Forced::Ended);
        // A disabled folder takes its lines with it.
        root.folders[0].enabled = false;
        assert_eq!(proposals(&root.enabled_lines(), &at("f5d6c5")).0, vec![]);
    }

    #[test]
    fn the_draw_follows_the_weights() {
        let mut root = Folder::default();
        root.openings.push(opening("f5d6", 3.0, true));
        root.openings.push(opening("f5f6", 1.0, true));
        let lines = root.enabled_lines();
        let mut rng = GameRng::new(7);
        let d6 = (0..4000)
            .filter(|_| choose(&lines, &at("f5"), &mut rng) == Forced::Move("d6".parse::<Square>().unwrap()))
            .count();
        assert!((2800..3200).contains(&d6), "{d6} of 4000 draws for weight 3 of 4");
    }
}
