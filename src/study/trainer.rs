//! Game ▸ Opening Trainer: the student learns the book's moves from the position on the game's board.
//!
//! The setup chooses the side to train, the depth of the lines, the discs a move may lose and still count as right,
//! and how varied the opponent's replies are. Start builds the repertoire from the book and adds its positions as
//! cards to a deck of the study history ([`job`]), both off the UI thread; the session
//! ([`TrainerSession`]) then plays the lines: the opponent's book replies at once, toward the cards due first, and
//! the student's clicks are judged. A wrong move is shown with the book's move marked on the board until Continue;
//! the line then goes on with the book's move. Every answer reschedules its card (FSRS) and is written to the study
//! history at once. When a line ends, the next starts from the beginning, until End.

pub mod job;
mod view;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Utc;
use iced::Task;
use shirokuro_engine::study::{
    Answer, CardCounts, CardId, CardKey, CardState, Repertoire, TrainerSession, Turn, Verdict,
};
use shirokuro_engine::{Color, Move, Position, Square};

use self::job::{Deck, Plan, Review, StartError};
use super::history::HistoryError;
use super::{Env, Step};
use crate::book::SharedBook;
use crate::notice::Notice;
use crate::widget::board::{Caches, HintMark, Scene};

/// Moves the trainer plays by itself at most before the student's turn (a guard: a line is at most 60 moves).
const MAX_STEPS: usize = 200;

/// Messages of the opening trainer.
#[derive(Debug, Clone)]
pub enum Message {
    /// The repertoire's source was chosen.
    Source(job::Source),
    /// The side to train was chosen.
    Side(Color),
    /// The depth was changed (plies).
    Depth(u8),
    /// The allowed error was changed (discs).
    Error(u8),
    /// The replies' book variation was changed.
    Variation(u8),
    /// Start pressed: build the repertoire.
    Start,
    /// The repertoire was built (for the start of this generation).
    Built(u64, Result<Arc<Repertoire>, StartError>),
    /// The cards were added to the study history and read back (for the start of this generation).
    Stored(u64, Result<Arc<Deck>, HistoryError>),
    /// A square of the board was clicked: the student's move.
    SquareClicked(Square),
    /// Continue pressed after a wrong move was shown.
    Continue,
    /// End pressed: the session ends, its summary stays.
    End,
    /// An answer was written to the study history: the deck's counts now (or the failure).
    Recorded(Result<CardCounts, HistoryError>),
}

/// Where the trainer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The setup panel (before the first session, or after End).
    Setup,
    /// Building the repertoire and storing its cards.
    Starting,
    /// The student is to move.
    Asking,
    /// A wrong move was answered: the book's move is shown until Continue.
    Correcting,
}

/// The judgement of the last answer, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// The student's move.
    pub played: Move,
    /// The session's judgement.
    pub verdict: Verdict,
    /// Whether the line ended after the answer and a new one started from the beginning.
    pub line_done: bool,
}

/// The opening trainer.
#[derive(Debug)]
pub struct Trainer {
    env: Env,
    plan: Plan,
    /// Bumped by Start and End: results of an older start are dropped.
    generation: u64,
    stage: Stage,
    /// Why the last start failed.
    problem: Option<StartError>,
    /// The repertoire built, while its cards are being stored.
    pending: Option<Arc<Repertoire>>,
    /// Boxed: the repertoire's maps would make the study screen enum large.
    session: Option<Box<TrainerSession>>,
    /// The deck's name, while a session runs on it.
    deck: Option<String>,
    /// The stored cards' ids and schedules.
    cards: HashMap<CardKey, (CardId, CardState)>,
    counts: Option<CardCounts>,
    feedback: Option<Feedback>,
    last_review: Option<Review>,
    /// Lines played to their end this session.
    lines: u32,
    seed: u64,
    scene: Scene,
    caches: Caches,
}

impl Trainer {
    /// The trainer, showing the setup over the game's position.
    pub fn new(env: Env) -> (Trainer, Task<Message>) {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64);
        let scene = super::scene(&env.position, None, Vec::new(), env.style);
        let plan = Plan { side: env.position.side_to_move, ..Plan::default() };
        let trainer = Trainer {
            env,
            plan,
            generation: 0,
            stage: Stage::Setup,
            problem: None,
            pending: None,
            session: None,
            deck: None,
            cards: HashMap::new(),
            counts: None,
            feedback: None,
            last_review: None,
            lines: 0,
            seed,
            scene,
            caches: Caches::default(),
        };
        (trainer, Task::none())
    }

    /// Handles `message`.
    pub fn update(&mut self, message: Message) -> Step<Message> {
        match message {
            Message::Source(source) => self.set_plan(Plan { source, ..self.plan }),
            Message::Side(side) => self.set_plan(Plan { side, ..self.plan }),
            Message::Depth(depth) => self.set_plan(Plan { depth, ..self.plan }),
            Message::Error(error) => self.set_plan(Plan { error, ..self.plan }),
            Message::Variation(variation) => self.set_plan(Plan { variation, ..self.plan }),
            Message::Start => self.start(),
            Message::Built(generation, built) if generation == self.generation => self.built(built),
            Message::Stored(generation, stored) if generation == self.generation => self.stored(stored),
            Message::Built(..) | Message::Stored(..) => Step::none(),
            Message::SquareClicked(square) => self.answer(square),
            Message::Continue => self.go_on(),
            Message::End => self.end(),
            Message::Recorded(Ok(counts)) => {
                self.counts = Some(counts);
                Step::none()
            }
            Message::Recorded(Err(error)) => Step::notice(Notice::StudyFailed { error }),
        }
    }

    fn set_plan(&mut self, plan: Plan) -> Step<Message> {
        self.plan = plan.clamped();
        Step::none()
    }

    /// Builds the repertoire off the UI thread (the book's lock is taken there).
    fn start(&mut self) -> Step<Message> {
        if self.stage != Stage::Setup {
            return Step::none();
        }
        self.generation = self.generation.wrapping_add(1);
        self.stage = Stage::Starting;
        self.problem = None;
        let generation = self.generation;
        let lines = self.env.lines.clone();
        let work = job::build_off_thread(self.env.book.clone(), self.env.position, self.plan, lines);
        Step::run(Task::perform(work, move |built| Message::Built(generation, built)))
    }

    /// The repertoire is built: its cards go to the study history.
    fn built(&mut self, built: Result<Arc<Repertoire>, StartError>) -> Step<Message> {
        match built {
            Ok(repertoire) => {
                let name = self.plan.deck(&self.plan.start(&self.env.position));
                self.pending = Some(Arc::clone(&repertoire));
                let generation = self.generation;
                let work = job::open_deck(self.env.study_file.clone(), name, repertoire, Utc::now());
                Step::run(Task::perform(work, move |stored| Message::Stored(generation, stored)))
            }
            Err(problem) => {
                self.stage = Stage::Setup;
                self.problem = Some(problem);
                Step::none()
            }
        }
    }

    /// The cards are stored (or not: the session then runs without a history): the session starts.
    fn stored(&mut self, stored: Result<Arc<Deck>, HistoryError>) -> Step<Message> {
        let Some(repertoire) = self.pending.take() else { return Step::none() };
        let repertoire = Arc::unwrap_or_clone(repertoire);
        let (deck, notice) = match stored {
            Ok(deck) => (Some(Arc::unwrap_or_clone(deck)), None),
            Err(error) => (None, Some(Notice::StudyFailed { error })),
        };
        let cards = deck.as_ref().map(|deck| deck.cards.as_slice()).unwrap_or_default();
        self.cards = cards.iter().map(|card| (card.key, (card.id, card.state))).collect();
        let due = cards.iter().map(|card| (card.key, card.state.due)).collect();
        self.counts = deck.as_ref().map(|deck| deck.counts);
        self.deck = deck.map(|deck| deck.name);
        let error = i32::from(self.plan.error);
        self.seed = self.seed.wrapping_add(1);
        let session = TrainerSession::new(repertoire, due, Utc::now(), error, self.seed);
        self.session = Some(Box::new(session.with_variation(self.plan.variation)));
        self.feedback = None;
        self.last_review = None;
        self.lines = 0;
        let (last, _) = self.advance();
        self.show_session(last);
        notice.map_or_else(Step::none, Step::notice)
    }

    /// Judges the student's move, reschedules the card and writes the answer.
    fn answer(&mut self, square: Square) -> Step<Message> {
        if self.stage != Stage::Asking {
            return Step::none();
        }
        let Some(session) = &mut self.session else { return Step::none() };
        let before = *session.position();
        let played = Move::Place(square);
        // An illegal click changes nothing.
        let Ok(verdict) = session.answer(played) else { return Step::none() };
        let now = Utc::now();
        let answer = if verdict.correct { Answer::Right } else { Answer::Wrong };
        let review = self.cards.get_mut(&verdict.card).map(|(card, state)| {
            *state = state.review(answer, now);
            Review { deck: self.deck.clone().unwrap_or_default(), card: *card, answer, state: *state, time: now }
        });
        if let Some(review) = &review {
            session.set_due(verdict.card, review.state.due);
        }
        let correct = verdict.correct;
        let hints = if correct { Vec::new() } else { view::correction_marks(session.repertoire(), &before, &verdict) };
        self.feedback = Some(Feedback { played, verdict, line_done: false });
        if correct {
            let (last, line_done) = self.advance();
            if let Some(feedback) = &mut self.feedback {
                feedback.line_done = line_done;
            }
            // A new line shows only its own moves.
            self.show_session(if line_done { last } else { last.or(Some(square)) });
        } else {
            self.stage = Stage::Correcting;
            self.show(&before, None, hints);
        }
        self.last_review = review.clone();
        let file = self.env.study_file.clone();
        review.map_or_else(Step::none, |review| Step::run(Task::perform(job::record(file, review), Message::Recorded)))
    }

    /// After a wrong move was shown: the line goes on with the book's move.
    fn go_on(&mut self) -> Step<Message> {
        if self.stage != Stage::Correcting {
            return Step::none();
        }
        let (last, line_done) = self.advance();
        if let Some(feedback) = &mut self.feedback {
            feedback.line_done = line_done;
        }
        let best = self.feedback.as_ref().and_then(|feedback| feedback.verdict.best.square());
        self.show_session(if line_done { last } else { last.or(best) });
        Step::none()
    }

    /// Ends the session (or a start under way); its summary stays on the setup panel.
    fn end(&mut self) -> Step<Message> {
        self.generation = self.generation.wrapping_add(1);
        self.stage = Stage::Setup;
        self.pending = None;
        let position = self.env.position;
        self.show(&position, None, Vec::new());
        Step::none()
    }

    /// Plays the opponent's replies (and starts lines again from the beginning as they end) up to the student's
    /// next move. Returns the opponent's last move and whether a line ended. With nothing left to ask, the session
    /// ends with [`StartError::OutOfBook`].
    fn advance(&mut self) -> (Option<Square>, bool) {
        let guard = self.env.book.as_ref().and_then(SharedBook::read);
        let Some(session) = &mut self.session else { return (None, false) };
        let mut last = None;
        let mut restarted = false;
        for _ in 0..MAX_STEPS {
            match session.turn() {
                Turn::Student(_) => {
                    self.stage = Stage::Asking;
                    return (last, restarted);
                }
                Turn::Opponent => match session.opponent_move(guard.as_deref()) {
                    Some(mv) => last = mv.square().or(last),
                    None => break,
                },
                // A line that ends again at once has no card on it: nothing to ask.
                Turn::LineEnd if restarted => break,
                Turn::LineEnd => {
                    session.set_now(Utc::now());
                    session.restart();
                    self.lines = self.lines.saturating_add(1);
                    restarted = true;
                    last = None;
                }
            }
        }
        self.stage = Stage::Setup;
        self.problem = Some(StartError::OutOfBook);
        (None, restarted)
    }

    /// Shows the session's position with `last` marked.
    fn show_session(&mut self, last: Option<Square>) {
        let position = self.session.as_ref().map_or(self.env.position, |session| *session.position());
        self.show(&position, last, Vec::new());
    }

    fn show(&mut self, position: &Position, last: Option<Square>, hints: Vec<HintMark>) {
        self.scene = super::scene(position, last, hints, self.env.style);
        self.caches.clear_pieces();
    }

    /// Where the trainer stands.
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// What the student chose.
    #[must_use]
    pub fn plan(&self) -> Plan {
        self.plan
    }

    /// The start's generation (results of other generations are dropped).
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Why the last start failed (or the session ran out of positions).
    #[must_use]
    pub fn problem(&self) -> Option<StartError> {
        self.problem
    }

    /// The session, once started (kept after End for its summary).
    #[must_use]
    pub fn session(&self) -> Option<&TrainerSession> {
        self.session.as_deref()
    }

    /// The deck's name in the study history, once its cards are stored.
    #[must_use]
    pub fn deck(&self) -> Option<&str> {
        self.deck.as_deref()
    }

    /// The deck's counts, as of the last write.
    #[must_use]
    pub fn counts(&self) -> Option<CardCounts> {
        self.counts
    }

    /// The judgement of the last answer.
    #[must_use]
    pub fn feedback(&self) -> Option<&Feedback> {
        self.feedback.as_ref()
    }

    /// The last answer to write (the task writing it runs [`Review::write`]).
    #[must_use]
    pub fn last_review(&self) -> Option<&Review> {
        self.last_review.as_ref()
    }

    /// Lines played to their end this session.
    #[must_use]
    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// The board shown.
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }
}
