//! The AI's move goes through one entry point, `Thinker::choose`: the same position, book and seed give the same move
//! through GTP, NBoard and the `shirokuro-cli gtp --book` binary as through a direct call.

use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

use shirokuro_engine::book::{self, Book, BookFormat, Entry};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::level::Level;
use shirokuro_engine::protocol::gtp::GtpSession;
use shirokuro_engine::protocol::nboard::NboardSession;
use shirokuro_engine::protocol::{PolicyEngine, run_script};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::{Policy, Source, Thinker};
use shirokuro_engine::{Move, Position, Square};

fn thinker() -> Thinker {
    Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(14))
        .expect("thinker")
}

fn level() -> Level {
    Level::new(2).expect("level")
}

/// A book in which the four first moves are links worth 0 (they lead to one position up to symmetry), so the AI
/// draws one of them with its seed.
fn opening_book() -> Book {
    let mut book = Book::new();
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).expect("f5");
    let _ = book.insert(&after_f5.board, Entry::new(0, 21));
    book
}

/// Black's first move by a direct call of the entry point.
fn direct(book: &Arc<Book>, seed: u64) -> Move {
    let policy = Policy::new(level());
    let choice = thinker().choose(&Position::INITIAL, &policy, Some(book), &mut GameRng::new(seed), &mut |_| {});
    assert_eq!(choice.source, Source::Book);
    choice.mv.expect("a book move")
}

fn engine(book: &Arc<Book>, seed: u64) -> Arc<PolicyEngine> {
    let policy = Policy::new(Level::new(30).expect("level"));
    Arc::new(PolicyEngine::new(thinker(), policy, Some(Arc::clone(book)), GameRng::new(seed)))
}

#[test]
fn gtp_and_nboard_play_the_entry_points_move_for_a_book_and_a_seed() {
    let book = Arc::new(opening_book());
    let mut moves = HashSet::new();
    for seed in 0..12 {
        let expected = direct(&book, seed);
        let mut gtp = GtpSession::new(engine(&book, seed), level());
        let out = run_script(&mut gtp, "genmove b").out;
        assert_eq!(
            out.first().map(String::as_str),
            Some(format!("= {}", expected.to_string().to_uppercase()).as_str()),
            "seed {seed}: {out:?}"
        );
        let mut nboard = NboardSession::new(engine(&book, seed), level());
        let out = run_script(&mut nboard, "go").out;
        let answer = out.iter().find(|l| l.starts_with("=== ")).expect("go answered");
        assert!(
            answer.starts_with(&format!("=== {}/0.00/", expected.to_string().to_uppercase())),
            "seed {seed}: {answer}"
        );
        let _ = moves.insert(expected);
    }
    assert!(moves.len() >= 2, "12 seeds all chose {moves:?}");
}

/// Without a book the policy engine searches as the plain thinker does.
#[test]
fn without_a_book_the_policy_engine_plays_the_search_move() {
    let position = shirokuro_engine::notation::parse_transcript("f5d6c3").expect("line").end;
    let expected = thinker().think(&position, level()).best_move.expect("a move");
    let policy = Policy::new(level());
    let mut gtp = GtpSession::new(Arc::new(PolicyEngine::new(thinker(), policy, None, GameRng::new(1))), level());
    let out = run_script(&mut gtp, "play b f5\nplay w d6\nplay b c3\ngenmove w").out;
    assert_eq!(
        out.get(6).map(String::as_str),
        Some(format!("= {}", expected.to_string().to_uppercase()).as_str()),
        "{out:?}"
    );
}

fn run_gtp(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start shirokuro-cli gtp");
    child.stdin.take().expect("stdin").write_all(input).expect("write");
    child.wait_with_output().expect("output")
}

#[test]
fn the_binary_plays_from_a_book_file_with_a_seed() {
    let dir = std::env::temp_dir().join(format!("shirokuro-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("opening.egbk3");
    let book = Arc::new(opening_book());
    book::save(&book, &path, BookFormat::Egbk3).expect("save");
    let common = ["--zero-weights", "--level", "2", "--threads", "1", "--hash-level", "14", "--book"];
    for seed in [3u64, 4, 5] {
        let seed_text = seed.to_string();
        let mut args = common.to_vec();
        args.extend([path.to_str().expect("utf-8 path"), "--seed", &seed_text]);
        let output = run_gtp(&args, b"genmove b\nquit\n");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("utf-8");
        assert_eq!(
            text.lines().next(),
            Some(format!("= {}", direct(&book, seed).to_string().to_uppercase()).as_str()),
            "seed {seed}"
        );
    }
    let missing = dir.join("missing.egbk3");
    let mut args = common.to_vec();
    args.push(missing.to_str().expect("utf-8 path"));
    let output = run_gtp(&args, b"quit\n");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.egbk3"));
    let _ = std::fs::remove_dir_all(&dir);
}
