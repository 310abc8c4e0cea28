//! GGF files holding one or several games: splitting the text into games, and reading each game's players, place,
//! year and result for the archive. The game itself is read by [`crate::protocol::ggf`].
//!
//! A file is a sequence of `(;` … `;)` games with anything between them (GGS's archives put one game per line). A
//! game ends at the first `)` outside a bracketed value; `\]` inside a value is an escaped bracket.
//!
//! The year comes from `DT`: a leading 4-digit year (`2003.12.15_13:24:03.UTC`, `2014-02-21 20:52:27 GMT`) or, for a
//! number of 9 digits or more, seconds since 1970. The result for a game that stopped early comes from `RE`, Black's
//! score with an optional suffix (`+12.000`, `-4`, `0:r`); a finished game's result is its final position.

use std::time::{Duration, UNIX_EPOCH};

use crate::board::Move;
use crate::calendar::UtcDateTime;
use crate::format::Winner;
use crate::protocol::ggf::{GgfError, parse_ggf};

use super::new_game::NewGame;

/// The games of a GGF text: each game's 1-based number and its text from `(;` to the closing `)`. A last game that
/// does not end is returned too (its parse then reports the error).
#[must_use]
pub(crate) fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut games = Vec::new();
    let mut rest = text;
    let mut number = 0usize;
    while let Some(start) = rest.find("(;") {
        let Some(game_text) = rest.get(start..) else { break };
        let end = game_end(game_text).unwrap_or(game_text.len());
        number = number.saturating_add(1);
        games.push((number, game_text.get(..end).unwrap_or(game_text)));
        rest = game_text.get(end..).unwrap_or("");
    }
    games
}

/// The byte length of the game starting the text (through its closing `)`), or `None` if it does not end.
fn game_end(text: &str) -> Option<usize> {
    let mut in_value = false;
    let mut escaped = false;
    for (index, c) in text.char_indices().skip(2) {
        if in_value {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
        } else if c == '[' {
            in_value = true;
        } else if c == ')' {
            return Some(index.saturating_add(1));
        }
    }
    None
}

/// One GGF game as an archive game, its passes made explicit (as WTHOR and transcript games have them).
///
/// # Errors
/// [`GgfError`] if the game does not parse or a move is illegal.
pub(crate) fn to_new_game(text: &str, source: usize) -> Result<NewGame, GgfError> {
    let game = parse_ggf(text)?;
    let positions = game.replay()?;
    let mut moves = Vec::with_capacity(game.moves.len());
    for (before, record) in positions.iter().zip(&game.moves) {
        if record.color != before.side_to_move && record.mv != Move::Pass {
            moves.push(Move::Pass);
        }
        moves.push(record.mv);
    }
    let mut end = positions.last().copied().unwrap_or(game.start);
    if end.board.must_pass()
        && let Ok(next) = end.play(Move::Pass)
    {
        moves.push(Move::Pass);
        end = next;
    }
    let finished = end.board.is_game_over();
    let black_diff = finished.then(|| end.black_score());
    let name = |key: &str| game.property(key).map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    Ok(NewGame {
        black: name("PB"),
        white: name("PW"),
        tournament: name("PC"),
        year: game.property("DT").and_then(year_of_date),
        recorded_black_discs: None,
        theoretical_black_discs: None,
        winner: black_diff.map(Winner::from_black_diff).or_else(|| game.property("RE").and_then(winner_of_result)),
        black_diff,
        start: game.start,
        moves,
        source,
    })
}

/// The year of a GGF `DT` value.
fn year_of_date(value: &str) -> Option<u16> {
    let value = value.trim();
    let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() == 4 {
        return digits.parse::<u16>().ok().filter(|year| (1901..=2155).contains(year));
    }
    if digits.len() >= 9 {
        let seconds = digits.parse::<u64>().ok()?;
        let year = UtcDateTime::of(UNIX_EPOCH.checked_add(Duration::from_secs(seconds))?).year;
        return u16::try_from(year).ok().filter(|year| (1901..=2155).contains(year));
    }
    None
}

/// The winner of a GGF `RE` value (Black's score, optionally followed by `:r`, `:t`, …).
fn winner_of_result(value: &str) -> Option<Winner> {
    let score = value.trim().split(':').next()?.trim();
    let score: f64 = score.parse().ok().filter(|s: &f64| s.is_finite())?;
    Some(if score > 0.0 {
        Winner::Black
    } else if score < 0.0 {
        Winner::White
    } else {
        Winner::Draw
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests")]
mod tests {
    use super::*;

    #[test]
    fn splits_games_and_reads_their_metadata() {
        let text = "junk (;GM[Othello]PB[a]PW[b\\]]DT[2003.12.15_13:24:03.UTC]RE[+2:r]B[f5];)\n\
                    (;GM[Othello]DT[1058400000]B[f5]W[d6];)(;GM[Othello]B[f5]";
        let games = split_games(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].0, 1);
        let first = to_new_game(games[0].1, 0).unwrap();
        assert_eq!((first.black.as_deref(), first.white.as_deref()), (Some("a"), Some("b]")));
        assert_eq!(first.year, Some(2003));
        assert_eq!((first.black_diff, first.winner), (None, Some(Winner::Black)));
        assert_eq!(to_new_game(games[1].1, 0).unwrap().year, Some(2003));
        assert!(to_new_game(games[2].1, 0).is_err());
        assert_eq!(year_of_date("garbage"), None);
        assert_eq!(winner_of_result("-4.5"), Some(Winner::White));
    }
}
