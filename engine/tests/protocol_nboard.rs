//! The NBoard session and the GGF parser: scripted sessions through the library state machine (the real engine at
//! low levels, and a fake engine that only returns when stopped), and one session through `shirokuro-cli nboard`.

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::level::{Level, Selectivity};
use shirokuro_engine::protocol::ggf::{GgfError, parse_ggf};
use shirokuro_engine::protocol::nboard::NboardSession;
use shirokuro_engine::protocol::{Decision, Engine, Iteration, Protocol, run_script, serve};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Color, Move, Position, Square};

/// The example game of the NBoard protocol description.
const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

const GAME_MOVES: &str = "f5f6d3c5e6f7e7f4";

fn session() -> NboardSession<Thinker> {
    let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(14))
        .expect("thinker");
    NboardSession::new(Arc::new(thinker), Level::new(10).unwrap())
}

fn after(moves: &str) -> Position {
    let mut position = Position::INITIAL;
    for chunk in moves.as_bytes().chunks(2) {
        let sq = Square::from_chars(chunk[0], chunk[1]).unwrap();
        position = position.play(Move::Place(sq)).unwrap();
    }
    position
}

fn parse_move(text: &str) -> Move {
    if text == "PA" { Move::Pass } else { Move::Place(Square::parse(text).expect(text)) }
}

#[test]
fn ggf_games_parse_with_boards_evals_times_and_passes() {
    let game = parse_ggf(GAME).unwrap();
    assert_eq!(game.start, Position::INITIAL);
    assert_eq!(game.moves.len(), 8);
    assert_eq!(game.property("PW"), Some("chris"));
    assert_eq!(game.property("DT"), Some("2014-02-21 20:52:27 GMT"));
    let positions = game.replay().unwrap();
    assert_eq!(positions.len(), 9);
    assert_eq!(positions[8], after(GAME_MOVES));

    // Rows separated by spaces, lower-case moves, evals and times, a white start, an escaped bracket.
    let text = "junk before (;GM[Othello]PC[a \\] b]TY[8r]BO[8 -------- -------- -------- ---O*--- ---*O--- \
                -------- -------- -------- O]W[f4/-2.5/1.25]B[f3//3]W[pa];)";
    let game = parse_ggf(text).unwrap();
    assert_eq!(game.property("PC"), Some("a ] b"));
    assert_eq!(game.start.side_to_move, Color::White);
    assert_eq!((game.start.black().count(), game.start.white().count()), (2, 2));
    assert_eq!(game.moves[0].color, Color::White);
    assert_eq!(game.moves[0].mv, Move::Place(Square::F4));
    assert_eq!((game.moves[0].eval, game.moves[0].time), (Some(-2.5), Some(1.25)));
    assert_eq!((game.moves[1].eval, game.moves[1].time), (None, Some(3.0)));
    assert_eq!(game.moves[2].mv, Move::Pass);
    // The pass is illegal here (White has moves), and the replay says which move and why.
    match game.replay() {
        Err(GgfError::IllegalMove { number: 3, .. }) => {}
        other => panic!("expected move 3 to be illegal, got {other:?}"),
    }
}

#[test]
fn ggf_errors_name_the_problem() {
    type Check = fn(&GgfError) -> bool;
    let cases: [(&str, Check); 9] = [
        ("GM[Othello]", |e| matches!(e, GgfError::NoGame)),
        ("(;GM[Othello]B[F5]", |e| matches!(e, GgfError::Unterminated { .. })),
        ("(;GM[Othello", |e| matches!(e, GgfError::Unterminated { .. })),
        ("(;GM[Othello]b[F5];)", |e| matches!(e, GgfError::Unexpected { found: 'b', offset: 13 })),
        ("(;GM;)", |e| matches!(e, GgfError::MissingValue { .. })),
        ("(;TY[10];)", |e| matches!(e, GgfError::UnsupportedGame { .. })),
        ("(;TY[8a];)", |e| matches!(e, GgfError::UnsupportedGame { .. })),
        ("(;BO[8 ---];)", |e| matches!(e, GgfError::InvalidBoard { .. })),
        ("(;B[F9];)", |e| matches!(e, GgfError::InvalidMove { .. })),
    ];
    for (text, check) in cases {
        let error = parse_ggf(text).expect_err(text);
        assert!(check(&error), "{text}: {error:?}");
        assert!(!error.to_string().is_empty());
    }
    assert!(matches!(parse_ggf("(;B[F5/x];)"), Err(GgfError::InvalidMove { .. })));
    assert!(matches!(
        parse_ggf("(;BO[8 ---------------------------O*------*O--------------------------- ?];)"),
        Err(GgfError::InvalidBoard { .. })
    ));
    // Replay errors: a move out of turn.
    let game = parse_ggf("(;B[F5]B[D6];)").unwrap();
    let error = game.replay().unwrap_err();
    assert!(error.to_string().contains("move 2"), "{error}");
    assert!(error.to_string().contains("White's turn"), "{error}");
}

#[test]
fn ggf_replay_inserts_a_missing_pass() {
    // Random games from a fixed seed until one reaches a position where the side to move must pass; record the other
    // side's next move without the pass.
    let mut rng = StdRng::seed_from_u64(5);
    let (ggf, expected) = loop {
        let mut position = Position::INITIAL;
        let mut ggf = String::from("(;GM[Othello]");
        while !position.board.is_game_over() && !position.board.must_pass() {
            let squares: Vec<Square> = position.board.moves().into_iter().collect();
            let sq = squares[rng.random_range(0..squares.len())];
            let color = if position.side_to_move == Color::Black { "B" } else { "W" };
            ggf.push_str(&format!("{color}[{sq}]"));
            position = position.play(Move::Place(sq)).unwrap();
        }
        if position.board.must_pass() {
            let passed = position.play(Move::Pass).unwrap();
            let next = passed.board.moves().first().unwrap();
            let color = if passed.side_to_move == Color::Black { "B" } else { "W" };
            ggf.push_str(&format!("{color}[{next}];)"));
            break (ggf, passed.play(Move::Place(next)).unwrap());
        }
    };
    let positions = parse_ggf(&ggf).unwrap().replay().unwrap();
    assert_eq!(*positions.last().unwrap(), expected);
}

#[test]
fn a_session_answers_every_request() {
    let mut s = session();
    let after_d6 = after(GAME_MOVES).play(Move::Place(Square::D6)).unwrap();
    let reply = after_d6.board.moves().first().unwrap();
    let script = format!(
        "nboard 2\nset depth 3\nset game {GAME}\nset contempt 150\nping 1\ngo\nhint 3\nhint 1\nanalyze\nlearn\n\
         move d6/1.00/0.5\n{reply}\nping 2\nfly away\nset colour red\nhint many\n"
    );
    let output = run_script(&mut s, &script);
    let out = &output.out;
    assert_eq!(out[0], "set myname Shirokuro");
    assert_eq!(out[1], "set myname Shirokuro3");
    assert_eq!(s.level(), Level::new(3).unwrap());
    assert_eq!(s.version(), Some(2));
    assert!((s.contempt() - 150.0).abs() < 1e-9);
    assert_eq!(out[2], "pong 1");
    let position = after(GAME_MOVES);

    // go: status, nodestats, the move with eval and time, status.
    let go = out.iter().position(|l| l.starts_with("=== ")).expect("go answered");
    assert!(out[3].starts_with("status Shirokuro is thinking"));
    let fields: Vec<&str> = out[go].trim_start_matches("=== ").split('/').collect();
    assert_eq!(fields.len(), 3, "{}", out[go]);
    assert!(position.board.is_legal(parse_move(fields[0])), "{}", out[go]);
    assert!(fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok(), "{}", out[go]);
    assert!(out[go - 1].starts_with("nodestats "));
    assert_eq!(out[go + 1], "status");

    // hint 3 then hint 1: `search <mv> <eval> 0 <depth>` lines, best first; hint 1 (and `hint many`, which falls
    // back to it) sends its move after each finished iteration, so the depths rise to the level (3).
    let searches: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    let depths: Vec<u8> = searches[3..].iter().map(|l| l.rsplit(' ').next().unwrap().parse().unwrap()).collect();
    let runs: Vec<&[u8]> = depths.split_inclusive(|&d| d == 3).collect();
    assert_eq!(runs.len(), 2, "one run each for hint 1 and hint many: {out:?}");
    for run in runs {
        assert!(run.windows(2).all(|w| w[0] < w[1]) && run.last() == Some(&3), "{depths:?}");
    }
    let mut evals = Vec::new();
    for line in &searches[..3] {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(position.board.is_legal(parse_move(f[1])), "{line}");
        evals.push(f[2].parse::<f64>().unwrap());
        assert_eq!(f[3], "0");
        assert!(f[4] == "100%" || f[4].parse::<u8>().is_ok(), "{line}");
    }
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "best first: {evals:?}");

    // analyze: one line per position, from the last (8 moves) down to the start.
    let analysis: Vec<usize> = out
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|rest| {
            let f: Vec<&str> = rest.split_whitespace().collect();
            assert!(f[1].parse::<f64>().is_ok());
            f[0].parse().unwrap()
        })
        .collect();
    assert_eq!(analysis, (0..=8).rev().collect::<Vec<_>>());
    assert!(out.contains(&"learned".to_owned()));
    assert_eq!(out.last().unwrap(), "status", "hint many falls back to one hint");
    assert!(out.contains(&"pong 2".to_owned()));

    // move with eval and time, then a bare move as NBoard 1.1 sends it.
    assert_eq!(s.position(), after_d6.play(Move::Place(reply)).unwrap());
    assert!(output.err.iter().any(|l| l.contains("unknown command \"fly\"")), "{:?}", output.err);
    assert!(output.err.iter().any(|l| l.contains("unknown setting \"colour\"")), "{:?}", output.err);
    assert!(output.err.iter().any(|l| l.contains("hint")), "{:?}", output.err);
}

#[test]
fn bad_input_is_reported_and_leaves_the_game_alone() {
    let mut s = session();
    let output = run_script(
        &mut s,
        &format!(
            "nboard two\nset depth deep\nset depth 99\nset depth 0\nset game {GAME}\nset game (;B[Z9];)\n\
             set game (;B[D6];)\nmove A1\nmove Q7\nmove PA\nset contempt many\nquit\nping 9\n"
        ),
    );
    assert!(output.quit);
    assert_eq!(output.out, ["set myname Shirokuro60", "set myname Shirokuro1"]);
    assert_eq!(s.position(), after(GAME_MOVES), "the bad games and moves changed nothing");
    let err = output.err.join("\n");
    for needle in ["nboard", "set depth", "set game", "move A1", "move: \"Q7\"", "move PA", "set contempt"] {
        assert!(err.contains(needle), "{needle} in {err}");
    }
}

#[test]
fn interrupting_lines_are_classified() {
    type S = NboardSession<Thinker>;
    for line in ["ping 3", "move F5", "move f5/1.0/2.0", "set game (;;)", "quit", "F5", "PA"] {
        assert!(<S as Protocol>::interrupts(line), "{line}");
    }
    for line in ["go", "hint 3", "set depth 5", "set contempt 0", "nboard 2", "analyze", "learn", ""] {
        assert!(!<S as Protocol>::interrupts(line), "{line}");
    }
}

/// An engine that thinks until it is stopped (or 20 s pass), like a deep search.
struct Blocking {
    stop: AtomicBool,
    thinks: AtomicUsize,
    stopped: AtomicUsize,
}

impl Engine for Blocking {
    fn think(&self, _: &Position, _: Level) -> Decision {
        // A real search clears its stop flag when it starts; so does this one.
        self.stop.store(false, Ordering::SeqCst);
        let _ = self.thinks.fetch_add(1, Ordering::SeqCst);
        let start = Instant::now();
        while !self.stop.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let stopped = self.stop.load(Ordering::SeqCst);
        if stopped {
            let _ = self.stopped.fetch_add(1, Ordering::SeqCst);
        }
        Decision { best_move: None, score: 0, exact: false, depth: 0, nodes: 1, stopped }
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn new_game(&self) {}
}

#[test]
fn ping_stops_the_search_and_is_answered_after_it() {
    let engine =
        Arc::new(Blocking { stop: AtomicBool::new(false), thinks: AtomicUsize::new(0), stopped: AtomicUsize::new(0) });
    let mut s = NboardSession::new(Arc::clone(&engine), Level::new(30).unwrap());
    let script = format!("nboard 2\nset depth 30\nset game {GAME}\nping 1\ngo\nping 2\nhint 5\nmove D6\nping 3\n");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let start = Instant::now();
    serve(&mut s, Cursor::new(script), &mut out, &mut err).expect("serve");
    assert!(start.elapsed() < Duration::from_secs(15), "every search was stopped");
    let out: Vec<String> = String::from_utf8(out).unwrap().lines().map(str::to_owned).collect();
    let index = |needle: &str| out.iter().position(|l| l.starts_with(needle)).unwrap_or_else(|| panic!("{needle}"));
    // go was stopped by ping 2 and still answered with a legal move, before the pong.
    let go = index("=== ");
    let mv = parse_move(out[go].trim_start_matches("=== ").split('/').next().unwrap());
    assert!(after(GAME_MOVES).board.is_legal(mv), "{}", out[go]);
    assert!(index("pong 1") < go && go < index("pong 2"), "{out:?}");
    // hint 5 found the move after it already waiting: it starts no search and closes its status before pong 3.
    assert!(!out.iter().any(|l| l.starts_with("search ")), "{out:?}");
    let closing = out.iter().rposition(|l| l == "status").unwrap();
    assert!(index("pong 2") < closing && closing < index("pong 3"), "{out:?}");
    assert_eq!(engine.thinks.load(Ordering::SeqCst), 1, "one search, for go");
    assert_eq!(engine.stopped.load(Ordering::SeqCst), 1);
    assert_eq!(s.position(), after(GAME_MOVES).play(Move::Place(Square::D6)).unwrap());
}

#[test]
fn the_binary_speaks_nboard() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .args(["nboard", "--threads", "1", "--hash-level", "14"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start shirokuro-cli nboard");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read_until = |prefix: &str| -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "output ended before {prefix}: {lines:?}");
            let line = line.trim_end().to_owned();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    };
    writeln!(stdin, "nboard 2\nset depth 2\nset game {GAME}\nping 1\ngo").unwrap();
    let lines = read_until("=== ");
    assert_eq!(lines[0], "set myname Shirokuro");
    assert_eq!(lines[1], "set myname Shirokuro2");
    assert_eq!(lines[2], "pong 1");
    let mv = parse_move(lines.last().unwrap().trim_start_matches("=== ").split('/').next().unwrap());
    assert!(after(GAME_MOVES).board.is_legal(mv), "{lines:?}");
    writeln!(stdin, "ping 2\nhint 2").unwrap();
    let lines = read_until("nodestats");
    assert_eq!(lines.iter().filter(|l| l.starts_with("search ")).count(), 2, "{lines:?}");
    assert!(lines.iter().any(|l| l == "pong 2"));
    writeln!(stdin, "quit").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn serve_reads_crlf_lines_and_bytes_that_are_not_utf8() {
    let mut s = session();
    let mut input = b"nboard 2\r\nset game (;GM[Othello]PB[Jos\xe9]B[F5];)\r\nping 7\r\n".to_vec();
    input.extend_from_slice(b"ping 8");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    serve(&mut s, Cursor::new(input), &mut out, &mut err).expect("serve");
    assert_eq!(String::from_utf8(out).unwrap(), "set myname Shirokuro\npong 7\npong 8\n");
    assert_eq!(s.position(), after("f5"));
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
}

/// Input that gives its first part at once and the rest only once `gate` fires.
struct GatedInput {
    first: Cursor<Vec<u8>>,
    rest: Cursor<Vec<u8>>,
    gate: std::sync::mpsc::Receiver<()>,
    open: bool,
}

impl Read for GatedInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.first.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        if !self.open {
            // If the sender is gone the test failed elsewhere; carry on so it can report.
            let _ = self.gate.recv_timeout(Duration::from_secs(20));
            self.open = true;
        }
        self.rest.read(buf)
    }
}

/// Answers its first search at once with a score of +3; every later search signals `started` and runs until stopped.
struct Staged {
    calls: AtomicUsize,
    stop: AtomicBool,
    started: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
}

impl Engine for Staged {
    fn think(&self, _: &Position, _: Level) -> Decision {
        if self.calls.fetch_add(1, Ordering::SeqCst) == 0 {
            return Decision { best_move: None, score: 3, exact: false, depth: 4, nodes: 10, stopped: false };
        }
        self.stop.store(false, Ordering::SeqCst);
        let _ = self.started.lock().unwrap().send(());
        let start = Instant::now();
        while !self.stop.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let stopped = self.stop.load(Ordering::SeqCst);
        Decision { best_move: None, score: 0, exact: false, depth: 0, nodes: 1, stopped }
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn new_game(&self) {}
}

#[test]
fn a_hint_stopped_between_its_searches_sends_what_it_has() {
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let engine = Arc::new(Staged {
        calls: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        started: std::sync::Mutex::new(started_tx),
    });
    let mut s = NboardSession::new(Arc::clone(&engine), Level::new(5).unwrap());
    let input = GatedInput {
        first: Cursor::new(b"nboard 2\nhint 4\n".to_vec()),
        rest: Cursor::new(b"ping 1\n".to_vec()),
        gate: started_rx,
        open: false,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let start = Instant::now();
    serve(&mut s, BufReader::new(input), &mut out, &mut err).expect("serve");
    assert!(start.elapsed() < Duration::from_secs(15), "the ping stopped the second search");
    let out: Vec<String> = String::from_utf8(out).unwrap().lines().map(str::to_owned).collect();
    let first = Position::INITIAL.board.moves().first().unwrap();
    assert_eq!(
        out,
        [
            "set myname Shirokuro".to_owned(),
            "status Shirokuro is thinking (level 5)".to_owned(),
            format!("search {first} -3.00 0 5"),
            out[3].clone(),
            "status".to_owned(),
            "pong 1".to_owned(),
        ]
    );
    assert!(out[3].starts_with("nodestats 10 "), "{}", out[3]);
    assert_eq!(engine.calls.load(Ordering::SeqCst), 2, "the third move was never searched");
}

/// Reports two iterations (a selective one, then an exact one with a long variation) and returns the last.
struct Reporting;

impl Reporting {
    fn iterations() -> [Iteration; 2] {
        let decision = |mv: Square, score, exact, depth, nodes| Decision {
            best_move: Some(Move::Place(mv)),
            score,
            exact,
            depth,
            nodes,
            stopped: false,
        };
        let long_pv: Vec<Move> = "d6 c5 f4 e3 f6 d3 e2 f3 d2"
            .split(' ')
            .map(|t| Move::Place(Square::parse(t).unwrap()))
            .chain([Move::Pass])
            .collect();
        [
            Iteration {
                decision: decision(Square::D6, 2, false, 6, 1000),
                selectivity: Selectivity::P93,
                pv: vec![Move::Place(Square::D6), Move::Place(Square::C5)],
                elapsed: Duration::from_millis(2),
            },
            Iteration {
                decision: decision(Square::D6, -4, true, 20, 3_000_000),
                selectivity: Selectivity::Exact,
                pv: long_pv,
                elapsed: Duration::from_secs(2),
            },
        ]
    }
}

impl Engine for Reporting {
    fn think(&self, position: &Position, level: Level) -> Decision {
        self.think_with_progress(position, level, &mut |_| {})
    }

    fn think_with_progress(&self, _: &Position, _: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        let iterations = Reporting::iterations();
        for it in &iterations {
            progress(it);
        }
        iterations[1].decision
    }

    fn stop(&self) {}

    fn new_game(&self) {}
}

#[test]
fn go_sends_every_finished_iteration_as_a_status_line() {
    let mut s = NboardSession::new(Arc::new(Reporting), Level::new(5).unwrap());
    let out = run_script(&mut s, "nboard 2\nmove F5\ngo\n");
    assert!(out.err.is_empty(), "{:?}", out.err);
    assert_eq!(
        out.out[..4],
        [
            "set myname Shirokuro",
            "status Shirokuro is thinking (level 5)",
            "status Shirokuro (level 5): depth 6@93% score +2 pv D6 C5 nodes 1000 (0.50 Mn/s)",
            "status Shirokuro (level 5): depth 20 exact score -4 pv D6 C5 F4 E3 F6 D3 E2 F3 … nodes 3000000 (1.50 Mn/s)",
        ]
    );
    assert!(out.out[4].starts_with("nodestats 3000000 "), "{:?}", out.out);
    assert!(out.out[5].starts_with("=== D6/-4.00/"), "{:?}", out.out);
    assert_eq!(out.out[6], "status");
    assert_eq!(out.out.len(), 7);
}

#[test]
fn go_with_the_real_engine_reports_its_iterations_up_to_the_level_depth() {
    let mut s = session();
    let out = run_script(&mut s, &format!("nboard 2\nset depth 6\nset game {GAME}\ngo\n"));
    let depths: Vec<u32> = out
        .out
        .iter()
        .filter_map(|l| l.strip_prefix("status Shirokuro (level 6): depth "))
        .map(|rest| rest.split('@').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, (1..=6).collect::<Vec<_>>(), "{:?}", out.out);
    let answer = out.out.iter().find_map(|l| l.strip_prefix("=== ")).expect("an answer");
    let mv = parse_move(answer.split('/').next().unwrap());
    assert!(after(GAME_MOVES).board.is_legal(mv), "{answer}");
}
