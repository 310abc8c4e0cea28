//! What the board and the graph show, rebuilt after every change: discs, marks, hints with their labels, book
//! overlays, and the graph's lines.

use shirokuro_engine::level::Level;
use shirokuro_engine::{Bitboard, Color, Move, Position, Square};

use super::Game;
use super::loss;
use crate::context::Ctx;
use crate::engine_worker::HintKind;
use crate::i18n::fill;
use crate::settings::{GraphMode, PlayOrder};
use crate::widget::board::{BookMark, HintMark, HintTone, MoveNumber, NextMark, Scene};
use crate::widget::eval_chart::Losses;

impl Game {
    /// Rebuilds the board scene and the graph data (after any change).
    pub(super) fn refresh(&mut self, ctx: &Ctx<'_>) {
        let settings = ctx.settings;
        let strings = ctx.strings();
        let display = &settings.display;
        let node = *self.record.current();
        let editing = self.board_edit.map(|editor| editor.position());
        let position = editing.unwrap_or(node.position);
        // The editor shows the discs alone.
        let show_moves = editing.is_none() && !position.board.is_game_over();
        let mut hints = self.hints.clone();
        hints.sort_by_key(|h| std::cmp::Reverse(h.value));
        hints.truncate(usize::from(display.hint_count));
        let best = hints.first().map(|h| h.value);
        let label = |kind: HintKind| match kind {
            HintKind::Book => strings.hint_book.clone(),
            HintKind::Depth(depth) => fill(&strings.hint_level, &[&depth]),
            HintKind::Percent(p) => fill(&strings.hint_percent, &[&p]),
        };
        let before = self.scene.style;
        self.scene = Scene {
            black: position.black(),
            white: position.white(),
            black_to_move: position.side_to_move == Color::Black,
            legal: if display.show_legal && show_moves {
                position.board.moves()
            } else {
                shirokuro_engine::Bitboard::EMPTY
            },
            last_move: if display.show_last_move && show_moves { node.played } else { None },
            next_move: if display.show_next_move && show_moves {
                self.record
                    .next_move()
                    .map(|sq| (sq, if display.next_move_as_square { NextMark::Square } else { NextMark::Disc }))
            } else {
                None
            },
            stable: if display.show_stable { stable_discs(&position) } else { shirokuro_engine::Bitboard::EMPTY },
            hints: if display.show_hints && show_moves {
                hints
                    .iter()
                    .map(|h| HintMark {
                        square: h.square,
                        value: h.value,
                        label: match (h.kind, self.book_lines(h.square, ctx)) {
                            // With Book Accuracy on, a book move's label is its line count, as Egaroucid shows it.
                            (HintKind::Book, Some(lines)) => format_lines(lines),
                            _ if display.show_hint_level => label(h.kind),
                            _ => String::new(),
                        },
                        best: Some(h.value) == best,
                        tone: display.colorize_hints.then(|| tone(h.kind, h.value)),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            book_marks: self.book_marks(ctx),
            flipped: if display.show_flipped_last && editing.is_none() {
                self.flipped_by_last_move()
            } else {
                Bitboard::EMPTY
            },
            would_flip: match self.hovered {
                Some(square) if display.show_flipped_hover && show_moves => position.board.flips(square),
                _ => Bitboard::EMPTY,
            },
            numbers: if editing.is_none() { self.move_numbers(display.play_order) } else { Vec::new() },
            style: display.board_style,
            focus: match &self.focus {
                // Egaroucid's tint: tanh(0.2 × value in discs), as a percentage.
                Some(focus) if display.show_focus && focus.position == position => focus
                    .values
                    .iter()
                    .map(|(s, tenths)| (*s, (100.0 * (0.02 * f64::from(*tenths)).tanh()).round() as i8))
                    .collect(),
                _ => Vec::new(),
            },
        };
        if self.scene.style != before {
            self.caches.clear_frame();
        }
        self.caches.clear_pieces();
        let main = self.record.main().iter().map(|n| n.value).collect();
        let fork = self.record.fork().map(|f| (f.from, f.nodes.iter().map(|n| n.value).collect()));
        let level = Level::clamped(settings.level);
        let random_start = self.random_start.filter(|_| !display.show_random_graph);
        self.chart.set(main, fork, self.record.ply(), level, display.alt_palette, random_start);
        let losses = (display.graph_mode == GraphMode::SumOfLoss).then(|| {
            let start = random_start.unwrap_or(0);
            Losses {
                main: loss::sum_of_loss(self.record.main(), start),
                fork: loss::fork_line(&self.record).map(|(from, line)| (from, loss::sum_of_loss(&line, start))),
            }
        });
        self.chart.set_losses(losses);
        let marks = self.review.as_ref().map(crate::review::Review::marks).unwrap_or_default();
        self.chart.set_marks(marks.into_iter().map(|(ply, grade)| (ply, crate::review::grade_color(grade))).collect());
    }

    /// The discs whose colour the last move changed.
    fn flipped_by_last_move(&self) -> Bitboard {
        let ply = self.record.ply();
        let (Some(now), Some(before)) =
            (self.record.node_at(ply), ply.checked_sub(1).and_then(|p| self.record.node_at(p)))
        else {
            return Bitboard::EMPTY;
        };
        let (now, before) = (now.position, before.position);
        (before.black() & now.white()) | (before.white() & now.black())
    }

    /// The numbers of the moves that placed the discs on the board shown, from the record's start.
    fn move_numbers(&self, order: PlayOrder) -> Vec<MoveNumber> {
        if order == PlayOrder::Off {
            return Vec::new();
        }
        let now = self.record.current().position;
        let mut numbers = Vec::new();
        let mut number = 0_u16;
        for ply in 1..=self.record.ply() {
            let (Some(node), Some(before)) = (self.record.node_at(ply), self.record.node_at(ply - 1)) else { break };
            let Some(square) = node.played else { continue };
            number = number.saturating_add(1);
            let black = match order {
                PlayOrder::Transcript => before.position.side_to_move == Color::Black,
                _ => now.black().contains(square),
            };
            numbers.push(MoveNumber { square, number, black });
        }
        numbers
    }

    /// The line count of the book move on `square`, when Book Accuracy is shown and the data is for this position.
    fn book_lines(&self, square: Square, ctx: &Ctx<'_>) -> Option<u32> {
        let (at, views) = self.book_views.as_ref()?;
        if !ctx.settings.display.show_book_accuracy || ctx.book.is_none() || *at != self.record.current().position {
            return None;
        }
        views.iter().find(|v| v.value.mv == Move::Place(square)).map(|v| v.value.lines)
    }

    /// The book overlays of the position shown, when on and the book is in use.
    fn book_marks(&self, ctx: &Ctx<'_>) -> Vec<BookMark> {
        let display = &ctx.settings.display;
        let position = self.record.current().position;
        let Some((at, views)) = &self.book_views else { return Vec::new() };
        if ctx.book.is_none() || *at != position || !(display.show_book_accuracy || display.show_umigame) {
            return Vec::new();
        }
        views
            .iter()
            .filter_map(|view| {
                let Move::Place(square) = view.value.mv else { return None };
                let accuracy = match (&view.accuracy, display.show_book_accuracy) {
                    (Some(grade), true) => {
                        let level = if view.value.level == shirokuro_engine::book::LEVEL_HUMAN {
                            "S".to_owned()
                        } else {
                            view.value.level.to_string()
                        };
                        format!("{grade} {level}")
                    }
                    _ => String::new(),
                };
                let umigame = display.show_umigame.then_some((view.umigame.black, view.umigame.white));
                Some(BookMark { square, accuracy, umigame })
            })
            .collect()
    }
}

/// Egaroucid's colourised hint: certain values (book, exact) by sign, estimates yellow unless below zero.
fn tone(kind: HintKind, value: i32) -> HintTone {
    let certain = matches!(kind, HintKind::Book | HintKind::Percent(100));
    match (certain, value) {
        (_, ..0) => HintTone::Losing,
        (true, 0) => HintTone::CertainDraw,
        (true, _) => HintTone::CertainWin,
        (false, _) => HintTone::Estimate,
    }
}

/// A line count as Egaroucid writes it: 999, 1.2K, 12K, 123K, 1.2M …
#[must_use]
pub fn format_lines(lines: u32) -> String {
    let n = f64::from(lines);
    for (unit, size) in [("G", 1e9), ("M", 1e6), ("K", 1e3)] {
        if n >= size {
            let scaled = n / size;
            return if scaled < 10.0 {
                format!("{:.1}{unit}", (scaled * 10.0).floor() / 10.0)
            } else {
                format!("{}{unit}", scaled.floor())
            };
        }
    }
    lines.to_string()
}

/// Black's and White's stable discs.
fn stable_discs(position: &Position) -> shirokuro_engine::Bitboard {
    position.board.stable_discs()
}

pub(super) fn empty_scene() -> Scene {
    Scene {
        black: shirokuro_engine::Bitboard::EMPTY,
        white: shirokuro_engine::Bitboard::EMPTY,
        black_to_move: true,
        legal: shirokuro_engine::Bitboard::EMPTY,
        last_move: None,
        next_move: None,
        stable: shirokuro_engine::Bitboard::EMPTY,
        hints: Vec::new(),
        book_marks: Vec::new(),
        flipped: shirokuro_engine::Bitboard::EMPTY,
        would_flip: shirokuro_engine::Bitboard::EMPTY,
        numbers: Vec::new(),
        style: crate::settings::BoardStyle::Green,
        focus: Vec::new(),
    }
}
