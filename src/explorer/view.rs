//! The explorer's panel: the filters, then the moves of the position (games, Black's win/draw/loss share, mean
//! final score, value) and the newest games through it; or the import's progress, or the offer to import when there
//! is no archive yet.

use iced::widget::{Column, Row, button, column, container, row, scrollable, text, text_input};
use iced::{Alignment, Element, Length};
use shirokuro_engine::archive::{GameSummary, ImportStage, Lookup, MoveStats};
use shirokuro_engine::format::Winner;

use super::{Explorer, Found, Message, Value};
use crate::i18n::{Strings, fill};
use crate::notice::archive;

/// Text size of the panel.
const SIZE: u32 = 12;

/// Portions of the move table's columns: move, games, Black, draw, White, mean score, value.
const MOVE_COLUMNS: [u16; 7] = [3, 2, 2, 2, 2, 2, 2];
/// Portions of the game list's columns: Black, White, tournament, year, result.
const GAME_COLUMNS: [u16; 5] = [4, 4, 4, 2, 2];

fn cells<'a>(texts: Vec<String>, portions: &[u16]) -> Row<'a, Message> {
    Row::with_children(
        texts.into_iter().zip(portions).map(|(t, &p)| text(t).size(SIZE).width(Length::FillPortion(p)).into()),
    )
    .spacing(4)
}

fn percent(part: u32, games: u32) -> String {
    if games == 0 { "-".to_owned() } else { format!("{:.0}%", f64::from(part) * 100.0 / f64::from(games)) }
}

impl Explorer {
    /// The panel; `values` are the book's or the hints' values of the moves of the position shown.
    pub fn view<'a>(&'a self, s: &Strings, values: &[Value]) -> Element<'a, Message> {
        let header = row![
            text(s.explorer_title.clone()).size(14).width(Length::Fill),
            container(
                button(text(s.explorer_import.clone()).size(SIZE))
                    .style(button::secondary)
                    .on_press_maybe(self.importing.is_none().then_some(Message::Import))
            )
            .id("explorer-import"),
        ]
        .spacing(8)
        .align_y(Alignment::Center);
        let input = |value: &'a str, on: fn(String) -> Message, id: &'static str| {
            text_input("", value).id(id).on_input(on).size(SIZE).padding(3)
        };
        let filters = row![
            text(s.explorer_years.clone()).size(SIZE),
            input(&self.year_from, Message::YearFrom, "explorer-year-from").width(52),
            text("-").size(SIZE),
            input(&self.year_to, Message::YearTo, "explorer-year-to").width(52),
            text(s.explorer_player.clone()).size(SIZE),
            input(&self.player, Message::Player, "explorer-player").width(Length::Fill),
        ]
        .spacing(6)
        .align_y(Alignment::Center);
        let body = scrollable(self.body(s, values).padding(iced::Padding { right: 12.0, ..iced::Padding::ZERO }))
            .height(Length::Fill);
        let panel = column![header, filters, body].spacing(6).height(Length::Fill);
        container(panel)
            .id("explorer")
            .padding(8)
            .width(Length::Fill)
            .height(Length::Fill)
            .style(container::rounded_box)
            .into()
    }

    fn body<'a>(&'a self, s: &Strings, values: &[Value]) -> Column<'a, Message> {
        let mut body = Column::new().spacing(6);
        if let Some(importing) = &self.importing {
            let line = match &importing.progress {
                Some(p) => {
                    let share = p.done.saturating_mul(100).checked_div(p.total).unwrap_or(0);
                    fill(&s.explorer_importing, &[&stage_name(s, p.stage), &share])
                }
                None => fill(&s.explorer_importing, &[&stage_name(s, ImportStage::Reading), &0]),
            };
            let stop =
                container(button(text(s.explorer_stop.clone()).size(SIZE)).on_press(Message::Stop)).id("explorer-stop");
            return body
                .push(row![text(line).size(SIZE).width(Length::Fill), stop].spacing(8).align_y(Alignment::Center));
        }
        if self.reading.is_some() {
            body = body.push(text(s.explorer_loading_game.clone()).size(SIZE));
        }
        if let Some(error) = &self.read_failed {
            body = body.push(text(fill(&s.explorer_failed, &[&archive::text(s, error)])).size(SIZE));
        }
        match self.found() {
            None => body.push(text(s.explorer_looking.clone()).size(SIZE)),
            Some(Found::NoArchive) => body.push(text(s.explorer_no_archive.clone()).size(SIZE)).push(
                container(button(text(s.explorer_import.clone()).size(SIZE)).on_press(Message::Import))
                    .id("explorer-first-import"),
            ),
            Some(Found::Failed(error)) => {
                body.push(text(fill(&s.explorer_failed, &[&archive::text(s, error)])).size(SIZE))
            }
            Some(Found::Games(lookup)) => self.games(body, s, lookup, values),
        }
    }

    fn games<'a>(
        &'a self,
        body: Column<'a, Message>,
        s: &Strings,
        lookup: &Lookup,
        values: &[Value],
    ) -> Column<'a, Message> {
        if lookup.total_games == 0 {
            return body.push(text(s.explorer_no_games.clone()).size(SIZE));
        }
        let mut body = body.push(text(fill(&s.explorer_summary, &[&lookup.total_games])).size(SIZE));
        if !lookup.moves.is_empty() {
            let head = [
                &s.explorer_col_move,
                &s.explorer_col_games,
                &s.explorer_col_black,
                &s.explorer_col_draw,
                &s.explorer_col_white,
                &s.explorer_col_score,
                &s.explorer_col_value,
            ];
            let head = head.into_iter().cloned().collect();
            body = body.push(container(cells(head, &MOVE_COLUMNS)).padding([0, 4]));
            for stats in &lookup.moves {
                body = body.push(move_row(stats, values));
            }
        }
        body = body.push(text(s.explorer_games.clone()).size(13));
        // The players' columns: the colours' names (the move table's "Black"/"White" are the wins' shares).
        let head = [&s.black, &s.white, &s.explorer_col_tournament, &s.explorer_col_year, &s.explorer_col_result];
        body = body.push(container(cells(head.into_iter().cloned().collect(), &GAME_COLUMNS)).padding([0, 4]));
        for game in &lookup.games {
            body = body.push(game_row(s, game));
        }
        body.push(text(s.explorer_value_note.clone()).size(11))
    }
}

fn move_row<'a>(stats: &MoveStats, values: &[Value]) -> Element<'a, Message> {
    let value = values.iter().find(|v| v.mv == stats.mv).map_or_else(String::new, |v| format!("{:+}", v.value));
    // The moves its own symmetries make the same as this one, in square order after it.
    let mut equivalent = stats.equivalent.clone();
    equivalent.sort_by_key(|mv| mv.square().map(shirokuro_engine::Square::index));
    let texts = vec![
        std::iter::once(&stats.mv).chain(&equivalent).map(ToString::to_string).collect::<Vec<_>>().join(" "),
        stats.games.to_string(),
        percent(stats.black_wins, stats.games),
        percent(stats.draws, stats.games),
        percent(stats.white_wins, stats.games),
        stats.mean_black_diff.map_or_else(|| "-".to_owned(), |d| format!("{d:+.1}")),
        value,
    ];
    let line =
        button(cells(texts, &MOVE_COLUMNS)).style(button::text).padding([1, 4]).on_press(Message::MovePicked(stats.mv));
    container(line).id(format!("explorer-move-{}", stats.mv)).into()
}

fn game_row<'a>(s: &Strings, game: &GameSummary) -> Element<'a, Message> {
    let name = |name: &Option<String>| name.clone().unwrap_or_else(|| "-".to_owned());
    let result = match (game.black_diff, game.winner) {
        (Some(diff), _) => format!("{diff:+}"),
        (None, Some(Winner::Black)) => s.black.clone(),
        (None, Some(Winner::White)) => s.white.clone(),
        (None, Some(Winner::Draw)) => s.draw.clone(),
        (None, None) => "-".to_owned(),
    };
    let texts = vec![
        name(&game.black),
        name(&game.white),
        name(&game.tournament),
        game.year.map_or_else(|| "-".to_owned(), |y| y.to_string()),
        result,
    ];
    let line =
        button(cells(texts, &GAME_COLUMNS)).style(button::text).padding([1, 4]).on_press(Message::GamePicked(game.id));
    container(line).id(format!("explorer-game-{}", game.id.0)).into()
}

fn stage_name(s: &Strings, stage: ImportStage) -> String {
    match stage {
        ImportStage::Reading => s.explorer_stage_reading.clone(),
        ImportStage::Games => s.explorer_stage_games.clone(),
        ImportStage::Replaying => s.explorer_stage_replaying.clone(),
        ImportStage::Positions => s.explorer_stage_positions.clone(),
        ImportStage::Committing => s.explorer_stage_committing.clone(),
    }
}
