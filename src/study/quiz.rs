//! Operate ▸ Best-Move Quiz: positions from the random board generator (a chosen number of empties and score range)
//! or endgame positions, and the student clicks the best move. Every move within 0 discs of the best counts; near the
//! end the values are exact (the solver), in the midgame they come from a deep search. Points grow with the
//! position's difficulty and the streak; a Glicko-2 rating ([`shirokuro_engine::study::rating`]) moves with the
//! difficulty of what was solved. A position never comes twice in a session (in any orientation); a wrong one comes
//! back after three others. Each answer is written to the study history at once.
//!
//! Positions are made ahead: [`AHEAD`] are kept ready (or being made), each on a thread of its own with its own
//! searcher, so that Next shows the next position at once while the student thinks about the current one.

mod view;

use std::sync::Arc;
use std::time::{Duration, Instant};

use iced::Task;
use shirokuro_engine::eval::Weights;
use shirokuro_engine::eval::weights::{self, WeightsError};
use shirokuro_engine::level::Level;
use shirokuro_engine::random_board::{RandomBoardError, RandomBoardSpec};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::study::quiz::answers;
use shirokuro_engine::study::{Outcome, QuizAnswers, QuizError, QuizRecord, QuizSession, QuizSource, Rating};
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Move, Position, Square};

use super::history::{self, HistoryError};
use super::{Env, Step};
use crate::failure::Shared;
use crate::notice::Notice;
use crate::widget::board::{Caches, HintMark, Scene};

/// Positions kept ready or being made.
pub const AHEAD: usize = 2;
/// Empties from which the answers are exact (the endgame drills); above, the midgame drills.
pub const EXACT_FROM: u8 = 20;
/// The level of the midgame answers' searches: the deepest level whose plan stays a midgame search above the exact
/// range (level 11 and up search to the end, selectively, from 25 empties: at 24 empties a position took up to 25 s
/// on one thread, `cargo bench --bench quiz`).
pub const ANSWER_LEVEL: Level = Level::clamped(10);
/// The level of the random board generator's searches (the score range check).
const GENERATOR_LEVEL: Level = Level::clamped(8);
/// The empties a quiz position may have.
pub const EMPTIES: std::ops::RangeInclusive<u8> = 8..=40;
/// The score ranges offered (± discs for Black at the generator's level).
pub const SCORE_RANGES: std::ops::RangeInclusive<u8> = 2..=20;

/// What the quiz asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuizSettings {
    /// Empty squares of the positions.
    pub empties: u8,
    /// Positions score within ± this for Black at the generator's level.
    pub score: u8,
}

impl Default for QuizSettings {
    fn default() -> QuizSettings {
        QuizSettings { empties: 14, score: 6 }
    }
}

impl QuizSettings {
    /// The source of the positions.
    #[must_use]
    pub fn source(self) -> QuizSource {
        let empties = self.empties.clamp(*EMPTIES.start(), *EMPTIES.end());
        let score = i32::from(self.score);
        // Balanced positions in the endgame too: a lost-anyway position (every move −64) teaches nothing.
        match RandomBoardSpec::new(60 - empties, -score, score, GENERATOR_LEVEL) {
            Ok(spec) => QuizSource::Midgame(spec),
            Err(_) => QuizSource::Endgame { min_empties: empties, max_empties: empties, level: GENERATOR_LEVEL },
        }
    }
}

/// Messages of the quiz.
#[derive(Debug, Clone)]
pub enum Message {
    /// The evaluation weights were read (the quiz's searches use their own copy).
    WeightsRead(Result<Arc<Weights>, Shared<WeightsError>>),
    /// The rating was read from the study history.
    RatingRead(Result<Rating, HistoryError>),
    /// A position was made (for the session of this number).
    Made(u64, Result<QuizAnswers, QuizError>),
    /// A square of the board was clicked: the answer.
    SquareClicked(Square),
    /// Next position.
    Next,
    /// The empties were changed (a new session starts).
    Empties(u8),
    /// The score range was changed (a new session starts).
    Score(u8),
    /// An answer was written to the study history (or not).
    Recorded(Result<(), HistoryError>),
}

/// Where the quiz stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Stage {
    /// Reading the weights and the rating.
    Starting,
    /// Waiting for a position to be made.
    Waiting,
    /// A position is asked.
    Asking,
    /// The last position was answered: its outcome and the move played.
    Answered(Box<Outcome>, Move),
}

/// The best-move quiz.
#[derive(Debug)]
pub struct Quiz {
    env: Env,
    settings: QuizSettings,
    weights: Option<Arc<Weights>>,
    session: Option<QuizSession>,
    /// The session's number: positions made for an older one are dropped.
    session_number: u64,
    making: usize,
    seeds: GameRng,
    stage: Stage,
    scene: Scene,
    caches: Caches,
    /// When the student started waiting for the next position (Next, or the quiz's start).
    waiting_since: Option<Instant>,
    /// How long each position took to appear after Next (zero when one was ready).
    waits: Vec<Duration>,
}

impl Quiz {
    /// The quiz, reading the weights and the rating.
    pub fn new(env: Env) -> (Quiz, Task<Message>) {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64);
        let scene = super::scene(&Position::INITIAL, None, Vec::new(), env.style);
        let weights_file = env.weights_file.clone();
        let study_file = env.study_file.clone();
        let path = weights_file.clone();
        let read_weights = Task::perform(
            crate::worker::off_thread("quiz", move || weights::load(&weights_file).map(Arc::new)),
            move |read| {
                Message::WeightsRead(match read {
                    Ok(Ok(weights)) => Ok(weights),
                    Ok(Err(error)) => Err(Shared::new(error)),
                    Err(source) => Err(Shared::new(WeightsError::Read { path: path.clone(), source })),
                })
            },
        );
        let quiz = Quiz {
            env,
            settings: QuizSettings::default(),
            weights: None,
            session: None,
            session_number: 0,
            making: 0,
            seeds: GameRng::new(seed),
            stage: Stage::Starting,
            scene,
            caches: Caches::default(),
            waiting_since: Some(Instant::now()),
            waits: Vec::new(),
        };
        (quiz, Task::batch([read_weights, Task::perform(history::rating(study_file), Message::RatingRead)]))
    }

    /// Handles `message`.
    pub fn update(&mut self, message: Message) -> Step<Message> {
        match message {
            Message::WeightsRead(Ok(weights)) => {
                self.weights = Some(weights);
                self.top_up()
            }
            Message::WeightsRead(Err(error)) => Step::notice(Notice::WeightsFailed { error }),
            Message::RatingRead(Ok(rating)) => {
                self.session = Some(QuizSession::new(rating));
                self.top_up()
            }
            Message::RatingRead(Err(error)) => {
                // The quiz goes on from the default rating; its answers are still offered to the history.
                self.session = Some(QuizSession::new(Rating::default()));
                self.top_up().with_notice(Notice::StudyFailed { error })
            }
            Message::Made(number, made) if number == self.session_number => {
                self.making = self.making.saturating_sub(1);
                match made {
                    // Every move as good as the others: nothing to find (another one is made).
                    Ok(answers) if answers.best_moves.len() == answers.values.len() => {}
                    Ok(answers) => {
                        if let Some(session) = &mut self.session {
                            let _fresh = session.offer(answers);
                        }
                    }
                    // No more tries for these settings: the user widens the range.
                    Err(QuizError::Generate(RandomBoardError::NotFound { moves, min, max, .. })) => {
                        return Step::notice(Notice::RandomBoardNotFound { moves, min, max });
                    }
                    Err(_) => {}
                }
                if matches!(self.stage, Stage::Starting | Stage::Waiting) {
                    self.ask();
                }
                self.top_up()
            }
            Message::Made(..) => Step::none(),
            Message::SquareClicked(square) => self.answer(Move::Place(square)),
            Message::Next => {
                if matches!(self.stage, Stage::Answered(..)) {
                    self.waiting_since = Some(Instant::now());
                    self.ask();
                }
                self.top_up()
            }
            Message::Empties(empties) => self.change(QuizSettings { empties, ..self.settings }),
            Message::Score(score) => self.change(QuizSettings { score, ..self.settings }),
            Message::Recorded(Ok(())) => Step::none(),
            Message::Recorded(Err(error)) => Step::notice(Notice::StudyFailed { error }),
        }
    }

    /// New settings: a new session at the same rating.
    fn change(&mut self, settings: QuizSettings) -> Step<Message> {
        if settings == self.settings {
            return Step::none();
        }
        self.settings = settings;
        self.session_number += 1;
        self.making = 0;
        if let Some(session) = &mut self.session {
            *session = QuizSession::new(session.rating());
        }
        if self.stage != Stage::Starting {
            self.stage = Stage::Waiting;
        }
        self.show(&Position::INITIAL, None, Vec::new());
        self.top_up()
    }

    /// Opens the next question, if one is ready.
    fn ask(&mut self) {
        let Some(session) = &mut self.session else { return };
        match session.ask().map(|answers| answers.position) {
            Some(position) => {
                self.stage = Stage::Asking;
                if let Some(since) = self.waiting_since.take() {
                    self.waits.push(since.elapsed());
                }
                self.show(&position, None, Vec::new());
            }
            None => self.stage = Stage::Waiting,
        }
    }

    fn answer(&mut self, mv: Move) -> Step<Message> {
        if self.stage != Stage::Asking {
            return Step::none();
        }
        let Some(session) = &mut self.session else { return Step::none() };
        let Some(position) = session.current().map(|answers| answers.position) else { return Step::none() };
        let Ok(outcome) = session.answer(mv) else { return Step::none() };
        let record = QuizRecord {
            time: chrono::Utc::now(),
            position,
            answer: mv,
            correct: outcome.correct,
            points: outcome.points,
            difficulty: outcome.difficulty,
            rating: outcome.rating_after,
        };
        let hints = hint_marks(&outcome);
        let last = match mv {
            Move::Place(square) => Some(square),
            Move::Pass => None,
        };
        self.show(&position, last, hints);
        self.stage = Stage::Answered(Box::new(outcome), mv);
        Step::run(Task::perform(history::record_quiz(self.env.study_file.clone(), record), Message::Recorded))
    }

    /// Starts making positions until [`AHEAD`] are ready or being made.
    fn top_up(&mut self) -> Step<Message> {
        let Some(weights) = self.weights.clone() else { return Step::none() };
        let Some(queued) = self.session.as_ref().map(QuizSession::queued) else { return Step::none() };
        let mut tasks = Vec::new();
        while queued + self.making < AHEAD {
            self.making += 1;
            tasks.push(make(Arc::clone(&weights), self.settings.source(), self.seeds.next_u64(), self.session_number));
        }
        if tasks.is_empty() { Step::none() } else { Step::run(Task::batch(tasks)) }
    }

    fn show(&mut self, position: &Position, last: Option<Square>, hints: Vec<HintMark>) {
        self.scene = super::scene(position, last, hints, self.env.style);
        self.caches.clear_pieces();
    }

    /// Where the quiz stands.
    #[must_use]
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The session, once the rating is read.
    #[must_use]
    pub fn session(&self) -> Option<&QuizSession> {
        self.session.as_ref()
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> QuizSettings {
        self.settings
    }

    /// How long each position took to appear after Next (the first one: after the quiz opened).
    #[must_use]
    pub fn waits(&self) -> &[Duration] {
        &self.waits
    }

    /// Positions being made.
    #[must_use]
    pub fn making(&self) -> usize {
        self.making
    }
}

/// One quiz position from `source` and the value of each of its moves, with a single-threaded searcher of its own
/// (what each of the quiz's threads does; `cargo bench --bench quiz` times it).
///
/// # Errors
/// [`QuizError`] when no position could be made or the searcher could not be created.
pub fn make_position(weights: Arc<Weights>, source: QuizSource, seed: u64) -> Result<QuizAnswers, QuizError> {
    let options = SolveOptions::default().with_threads(1).with_hash_level(18);
    let thinker = Thinker::new(weights, options).map_err(|_| QuizError::Stopped)?;
    let position = source.generate(&thinker, &mut GameRng::new(seed))?;
    answers(&thinker, &position, EXACT_FROM, ANSWER_LEVEL)
}

/// Makes one position and its answers on a thread of its own.
fn make(weights: Arc<Weights>, source: QuizSource, seed: u64, number: u64) -> Task<Message> {
    let work = move || make_position(weights, source, seed);
    Task::perform(crate::worker::off_thread("quiz", work), move |made| {
        Message::Made(number, made.unwrap_or(Err(QuizError::Stopped)))
    })
}

/// The values of an answered position's moves on the board, the best ones marked.
fn hint_marks(outcome: &Outcome) -> Vec<HintMark> {
    outcome
        .values
        .iter()
        .filter_map(|&(mv, value)| match mv {
            Move::Place(square) => Some(HintMark {
                square,
                value,
                label: String::new(),
                best: outcome.best_moves.contains(&mv),
                tone: None,
            }),
            Move::Pass => None,
        })
        .collect()
}
