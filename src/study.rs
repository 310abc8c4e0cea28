//! Training (issue #31): the best-move quiz (Operate ▸ Best-Move Quiz) and the opening trainer (Game ▸ Opening
//! Trainer) take the game screen's place while they are open, and Display ▸ Study Progress draws what was learnt.
//! Close goes back to the game as it was.
//!
//! Answers go to the study history, `<data folder>/study.sqlite` ([`shirokuro_engine::study::store`]): each answer is
//! one committed transaction, written on a short-lived thread ([`history`]) so that the UI never waits for the disk;
//! a crash between two answers loses neither.

pub mod history;
pub mod progress;
pub mod quiz;
pub mod trainer;

use std::path::{Path, PathBuf};

use iced::widget::{button, column, container, text};
use iced::{Element, Length, Task};
use shirokuro_engine::{Bitboard, Color, Position, Square};

use crate::book::SharedBook;
use crate::i18n::Strings;
use crate::notice::Notice;
use crate::settings::BoardStyle;
use crate::widget::board::{HintMark, Scene};

/// The study history's file name in the data folder.
pub const STUDY_FILE: &str = "study.sqlite";

/// Which training screen to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// Operate ▸ Best-Move Quiz.
    Quiz,
    /// Game ▸ Opening Trainer.
    Trainer,
    /// Display ▸ Study Progress.
    Progress,
}

/// The training screen shown.
#[derive(Debug)]
pub enum Screen {
    /// The best-move quiz.
    Quiz(quiz::Quiz),
    /// The opening trainer.
    Trainer(trainer::Trainer),
    /// The study progress.
    Progress(progress::Progress),
}

/// Messages of the training screens.
#[derive(Debug, Clone)]
pub enum Message {
    /// A quiz message.
    Quiz(quiz::Message),
    /// An opening trainer message.
    Trainer(trainer::Message),
    /// A study progress message.
    Progress(progress::Message),
    /// Close: back to the game.
    Close,
}

/// What the root must do for a training screen: run a task, tell the user, or close the screen.
#[derive(Debug, Default)]
pub struct Action {
    /// A task to run.
    pub task: Option<Task<Message>>,
    /// Something to tell the user.
    pub notice: Option<Notice>,
    /// Close the screen (back to the game).
    pub close: bool,
}

/// What a training screen gets from the root when it opens.
#[derive(Debug, Clone)]
pub struct Env {
    /// The study history file.
    pub study_file: PathBuf,
    /// The evaluation weights file (the quiz searches with its own copy).
    pub weights_file: PathBuf,
    /// The book in use, if any (the opening trainer's repertoire).
    pub book: Option<SharedBook>,
    /// The position on the game's board (where the trainer starts).
    pub position: Position,
    /// The student's own lines from the initial position: the forced openings that are on (Settings ▸ Opening
    /// Setting…), the opening trainer's second repertoire.
    pub lines: Vec<Vec<shirokuro_engine::Move>>,
    /// The board's colours.
    pub style: BoardStyle,
}

impl Env {
    /// The study history in `data_dir`.
    #[must_use]
    pub fn study_file_in(data_dir: &Path) -> PathBuf {
        data_dir.join(STUDY_FILE)
    }
}

impl Screen {
    /// Opens `which` screen.
    pub fn open(which: Open, env: Env) -> (Screen, Action) {
        match which {
            Open::Quiz => {
                let (quiz, task) = quiz::Quiz::new(env);
                (Screen::Quiz(quiz), Step::run(task).map(Message::Quiz))
            }
            Open::Trainer => {
                let (trainer, task) = trainer::Trainer::new(env);
                (Screen::Trainer(trainer), Step::run(task).map(Message::Trainer))
            }
            Open::Progress => {
                let (progress, task) = progress::Progress::new(&env);
                (Screen::Progress(progress), Step::run(task).map(Message::Progress))
            }
        }
    }

    /// Handles `message`.
    pub fn update(&mut self, message: Message) -> Action {
        match (self, message) {
            (_, Message::Close) => Action { close: true, ..Action::default() },
            (Screen::Quiz(quiz), Message::Quiz(message)) => quiz.update(message).map(Message::Quiz),
            (Screen::Trainer(trainer), Message::Trainer(message)) => trainer.update(message).map(Message::Trainer),
            (Screen::Progress(progress), Message::Progress(message)) => progress.update(message).map(Message::Progress),
            // A message of a screen closed since.
            _ => Action::default(),
        }
    }

    /// The screen, with its Close button.
    pub fn view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let screen = match self {
            Screen::Quiz(quiz) => quiz.view(s).map(Message::Quiz),
            Screen::Trainer(trainer) => trainer.view(s).map(Message::Trainer),
            Screen::Progress(progress) => progress.view(s).map(Message::Progress),
        };
        let close = button(text(s.study_close.clone())).on_press(Message::Close);
        column![container(container(close).id("study-close")).align_right(Length::Fill).padding([4, 10]), screen].into()
    }
}

/// What a screen's own update asks of the root, before it is wrapped into [`Action`]: a task and a notice, either
/// or both.
#[derive(Debug)]
pub struct Step<M> {
    task: Option<Task<M>>,
    notice: Option<Notice>,
}

impl<M> Default for Step<M> {
    fn default() -> Step<M> {
        Step { task: None, notice: None }
    }
}

impl<M: Send + 'static> Step<M> {
    /// Nothing to do.
    #[must_use]
    pub fn none() -> Step<M> {
        Step::default()
    }

    /// Run `task`.
    #[must_use]
    pub fn run(task: Task<M>) -> Step<M> {
        Step { task: Some(task), notice: None }
    }

    /// Tell the user.
    #[must_use]
    pub fn notice(notice: Notice) -> Step<M> {
        Step { task: None, notice: Some(notice) }
    }

    /// This step, telling the user too.
    #[must_use]
    pub fn with_notice(mut self, notice: Notice) -> Step<M> {
        self.notice = Some(notice);
        self
    }

    /// The notice, if any.
    #[must_use]
    pub fn notice_ref(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// The root's action, the task's messages wrapped by `wrap`.
    pub fn map(self, wrap: fn(M) -> Message) -> Action {
        Action { task: self.task.map(|task| task.map(wrap)), notice: self.notice, close: false }
    }
}

/// The board of a training screen: `position` with its legal moves, the last move, and `hints` on squares.
#[must_use]
pub fn scene(position: &Position, last_move: Option<Square>, hints: Vec<HintMark>, style: BoardStyle) -> Scene {
    let legal = position.board.moves().into_iter().fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from(sq));
    Scene {
        black: position.black(),
        white: position.white(),
        black_to_move: position.side_to_move == Color::Black,
        legal,
        last_move,
        next_move: None,
        stable: Bitboard::EMPTY,
        hints,
        book_marks: Vec::new(),
        flipped: Bitboard::EMPTY,
        would_flip: Bitboard::EMPTY,
        numbers: Vec::new(),
        style,
        focus: Vec::new(),
    }
}
