//! The game screen's view: the board on the left; the info panel (or the board editor), the graph and the log on
//! the right.

use iced::widget::{Column, button, canvas, column, container, row, scrollable, text};
use iced::{Alignment, Element, Length};
use shirokuro_engine::level::{Level, LevelCategory};
use shirokuro_engine::random_board::MAX_TRIES;
use shirokuro_engine::{Color, Square};

use super::engine_jobs::Latest;
use super::{BOOK_EDIT_INPUT, Game, Message, Running, board_editor};
use crate::context::Ctx;
use crate::i18n::{Strings, fill};
use crate::settings::Settings;
use crate::widget::board::Board;
use crate::widget::eval_chart::band_color;

/// How many moves of the best line the info panel shows.
const BEST_LINE_MOVES: usize = 10;

impl Game {
    /// The screen: the board on the left, the panels on the right.
    pub fn view<'a>(&'a self, ctx: &Ctx<'_>) -> Element<'a, Message> {
        self.view_with(ctx, std::convert::identity, None)
    }

    /// The screen in the parent's messages (`wrap`), with another feature's `panel` in the log's place when given
    /// (the Archive Explorer).
    pub fn view_with<'a, M: 'a>(
        &'a self,
        ctx: &Ctx<'_>,
        wrap: fn(Message) -> M,
        panel: Option<Element<'a, M>>,
    ) -> Element<'a, M> {
        let s = ctx.strings();
        let display = &ctx.settings.display;
        let clickable = !(self.is_thinking() || self.is_busy());
        let on_click: Option<fn(Square) -> Message> = if clickable { Some(Message::SquareClicked) } else { None };
        let board = canvas(
            Board::new(&self.scene, &self.caches, on_click)
                .on_hover(Message::SquareHovered)
                .on_right_click(Message::SquareRightClicked)
                .laser_pointer(display.laser_pointer),
        )
        .width(Length::Fill)
        .height(Length::Fill);
        let board = container(board).id("board").width(Length::FillPortion(3)).height(Length::Fill);

        let mut side = Column::new().spacing(10).width(Length::FillPortion(2));
        if let Some(editor) = &self.board_edit {
            side = side.push(Element::from(board_editor::view(s, editor)).map(wrap));
        } else if display.show_info {
            side = side.push(self.info_panel(ctx).map(wrap));
        }
        if let Some(review) = &self.review {
            let panel = crate::review::view::view(review, self.record.ply(), s, Message::Review);
            let panel: Element<'_, Message> =
                container(panel).id("review").padding(6).width(Length::Fill).style(container::rounded_box).into();
            side = side.push(panel.map(wrap));
        }
        if display.show_graph {
            // Lower beside a panel, so that the panel keeps room for its table at 1100 × 720.
            let height = if panel.is_some() { 120.0 } else { 200.0 };
            side = side.push(self.graph(ctx, height).map(wrap));
        }
        if let Some(panel) = panel {
            side = side.push(panel);
        } else if display.show_log {
            let lines: Vec<Element<'_, Message>> = if self.log.is_empty() {
                vec![text(s.log_empty.as_str()).size(12).into()]
            } else {
                // Oldest first, as in the process log; the view stays at the newest line.
                self.log.iter().map(|line| text(line.text(s)).size(12).into()).collect()
            };
            let log = column![
                text(s.log_title.as_str()).size(14),
                scrollable(Column::with_children(lines).spacing(2)).anchor_bottom()
            ]
            .spacing(4)
            .height(Length::Fill);
            side = side.push(Element::from(log).map(wrap));
        }
        row![Element::from(board).map(wrap), side].spacing(12).padding(10).into()
    }

    fn info_panel(&self, ctx: &Ctx<'_>) -> Element<'_, Message> {
        let s = ctx.strings();
        let settings = ctx.settings;
        let position = self.record.current().position;
        let (black, white) = (position.black().count(), position.white().count());
        let over = position.board.is_game_over();
        let headline = if over {
            // Scored as the engine and the graph score it: the empties go to the winner.
            let result = match position.black_score() {
                d if d > 0 => fill(&s.black_wins, &[&d]),
                d if d < 0 => fill(&s.white_wins, &[&-d]),
                _ => s.draw.clone(),
            };
            format!("{} — {result}", s.game_over)
        } else {
            let color = color_name(s, position.side_to_move);
            let who = if self.ai_to_move(settings) { &s.ai } else { &s.human };
            format!("{}  {}", fill(&s.move_number, &[&(self.record.ply() + 1)]), fill(&s.to_move, &[&color, who]))
        };
        let level = Level::clamped(settings.level);
        let level_line = fill(&s.level_with_category, &[&level.get(), &category_name(s, level.category())]);
        let status = self.status_line(s, settings);
        // The buttons come right under the one-line headline, so that longer lines below never move them.
        let nav = row![
            button(text("|<")).on_press(Message::First),
            button(text("<")).on_press(Message::Backward),
            button(text(">")).on_press(Message::Forward),
            button(text(">|")).on_press(Message::Last),
        ]
        .spacing(4);
        let mut controls = row![nav].spacing(12).align_y(Alignment::Center);
        if self.awaiting_start && !over {
            controls =
                controls.push(container(button(text(s.start.clone())).on_press(Message::StartPressed)).id("start"));
        }
        if over && self.review.is_none() && self.record.last_ply() > 0 {
            let review =
                button(text(s.review_this_game.clone())).on_press(Message::Review(crate::review::Message::Start));
            controls = controls.push(container(review).id("review-this-game"));
        }
        if self.pass_pending() && !over {
            controls = controls.push(container(button(text(s.pass.clone())).on_press(Message::PassPressed)).id("pass"));
        }
        if self.is_thinking() || self.is_busy() {
            controls = controls.push(container(button(text(s.stop_job.clone())).on_press(Message::Stop)).id("stop"));
        }
        let mut info = column![
            text(headline).size(18),
            controls,
            text(fill(&s.discs, &[&black, &white])).size(16),
            text(level_line).size(14),
        ]
        .spacing(4);
        if settings.display.show_timer {
            info = info.push(self.clock_view(s, ctx));
        }
        if settings.display.show_focus
            && let Some(level) = self.focus_level()
        {
            info = info.push(text(fill(&s.focus_legend, &[&level])).size(13));
        }
        if let Some(forced) = self.forced_status(ctx) {
            let status = match forced {
                crate::forced_opening::Forced::Move(square) => fill(&s.forced_status_in, &[&square.to_lowercase()]),
                crate::forced_opening::Forced::Ended => s.forced_status_ended.clone(),
                crate::forced_opening::Forced::Out => s.forced_status_out.clone(),
            };
            info = info.push(text(status).size(13));
        }
        if let Some(book) = ctx.book {
            info = info.push(text(fill(&s.book_positions, &[&book.len()])).size(13));
        }
        if let Some(name) = self.opening_so_far(ctx.language) {
            info = info.push(text(fill(&s.opening, &[&name])).size(14));
        }
        if let Some((square, name)) = self.hovered_opening(ctx.language) {
            info = info.push(text(fill(&s.opening_of_move, &[&square.to_lowercase(), &name])).size(14));
        }
        if let Some(line) = self.best_line()
            && !line.is_empty()
        {
            let moves: Vec<String> = line.iter().take(BEST_LINE_MOVES).map(ToString::to_string).collect();
            info = info.push(text(fill(&s.best_line, &[&moves.join(" ")])).size(13));
        }
        if let Some(status) = status {
            info = info.push(text(status).size(14));
        }
        if let Some(search) = &self.last_search {
            info = info.push(text(fill(&s.last_search, &[&search.text(s)])).size(11));
        }
        if let Some(edit) = self.current_edit() {
            let editor = row![
                text(fill(&s.book_edit_prompt, &[&edit.square.to_lowercase()])).size(14),
                iced::widget::text_input("", &edit.text)
                    .id(BOOK_EDIT_INPUT)
                    .on_input(Message::BookEditInput)
                    .on_submit(Message::BookEditSubmit)
                    .width(80),
                button(text(s.close.clone())).on_press(Message::BookEditCancel),
            ]
            .spacing(8)
            .align_y(Alignment::Center);
            info = info.push(container(editor).id("book-edit"));
            info = info.push(text(s.book_edit_help.clone()).size(11));
        }
        container(info).id("info").padding(8).width(Length::Fill).style(container::rounded_box).into()
    }

    /// The status line of the info panel: what the engine is doing, or what the user should do.
    #[must_use]
    pub fn status(&self, ctx: &Ctx<'_>) -> Option<String> {
        self.status_line(ctx.strings(), ctx.settings)
    }

    /// Seconds since the running job started, as "12 s".
    fn elapsed(&self) -> String {
        let seconds = self.since.map_or(0, |since| since.elapsed().as_secs());
        format!("{seconds} s")
    }

    fn status_line(&self, s: &Strings, settings: &Settings) -> Option<String> {
        let position = self.record.current().position;
        if position.board.is_game_over() {
            return None;
        }
        if let Some(side) = self.clocks.flag() {
            return Some(fill(&s.time_up, &[&color_name(s, side), &color_name(s, !side)]));
        }
        Some(if !self.engine_ready {
            s.engine_loading.clone()
        } else if self.running == Some(Running::Analysis) {
            match self.analysis {
                Some((done, total)) => fill(&s.analyzing_progress, &[&(done + 1).min(total), &total]),
                None => s.analyzing.clone(),
            }
        } else if self.running == Some(Running::RandomBoard) {
            match &self.thinking {
                Some(Latest::RandomBoard(p)) => {
                    let score = format!("{:+}", p.black_score);
                    let at = fill(
                        &s.generating_random_progress,
                        &[&p.attempt, &MAX_TRIES, &p.move_number, &settings.random_board.moves, &p.level.get()],
                    );
                    let search = fill(&s.generating_random_search, &[&p.candidate, &p.depth, &score]);
                    format!("{}  {}  {at} {search}", s.generating_random, self.elapsed())
                }
                _ => format!("{}  {}", s.generating_random, self.elapsed()),
            }
        } else if self.is_thinking() {
            match &self.thinking {
                Some(Latest::Iteration(iteration)) => {
                    format!("{}  {}  {}", s.ai_thinking, self.elapsed(), iteration.text(s))
                }
                _ => format!("{}  {}", s.ai_thinking, self.elapsed()),
            }
        } else if self.paused {
            s.ai_paused.clone()
        } else if self.pass_pending() {
            fill(&s.must_pass, &[&color_name(s, position.side_to_move)])
        } else if self.awaiting_start && self.ai_to_move(settings) {
            s.press_start.clone()
        } else {
            return None;
        })
    }

    fn graph(&self, ctx: &Ctx<'_>, height: f32) -> Element<'_, Message> {
        let s = ctx.strings();
        let alt = ctx.settings.display.alt_palette;
        let level = Level::clamped(ctx.settings.level);
        let chart = plotters_iced2::ChartWidget::new(self.chart.view(Message::GraphPicked))
            .width(Length::Fill)
            .height(Length::Fixed(height));
        // Legend: the selectivities this level uses, midgame first.
        let mut used: Vec<(u8, bool)> = Vec::new();
        for ply in 0..60u8 {
            let plan = level.plan(60 - ply);
            let entry = (plan.selectivity().index(), plan.is_endgame());
            if !used.contains(&entry) {
                used.push(entry);
            }
        }
        let mut legend = row![text(s.graph_legend.clone()).size(12)].spacing(8).align_y(Alignment::Center);
        for (index, endgame) in used {
            let percent = shirokuro_engine::level::Selectivity::from_index(index)
                .map_or(100.0, shirokuro_engine::level::Selectivity::percent);
            let label = fill(if endgame { &s.graph_endgame } else { &s.graph_midgame }, &[&percent]);
            let swatch = container(text(""))
                .width(12)
                .height(12)
                .style(move |_theme: &iced::Theme| container::background(band_color(index, alt)));
            legend = legend.push(row![swatch, text(label).size(12)].spacing(3).align_y(Alignment::Center));
        }
        let title = match ctx.settings.display.graph_mode {
            crate::settings::GraphMode::Evaluation => s.graph_title.clone(),
            crate::settings::GraphMode::SumOfLoss => s.graph_sum_of_loss_title.clone(),
        };
        // Egaroucid's Endgame Error takes the legend's place.
        if let Some(from_discs) = ctx.settings.display.endgame_error.from_discs() {
            let figures = super::loss::endgame_error(&super::loss::current_line(&self.record), from_discs);
            let (black, white) =
                figures.map_or(("-".to_owned(), "-".to_owned()), |(b, w)| (b.to_string(), w.to_string()));
            let line = text(fill(&s.graph_endgame_error, &[&black, &white])).size(12);
            return column![text(title).size(14), container(chart).id("graph"), line].spacing(4).into();
        }
        // The legend wraps onto more lines when the panel is narrow.
        column![text(title).size(14), container(chart).id("graph"), legend.wrap().vertical_spacing(4)].spacing(4).into()
    }
}

fn color_name(s: &Strings, color: Color) -> String {
    match color {
        Color::Black => s.black.clone(),
        Color::White => s.white.clone(),
    }
}

fn category_name(s: &Strings, category: LevelCategory) -> String {
    match category {
        LevelCategory::Light => s.category_light.clone(),
        LevelCategory::Standard => s.category_standard.clone(),
        LevelCategory::Pragmatic => s.category_pragmatic.clone(),
        LevelCategory::Accurate => s.category_accurate.clone(),
        LevelCategory::Danger => s.category_danger.clone(),
    }
}
