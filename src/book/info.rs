//! The Book Info box: the book's counts by level and by ply.

use iced::widget::{Column, button, column, container, row, scrollable, text};
use iced::{Element, Length};
use shirokuro_engine::book::ops::Info;
use shirokuro_engine::book::{LEVEL_HUMAN, LEVEL_UNDEFINED};

use crate::i18n::{Strings, fill};

/// The box: positions, the counts by level and by ply side by side, and Close (which sends `close`).
pub fn view<'a, M: Clone + 'a>(s: &Strings, info: &Info, close: M) -> Element<'a, M> {
    let mut levels = Column::new().spacing(2).push(text(s.book_info_by_level.clone()).size(15));
    for (level, n) in info.by_level.iter().enumerate().filter(|(_, n)| **n > 0) {
        let line = match u8::try_from(level) {
            Ok(LEVEL_HUMAN) => fill(&s.book_info_level_human, &[n]),
            Ok(LEVEL_UNDEFINED) => fill(&s.book_info_level_undefined, &[n]),
            _ => fill(&s.book_info_level, &[&level, n]),
        };
        levels = levels.push(text(line).size(13));
    }
    let mut plies = Column::new().spacing(2).push(text(s.book_info_by_ply.clone()).size(15));
    for (ply, n) in info.by_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
        plies = plies.push(text(fill(&s.book_info_ply, &[&ply, n])).size(13));
    }
    column![
        text(s.book_info.clone()).size(20),
        text(fill(&s.book_info_positions, &[&info.positions])).size(16),
        scrollable(row![levels.width(180), plies.width(180)].spacing(20)).height(Length::Fixed(420.0)),
        container(button(text(s.close.clone())).on_press(close)).id("close"),
    ]
    .spacing(10)
    .padding(20)
    .into()
}
