//! The engine jobs of the game: what the engine should do after every change (`plan`), the explicit jobs (one AI
//! move, analysis, a random board), and the engine's answers.

use shirokuro_engine::level::Level;
use shirokuro_engine::random_board::{RandomBoardProgress, RandomBoardSpec};
use shirokuro_engine::{Move, Position, Square};

use super::{Action, Game, Order};
use crate::context::Ctx;
use crate::engine_worker::HintKind;
use crate::engine_worker::{Event, Job, Request, black_value};
use crate::log::LogLine;
use crate::settings::Settings;

/// The kind of job running for the current generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Running {
    /// The AI's move in the normal flow.
    Move,
    /// One AI move asked for explicitly.
    MoveOnce,
    /// Hint values.
    Hints,
    /// Analysis of the line.
    Analysis,
    /// A random board being generated.
    RandomBoard,
    /// AI's Focus.
    Focus,
    /// The hint values of the AI's position, before its move (Display on AI's turn).
    AiTurnHints,
    /// Game ▸ Review.
    Review,
}

/// One move's hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hint {
    pub(super) square: Square,
    pub(super) value: i32,
    pub(super) kind: HintKind,
}

/// The latest report of the running job, shown in the status line.
#[derive(Debug, Clone)]
pub(super) enum Latest {
    /// The AI's last finished iteration.
    Iteration(LogLine),
    /// Where the random board generator is.
    RandomBoard(RandomBoardProgress),
}

impl Game {
    /// Handles an engine event (other than `Ready`/`Configured`, which the app handles).
    pub fn on_engine(&mut self, event: Event, ctx: &Ctx<'_>) -> Action {
        // The AI's time is charged to it before its move is played.
        let counted = self.count_time(std::time::Instant::now(), ctx);
        match self.engine_event(event, ctx) {
            Action::None => counted,
            action => action,
        }
    }

    fn engine_event(&mut self, event: Event, ctx: &Ctx<'_>) -> Action {
        match event {
            Event::Log(line) => {
                if matches!(line, LogLine::Iteration { .. }) && self.is_thinking() {
                    self.thinking = Some(Latest::Iteration(line.clone()));
                }
                self.push_log(line);
                Action::None
            }
            Event::Thought { generation, .. } if generation == self.generation && self.clocks.flag().is_some() => {
                // Its flag fell while it thought: the move comes too late.
                self.running = None;
                self.plan(ctx)
            }
            Event::SparringLoss { generation, loss } if generation == self.generation => {
                self.sparring.record(self.record.current().position, loss);
                Action::None
            }
            Event::Thought { generation, thought } if generation == self.generation => {
                let ply = self.record.ply();
                let side = self.record.current().position.side_to_move;
                self.record.set_value(ply, black_value(side, thought.score));
                self.last_search = self.log.back().cloned();
                self.running = None;
                let before = self.record.current().position;
                let played = match thought.best_move {
                    Some(Move::Place(square)) => self.record.play(square, false).is_ok(),
                    Some(Move::Pass) => self.record.pass(),
                    None => true,
                };
                if played {
                    self.stamp_clock();
                } else {
                    self.push_log(LogLine::MoveRejected { mv: thought.best_move });
                }
                if let Some(first) = thought.pv.first().copied()
                    && let Ok(after) = before.play(first)
                {
                    self.best_line = Some((after, thought.pv[1..].to_vec()));
                }
                self.plan(ctx)
            }
            Event::Hint { generation, square, value, kind, pv } if generation == self.generation => {
                let best_so_far = self.hints.iter().filter(|h| h.square != square).map(|h| h.value).max();
                if best_so_far.is_none_or(|best| value >= best) {
                    let mut line = vec![Move::Place(square)];
                    line.extend(pv);
                    self.best_line = Some((self.record.current().position, line));
                }
                match self.hints.iter_mut().find(|h| h.square == square) {
                    Some(hint) => *hint = Hint { square, value, kind },
                    None => self.hints.push(Hint { square, value, kind }),
                }
                self.refresh(ctx);
                Action::None
            }
            Event::Analyzed { generation, ply, value } if generation == self.generation => {
                self.record.set_value(ply, value);
                if let Some((done, _)) = &mut self.analysis {
                    *done += 1;
                }
                self.refresh(ctx);
                Action::None
            }
            Event::Reviewed { generation, ply, value } if generation == self.generation => {
                self.reviewed(ply, value, ctx);
                Action::None
            }
            Event::RandomProgress { generation, progress } if generation == self.generation => {
                self.thinking = Some(Latest::RandomBoard(progress));
                Action::None
            }
            Event::RandomBoard { generation, result } if generation == self.generation => {
                self.running = None;
                match result {
                    Ok(board) => {
                        let squares: Vec<Square> = board.line.iter().filter_map(|mv| mv.square()).collect();
                        let action = self.load_moves(&squares, ctx);
                        self.random_start = Some(self.record.last_ply());
                        self.refresh(ctx);
                        action
                    }
                    // The app shows why; the game goes on where it was.
                    Err(_) => self.plan(ctx),
                }
            }
            Event::Focus { generation, position, level, values } if generation == self.generation => {
                self.focus = Some(Focus { position, level, values });
                self.refresh(ctx);
                Action::None
            }
            Event::Done { generation } if generation == self.generation => self.job_done(ctx),
            // Stale results, and events the app handles.
            _ => Action::None,
        }
    }

    pub(super) fn job_done(&mut self, ctx: &Ctx<'_>) -> Action {
        match self.running.take() {
            Some(Running::Hints) => {
                if let Some(best) = self.hints.iter().map(|h| h.value).max() {
                    let side = self.record.current().position.side_to_move;
                    self.record.set_value(self.record.ply(), black_value(side, best));
                }
                self.refresh(ctx);
                self.start_focus(ctx)
            }
            Some(Running::Analysis | Running::Review) => self.plan(ctx),
            Some(Running::AiTurnHints) => {
                // The values stay on the board while the AI searches.
                self.generation += 1;
                self.running = Some(Running::Move);
                self.since = Some(std::time::Instant::now());
                self.refresh(ctx);
                let job = Job::Think {
                    position: self.record.current().position,
                    level: Level::clamped(ctx.settings.level),
                    book: ctx.book.cloned(),
                    loss: ai_loss(ctx.settings),
                    time: None,
                    sparring: self.sparring.sparring(ctx.settings.ai_style, &self.record),
                };
                Action::Engine(Order::Start(Request { generation: self.generation, job }))
            }
            other => {
                self.running = other;
                Action::None
            }
        }
    }

    pub(super) fn ai_move_once(&mut self, ctx: &Ctx<'_>) -> Action {
        let position = self.record.current().position;
        if position.board.is_game_over() || !self.engine_ready {
            return Action::None;
        }
        self.generation += 1;
        self.hints.clear();
        self.running = Some(Running::MoveOnce);
        self.since = Some(std::time::Instant::now());
        self.thinking = None;
        self.refresh(ctx);
        let level = Level::clamped(ctx.settings.level);
        Action::Engine(Order::Start(Request {
            generation: self.generation,
            job: Job::Think {
                position,
                level,
                book: ctx.book.cloned(),
                loss: ai_loss(ctx.settings),
                time: self.move_budget(ctx),
                sparring: self.sparring.sparring(ctx.settings.ai_style, &self.record),
            },
        }))
    }

    /// Whether a job that takes the board over runs (analysis, random board generation): clicks wait for it.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        matches!(self.running, Some(Running::Analysis | Running::RandomBoard | Running::Review))
    }

    /// Asks the engine for a random board as the settings describe it.
    pub(super) fn generate_random(&mut self, ctx: &Ctx<'_>) -> Action {
        let r = ctx.settings.random_board;
        let level = Level::clamped(ctx.settings.level);
        let Ok(spec) = RandomBoardSpec::new(r.moves, i32::from(r.score_min), i32::from(r.score_max), level) else {
            return Action::None;
        };
        if !self.engine_ready {
            return Action::None;
        }
        self.begin(Running::RandomBoard, ctx);
        let job = Job::RandomBoard { spec, seed: self.seeds.next_u64() };
        Action::Engine(Order::Start(Request { generation: self.generation, job }))
    }

    /// Starts a job that takes the board over: a new generation (dropping whatever ran), no hints, the status line.
    pub(super) fn begin(&mut self, running: Running, ctx: &Ctx<'_>) {
        self.generation += 1;
        self.analysis = None;
        self.thinking = None;
        self.hints.clear();
        self.running = Some(running);
        self.since = Some(std::time::Instant::now());
        self.refresh(ctx);
    }

    pub(super) fn analyze(&mut self, ctx: &Ctx<'_>) -> Action {
        if !self.engine_ready {
            return Action::None;
        }
        self.begin(Running::Analysis, ctx);
        // Without "Show Random Position Graph", the moves that made a random board are not analysed (Egaroucid).
        let first = if ctx.settings.display.show_random_graph { 0 } else { self.random_start.unwrap_or(0) };
        let positions: Vec<(usize, Position)> = (first..=self.record.last_ply())
            .rev()
            .filter_map(|ply| self.record.node_at(ply).map(|node| (ply, node.position)))
            .collect();
        self.analysis = Some((0, positions.len()));
        self.refresh(ctx);
        let level = Level::clamped(ctx.settings.level);
        Action::Engine(Order::Start(Request {
            generation: self.generation,
            job: Job::Analyze { positions, level, book: ctx.book.cloned() },
        }))
    }

    /// Decides what the engine should do now, after any change; applies forced passes that need no click.
    pub(super) fn plan(&mut self, ctx: &Ctx<'_>) -> Action {
        let settings = ctx.settings;
        self.generation += 1;
        self.hints.clear();
        self.running = None;
        self.check_review(ctx);
        self.thinking = None;
        self.analysis = None;
        if self.pass_pending() {
            // A human facing an AI confirms the pass when asked to; every other pass happens by itself.
            let human_vs_ai = settings.ai_plays_black != settings.ai_plays_white;
            let wait = settings.pause_on_pass && human_vs_ai && !self.ai_to_move(settings);
            if !wait && self.record.is_at_end() {
                let _passed = self.record.pass();
            }
        }
        let position = self.record.current().position;
        let level = Level::clamped(settings.level);
        let job = if self.board_edit.is_some()
            || !self.engine_ready
            || self.paused
            || position.board.is_game_over()
            || self.pass_pending()
        {
            None
        } else if self.ai_to_move(settings) && self.record.is_at_end() {
            if self.awaiting_start || self.clocks.flag().is_some() {
                None
            } else if let Some(square) = self.forced_move(ctx) {
                return self.play_forced(square, ctx);
            } else if settings.display.show_hints
                && settings.display.hints_on_ai_turn
                && self.move_budget(ctx).is_none()
            {
                // Display on AI's turn: the values of the AI's moves first, then its search (not on the clock).
                Some((Running::AiTurnHints, Job::Hints { position, level, book: ctx.book.cloned() }))
            } else {
                Some((
                    Running::Move,
                    Job::Think {
                        position,
                        level,
                        book: ctx.book.cloned(),
                        loss: ai_loss(ctx.settings),
                        time: self.move_budget(ctx),
                        sparring: self.sparring.sparring(ctx.settings.ai_style, &self.record),
                    },
                ))
            }
        } else if settings.display.show_hints {
            Some((Running::Hints, Job::Hints { position, level, book: ctx.book.cloned() }))
        } else if settings.display.show_focus {
            Some((Running::Focus, Job::Focus { position, level: focus_level(level) }))
        } else {
            None
        };
        self.refresh(ctx);
        match job {
            Some((running, job)) => {
                self.running = Some(running);
                self.since = Some(std::time::Instant::now());
                Action::Engine(Order::Start(Request { generation: self.generation, job }))
            }
            None => Action::Engine(Order::Cancel(self.generation)),
        }
    }
}

/// AI's Focus as the engine last reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Focus {
    /// The position.
    pub position: Position,
    /// The level reached.
    pub level: u8,
    /// Each disc's worth for Black, in tenths of a disc.
    pub values: Vec<(Square, i32)>,
}

/// AI's Focus searches every disc at each level up to this one (at most 10: a few seconds in the midgame).
fn focus_level(level: Level) -> Level {
    Level::clamped(level.get().min(10))
}

impl Game {
    /// After the hints: AI's Focus for the position shown, when it is on and not known yet.
    fn start_focus(&mut self, ctx: &Ctx<'_>) -> Action {
        let position = self.record.current().position;
        let known = self.focus.as_ref().is_some_and(|f| f.position == position);
        if !ctx.settings.display.show_focus || known || position.board.is_game_over() {
            return Action::None;
        }
        self.generation += 1;
        self.running = Some(Running::Focus);
        let level = focus_level(Level::clamped(ctx.settings.level));
        Action::Engine(Order::Start(Request { generation: self.generation, job: Job::Focus { position, level } }))
    }

    /// The level AI's Focus has reached for the position shown.
    #[must_use]
    pub fn focus_level(&self) -> Option<u8> {
        let position = self.record.current().position;
        self.focus.as_ref().filter(|f| f.position == position).map(|f| f.level)
    }
}

/// The loss curves the AI plays with, when Settings ▸ Accept AI's Loss is on.
fn ai_loss(settings: &Settings) -> Option<shirokuro_engine::think::loss_curves::LossCurves> {
    settings.accept_ai_loss.then_some(settings.ai_loss)
}
