//! In/Out ▸ Game Library: the games saved in `<data dir>/games`, newest first; a click opens one.

use std::path::PathBuf;

use iced::widget::{Column, button, column, scrollable, text};
use iced::{Element, Length};
use shirokuro_engine::game_file::GameFile;

use crate::i18n::{Strings, fill};

/// One game of the Game Library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryEntry {
    /// The file.
    pub path: PathBuf,
    /// Its date, names, final disc counts (when the game ended) and the start of its memo.
    pub date: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// Black's and White's discs at the end (empties to the winner), when the game is over.
    pub result: Option<(u32, u32)>,
    /// Moves in the line.
    pub moves: usize,
    /// The first line of the memo, cut at 40 characters (as Egaroucid's library shows it).
    pub memo: String,
}

/// The Game Library: every readable game file in `folder`, newest file name first (Egaroucid's names are dates);
/// files that are not games are left out.
#[must_use]
pub fn read_library(folder: &std::path::Path) -> Vec<LibraryEntry> {
    let Ok(dir) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = dir
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")))
        .collect();
    paths.sort();
    paths.reverse();
    paths
        .into_iter()
        .filter_map(|path| {
            let file = GameFile::load(&path).ok()?;
            let last = file.nodes.last()?.position;
            let result = last.board.is_game_over().then(|| scored_counts(last.black_score()));
            let memo = file.memo.lines().next().unwrap_or_default().chars().take(40).collect();
            Some(LibraryEntry {
                path,
                date: file.date,
                black: file.black_player,
                white: file.white_player,
                result,
                moves: file.nodes.len().saturating_sub(1),
                memo,
            })
        })
        .collect()
}

/// Black's and White's final counts with the empties given to the winner (split on a draw), from Black's score.
#[must_use]
pub fn scored_counts(black_score: i32) -> (u32, u32) {
    let black = u32::try_from((64 + black_score.clamp(-64, 64)) / 2).unwrap_or(0);
    (black, 64 - black)
}

/// The Game Library box: one button per game (date, players, result, moves, memo), newest first.
pub fn view<'a, M: Clone + 'a>(
    s: &Strings,
    entries: Option<&[LibraryEntry]>,
    open: fn(PathBuf) -> M,
    close: M,
) -> Element<'a, M> {
    let mut list = Column::new().spacing(4);
    match entries {
        None => list = list.push(text(s.library_reading.clone())),
        Some([]) => list = list.push(text(s.library_empty.clone())),
        Some(entries) => {
            for entry in entries {
                let result = entry.result.map_or_else(|| "??-??".to_owned(), |(b, w)| format!("{b}-{w}"));
                let name = |n: &str| if n.is_empty() { "—".to_owned() } else { n.to_owned() };
                let line = fill(
                    &s.library_entry,
                    &[&entry.date, &name(&entry.black), &name(&entry.white), &result, &entry.moves, &entry.memo],
                );
                let open = open(entry.path.clone());
                list = list.push(button(text(line).size(13)).style(button::text).width(Length::Fill).on_press(open));
            }
        }
    }
    column![
        text(s.game_library.clone()).size(20),
        scrollable(list).height(Length::Fixed(420.0)),
        button(text(s.close.clone())).on_press(close),
    ]
    .spacing(10)
    .padding(20)
    .max_width(760)
    .into()
}
