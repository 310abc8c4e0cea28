//! The game screen: board, info panel, graph and log; the game flow (human and AI turns, passes, navigation,
//! hints, analysis) and the engine jobs it needs.
//!
//! After every change the screen works out what the engine should be doing (`Game::plan`): the AI's move when it
//! is the AI's turn at the end of the line, otherwise hint values for the human. Each plan bumps the generation, so
//! results of an older plan are dropped when they arrive.

mod board_editor;
mod book_edit;
mod clock;
mod engine_jobs;
use engine_jobs::{Hint, Running};
mod forced;
mod line;
mod loss;
mod mode;
mod openings;
mod review;
mod scene;
mod sparring;
mod view;

use std::collections::VecDeque;

use shirokuro_engine::bitboard::Symmetry;
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Color, Move, Position, Square};

use board_editor::BoardEditor;
pub use board_editor::Brush;
pub use book_edit::BOOK_EDIT_INPUT;
use book_edit::BookEdit;
pub use clock::{ClockMessage, Clocks};
pub use mode::Mode;
use scene::empty_scene;
pub use scene::format_lines;

use crate::context::Ctx;
use crate::engine_worker::{HintKind, Request};
use crate::log::LogLine;
use crate::record::Record;
use crate::settings::Settings;
use crate::widget::board::{Caches, Scene};
use crate::widget::eval_chart::EvalChart;

/// Lines kept in the log panel.
const LOG_LINES: usize = 200;

/// Messages of the game screen.
#[derive(Debug, Clone)]
pub enum Message {
    /// A square of the board was clicked.
    SquareClicked(Square),
    /// One ply forward along the line.
    Forward,
    /// One ply back.
    Backward,
    /// To the first position.
    First,
    /// To the last position of the line.
    Last,
    /// One ply back, dropping what follows.
    Undo,
    /// The graph was clicked or dragged at this ply.
    GraphPicked(usize),
    /// The Start button: the AI may move.
    StartPressed,
    /// The Pass button: the human passes.
    PassPressed,
    /// Let the AI play one move for the side to move.
    AiMoveOnce,
    /// Stop calculating (the AI pauses).
    Stop,
    /// Resume calculating.
    Resume,
    /// Forget the engine's transposition tables.
    ClearCache,
    /// Make the fork the main line.
    SaveBranch,
    /// Re-evaluate every position of the line.
    Analyze,
    /// The cursor moved onto this square (`None`: off the board).
    SquareHovered(Option<Square>),
    /// A square was right-clicked: edit the book value of that move (or commit the edit of that square).
    SquareRightClicked(Square),
    /// The text of the book value being edited.
    BookEditInput(String),
    /// Enter in the book value editor: store the value (delete the move's position when it is not a number in
    /// −64..=64; leave things as they are when empty).
    BookEditSubmit,
    /// Leave the book value editor without a change.
    BookEditCancel,
    /// Operate ▸ Generate Random Board ▸ Generate: a new game along a random line (settings' moves and score range).
    GenerateRandom,
    /// Operate ▸ Generate XOT Position: a new game from a random opening of our XOT list.
    GenerateXot,
    /// Operate ▸ Back to Random Pos.: to the position the random board was generated at.
    BackToRandom,
    /// In/Out ▸ Edit Board opened (`true`: from the position shown) or cancelled.
    EditBoard(bool),
    /// What a click puts on a square in the board editor.
    EditBrush(Brush),
    /// The side to move of the edited position.
    EditSide(Color),
    /// Empty the edited board.
    EditClear,
    /// The edited position becomes a new game's start.
    EditDone,
    /// Operate ▸ Convert: the whole game (main line, values, cursor) turned or mirrored.
    Convert(Symmetry),
    /// The clocks' buttons and tick.
    Clock(ClockMessage),
    /// Game ▸ Review's panel.
    Review(crate::review::Message),
}

/// What the engine should do, for the app to pass on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// Run this request (superseding anything running).
    Start(Request),
    /// Stop everything older than this generation.
    Cancel(u64),
    /// Clear the transposition tables.
    ClearCache,
}

/// What the parent must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Nothing.
    None,
    /// Pass an order to the engine worker.
    Engine(Order),
    /// Set (`Some`) or delete (`None`) the book value of `mv` from `board`, for the side to move.
    BookEdit {
        /// The position the move is played from.
        board: shirokuro_engine::Board,
        /// The move.
        mv: Move,
        /// The value for the side to move, or `None` to delete the move's position from the book.
        value: Option<i32>,
    },
}

/// The game screen's state.
#[derive(Debug)]
pub struct Game {
    record: Record,
    generation: u64,
    running: Option<Running>,
    engine_ready: bool,
    awaiting_start: bool,
    paused: bool,
    hints: Vec<Hint>,
    log: VecDeque<LogLine>,
    last_search: Option<LogLine>,
    /// The last finished iteration of the AI's running search (shown while it thinks).
    thinking: Option<engine_jobs::Latest>,
    /// Positions analysed and to analyse while an analysis runs.
    analysis: Option<(usize, usize)>,
    /// When the running job started.
    since: Option<std::time::Instant>,
    scene: Scene,
    caches: Caches,
    chart: EvalChart,
    hovered: Option<Square>,
    /// The best line known for a position: from the AI's last search or the best hint.
    best_line: Option<(Position, Vec<Move>)>,
    book_edit: Option<BookEdit>,
    /// Book overlay data of a position, from the book worker.
    book_views: Option<(Position, Vec<shirokuro_engine::book::views::MoveView>)>,
    /// The ply of the generated position when the game is a random board.
    random_start: Option<usize>,
    /// The board editor, while it is open.
    board_edit: Option<BoardEditor>,
    /// Seeds of the random boards.
    seeds: GameRng,
    /// The players' clocks.
    clocks: Clocks,
    /// AI's Focus: the position, the level and each disc's worth for Black in tenths of a disc.
    focus: Option<engine_jobs::Focus>,
    /// The forced openings, and their enabled lines with their weights.
    forced: (crate::forced_opening::Folder, Vec<(Vec<Square>, f64)>),
    /// Game ▸ Review, while its panel is open.
    review: Option<crate::review::Review>,
    /// Settings ▸ AI Style: what the human-like partner lost with each of its moves.
    sparring: sparring::Ledger,
}

impl Game {
    /// A new game from the initial position; the engine is not ready yet.
    #[must_use]
    pub fn new(ctx: &Ctx<'_>) -> Game {
        let mut game = Game {
            record: Record::default(),
            generation: 0,
            running: None,
            engine_ready: false,
            awaiting_start: false,
            paused: false,
            hints: Vec::new(),
            log: VecDeque::new(),
            last_search: None,
            thinking: None,
            analysis: None,
            since: None,
            scene: empty_scene(),
            caches: Caches::default(),
            chart: EvalChart::default(),
            hovered: None,
            best_line: None,
            book_edit: None,
            random_start: None,
            board_edit: None,
            seeds: GameRng::new(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
            ),
            book_views: None,
            clocks: Clocks::default(),
            forced: Default::default(),
            focus: None,
            review: None,
            sparring: sparring::Ledger::default(),
        };
        game.awaiting_start = game.ai_to_move(ctx.settings);
        game.refresh(ctx);
        game
    }

    /// The record (for tests and the title).
    #[must_use]
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The summary of the AI's last search, if any (shown under the status line).
    #[must_use]
    pub fn last_search(&self) -> Option<&LogLine> {
        self.last_search.as_ref()
    }

    /// The current generation.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the AI is thinking about a move.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        matches!(self.running, Some(Running::Move | Running::MoveOnce | Running::AiTurnHints))
    }

    /// Whether the Start button is shown.
    #[must_use]
    pub fn is_awaiting_start(&self) -> bool {
        self.awaiting_start
    }

    /// Whether the AI is paused (Stop).
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The hint values shown, best first, as (square, value).
    #[must_use]
    pub fn hint_values(&self) -> Vec<(Square, i32)> {
        self.scene.hints.iter().map(|h| (h.square, h.value)).collect()
    }

    /// The best line known for the current position (from the AI's search or the best hint), if any.
    #[must_use]
    pub fn best_line(&self) -> Option<&[Move]> {
        match &self.best_line {
            Some((at, line)) if *at == self.record.current().position => Some(line),
            _ => None,
        }
    }

    /// Book overlay data (accuracy, umigame numbers) for `position` arrived.
    pub fn set_book_views(
        &mut self,
        position: Position,
        views: Vec<shirokuro_engine::book::views::MoveView>,
        ctx: &Ctx<'_>,
    ) {
        self.book_views = Some((position, views));
        self.refresh(ctx);
    }

    /// What the board shows (for tests).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The log lines, oldest first.
    pub fn log_lines(&self) -> impl Iterator<Item = &LogLine> {
        self.log.iter()
    }

    /// Adds a line to the log panel (book operations report here too).
    pub fn log(&mut self, line: LogLine) {
        self.push_log(line);
    }

    /// The hints shown, best first, as (square, value, how found).
    #[must_use]
    pub fn hints(&self) -> Vec<(Square, i32, HintKind)> {
        let mut hints: Vec<_> = self.hints.iter().map(|h| (h.square, h.value, h.kind)).collect();
        hints.sort_by_key(|h| std::cmp::Reverse(h.1));
        hints
    }

    /// The moves from the start of the line to the cursor and the position they start from (for Add This Transcript
    /// to Book).
    #[must_use]
    pub fn line_to_cursor(&self) -> Vec<Move> {
        (1..=self.record.ply())
            .filter_map(|ply| self.record.node_at(ply).and_then(|node| node.played))
            .map(Move::Place)
            .collect()
    }

    /// The position at the cursor.
    #[must_use]
    pub fn position(&self) -> Position {
        self.record.current().position
    }

    /// The transcript of the line being viewed, to its end (`f5d6c3…`, passes left out).
    #[must_use]
    pub fn transcript(&self) -> String {
        self.record.moves_to(self.record.last_ply()).iter().map(|square| square.to_lowercase()).collect()
    }

    /// The ply of the generated position, when the game is a random board.
    #[must_use]
    pub fn random_start(&self) -> Option<usize> {
        self.random_start
    }

    /// Starts a new game from the initial position; the AI sides are already in `ctx.settings`.
    pub fn new_game(&mut self, ctx: &Ctx<'_>) -> Action {
        self.forget_last_game();
        self.record = Record::default();
        self.clocks = Clocks::default();
        self.random_start = None;
        self.board_edit = None;
        self.paused = false;
        self.hints.clear();
        if ctx.settings.xot_new_games {
            return self.load_xot(&mut crate::xot::clock_rng(), ctx);
        }
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// The engine is configured and can take jobs.
    pub fn engine_ready(&mut self, ctx: &Ctx<'_>) -> Action {
        self.engine_ready = true;
        self.plan(ctx)
    }

    /// The language changed: only the texts drawn on the board and graph need rebuilding.
    pub fn language_changed(&mut self, ctx: &Ctx<'_>) {
        self.refresh(ctx);
    }

    /// Settings that matter to the flow (level, AI sides, hints, pause on pass) or the display changed.
    pub fn settings_changed(&mut self, ctx: &Ctx<'_>) -> Action {
        self.plan(ctx)
    }

    /// Handles a screen message, the time up to now charged to the side to move first.
    pub fn update(&mut self, message: Message, ctx: &Ctx<'_>) -> Action {
        let counted = match message {
            Message::Clock(_) => Action::None,
            _ => self.count_time(std::time::Instant::now(), ctx),
        };
        match self.handle(message, ctx) {
            Action::None => counted,
            action => action,
        }
    }

    fn handle(&mut self, message: Message, ctx: &Ctx<'_>) -> Action {
        match message {
            Message::SquareClicked(square) => self.square_clicked(square, ctx),
            Message::Forward => self.navigate(self.record.ply() + 1, ctx),
            Message::Backward => self.navigate(self.record.ply().saturating_sub(1), ctx),
            Message::First => self.navigate(0, ctx),
            Message::Last => self.navigate(self.record.last_ply(), ctx),
            Message::Undo => self.undo(ctx),
            Message::GraphPicked(ply) => self.graph_picked(ply, ctx),
            Message::StartPressed => {
                self.awaiting_start = false;
                self.paused = false;
                self.plan(ctx)
            }
            Message::PassPressed if self.clocks.flag().is_none() => {
                let _passed = self.record.pass();
                self.plan(ctx)
            }
            Message::AiMoveOnce => self.ai_move_once(ctx),
            Message::Stop => {
                // An analysis or a random board just ends; stopping the AI's own search pauses the AI.
                self.paused |= !self.is_busy();
                self.plan(ctx)
            }
            Message::Resume => {
                self.paused = false;
                self.awaiting_start = false;
                self.plan(ctx)
            }
            Message::ClearCache => Action::Engine(Order::ClearCache),
            Message::SaveBranch => {
                if self.record.save_branch() {
                    self.refresh(ctx);
                }
                Action::None
            }
            Message::Analyze => self.analyze(ctx),
            Message::Review(message) => self.review_message(message, ctx),
            Message::SquareHovered(square) => {
                self.hovered = square;
                if ctx.settings.display.show_flipped_hover {
                    self.refresh(ctx);
                }
                Action::None
            }
            Message::SquareRightClicked(square) => self.right_click(square, ctx),
            Message::BookEditInput(text) => {
                if let Some(edit) = &mut self.book_edit {
                    edit.text = text;
                }
                Action::None
            }
            Message::BookEditSubmit => self.commit_book_edit(),
            Message::BookEditCancel => {
                self.book_edit = None;
                Action::None
            }
            Message::EditBoard(true) => {
                self.board_edit = Some(BoardEditor::of(&self.record.current().position));
                self.plan(ctx)
            }
            Message::EditBoard(false) => {
                self.board_edit = None;
                self.plan(ctx)
            }
            Message::EditBrush(brush) => {
                if let Some(editor) = &mut self.board_edit {
                    editor.brush = brush;
                }
                Action::None
            }
            Message::EditSide(side) => {
                if let Some(editor) = &mut self.board_edit {
                    editor.side = side;
                }
                self.refresh(ctx);
                Action::None
            }
            Message::EditClear => {
                if let Some(editor) = &mut self.board_edit {
                    (editor.black, editor.white) = (0, 0);
                }
                self.refresh(ctx);
                Action::None
            }
            Message::EditDone => match self.board_edit.take() {
                Some(editor) => self.load_line(editor.position(), &[], ctx),
                None => Action::None,
            },
            Message::Convert(symmetry) => self.convert(symmetry, ctx),
            Message::Clock(message) => self.clock_message(message, ctx),
            Message::PassPressed => Action::None,
            Message::GenerateRandom => self.generate_random(ctx),
            Message::GenerateXot => self.load_xot(&mut crate::xot::clock_rng(), ctx),
            Message::BackToRandom => match self.random_start {
                Some(ply) => self.navigate(ply, ctx),
                None => Action::None,
            },
        }
    }

    fn push_log(&mut self, line: LogLine) {
        if self.log.len() == LOG_LINES {
            let _oldest = self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Whether the AI plays the side to move of the current position.
    fn ai_to_move(&self, settings: &Settings) -> bool {
        match self.record.current().position.side_to_move {
            Color::Black => settings.ai_plays_black,
            Color::White => settings.ai_plays_white,
        }
    }

    /// Whether the current position waits for a human's Pass click.
    fn pass_pending(&self) -> bool {
        let board = self.record.current().position.board;
        board.must_pass()
    }

    /// Whether the board editor is open.
    #[must_use]
    pub fn is_editing(&self) -> bool {
        self.board_edit.is_some()
    }

    fn square_clicked(&mut self, square: Square, ctx: &Ctx<'_>) -> Action {
        if let Some(editor) = &mut self.board_edit {
            editor.paint(square);
            self.refresh(ctx);
            return Action::None;
        }
        let at_ai_turn = self.ai_to_move(ctx.settings) && self.record.is_at_end() && !self.paused;
        if at_ai_turn && !self.awaiting_start || self.is_busy() || self.clocks.flag().is_some() {
            return Action::None;
        }
        if self.record.play(square, false).is_err() {
            return Action::None;
        }
        self.stamp_clock();
        self.awaiting_start = false;
        self.plan(ctx)
    }

    fn navigate(&mut self, ply: usize, ctx: &Ctx<'_>) -> Action {
        if ply == self.record.ply() || ply > self.record.last_ply() {
            return Action::None;
        }
        self.record.go_to(ply);
        self.moved(ctx)
    }

    /// After the cursor moved: plan again, except while an analysis runs, which goes on (it fills the whole line)
    /// and plans for the position shown when it ends.
    fn moved(&mut self, ctx: &Ctx<'_>) -> Action {
        if matches!(self.running, Some(Running::Analysis | Running::Review)) {
            self.refresh(ctx);
            return Action::None;
        }
        self.plan(ctx)
    }

    /// Drops what belonged to the previous game: the last search, the best line, the hints.
    fn forget_last_game(&mut self) {
        self.last_search = None;
        self.thinking = None;
        self.best_line = None;
        self.hints.clear();
        self.review = None;
        self.sparring.clear();
    }

    fn graph_picked(&mut self, ply: usize, ctx: &Ctx<'_>) -> Action {
        if ply == self.record.ply() {
            return Action::None;
        }
        if self.record.is_on_fork() && self.record.go_to_fork(ply) {
            return self.moved(ctx);
        }
        if ply < self.record.main().len() {
            self.record.go_to_main(ply);
            return self.moved(ctx);
        }
        Action::None
    }

    /// Undo: one ply back and truncate; against the AI, back to the human's turn.
    fn undo(&mut self, ctx: &Ctx<'_>) -> Action {
        if !self.record.undo() {
            return Action::None;
        }
        let one_human_side = ctx.settings.ai_plays_black != ctx.settings.ai_plays_white;
        if one_human_side && self.ai_to_move(ctx.settings) {
            let _undone = self.record.undo();
        }
        self.plan(ctx)
    }
}
