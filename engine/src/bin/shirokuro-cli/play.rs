//! `shirokuro-cli play`: a console game in the manner of Egaroucid for Console.
//!
//! Modes: 0 = you (Black) against the AI, 1 = the AI (Black) against you, 2 = AI against AI, 3 = you against you.
//! After each command the AI moves whenever it is its turn. Commands: `help`, `play f5d6…` (or just `f5d6…`),
//! `undo [n]`, `redo [n]`, `go`, `init`/`reset`, `new` (back to the `setboard` position), `setboard <65 chars>`,
//! `level <1-60>`, `levelinfo`, `mode <0-3>`, `hint [n]`, `analyze`, `transcript`, `clearcache`, `quit`/`exit`.
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads the user's commands: every access is checked, every failure is an error message"
)]

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::book::Book;
use shirokuro_engine::level::Level;
use shirokuro_engine::notation::{PassStyle, format_transcript, parse_board, parse_transcript_from};
use shirokuro_engine::random_board::{self, RandomBoardSpec};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::loss_curves::LossCurves;
use shirokuro_engine::think::{Choice, Hint, HintKind, Policy, Source, Thinker};
use shirokuro_engine::{Color, Move, Position};

use shirokuro_engine::protocol::{Line, MAX_LINE, read_line};

use crate::evaluation::EvalArgs;
use crate::gtp::{clock_seed, load_book};
use crate::output;

/// Options of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    evaluation: EvalArgs,
    /// AI level (1-60).
    #[arg(long, default_value = "10")]
    level: Level,
    /// 0: you (Black) vs AI, 1: AI (Black) vs you, 2: AI vs AI, 3: you vs you.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    mode: u8,
    /// Transposition-table size (2^H entries).
    #[arg(long, default_value_t = 20, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Egaroucid's `-playloss RATIO MAX_LOSS`: with probability RATIO (0-1) the AI plays a random move among those
    /// losing at most MAX_LOSS discs against its best, at every move.
    #[arg(long, num_args = 2, value_names = ["RATIO", "MAX_LOSS"])]
    play_loss: Option<Vec<f64>>,
    /// Opening book to play from (any format the engine reads: egbk3, egbk2, egbk, Edax .dat, Egaroucid text).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Seed of the random choices (book moves, accepted losses, randboard); default: from the clock.
    #[arg(long)]
    seed: Option<u64>,
}

/// The loss curves of `--play-loss RATIO MAX_LOSS` (flat: the same at every move).
#[expect(clippy::cast_possible_truncation, reason = "both values are checked to lie in 0..=100 first")]
fn play_loss_curves(values: &[f64]) -> Result<LossCurves, String> {
    let [ratio, max_loss] = values else { return Err("--play-loss takes RATIO and MAX_LOSS".to_owned()) };
    if !(0.0..=1.0).contains(ratio) {
        return Err(format!("--play-loss: the ratio {ratio} is not between 0 and 1"));
    }
    if !(0.0..=64.0).contains(max_loss) || max_loss.fract() != 0.0 {
        return Err(format!("--play-loss: the maximum loss {max_loss} is not a whole number of discs from 0 to 64"));
    }
    let percent = (ratio * 100.0).round() as i64;
    let points = |v: i64| vec![v; shirokuro_engine::think::loss_curves::CURVE_POINTS];
    LossCurves::new(&points(*max_loss as i64), &points(percent)).map_err(|e| format!("--play-loss: {e}"))
}

/// The game and the AI.
pub struct Session {
    thinker: Thinker,
    level: Level,
    mode: u8,
    start: Position,
    /// Positions from `start`: `positions[i]` is before `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    undone: Vec<Move>,
    /// Seeds of `randboard` when none is given, and the draws of the loss choice.
    seed_source: GameRng,
    /// `--play-loss`: the AI's loss curves.
    loss: Option<LossCurves>,
    /// `--book`: the book the AI plays from.
    book: Option<Arc<Book>>,
}

/// What a command asks of the loop.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Print this and carry on.
    Continue(String),
    /// Leave.
    Quit,
}

impl Session {
    /// A new game from the initial position.
    #[must_use]
    pub fn new(thinker: Thinker, level: Level, mode: u8) -> Session {
        Session {
            thinker,
            level,
            mode,
            start: Position::INITIAL,
            positions: vec![Position::INITIAL],
            moves: Vec::new(),
            undone: Vec::new(),
            seed_source: GameRng::new(clock_seed()),
            loss: None,
            book: None,
        }
    }

    /// The AI's policy: the level and the `--play-loss` curves (the book is lent at each move).
    fn policy(&self) -> Policy {
        Policy::new(self.level).with_loss(self.loss)
    }

    /// The AI's move under its policy (the same entry point as the app, GTP and NBoard).
    fn ai_choice(&mut self, position: &Position) -> Choice {
        let policy = self.policy();
        self.thinker.choose(position, &policy, self.book.as_deref(), &mut self.seed_source, &mut |_| {})
    }

    fn current(&self) -> Position {
        self.positions.last().copied().unwrap_or(self.start)
    }

    fn ai_to_move(&self) -> bool {
        let side = self.current().side_to_move;
        match self.mode {
            0 => side == Color::White,
            1 => side == Color::Black,
            2 => true,
            _ => false,
        }
    }

    fn push(&mut self, mv: Move) -> Result<(), String> {
        let next = self.current().play(mv).map_err(|e| format!("{mv}: {e}"))?;
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Plays forced passes, then lets the AI move while it is its turn.
    fn advance(&mut self, out: &mut String) {
        loop {
            let position = self.current();
            if position.board.is_game_over() {
                return;
            }
            if position.board.must_pass() {
                let _ = self.push(Move::Pass);
                out.push_str("pass\n");
                continue;
            }
            if !self.ai_to_move() {
                return;
            }
            let choice = self.ai_choice(&position);
            let Some(mv) = choice.mv else { return };
            let thought = &choice.thought;
            if choice.source == Source::Book {
                out.push_str(&format!("AI plays {mv} (book, score {:+})\n", choice.value));
            } else {
                out.push_str(&format!(
                    "AI plays {mv} (level {}, score {:+}{}, depth {}, {} nodes, {:.2} s)\n",
                    self.level.get(),
                    choice.value,
                    if thought.exact { " exact" } else { "" },
                    thought.depth,
                    thought.nodes,
                    thought.elapsed.as_secs_f64()
                ));
            }
            if self.push(mv).is_err() {
                return;
            }
            self.undone.clear();
        }
    }

    /// The board as text.
    #[must_use]
    pub fn show(&self) -> String {
        let p = self.current();
        let mut s = String::from("  a b c d e f g h\n");
        for row in 0..8u8 {
            s.push(char::from(b'1'.saturating_add(row)));
            for column in 0..8u8 {
                let sq = shirokuro_engine::Square::from_coords(column, row).unwrap_or(shirokuro_engine::Square::A1);
                let c = if p.black().contains(sq) {
                    'X'
                } else if p.white().contains(sq) {
                    'O'
                } else if p.board.moves().contains(sq) {
                    '*'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        let (black, white) = (p.black().count(), p.white().count());
        if p.board.is_game_over() {
            s.push_str(&format!("game over: Black {black} - White {white}\n"));
        } else {
            let side = if p.side_to_move == Color::Black { "Black (X)" } else { "White (O)" };
            s.push_str(&format!(
                "{side} to move  ply {}  {} empties  Black {black} - White {white}\n",
                self.moves.len(),
                p.board.empty_count()
            ));
        }
        s
    }

    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Outcome {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return Outcome::Continue(String::new()) };
        let rest: Vec<&str> = words.collect();
        let mut out = String::new();
        let result: Result<(), String> = match command.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Outcome::Quit,
            "help" | "?" => {
                out.push_str(HELP);
                Ok(())
            }
            "init" | "reset" => {
                self.start = Position::INITIAL;
                self.restart();
                Ok(())
            }
            "new" => {
                self.restart();
                Ok(())
            }
            "setboard" => parse_board(&rest.join("")).map_err(|e| format!("setboard: {e}")).map(|p| {
                self.start = p;
                self.restart();
            }),
            "level" => match rest.first().map(|s| s.parse::<Level>()) {
                Some(Ok(level)) => {
                    self.level = level;
                    out.push_str(&format!("level {}\n", level.get()));
                    Ok(())
                }
                Some(Err(e)) => Err(e.to_string()),
                None => Err("level: give a number from 1 to 60".to_owned()),
            },
            "levelinfo" | "linfo" => {
                let l = self.level;
                out.push_str(&format!(
                    "level {}: midgame depth {}, endgame search from {} empties, exact from {} empties ({})\n",
                    l.get(),
                    l.midgame_depth(),
                    l.endgame_start(),
                    l.exact_from(),
                    l.category()
                ));
                Ok(())
            }
            "mode" => match rest.first().and_then(|s| s.parse::<u8>().ok()).filter(|m| *m <= 3) {
                Some(m) => {
                    self.mode = m;
                    Ok(())
                }
                None => Err("mode: 0 (you Black), 1 (you White), 2 (AI vs AI) or 3 (you vs you)".to_owned()),
            },
            "undo" => {
                // At most the moves there are: a huge count must not loop for ever.
                let n = rest.first().and_then(|s| s.parse::<usize>().ok()).unwrap_or(1).min(self.moves.len());
                for _ in 0..n {
                    if let (Some(mv), true) = (self.moves.pop(), self.positions.len() > 1) {
                        let _ = self.positions.pop();
                        self.undone.push(mv);
                    }
                }
                // Undoing to a position where the AI is to move should not make it play again at once.
                return Outcome::Continue(self.show());
            }
            "redo" => {
                let n = rest.first().and_then(|s| s.parse::<usize>().ok()).unwrap_or(1).min(self.undone.len());
                for _ in 0..n {
                    if let Some(mv) = self.undone.pop() {
                        let _ = self.push(mv);
                    }
                }
                return Outcome::Continue(self.show());
            }
            "go" => {
                let position = self.current();
                let choice = self.ai_choice(&position);
                match choice.mv {
                    Some(mv) => {
                        out.push_str(&format!("AI plays {mv} (score {:+})\n", choice.value));
                        self.undone.clear();
                        self.push(mv)
                    }
                    None => Err("the game is over".to_owned()),
                }
            }
            "hint" => {
                let n = rest.first().and_then(|s| s.parse::<usize>().ok()).unwrap_or(usize::MAX);
                out.push_str(&self.hint(n));
                Ok(())
            }
            "analyze" | "analyse" => {
                out.push_str(&self.analyze());
                Ok(())
            }
            "transcript" => {
                out.push_str(&format_transcript(&self.moves, PassStyle::Omit));
                out.push('\n');
                Ok(())
            }
            "clearcache" => {
                self.thinker.clear();
                Ok(())
            }
            "randboard" | "genrandboard" => self.random_board(&rest),
            "play" => self.play_text(&rest.join("")),
            _ => self.play_text(&format!("{command}{}", rest.join(""))),
        };
        if let Err(message) = result {
            out.push_str(&format!("error: {message}\n"));
        }
        self.advance(&mut out);
        out.push_str(&self.show());
        Outcome::Continue(out)
    }

    /// `randboard <min> <max> <moves> [seed]`: a new game along a random line of `moves` moves whose position is worth
    /// `min..=max` discs for Black at the current level (see `shirokuro_engine::random_board`).
    fn random_board(&mut self, args: &[&str]) -> Result<(), String> {
        const USAGE: &str = "randboard <min> <max> <moves> [seed]: scores for Black (-64..64), moves 1-60";
        let number = |i: usize| args.get(i).map(|t| t.parse::<i64>().map_err(|_| format!("{t:?} is not a number")));
        let (Some(min), Some(max), Some(moves)) = (number(0), number(1), number(2)) else {
            return Err(USAGE.to_owned());
        };
        let (min, max, moves) = (min?, max?, moves?);
        let seed = match number(3) {
            Some(seed) => u64::try_from(seed?).map_err(|_| "the seed must not be negative".to_owned())?,
            None => self.seed_source.next_u64(),
        };
        let score = |v: i64| i32::try_from(v).map_err(|_| format!("{v}: {USAGE}"));
        let moves = u8::try_from(moves).map_err(|_| format!("{moves} moves: {USAGE}"))?;
        let spec = RandomBoardSpec::new(moves, score(min)?, score(max)?, self.level).map_err(|e| e.to_string())?;
        let board = random_board::generate(&self.thinker, &spec, &mut GameRng::new(seed)).map_err(|e| e.to_string())?;
        self.start = Position::INITIAL;
        self.restart();
        for mv in board.line {
            self.push(mv)?;
        }
        Ok(())
    }

    fn restart(&mut self) {
        self.positions = vec![self.start];
        self.moves.clear();
        self.undone.clear();
        self.thinker.clear();
    }

    fn play_text(&mut self, text: &str) -> Result<(), String> {
        let transcript = parse_transcript_from(self.current(), text).map_err(|e| e.to_string())?;
        for mv in transcript.moves {
            self.push(mv)?;
        }
        self.undone.clear();
        Ok(())
    }

    /// Every legal move with its value at the current level, best first: the app's hints (the book's values first
    /// when a book is given, then searches deepened up to the level), each move's last value.
    fn scored_moves(&self, position: &Position) -> Vec<(Move, i32, HintKind)> {
        let mut latest: Vec<Hint> = Vec::new();
        let _end = self.thinker.hints(position, self.level, self.book.as_deref(), &mut |hint| {
            match latest.iter_mut().find(|known| known.square == hint.square) {
                Some(known) => *known = hint,
                None => latest.push(hint),
            }
            ControlFlow::Continue(())
        });
        let mut list: Vec<(Move, i32, HintKind)> =
            latest.into_iter().map(|hint| (Move::Place(hint.square), hint.value, hint.kind)).collect();
        list.sort_by_key(|&(_, score, _)| std::cmp::Reverse(score));
        list
    }

    fn hint(&self, n: usize) -> String {
        let mut out = String::from("move  score\n");
        for (mv, score, kind) in self.scored_moves(&self.current()).into_iter().take(n) {
            let label = match kind {
                HintKind::Book => " (book)",
                HintKind::Percent(100) => " (exact)",
                HintKind::Depth(_) | HintKind::Percent(_) => "",
            };
            out.push_str(&format!("{:>4}  {score:+}{label}\n", mv.to_string()));
        }
        out
    }

    fn analyze(&self) -> String {
        let mut out = String::new();
        for (i, (&mv, position)) in self.moves.iter().zip(&self.positions).enumerate() {
            if mv == Move::Pass {
                continue;
            }
            let scored = self.scored_moves(position);
            let Some(&(best, best_score, _)) = scored.first() else { continue };
            let played = scored.iter().find(|(m, _, _)| *m == mv).map_or(best_score, |&(_, s, _)| s);
            let loss = best_score.saturating_sub(played);
            let verdict = if loss == 0 {
                ""
            } else if loss < 4 {
                "Disagree"
            } else {
                "Mistake"
            };
            out.push_str(&format!(
                "{:>3} {mv} {played:+}  best {best} {best_score:+}  {verdict}\n",
                i.saturating_add(1)
            ));
        }
        out
    }
}

const HELP: &str = "commands: play f5d6 (or just f5d6) | undo [n] | redo [n] | go | hint [n] | analyze | transcript \
| setboard <65 chars> | randboard <min> <max> <moves> [seed] | init | new | level <1-60> | levelinfo | mode <0-3> \
| clearcache | quit\n";

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let thinker = args.evaluation.thinker(SolveOptions::default().with_hash_level(args.hash_level))?;
    let mut session = Session::new(thinker, args.level, args.mode);
    session.loss = args.play_loss.as_deref().map(play_loss_curves).transpose()?;
    session.book = load_book(args.book.as_deref())?;
    if let Some(seed) = args.seed {
        session.seed_source = GameRng::new(seed);
    }
    let mut out = String::new();
    session.advance(&mut out);
    out!("{out}{}", session.show());
    let stdin = std::io::stdin();
    loop {
        out!("> ");
        let _ = std::io::stdout().flush();
        // Lines are capped (a longer one is refused), and bytes that are not UTF-8 make an unknown command.
        let line = match read_line(&mut stdin.lock()) {
            Ok(None) => break,
            Ok(Some(Line::Text(text))) => text,
            Ok(Some(Line::TooLong(length))) => {
                out!("a line of {length} bytes was ignored (lines are limited to {MAX_LINE} bytes)\n");
                continue;
            }
            Err(e) => return Err(format!("cannot read a command: {e}")),
        };
        if output::closed() {
            break;
        }
        match session.execute(&line) {
            Outcome::Quit => break,
            Outcome::Continue(text) => out!("{text}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "tests"
)]
mod tests {
    use shirokuro_engine::eval::Weights;

    use super::*;

    fn session(mode: u8) -> Session {
        let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(14)).unwrap();
        Session::new(thinker, Level::new(2).unwrap(), mode)
    }

    #[test]
    fn the_ai_answers_a_human_move_and_undo_takes_moves_back() {
        let mut s = session(0);
        let Outcome::Continue(text) = s.execute("f5") else { panic!("quit") };
        assert!(text.contains("AI plays"), "{text}");
        assert_eq!(s.moves.len(), 2);
        let _ = s.execute("undo 2");
        assert_eq!(s.moves.len(), 0);
        let _ = s.execute("redo 1");
        assert_eq!(s.moves, vec![Move::Place(shirokuro_engine::Square::F5)]);
    }

    #[test]
    fn bad_input_is_reported_and_changes_nothing() {
        let mut s = session(3);
        let Outcome::Continue(text) = s.execute("a1") else { panic!("quit") };
        assert!(text.contains("error:"), "{text}");
        assert!(s.moves.is_empty());
        let Outcome::Continue(text) = s.execute("level 99") else { panic!("quit") };
        assert!(text.contains("error:"), "{text}");
        let Outcome::Continue(text) = s.execute("setboard xyz") else { panic!("quit") };
        assert!(text.contains("error:"), "{text}");
        assert_eq!(s.execute("quit"), Outcome::Quit);
    }

    #[test]
    fn randboard_starts_a_game_along_a_random_line() {
        let mut s = session(3);
        let Outcome::Continue(text) = s.execute("randboard -64 64 20 5") else { panic!("quit") };
        assert!(!text.contains("error:"), "{text}");
        assert_eq!(s.moves.iter().filter(|mv| **mv != Move::Pass).count(), 20);
        let line = s.moves.clone();
        let _ = s.execute("randboard -64 64 20 5");
        assert_eq!(s.moves, line, "the same seed gives the same line");
        for bad in [
            "randboard",
            "randboard 1 2",
            "randboard a 2 20",
            "randboard 5 2 20",
            "randboard 0 2 0",
            "randboard 0 2 20 -1",
        ] {
            let Outcome::Continue(text) = s.execute(bad) else { panic!("quit") };
            assert!(text.contains("error:"), "{bad}: {text}");
            assert_eq!(s.moves, line, "{bad} changed the game");
        }
    }

    #[test]
    fn play_loss_makes_flat_curves_and_checks_its_values() {
        let curves = play_loss_curves(&[0.3, 2.0]).unwrap();
        assert_eq!(curves, LossCurves::flat(2, 30));
        for bad in [[1.5, 2.0], [0.3, -1.0], [0.3, 2.5], [0.3, 65.0]] {
            assert!(play_loss_curves(&bad).unwrap_err().contains("--play-loss"), "{bad:?}");
        }
        // With it, AI-against-AI games still end with legal moves only.
        let mut s = session(3);
        s.loss = Some(LossCurves::flat(64, 100));
        let _ = s.execute("mode 2");
        let _ = s.execute("go");
        assert!(s.current().board.is_game_over());
    }

    /// The AI's move in a session with a book and a seed is the one a direct call of the engine's entry point gives
    /// for the same position, book and seed; and the seed matters (the four first moves are equal in the book).
    #[test]
    fn the_session_plays_the_entry_points_move_for_a_book_and_a_seed() {
        let mut book = Book::new();
        let after_f5 = Position::INITIAL.play(Move::Place(shirokuro_engine::Square::F5)).unwrap();
        let _ = book.insert(&after_f5.board, shirokuro_engine::book::Entry::new(0, 21));
        let book = Arc::new(book);
        let direct = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(14)).unwrap();
        let mut moves = std::collections::HashSet::new();
        for seed in 0..12 {
            let mut s = session(3);
            s.book = Some(Arc::clone(&book));
            s.seed_source = GameRng::new(seed);
            let Outcome::Continue(text) = s.execute("go") else { panic!("quit") };
            assert!(text.contains("AI plays"), "{text}");
            let policy = Policy::new(Level::new(2).unwrap());
            let choice = direct.choose(&Position::INITIAL, &policy, Some(&book), &mut GameRng::new(seed), &mut |_| {});
            assert_eq!(choice.source, Source::Book);
            assert_eq!(s.moves.first().copied(), choice.mv, "seed {seed}");
            let _ = moves.insert(choice.mv);
        }
        assert!(moves.len() >= 2, "12 seeds all gave {moves:?}");
    }

    #[test]
    fn ai_against_ai_plays_a_whole_game() {
        let mut s = session(3);
        let _ = s.execute("mode 2");
        let _ = s.execute("go");
        assert!(s.current().board.is_game_over());
        let Outcome::Continue(text) = s.execute("transcript") else { panic!("quit") };
        let transcript = text.lines().next().unwrap();
        let replay = shirokuro_engine::notation::parse_transcript(transcript).unwrap();
        assert_eq!(replay.end.board, s.current().board);
        let Outcome::Continue(hints) = s.execute("hint 3") else { panic!("quit") };
        assert!(hints.contains("move  score"));
    }
}
