//! The game screen: board, info panel, graph and log; the game flow (human and AI turns, passes, navigation,
//! hints, analysis) and the engine jobs it needs.
//!
//! After every change the screen works out what the engine should be doing (`Game::plan`): the AI's move when it
//! is the AI's turn at the end of the line, otherwise hint values for the human. Each plan bumps the generation, so
//! results of an older plan are dropped when they arrive.

use std::collections::VecDeque;

use iced::widget::{Column, button, canvas, column, container, row, scrollable, text};
use iced::{Alignment, Element, Length};
use shirokuro_engine::arena::GameRng;
use shirokuro_engine::bitboard::Symmetry;
use shirokuro_engine::game_file::{GameFile, GameNode};
use shirokuro_engine::level::{Level, LevelCategory};
use shirokuro_engine::random_board::RandomBoardSpec;
use shirokuro_engine::{Color, Move, Position, Square};

use crate::engine_worker::{Event, HintKind, Job, Request, black_value};
use crate::i18n::{Strings, fill};
use crate::log::LogLine;
use crate::opening::Openings;
use crate::record::Record;
use crate::screen::Ctx;
use crate::settings::Settings;
use crate::widget::board::{Board, BookMark, Caches, HintMark, NextMark, Scene};
use crate::widget::eval_chart::{EvalChart, band_color};

/// Lines kept in the log panel.
const LOG_LINES: usize = 200;

/// Who plays which colour in a new game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Two people.
    HumanVsHuman,
    /// You play Black, the AI White.
    YouAsBlack,
    /// You play White, the AI Black (it waits for Start).
    YouAsWhite,
    /// The AI plays both sides (it waits for Start).
    SelfPlay,
}

impl Mode {
    /// Whether the AI plays (Black, White) in this mode.
    #[must_use]
    pub const fn ai_sides(self) -> (bool, bool) {
        match self {
            Mode::HumanVsHuman => (false, false),
            Mode::YouAsBlack => (false, true),
            Mode::YouAsWhite => (true, false),
            Mode::SelfPlay => (true, true),
        }
    }
}

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
}

/// What a click puts on a square in the board editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    /// A black disc.
    Black,
    /// A white disc.
    White,
    /// An empty square.
    Empty,
}

/// The board editor's state: the discs, the side to move and the brush.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BoardEditor {
    black: u64,
    white: u64,
    side: Color,
    brush: Brush,
}

impl BoardEditor {
    fn of(position: &Position) -> BoardEditor {
        BoardEditor {
            black: position.black().0,
            white: position.white().0,
            side: position.side_to_move,
            brush: Brush::Black,
        }
    }

    /// Puts the brush on `square`; clicking a disc of the brush's colour empties it.
    fn paint(&mut self, square: Square) {
        let bit = 1u64 << square.index();
        let brush = match self.brush {
            Brush::Black if self.black & bit != 0 => Brush::Empty,
            Brush::White if self.white & bit != 0 => Brush::Empty,
            brush => brush,
        };
        self.black &= !bit;
        self.white &= !bit;
        match brush {
            Brush::Black => self.black |= bit,
            Brush::White => self.white |= bit,
            Brush::Empty => {}
        }
    }

    fn position(&self) -> Position {
        let (player, opponent) = match self.side {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        };
        // The two sets never overlap (paint clears both first).
        let board = shirokuro_engine::Board::new(player, opponent).unwrap_or(Position::INITIAL.board);
        Position { board, side_to_move: self.side }
    }
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

/// The book value editor's state: the move's square, the text typed and the position it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BookEdit {
    position: Position,
    square: Square,
    text: String,
}

/// The kind of job running for the current generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Running {
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
}

/// One move's hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hint {
    square: Square,
    value: i32,
    kind: HintKind,
}

/// The id of the book value editor's text field (the app focuses it when the editor opens).
pub const BOOK_EDIT_INPUT: &str = "book-edit-input";

/// How many moves of the best line the info panel shows.
const BEST_LINE_MOVES: usize = 10;

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

    /// The current generation.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the AI is thinking about a move.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        matches!(self.running, Some(Running::Move | Running::MoveOnce))
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

    /// Replaces the game by these moves from the initial position (already checked legal, e.g. by the transcript
    /// parser), with the cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_moves(&mut self, moves: &[Square], ctx: &Ctx<'_>) -> Action {
        let moves: Vec<Move> = moves.iter().copied().map(Move::Place).collect();
        self.load_line(Position::INITIAL, &moves, ctx)
    }

    /// Plays these moves (checked legal) on from the position shown, as clicks would (a fork when reviewing).
    pub fn play_moves(&mut self, moves: &[Move], ctx: &Ctx<'_>) -> Action {
        for square in moves.iter().filter_map(|mv| mv.square()) {
            if self.record.play(square, true).is_err() {
                break;
            }
        }
        self.paused = false;
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// Replaces the game by `moves` (checked legal; passes are made by themselves) played from `start`, with the
    /// cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_line(&mut self, start: Position, moves: &[Move], ctx: &Ctx<'_>) -> Action {
        self.random_start = None;
        self.board_edit = None;
        self.record = Record::from_line(start, None, moves.iter().filter_map(|mv| mv.square()).map(|sq| (sq, None)));
        self.paused = false;
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// The main line as a game file (Egaroucid's "Save main line"), with the values known, dated `date`; `level` is
    /// written as the source of the values.
    #[must_use]
    pub fn game_file(&self, date: String, level: u8) -> GameFile {
        let nodes = self
            .record
            .main()
            .iter()
            .map(|node| GameNode {
                position: node.position,
                played: node.played,
                value: node.value,
                level: i32::from(level),
            })
            .collect();
        let mut file = GameFile::new(nodes, date);
        file.random_start = self.random_start.filter(|ply| *ply < self.record.main().len());
        file
    }

    /// Replaces the game by the line of `file` (from its first position, which need not be the initial one), with
    /// its values and random start, the cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_game(&mut self, file: &GameFile, ctx: &Ctx<'_>) -> Action {
        let Some((first, rest)) = file.nodes.split_first() else { return Action::None };
        let steps = rest.iter().map_while(|node| node.played.map(|sq| (sq, node.value)));
        self.record = Record::from_line(first.position, first.value, steps);
        self.random_start = file.random_start.filter(|ply| *ply <= self.record.last_ply());
        self.paused = false;
        self.hints.clear();
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// The name of the last named opening along the line up to the cursor.
    #[must_use]
    pub fn opening_so_far(&self, language: crate::i18n::Language) -> Option<&'static str> {
        let openings = Openings::of(language);
        (0..=self.record.ply()).rev().find_map(|ply| self.record.node_at(ply).and_then(|n| openings.name(&n.position)))
    }

    /// The opening a legal move under the cursor leads to, as (square, name).
    #[must_use]
    pub fn hovered_opening(&self, language: crate::i18n::Language) -> Option<(Square, &'static str)> {
        let square = self.hovered?;
        let next = self.record.current().position.play(Move::Place(square)).ok()?;
        Openings::of(language).name(&next).map(|name| (square, name))
    }

    /// The ply of the generated position, when the game is a random board.
    #[must_use]
    pub fn random_start(&self) -> Option<usize> {
        self.random_start
    }

    /// Starts a new game from the initial position; the AI sides are already in `ctx.settings`.
    pub fn new_game(&mut self, ctx: &Ctx<'_>) -> Action {
        self.record = Record::default();
        self.random_start = None;
        self.board_edit = None;
        self.paused = false;
        self.hints.clear();
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

    /// Handles a screen message.
    pub fn update(&mut self, message: Message, ctx: &Ctx<'_>) -> Action {
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
            Message::PassPressed => {
                let _passed = self.record.pass();
                self.plan(ctx)
            }
            Message::AiMoveOnce => self.ai_move_once(ctx),
            Message::Stop => {
                self.paused = true;
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
            Message::SquareHovered(square) => {
                self.hovered = square;
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
            Message::GenerateRandom => self.generate_random(ctx),
            Message::BackToRandom => match self.random_start {
                Some(ply) => self.navigate(ply, ctx),
                None => Action::None,
            },
        }
    }

    /// The square whose book value is being edited and the text typed, if the editor is open.
    #[must_use]
    pub fn book_edit(&self) -> Option<(Square, &str)> {
        self.current_edit().map(|edit| (edit.square, edit.text.as_str()))
    }

    /// The editor's state if it belongs to the position shown.
    fn current_edit(&self) -> Option<&BookEdit> {
        self.book_edit.as_ref().filter(|edit| edit.position == self.record.current().position)
    }

    fn right_click(&mut self, square: Square, ctx: &Ctx<'_>) -> Action {
        if !ctx.settings.book.right_click_edit {
            return Action::None;
        }
        if self.current_edit().is_some_and(|edit| edit.square == square) {
            return self.commit_book_edit();
        }
        let position = self.record.current().position;
        if !position.board.moves().contains(square) {
            return Action::None;
        }
        self.book_edit = Some(BookEdit { position, square, text: String::new() });
        Action::None
    }

    fn commit_book_edit(&mut self) -> Action {
        let Some(edit) = self.book_edit.take() else { return Action::None };
        if edit.position != self.record.current().position {
            return Action::None;
        }
        let text = edit.text.trim();
        if text.is_empty() {
            return Action::None;
        }
        let value = text.parse::<i32>().ok().filter(|v| (-64..=64).contains(v));
        Action::BookEdit { board: edit.position.board, mv: Move::Place(edit.square), value }
    }

    /// Handles an engine event (other than `Ready`/`Configured`, which the app handles).
    pub fn on_engine(&mut self, event: Event, ctx: &Ctx<'_>) -> Action {
        match event {
            Event::Log(line) => {
                self.push_log(line);
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
                if !played {
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
                self.refresh(ctx);
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
            Event::Done { generation } if generation == self.generation => self.job_done(ctx),
            // Stale results, and events the app handles.
            _ => Action::None,
        }
    }

    fn job_done(&mut self, ctx: &Ctx<'_>) -> Action {
        match self.running.take() {
            Some(Running::Hints) => {
                if let Some(best) = self.hints.iter().map(|h| h.value).max() {
                    let side = self.record.current().position.side_to_move;
                    self.record.set_value(self.record.ply(), black_value(side, best));
                }
                self.refresh(ctx);
                Action::None
            }
            Some(Running::Analysis) => self.plan(ctx),
            other => {
                self.running = other;
                Action::None
            }
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

    /// Turns or mirrors the main line by `symmetry`, keeping its values, the random start and the ply shown (a
    /// fork is dropped).
    fn convert(&mut self, symmetry: Symmetry, ctx: &Ctx<'_>) -> Action {
        let Some((first, rest)) = self.record.main().split_first() else { return Action::None };
        let start =
            Position { board: first.position.board.transform(symmetry), side_to_move: first.position.side_to_move };
        let steps = rest.iter().map_while(|node| node.played.map(|sq| (symmetry.apply_square(sq), node.value)));
        let mut record = Record::from_line(start, first.value, steps);
        let ply = self.record.ply().min(record.last_ply());
        record.go_to(ply);
        self.record = record;
        self.plan(ctx)
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
        if at_ai_turn && !self.awaiting_start || self.is_busy() {
            return Action::None;
        }
        if self.record.play(square, false).is_err() {
            return Action::None;
        }
        self.awaiting_start = false;
        self.plan(ctx)
    }

    fn navigate(&mut self, ply: usize, ctx: &Ctx<'_>) -> Action {
        if ply == self.record.ply() || ply > self.record.last_ply() {
            return Action::None;
        }
        self.record.go_to(ply);
        self.plan(ctx)
    }

    fn graph_picked(&mut self, ply: usize, ctx: &Ctx<'_>) -> Action {
        if ply == self.record.ply() {
            return Action::None;
        }
        if self.record.is_on_fork() && self.record.go_to_fork(ply) {
            return self.plan(ctx);
        }
        if ply < self.record.main().len() {
            self.record.go_to_main(ply);
            return self.plan(ctx);
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

    fn ai_move_once(&mut self, ctx: &Ctx<'_>) -> Action {
        let position = self.record.current().position;
        if position.board.is_game_over() || !self.engine_ready {
            return Action::None;
        }
        self.generation += 1;
        self.hints.clear();
        self.running = Some(Running::MoveOnce);
        self.refresh(ctx);
        let level = Level::clamped(ctx.settings.level);
        Action::Engine(Order::Start(Request {
            generation: self.generation,
            job: Job::Think { position, level, book: ctx.book.cloned(), loss: ai_loss(ctx.settings) },
        }))
    }

    /// Whether a job that takes the board over runs (analysis, random board generation): clicks wait for it.
    fn is_busy(&self) -> bool {
        matches!(self.running, Some(Running::Analysis | Running::RandomBoard))
    }

    /// Asks the engine for a random board as the settings describe it.
    fn generate_random(&mut self, ctx: &Ctx<'_>) -> Action {
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
    fn begin(&mut self, running: Running, ctx: &Ctx<'_>) {
        self.generation += 1;
        self.hints.clear();
        self.running = Some(running);
        self.refresh(ctx);
    }

    fn analyze(&mut self, ctx: &Ctx<'_>) -> Action {
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
        let level = Level::clamped(ctx.settings.level);
        Action::Engine(Order::Start(Request {
            generation: self.generation,
            job: Job::Analyze { positions, level, book: ctx.book.cloned() },
        }))
    }

    /// Decides what the engine should do now, after any change; applies forced passes that need no click.
    fn plan(&mut self, ctx: &Ctx<'_>) -> Action {
        let settings = ctx.settings;
        self.generation += 1;
        self.hints.clear();
        self.running = None;
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
            if self.awaiting_start {
                None
            } else {
                Some((
                    Running::Move,
                    Job::Think { position, level, book: ctx.book.cloned(), loss: ai_loss(ctx.settings) },
                ))
            }
        } else if settings.display.show_hints {
            Some((Running::Hints, Job::Hints { position, level, book: ctx.book.cloned() }))
        } else {
            None
        };
        self.refresh(ctx);
        match job {
            Some((running, job)) => {
                self.running = Some(running);
                Action::Engine(Order::Start(Request { generation: self.generation, job }))
            }
            None => Action::Engine(Order::Cancel(self.generation)),
        }
    }

    /// Rebuilds the board scene and the graph data (after any change).
    fn refresh(&mut self, ctx: &Ctx<'_>) {
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
            HintKind::Level(depth) => fill(&strings.hint_level, &[&depth]),
            HintKind::Percent(p) => fill(&strings.hint_percent, &[&p]),
        };
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
                    })
                    .collect()
            } else {
                Vec::new()
            },
            book_marks: self.book_marks(ctx),
        };
        self.caches.clear_pieces();
        let main = self.record.main().iter().map(|n| n.value).collect();
        let fork = self.record.fork().map(|f| (f.from, f.nodes.iter().map(|n| n.value).collect()));
        let level = Level::clamped(settings.level);
        let random_start = self.random_start.filter(|_| !display.show_random_graph);
        self.chart.set(main, fork, self.record.ply(), level, display.alt_palette, random_start);
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

    /// The screen: the board on the left, the panels on the right.
    pub fn view<'a>(&'a self, ctx: &Ctx<'_>) -> Element<'a, Message> {
        let s = ctx.strings();
        let display = &ctx.settings.display;
        let clickable = !(self.is_thinking() || self.is_busy());
        let on_click: Option<fn(Square) -> Message> = if clickable { Some(Message::SquareClicked) } else { None };
        let board = canvas(
            Board::new(&self.scene, &self.caches, on_click)
                .on_hover(Message::SquareHovered)
                .on_right_click(Message::SquareRightClicked),
        )
        .width(Length::Fill)
        .height(Length::Fill);
        let board = container(board).id("board").width(Length::FillPortion(3)).height(Length::Fill);

        let mut side = Column::new().spacing(10).width(Length::FillPortion(2));
        if let Some(editor) = &self.board_edit {
            side = side.push(board_editor(s, editor));
        } else if display.show_info {
            side = side.push(self.info_panel(ctx));
        }
        if display.show_graph {
            side = side.push(self.graph(ctx));
        }
        if display.show_log {
            let lines: Vec<Element<'_, Message>> = if self.log.is_empty() {
                vec![text(s.log_empty.as_str()).size(12).into()]
            } else {
                self.log.iter().rev().map(|line| text(line.text(s)).size(12).into()).collect()
            };
            side = side.push(
                column![text(s.log_title.as_str()).size(14), scrollable(Column::with_children(lines).spacing(2))]
                    .spacing(4)
                    .height(Length::Fill),
            );
        }
        row![board, side].spacing(12).padding(10).into()
    }

    fn info_panel(&self, ctx: &Ctx<'_>) -> Element<'_, Message> {
        let s = ctx.strings();
        let settings = ctx.settings;
        let position = self.record.current().position;
        let (black, white) = (position.black().count(), position.white().count());
        let over = position.board.is_game_over();
        let headline = if over {
            let diff = i64::from(black) - i64::from(white);
            let result = match diff {
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
        let mut info = column![
            text(headline).size(18),
            text(fill(&s.discs, &[&black, &white])).size(16),
            text(level_line).size(14),
        ]
        .spacing(4);
        if let Some(book) = ctx.book {
            info = info.push(text(fill(&s.book_positions, &[&book.0.len()])).size(13));
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
        if self.pass_pending() && !over {
            controls = controls.push(container(button(text(s.pass.clone())).on_press(Message::PassPressed)).id("pass"));
        }
        container(info.push(controls)).id("info").padding(8).width(Length::Fill).style(container::rounded_box).into()
    }

    fn status_line(&self, s: &Strings, settings: &Settings) -> Option<String> {
        let position = self.record.current().position;
        if position.board.is_game_over() {
            return None;
        }
        Some(if !self.engine_ready {
            s.engine_loading.clone()
        } else if self.running == Some(Running::Analysis) {
            s.analyzing.clone()
        } else if self.running == Some(Running::RandomBoard) {
            s.generating_random.clone()
        } else if self.is_thinking() {
            s.ai_thinking.clone()
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

    fn graph(&self, ctx: &Ctx<'_>) -> Element<'_, Message> {
        let s = ctx.strings();
        let alt = ctx.settings.display.alt_palette;
        let level = Level::clamped(ctx.settings.level);
        let chart = plotters_iced2::ChartWidget::new(self.chart.view(Message::GraphPicked))
            .width(Length::Fill)
            .height(Length::Fixed(200.0));
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
        // The legend wraps onto more lines when the panel is narrow.
        column![text(s.graph_title.clone()).size(14), container(chart).id("graph"), legend.wrap().vertical_spacing(4)]
            .spacing(4)
            .into()
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

/// The board editor's panel: brushes, side to move, Clear, Done and Cancel.
fn board_editor<'a>(s: &Strings, editor: &BoardEditor) -> Element<'a, Message> {
    let choice = |label: &str, on: bool, message: Message| {
        let label = if on { format!("● {label}") } else { label.to_owned() };
        let style = if on { button::primary } else { button::secondary };
        button(text(label).size(14)).style(style).on_press(message)
    };
    let (black, white) = (editor.black.count_ones(), editor.white.count_ones());
    column![
        text(s.edit_board.clone()).size(18),
        text(s.edit_board_help.clone()).size(13),
        row![
            choice(&s.black, editor.brush == Brush::Black, Message::EditBrush(Brush::Black)),
            choice(&s.white, editor.brush == Brush::White, Message::EditBrush(Brush::White)),
            choice(&s.edit_empty, editor.brush == Brush::Empty, Message::EditBrush(Brush::Empty)),
        ]
        .spacing(6),
        text(s.edit_side.clone()).size(14),
        row![
            choice(&s.black, editor.side == Color::Black, Message::EditSide(Color::Black)),
            choice(&s.white, editor.side == Color::White, Message::EditSide(Color::White)),
        ]
        .spacing(6),
        text(fill(&s.discs, &[&black, &white])).size(14),
        row![
            button(text(s.edit_done.clone())).on_press(Message::EditDone),
            button(text(s.edit_clear.clone())).style(button::secondary).on_press(Message::EditClear),
            button(text(s.close.clone())).style(button::secondary).on_press(Message::EditBoard(false)),
        ]
        .spacing(6),
    ]
    .spacing(8)
    .padding(8)
    .into()
}

/// The loss curves the AI plays with, when Settings ▸ Accept AI's Loss is on.
fn ai_loss(settings: &Settings) -> Option<shirokuro_engine::book::loss::LossCurves> {
    settings.accept_ai_loss.then_some(settings.ai_loss)
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

/// Black's and White's stable discs.
fn stable_discs(position: &Position) -> shirokuro_engine::Bitboard {
    position.board.stable_discs()
}

fn empty_scene() -> Scene {
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
    }
}
