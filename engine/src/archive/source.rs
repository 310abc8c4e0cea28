//! Reading the files of an import into games: WTHOR `.wtb` files (with the `WTH.JOU` and `WTH.TRN` found beside them),
//! GGF files (one or several games) and text records (one game per line, the layouts of [`crate::format::records`]).
//!
//! A file that cannot be read, or whose kind is not recognised, is an error (the import then stops and keeps
//! nothing); a bad game inside a readable file is skipped and reported with its line or game number.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::bounded;
use crate::format::wthor::{self, GAME_RECORD_SIZE, HEADER_SIZE, NameFile, NameKind, WthorError};
use crate::format::{GameRecord, RecordFormat, RecordedResult, Winner, records};
use crate::position::Position;

use super::error::ArchiveError;
use super::ggf;
use super::new_game::NewGame;
use super::types::Skipped;

/// Lines parsed by one task.
const CHUNK_LINES: usize = 2048;

/// The games of one file, the games skipped in it, and warnings.
#[derive(Debug, Default)]
pub(crate) struct FileGames {
    pub games: Vec<NewGame>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<String>,
}

/// Reads one file of games. `progress` is told how many of the file's bytes are parsed, now and then.
///
/// # Errors
/// [`ArchiveError`] for a file that cannot be read or recognised, or [`ArchiveError::Stopped`].
pub(crate) fn read_file(
    path: &Path,
    source: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<FileGames, ArchiveError> {
    let is_wtb = path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"));
    if is_wtb {
        return read_wthor(path, source);
    }
    let read_error = |source| ArchiveError::Read { path: path.to_owned(), source };
    let text = bounded::read_to_string(path, bounded::RECORDS_BYTES).map_err(read_error)?;
    let unsupported = |reason: &str| ArchiveError::UnsupportedFile { path: path.to_owned(), reason: reason.to_owned() };
    if text.trim_start().starts_with("(;") || path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("ggf")) {
        return read_ggf(path, &text, source);
    }
    match RecordFormat::detect(&text).or_else(|| detect_by_majority(&text)) {
        None => Err(unsupported(
            "not a game file: not WTHOR (.wtb), not GGF, and not one game per line in a known layout \
             (moves black_discs theoretical, moves diff 10, moves diff, moves result, id,winner,moves)",
        )),
        Some(RecordFormat::ExactPosition) => Err(unsupported("holds scored positions, not games")),
        Some(format) => read_records(path, &text, format, source, stop, progress),
    }
}

fn read_records(
    path: &Path,
    text: &str,
    format: RecordFormat,
    source: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<FileGames, ArchiveError> {
    let chunks = line_chunks(text, CHUNK_LINES);
    let batch = rayon::current_num_threads().saturating_mul(4).max(1);
    let mut out = FileGames::default();
    let mut bytes = 0u64;
    for group in chunks.chunks(batch) {
        if stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        let parsed: Vec<Vec<Result<NewGame, Skipped>>> = group
            .par_iter()
            .map(|&(first_line, chunk)| {
                records(chunk, format)
                    .map(|record| match record {
                        Ok(mut record) => {
                            record.line = record.line.saturating_add(first_line);
                            let line = record.line;
                            record_game(record, source).map_err(|reason| Skipped {
                                file: path.to_owned(),
                                item: format!("line {line}"),
                                reason: reason.to_owned(),
                            })
                        }
                        Err(error) => Err(Skipped {
                            file: path.to_owned(),
                            item: format!("line {}", error.line.saturating_add(first_line)),
                            reason: error.kind.to_string(),
                        }),
                    })
                    .collect()
            })
            .collect();
        for result in parsed.into_iter().flatten() {
            match result {
                Ok(game) => out.games.push(game),
                Err(skip) => out.skipped.push(skip),
            }
        }
        bytes = bytes.saturating_add(group.iter().map(|(_, chunk)| chunk.len() as u64).sum());
        progress(bytes);
    }
    Ok(out)
}

/// A text record as an archive game, or why it is left out.
fn record_game(record: GameRecord, source: usize) -> Result<NewGame, &'static str> {
    if record.moves.is_empty() {
        return Err("a game without moves");
    }
    let finished = record.is_finished();
    let (recorded_black_discs, theoretical_black_discs, recorded_winner) = match record.recorded {
        RecordedResult::BlackDiscs { black, theoretical } => {
            (Some(black), Some(theoretical), Some(Winner::from_black_diff(i32::from(black).saturating_sub(32))))
        }
        RecordedResult::LogistelloDiff { diff, .. } | RecordedResult::DiscDiff(diff) => {
            (None, None, Some(Winner::from_black_diff(diff)))
        }
        RecordedResult::Winner(winner) => (None, None, Some(winner)),
        RecordedResult::Exact(_) => (None, None, None),
    };
    let black_diff = if finished { record.final_black_disc_diff } else { None };
    Ok(NewGame {
        black: None,
        white: None,
        tournament: None,
        year: None,
        recorded_black_discs,
        theoretical_black_discs,
        winner: black_diff.map(Winner::from_black_diff).or(recorded_winner),
        black_diff,
        start: record.start,
        moves: record.moves,
        source,
    })
}

/// The layout that more than half of the first lines parse in (and whose finished games' results agree), when only
/// one does: [`RecordFormat::detect`] wants every sampled line good, and a big file may have a bad line early.
fn detect_by_majority(text: &str) -> Option<RecordFormat> {
    let mut best: Option<(RecordFormat, usize)> = None;
    let mut tie = false;
    for format in RecordFormat::ALL {
        let (mut sampled, mut good) = (0usize, 0usize);
        for record in records(text, format).take(RecordFormat::DETECT_LINES) {
            sampled = sampled.saturating_add(1);
            if record.is_ok_and(|r| r.recorded_matches_replay() != Some(false)) {
                good = good.saturating_add(1);
            }
        }
        if good.saturating_mul(2) <= sampled {
            continue;
        }
        match best {
            Some((_, count)) if count > good => {}
            Some((_, count)) if count == good => tie = true,
            _ => {
                best = Some((format, good));
                tie = false;
            }
        }
    }
    if tie { None } else { best.map(|(format, _)| format) }
}

/// The text cut into pieces of `lines` lines each: (number of lines before the piece, the piece).
fn line_chunks(text: &str, lines: usize) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let (mut start, mut first_line, mut count) = (0usize, 0usize, 0usize);
    for (index, _) in text.match_indices('\n') {
        count = count.saturating_add(1);
        if count == lines {
            let end = index.saturating_add(1);
            chunks.push((first_line, text.get(start..end).unwrap_or("")));
            first_line = first_line.saturating_add(count);
            (start, count) = (end, 0);
        }
    }
    if start < text.len() {
        chunks.push((first_line, text.get(start..).unwrap_or("")));
    }
    chunks
}

fn read_ggf(path: &Path, text: &str, source: usize) -> Result<FileGames, ArchiveError> {
    let pieces = ggf::split_games(text);
    if pieces.is_empty() {
        return Err(ArchiveError::Ggf { path: path.to_owned(), source: crate::protocol::ggf::GgfError::NoGame });
    }
    let mut out = FileGames::default();
    for (number, piece) in pieces {
        match ggf::to_new_game(piece, source) {
            Ok(game) => out.games.push(game),
            Err(error) => out.skipped.push(Skipped {
                file: path.to_owned(),
                item: format!("game {number}"),
                reason: error.to_string(),
            }),
        }
    }
    Ok(out)
}

fn read_wthor(path: &Path, source: usize) -> Result<FileGames, ArchiveError> {
    let data = bounded::read(path, bounded::SMALL_BYTES)
        .map_err(|source| ArchiveError::Read { path: path.to_owned(), source })?;
    let mut out = FileGames::default();
    let (header, games) = match wthor::parse(&data) {
        Ok(file) => (file.header, file.games.into_iter().map(Ok).collect::<Vec<_>>()),
        Err(error) if is_game_error(&error) => {
            lenient_wthor(&data).ok_or_else(|| ArchiveError::Wthor { path: path.to_owned(), source: error.clone() })?
        }
        Err(error) => return Err(ArchiveError::Wthor { path: path.to_owned(), source: error }),
    };
    let players = names_beside(path, "WTH.JOU", NameKind::Players, &mut out.warnings);
    let tournaments = names_beside(path, "WTH.TRN", NameKind::Tournaments, &mut out.warnings);
    let name = |names: &Option<NameFile>, number: u16| {
        names.as_ref().and_then(|n| n.get(number)).map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned)
    };
    let year = Some(header.game_year).filter(|&y| y != 0);
    for (index, game) in games.into_iter().enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(error) => {
                out.skipped.push(Skipped {
                    file: path.to_owned(),
                    item: format!("game {index}"),
                    reason: error.to_string(),
                });
                continue;
            }
        };
        if game.moves.is_empty() {
            out.skipped.push(Skipped {
                file: path.to_owned(),
                item: format!("game {index}"),
                reason: "a game without moves".to_owned(),
            });
            continue;
        }
        let black_diff = game.final_black_disc_diff();
        let recorded = Winner::from_black_diff(i32::from(game.black_discs).saturating_sub(32));
        out.games.push(NewGame {
            black: name(&players, game.black_player),
            white: name(&players, game.white_player),
            tournament: name(&tournaments, game.tournament),
            year,
            recorded_black_discs: Some(game.black_discs),
            theoretical_black_discs: Some(game.theoretical_black_discs),
            winner: Some(black_diff.map_or(recorded, Winner::from_black_diff)),
            black_diff,
            start: Position::INITIAL,
            moves: game.moves,
            source,
        });
    }
    Ok(out)
}

/// Whether a WTHOR error is about one game (the file's structure being sound).
fn is_game_error(error: &WthorError) -> bool {
    matches!(
        error,
        WthorError::BadScore { .. }
            | WthorError::BadMoveByte { .. }
            | WthorError::MoveAfterEnd { .. }
            | WthorError::IllegalMove { .. }
    )
}

type WthorGames = (wthor::WthorHeader, Vec<Result<wthor::WthorGame, WthorError>>);

/// Reads a structurally sound `.wtb` game by game, so that a bad game costs only itself. Each record is parsed as a
/// one-game file; its errors are renumbered to the real game and offset.
fn lenient_wthor(data: &[u8]) -> Option<WthorGames> {
    let mut empty: Vec<u8> = data.get(..HEADER_SIZE)?.to_vec();
    for slot in empty.iter_mut().skip(4).take(4) {
        *slot = 0;
    }
    let header = wthor::parse(&empty).ok()?.header;
    let mut head = empty;
    for (slot, byte) in head.iter_mut().skip(4).zip(1u32.to_le_bytes()) {
        *slot = byte;
    }
    let records = data.get(HEADER_SIZE..)?.chunks_exact(GAME_RECORD_SIZE);
    let games = records
        .enumerate()
        .map(|(index, record)| {
            let mut one = head.clone();
            one.extend_from_slice(record);
            let shift = index.saturating_mul(GAME_RECORD_SIZE);
            match wthor::parse(&one) {
                Ok(file) => file.games.into_iter().next().ok_or(WthorError::Truncated {
                    offset: HEADER_SIZE.saturating_add(shift),
                    record: index,
                    declared: 1,
                }),
                Err(error) => Err(renumber(error, index, shift)),
            }
        })
        .collect();
    Some((header, games))
}

/// A one-game error moved to game `game`, its offset shifted by `shift`.
fn renumber(error: WthorError, game: usize, shift: usize) -> WthorError {
    let at = |offset: usize| offset.saturating_add(shift);
    match error {
        WthorError::BadScore { offset, field, value, .. } => {
            WthorError::BadScore { game, offset: at(offset), field, value }
        }
        WthorError::BadMoveByte { move_number, offset, byte, .. } => {
            WthorError::BadMoveByte { game, move_number, offset: at(offset), byte }
        }
        WthorError::MoveAfterEnd { move_number, offset, byte, .. } => {
            WthorError::MoveAfterEnd { game, move_number, offset: at(offset), byte }
        }
        WthorError::IllegalMove { move_number, offset, mv, reason, .. } => {
            WthorError::IllegalMove { game, move_number, offset: at(offset), mv, reason }
        }
        other => other,
    }
}

/// The name file `file_name` in the folder of `path` (its name matched ignoring case), or `None` with a warning.
fn names_beside(path: &Path, file_name: &str, kind: NameKind, warnings: &mut Vec<String>) -> Option<NameFile> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let found: Option<PathBuf> = std::fs::read_dir(folder).ok().and_then(|entries| {
        entries
            .filter_map(Result::ok)
            .find(|entry| entry.file_name().to_string_lossy().eq_ignore_ascii_case(file_name))
            .map(|entry| entry.path())
    });
    let what = match kind {
        NameKind::Players => "player",
        NameKind::Tournaments => "tournament",
    };
    let Some(found) = found else {
        warnings.push(format!("{}: no {file_name} beside it, so its {what} names are left empty", path.display()));
        return None;
    };
    match wthor::load_names(&found, kind) {
        Ok(names) => Some(names),
        Err(error) => {
            warnings.push(format!("{}: {what} names left empty: {error}", path.display()));
            None
        }
    }
}
