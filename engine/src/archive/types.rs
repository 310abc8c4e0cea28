//! The archive's plain data: what a lookup, an import and the statistics return. Every type is plain data (`Debug`,
//! `Clone`, `PartialEq`) so that an app can carry it in its messages.

use std::fmt;
use std::path::PathBuf;

use crate::board::Move;
use crate::format::Winner;
use crate::position::Position;

/// A game's number in its archive (stable: ids are never reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub u32);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which games a lookup counts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filter {
    /// Only games of these years, both included (games of unknown year are then left out).
    pub years: Option<(u16, u16)>,
    /// Only games where Black's or White's name contains this text, ignoring case.
    pub player: Option<String>,
    /// Leave out the moves played in fewer games than this (the game list and the total still count them).
    pub min_games: u32,
}

/// What was played from a position: one move (in the caller's orientation) and how its games ended.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// The other moves of the caller's position that its own symmetries make equivalent to `mv` (counted with it):
    /// in the initial position, `f5` stands for `d3`, `c4` and `e6` too.
    pub equivalent: Vec<Move>,
    /// Games in which it was played.
    pub games: u32,
    /// Of those, the games Black won (final score, or the recorded result of a game that stopped early).
    pub black_wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games White won.
    pub white_wins: u32,
    /// Black's mean final disc difference over the games played to their end (`None` when none was).
    pub mean_black_diff: Option<f32>,
}

/// One game through the looked-up position, for a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's id (for [`Archive::game`](super::Archive::game)).
    pub id: GameId,
    /// Black's name, if known.
    pub black: Option<String>,
    /// White's name, if known.
    pub white: Option<String>,
    /// The tournament (WTHOR) or place (GGF `PC`), if known.
    pub tournament: Option<String>,
    /// The year, if known.
    pub year: Option<u16>,
    /// Black's final disc difference (empties to the winner), `None` if the game stopped early.
    pub black_diff: Option<i32>,
    /// The winner: from the final position, or as recorded for a game that stopped early.
    pub winner: Option<Winner>,
    /// Number of moves (passes included) the game had played when it reached the position.
    pub ply: u16,
    /// The move the game played next, in the caller's orientation (`None` when the game ended there).
    pub next: Option<Move>,
}

/// The answer to [`Archive::lookup`](super::Archive::lookup).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lookup {
    /// Games through the position that pass the filter (games that ended there included).
    pub total_games: u32,
    /// The moves played next, most played first (then by square).
    pub moves: Vec<MoveStats>,
    /// Games through the position, newest first (by year, then by order of import), at most the limit asked for.
    pub games: Vec<GameSummary>,
}

/// A whole game of the archive, to replay or load into a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedGame {
    /// Its id.
    pub id: GameId,
    /// Black's name, if known.
    pub black: Option<String>,
    /// White's name, if known.
    pub white: Option<String>,
    /// The tournament (WTHOR) or place (GGF `PC`), if known.
    pub tournament: Option<String>,
    /// The year, if known.
    pub year: Option<u16>,
    /// Black's final disc difference (empties to the winner), `None` if the game stopped early.
    pub black_diff: Option<i32>,
    /// The winner: from the final position, or as recorded for a game that stopped early.
    pub winner: Option<Winner>,
    /// Black's disc count as the record gives it (WTHOR and its text dumps), if any.
    pub recorded_black_discs: Option<u8>,
    /// Black's disc count under perfect play from the WTHOR depth (WTHOR's "theoretical score"), if any.
    pub theoretical_black_discs: Option<u8>,
    /// The name of the file it was imported from.
    pub source: String,
    /// The position before the first move (the standard start except for GGF games with a `BO` board).
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
}

/// What an archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ArchiveStats {
    /// Games.
    pub games: u64,
    /// Distinct positions (up to symmetry, with the colour to move).
    pub positions: u64,
    /// Distinct player names.
    pub players: u64,
    /// Distinct tournament names.
    pub tournaments: u64,
    /// Distinct source file names.
    pub sources: u64,
    /// The oldest and newest year, if any game has one.
    pub years: Option<(u16, u16)>,
    /// Size of the archive file in bytes.
    pub file_bytes: u64,
}

/// The stage an import is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportStage {
    /// Reading and parsing the files (`done`/`total` in bytes).
    Reading,
    /// Skipping duplicates and storing the games (`done`/`total` in games).
    Games,
    /// Replaying the games into positions (`done`/`total` in games).
    Replaying,
    /// Writing the position index (`done`/`total` in positions of games).
    Positions,
    /// Making the import durable (`done`/`total` 0/1).
    Committing,
}

/// Where an import is, for a progress bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportProgress {
    /// The stage.
    pub stage: ImportStage,
    /// Work done in the stage.
    pub done: u64,
    /// Work in the stage.
    pub total: u64,
    /// The file being read, in [`ImportStage::Reading`].
    pub file: Option<PathBuf>,
}

/// A game that an import left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub file: PathBuf,
    /// Where in the file: `line 12` (text records) or `game 3` (WTHOR: 0-based record; GGF: 1-based game).
    pub item: String,
    /// Why it was left out.
    pub reason: String,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    /// Files read.
    pub files: usize,
    /// Games read from them.
    pub games_read: u64,
    /// Games added to the archive.
    pub added: u64,
    /// Games left out because the archive (or the import) already had them: same moves and same metadata.
    pub duplicates: u64,
    /// Games left out because they are malformed or illegal.
    pub skipped: u64,
    /// The first [`ImportReport::SKIPPED_DETAILS`] skipped games with their reasons.
    pub skipped_details: Vec<Skipped>,
    /// Things worth knowing that did not stop anything (a WTHOR file without its `WTH.JOU`, …).
    pub warnings: Vec<String>,
    /// Positions new to the archive.
    pub positions_added: u64,
    /// Seconds the import took.
    pub seconds: f64,
}

impl ImportReport {
    /// How many skipped games are described in [`ImportReport::skipped_details`].
    pub const SKIPPED_DETAILS: usize = 1000;

    /// Counts a skipped game, keeping its description while there is room.
    pub(crate) fn skip(&mut self, skipped: Skipped) {
        self.skipped = self.skipped.saturating_add(1);
        if self.skipped_details.len() < ImportReport::SKIPPED_DETAILS {
            self.skipped_details.push(skipped);
        }
    }
}
