//! Game ▸ Review on the game screen: the engine job, the values it sends, the navigation between mistakes.

use shirokuro_engine::Position;
use shirokuro_engine::review::LinePosition;

use super::engine_jobs::Running;
use super::{Action, Game, Order, loss};
use crate::context::Ctx;
use crate::engine_worker::{Job, Request};
use crate::review::{Message, Review};

impl Game {
    /// Handles a review panel message.
    pub(super) fn review_message(&mut self, message: Message, ctx: &Ctx<'_>) -> Action {
        match message {
            Message::Start => self.start_review(ctx),
            Message::Close => {
                let running = self.running == Some(Running::Review);
                self.review = None;
                if running { self.plan(ctx) } else { self.refresh_review(ctx) }
            }
            Message::NextMistake | Message::PreviousMistake => {
                let forward = message == Message::NextMistake;
                let target = self.review.as_ref().and_then(|r| r.error_from(self.record.ply(), forward));
                target.map_or(Action::None, |ply| self.review_goto(ply, ctx))
            }
            Message::Goto(ply) => self.review_goto(ply.saturating_sub(1), ctx),
            // The app asks where to save (it holds the names the text starts with).
            Message::Export => Action::None,
        }
    }

    /// The review shown, if any.
    #[must_use]
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// Starts reviewing the line being viewed, from its end.
    pub(super) fn start_review(&mut self, ctx: &Ctx<'_>) -> Action {
        if !self.engine_ready {
            return Action::None;
        }
        let line: Vec<LinePosition> = loss::current_line(&self.record)
            .iter()
            .map(|node| LinePosition { position: node.position, played: node.played })
            .collect();
        let in_book: Vec<bool> = {
            let book = ctx.book.and_then(crate::book::SharedBook::read);
            line.iter().map(|at| book.as_ref().is_some_and(|b| b.contains(&at.position.board))).collect()
        };
        let settings = ctx.settings.review;
        let options = settings.options();
        let positions: Vec<(usize, Position)> = line.iter().enumerate().rev().map(|(i, at)| (i, at.position)).collect();
        self.review = Some(Review::new(line, options, settings.thresholds(), in_book));
        self.begin(Running::Review, ctx);
        Action::Engine(Order::Start(Request {
            generation: self.generation,
            job: Job::Review { positions, options, book: ctx.book.cloned() },
        }))
    }

    /// A position's value arrived: into the review and onto the graph.
    pub(super) fn reviewed(&mut self, ply: usize, value: shirokuro_engine::review::PositionValue, ctx: &Ctx<'_>) {
        self.record.set_value(ply, value.value);
        if let Some(review) = &mut self.review {
            review.set_value(ply, value);
        }
        self.refresh(ctx);
    }

    /// To the position at `ply`, showing the better move's line when the move played there was graded.
    fn review_goto(&mut self, ply: usize, ctx: &Ctx<'_>) -> Action {
        let action = if ply == self.record.ply() {
            Action::None
        } else {
            self.record.go_to(ply.min(self.record.last_ply()));
            self.moved(ctx)
        };
        let position = self.record.current().position;
        if let Some(graded) = self.review.as_ref().and_then(|r| r.move_from(self.record.ply()))
            && !graded.best_line.is_empty()
        {
            self.best_line = Some((position, graded.best_line.clone()));
        }
        action
    }

    /// The grades are worked out again with the settings' thresholds, and a review of another line is dropped.
    pub(super) fn refresh_review(&mut self, ctx: &Ctx<'_>) -> Action {
        self.check_review(ctx);
        self.refresh(ctx);
        Action::None
    }

    /// Keeps the review in step: the settings' thresholds, and no review of a line that is not the one viewed.
    pub(super) fn check_review(&mut self, ctx: &Ctx<'_>) {
        if self.review.is_none() {
            return;
        }
        let line = loss::current_line(&self.record);
        let stale = self.review.as_ref().is_some_and(|r| !r.is_of(line.iter().map(|n| n.position)));
        if stale {
            self.review = None;
        }
        if let Some(review) = &mut self.review {
            review.set_thresholds(ctx.settings.review.thresholds());
            if self.running != Some(Running::Review) {
                review.finish();
            }
        }
    }
}
