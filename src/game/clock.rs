//! The players' clocks (Display ▸ Panels ▸ Timer): a clock per side that counts the time the side to move spends,
//! with Start, Pause and Reset in the info panel.
//!
//! The clock that runs is the one of the side to move at the end of the line (the game being played, also while the
//! user looks back). Time is counted at every message the game handles and every tick, so a move is charged to the
//! side that made it. With a limit (Timer minutes > 0) the clocks count down: the AI plays by its clock (each move gets
//! its share of the time left, [`shirokuro_engine::think::move_budget`]), and a flag that falls ends the game — no
//! more moves until the clocks are reset or a new game starts. Every position records the clocks when it was
//! reached, and a saved game keeps them (Egaroucid's `black_time_msec` / `white_time_msec`).

use std::time::{Duration, Instant};

use iced::widget::{button, row, text};
use iced::{Alignment, Element};
use shirokuro_engine::Color;

use super::{Action, Game, Message};
use crate::context::Ctx;
use crate::i18n::{Strings, fill};

/// What the clock buttons and the tick ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockMessage {
    /// Start (or continue) the clocks.
    Start,
    /// Stop the clocks.
    Pause,
    /// Both clocks back to zero, stopped; a fallen flag is lifted.
    Reset,
    /// Time passed (the subscription's tick, with the time it fired).
    Tick(Instant),
}

/// Both players' clocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Time used by Black and White.
    used: [Duration; 2],
    /// Since when the running clock has counted time not yet in `used` (`None`: stopped).
    since: Option<Instant>,
    /// The side whose time ran out.
    flag: Option<Color>,
}

fn index(side: Color) -> usize {
    match side {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Clocks {
    /// Stopped clocks showing a recorded reading (milliseconds used by Black and White).
    #[must_use]
    pub fn at(reading: [u64; 2]) -> Clocks {
        Clocks { used: reading.map(Duration::from_millis), since: None, flag: None }
    }

    /// Whether the clocks run.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }

    /// The side whose flag fell.
    #[must_use]
    pub fn flag(&self) -> Option<Color> {
        self.flag
    }

    /// The time `side` has used.
    #[must_use]
    pub fn used(&self, side: Color) -> Duration {
        self.used[index(side)]
    }

    /// The reading in milliseconds (Black, White), as positions record it.
    #[must_use]
    pub fn reading(&self) -> [u64; 2] {
        self.used.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    /// Charges the time since the last count to `side` (the side to move); then, with a `limit`, lowers its flag
    /// when it has used it all. Returns whether the flag fell now.
    pub fn count(&mut self, side: Color, now: Instant, limit: Option<Duration>) -> bool {
        let Some(since) = self.since else { return false };
        self.used[index(side)] += now.saturating_duration_since(since);
        self.since = Some(since.max(now));
        if let Some(limit) = limit
            && self.used[index(side)] >= limit
        {
            self.used[index(side)] = limit;
            self.since = None;
            self.flag = Some(side);
            return true;
        }
        false
    }

    /// Starts the clocks (not after a flag fell).
    pub fn start(&mut self, now: Instant) {
        if self.flag.is_none() && self.since.is_none() {
            self.since = Some(now);
        }
    }

    /// Stops the clocks (count first).
    pub fn pause(&mut self) {
        self.since = None;
    }
}

/// The time a side has left under `limit`, or has used when there is none, as `H:MM:SS`.
fn shown(used: Duration, limit: Option<Duration>) -> String {
    let seconds = match limit {
        // Counting down, a part second still shows as a second left.
        Some(limit) => limit.saturating_sub(used).as_millis().div_ceil(1000),
        None => used.as_millis() / 1000,
    };
    format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

impl Game {
    /// The clocks.
    #[must_use]
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// The side whose clock runs: the side to move at the end of the line.
    fn clock_side(&self) -> Color {
        self.record.node_at(self.record.last_ply()).map_or(Color::Black, |node| node.position.side_to_move)
    }

    /// Each player's time when the timer is on with a limit.
    fn time_limit(ctx: &Ctx<'_>) -> Option<Duration> {
        let display = &ctx.settings.display;
        (display.show_timer && display.timer_minutes > 0)
            .then(|| Duration::from_secs(60 * u64::from(display.timer_minutes)))
    }

    /// Counts the time up to `now` (at every message and tick). A game that ended stops the clocks; a flag that
    /// falls stops the AI. Returns the engine order that follows.
    pub(super) fn count_time(&mut self, now: Instant, ctx: &Ctx<'_>) -> Action {
        if !ctx.settings.display.show_timer {
            self.clocks.pause();
            return Action::None;
        }
        let side = self.clock_side();
        let fell = self.clocks.count(side, now, Self::time_limit(ctx));
        let over = self.record.node_at(self.record.last_ply()).is_some_and(|n| n.position.board.is_game_over());
        if over {
            self.clocks.pause();
        }
        if fell { self.plan(ctx) } else { Action::None }
    }

    /// After a move was added at the end of the line: the new position records the clocks.
    pub(super) fn stamp_clock(&mut self) {
        if self.clocks.reading() != [0, 0] {
            let ply = self.record.ply();
            self.record.set_clock(ply, self.clocks.reading());
        }
    }

    /// The AI's time for this move when it plays by its clock.
    pub(super) fn move_budget(&self, ctx: &Ctx<'_>) -> Option<Duration> {
        let limit = Self::time_limit(ctx)?;
        if !self.clocks.is_running() {
            return None;
        }
        let side = self.record.current().position.side_to_move;
        let left = limit.saturating_sub(self.clocks.used(side));
        let empties = u8::try_from(self.record.current().position.board.empty_count()).unwrap_or(60);
        Some(shirokuro_engine::think::move_budget(left, empties))
    }

    /// Handles the clock buttons and the tick.
    pub(super) fn clock_message(&mut self, message: ClockMessage, ctx: &Ctx<'_>) -> Action {
        match message {
            ClockMessage::Tick(now) => self.count_time(now, ctx),
            ClockMessage::Start => {
                self.clocks.start(Instant::now());
                // The AI's search from now on has a budget.
                self.plan(ctx)
            }
            ClockMessage::Pause => {
                self.clocks.pause();
                Action::None
            }
            ClockMessage::Reset => {
                let lifted = self.clocks.flag().is_some();
                self.clocks = Clocks::default();
                if lifted { self.plan(ctx) } else { Action::None }
            }
        }
    }

    /// The clocks' line of the info panel: each side's time and the buttons.
    pub(super) fn clock_view(&self, s: &Strings, ctx: &Ctx<'_>) -> Element<'_, Message> {
        let limit = Self::time_limit(ctx);
        let times = fill(
            &s.clock_times,
            &[&shown(self.clocks.used(Color::Black), limit), &shown(self.clocks.used(Color::White), limit)],
        );
        let toggle = if self.clocks.is_running() {
            button(text(s.clock_pause.clone()).size(13)).on_press(Message::Clock(ClockMessage::Pause))
        } else {
            let start = button(text(s.clock_start.clone()).size(13));
            if self.clocks.flag().is_none() { start.on_press(Message::Clock(ClockMessage::Start)) } else { start }
        };
        let reset = button(text(s.clock_reset.clone()).size(13)).on_press(Message::Clock(ClockMessage::Reset));
        row![text(times).size(15), toggle, reset].spacing(8).align_y(Alignment::Center).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_charged_to_the_side_to_move_and_a_flag_falls_at_the_limit() {
        let t0 = Instant::now();
        let mut clocks = Clocks::default();
        assert!(!clocks.count(Color::Black, t0 + Duration::from_secs(5), None), "stopped clocks count nothing");
        assert_eq!(clocks.used(Color::Black), Duration::ZERO);
        clocks.start(t0);
        let limit = Some(Duration::from_secs(60));
        assert!(!clocks.count(Color::Black, t0 + Duration::from_secs(20), limit));
        assert!(!clocks.count(Color::White, t0 + Duration::from_secs(50), limit));
        assert_eq!(
            (clocks.used(Color::Black), clocks.used(Color::White)),
            (Duration::from_secs(20), Duration::from_secs(30))
        );
        // An earlier instant (a message handled after a later tick) counts nothing.
        assert!(!clocks.count(Color::White, t0 + Duration::from_secs(40), limit));
        assert_eq!(clocks.used(Color::White), Duration::from_secs(30));
        assert!(clocks.count(Color::Black, t0 + Duration::from_secs(95), limit));
        assert_eq!(
            (clocks.flag(), clocks.used(Color::Black), clocks.is_running()),
            (Some(Color::Black), Duration::from_secs(60), false)
        );
        clocks.start(t0);
        assert!(!clocks.is_running(), "a fallen flag keeps the clocks stopped");
        assert_eq!(clocks.reading(), [60_000, 30_000]);
    }

    #[test]
    fn the_clock_shows_time_left_or_time_used() {
        let limit = Some(Duration::from_secs(5 * 60));
        assert_eq!(shown(Duration::from_millis(61_500), limit), "0:03:59");
        assert_eq!(shown(Duration::from_millis(3_723_900), None), "1:02:03");
        assert_eq!(shown(Duration::from_secs(400), limit), "0:00:00");
    }
}
