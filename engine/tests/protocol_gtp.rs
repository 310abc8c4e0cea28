//! The GTP session: scripted sessions through the library state machine (with the real engine at low levels and a
//! fake engine that only returns when stopped), and one session through the `shirokuro-cli gtp` binary.

use std::io::{Cursor, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::level::Level;
use shirokuro_engine::protocol::gtp::{COMMANDS, GtpSession};
use shirokuro_engine::protocol::{Decision, Engine, run_script, serve};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Color, Move, Position, Square};

fn session(level: u8) -> GtpSession<Thinker> {
    let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(14))
        .expect("thinker");
    GtpSession::new(Arc::new(thinker), Level::new(level).expect("level"))
}

/// Splits the output into responses (each ends with an empty line) and checks the framing.
fn responses(out: &[String]) -> Vec<String> {
    let mut responses = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in out {
        if line.is_empty() {
            assert!(!current.is_empty(), "empty response in {out:?}");
            responses.push(current.join("\n"));
            current.clear();
        } else {
            current.push(line);
        }
    }
    assert!(current.is_empty(), "unterminated response {current:?}");
    for r in &responses {
        assert!(r.starts_with('=') || r.starts_with('?'), "bad status in {r:?}");
    }
    responses
}

fn vertex(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "pass".to_owned(),
    }
}

fn parse_vertex(text: &str) -> Move {
    if text.eq_ignore_ascii_case("pass") { Move::Pass } else { Move::Place(Square::parse(text).expect(text)) }
}

#[test]
fn administrative_commands_ids_comments_and_errors() {
    let mut s = session(1);
    let script = "\
protocol_version
1 name
2 version

# a comment line
3 known_command genmove # trailing comment
4 known_command fly
list_commands
boardsize 8
boardsize 19
5 boardsize x
komi 6.5
komi lots
set_game Othello
set_game Go
list_games
6 frobnicate
\tname\u{1}
quit
name";
    let output = run_script(&mut s, script);
    assert!(output.quit);
    let r = responses(&output.out);
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "=1 Shirokuro");
    assert_eq!(r[2], format!("=2 {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(r[3], "=3 true");
    assert_eq!(r[4], "=4 false");
    let listed: Vec<&str> = r[5].trim_start_matches("= ").lines().collect();
    assert_eq!(listed, COMMANDS);
    for command in ["play", "genmove", "undo", "showboard", "final_score", "gogui-rules_board", "shirokuro-level"] {
        assert!(listed.contains(&command), "{command} not listed");
    }
    assert_eq!(r[6], "= ");
    assert!(r[7].starts_with("? unacceptable size"), "{}", r[7]);
    assert!(r[8].starts_with("?5 syntax error"), "{}", r[8]);
    assert_eq!(r[9], "= ");
    assert!(r[10].starts_with("? syntax error"), "{}", r[10]);
    assert_eq!(r[11], "= ");
    assert!(r[12].starts_with("? unsupported game"), "{}", r[12]);
    assert_eq!(r[13], "= Othello");
    assert!(r[14].starts_with("?6 unknown command"), "{}", r[14]);
    assert_eq!(r[15], "= Shirokuro", "tab and control characters are cleaned");
    assert_eq!(r[16], "= ", "quit answers before leaving");
    assert_eq!(r.len(), 17, "nothing is handled after quit");
}

#[test]
fn play_genmove_undo_and_errors() {
    let mut s = session(2);
    let output = run_script(
        &mut s,
        "play black F5\nplay white f5\nplay white a1\nplay w pass\nplay b d6\nplay green d6\nplay w Z9\nplay w\n\
         genmove w\n",
    );
    let r = responses(&output.out);
    assert_eq!(r[0], "= ");
    assert!(r[1].starts_with("? illegal move"), "occupied: {}", r[1]);
    assert!(r[2].starts_with("? illegal move"), "no flip: {}", r[2]);
    assert!(r[3].starts_with("? illegal move"), "pass with moves: {}", r[3]);
    assert!(r[4].starts_with("? illegal move: it is white's turn"), "wrong colour: {}", r[4]);
    assert!(r[5].starts_with("? syntax error"), "{}", r[5]);
    assert!(r[6].starts_with("? syntax error"), "{}", r[6]);
    assert!(r[7].starts_with("? syntax error"), "{}", r[7]);
    let reply = r[8].strip_prefix("= ").expect("genmove succeeds");
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let mv = parse_vertex(reply);
    assert!(after_f5.board.is_legal(mv), "{reply} is legal");
    assert_eq!(s.position(), after_f5.play(mv).unwrap(), "genmove plays the move");

    let r = responses(&run_script(&mut s, "undo\nundo\nundo\nreg_genmove b\nshowboard\n").out);
    assert_eq!(r[0], "= ");
    assert_eq!(r[1], "= ");
    assert_eq!(r[2], "? cannot undo");
    assert_eq!(s.position(), Position::INITIAL);
    let reply = r[3].strip_prefix("= ").unwrap();
    assert!(Position::INITIAL.board.is_legal(parse_vertex(reply)));
    assert_eq!(s.position(), Position::INITIAL, "reg_genmove does not play");
    assert!(r[4].contains("black (X) 2, white (O) 2, black to move"), "{}", r[4]);
    assert!(r[4].contains(" 4 . . . O X . . . 4"), "row 4 of the initial board (row 1 at the top):\n{}", r[4]);
}

#[test]
fn gogui_rules_commands_use_othello_coordinates() {
    let mut s = session(1);
    let r = responses(
        &run_script(
            &mut s,
            "gogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_side_to_move\ngogui-rules_legal_moves\n\
             play b f5\ngogui-rules_board\ngogui-rules_side_to_move\ngogui-rules_legal_moves\n\
             gogui-rules_final_result\ngogui-analyze_commands\n",
        )
        .out,
    );
    assert_eq!(r[0], "= othello");
    assert_eq!(r[1], "= 8");
    assert_eq!(r[2], "= black");
    assert_eq!(r[3], "= D3 C4 F5 E6", "legal moves in square order");
    let board: Vec<&str> = r[5].trim_start_matches("= ").lines().collect();
    assert_eq!(board.len(), 8);
    // GoGui draws row 8 at the top: the first line is row 8.
    assert_eq!(board[8 - 5], "...XXX..", "row 5 after f5");
    assert_eq!(board[8 - 4], "...OX...", "row 4");
    assert_eq!(board[0], "........");
    assert_eq!(r[6], "= white");
    assert_eq!(r[7], "= F4 D6 F6", "square order: a1, b1, …, h8");
    assert!(r[8].starts_with("= The game is not over"), "{}", r[8]);
    for line in r[9].trim_start_matches("= ").lines() {
        let fields: Vec<&str> = line.split('/').collect();
        assert_eq!(fields.len(), 3, "type/label/command: {line}");
        let command = fields[2].split_whitespace().next().unwrap();
        assert!(COMMANDS.contains(&command), "{command} is a known command");
    }
}

#[test]
fn level_hint_time_and_clock_commands() {
    let mut s = session(3);
    let r = responses(
        &run_script(
            &mut s,
            "shirokuro-level\nshirokuro-level 2\nlevel\nshirokuro-level 61\nlevel x\nshirokuro-hint\n\
             time_settings 300 0 0\ntime_settings 5 minutes\ntime_left black 120 0\ntime_left b -3 0\nshowboard\n",
        )
        .out,
    );
    assert_eq!(r[0], "= 3");
    assert_eq!(r[1], "= ");
    assert_eq!(r[2], "= 2");
    assert_eq!(s.level(), Level::new(2).unwrap());
    assert!(r[3].starts_with("? level 61 is out of range"), "{}", r[3]);
    assert!(r[4].starts_with("? "), "{}", r[4]);
    let hint: Vec<&str> = r[5].trim_start_matches("= ").split_whitespace().collect();
    assert_eq!(hint.len(), 8, "four moves with a score each: {hint:?}");
    let scores: Vec<i32> = hint.chunks(2).map(|pair| pair[1].parse().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    let mut moves: Vec<&str> = hint.chunks(2).map(|pair| pair[0]).collect();
    moves.sort_unstable();
    assert_eq!(moves, ["C4", "D3", "E6", "F5"]);
    assert_eq!(r[6], "= ");
    assert!(r[7].starts_with("? syntax error"), "{}", r[7]);
    assert_eq!(r[8], "= ");
    assert!(r[9].starts_with("? syntax error"), "{}", r[9]);
    assert!(r[10].contains("clock 300 s + 0 s/0 stones; left: black 120 s/0 stones, white -"), "{}", r[10]);
}

/// Random moves from the start until the side to move must pass; the moves so far (no pass among them).
fn line_to_a_pass(seed: u64) -> (Vec<Move>, Position) {
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let mut position = Position::INITIAL;
        let mut moves = Vec::new();
        while !position.board.is_game_over() {
            if position.board.must_pass() {
                return (moves, position);
            }
            let squares: Vec<Square> = position.board.moves().into_iter().collect();
            let mv = Move::Place(squares[rng.random_range(0..squares.len())]);
            moves.push(mv);
            position = position.play(mv).unwrap();
        }
    }
}

#[test]
fn passes_are_explicit_or_automatic_and_undone_with_the_next_move() {
    let (moves, at_pass) = line_to_a_pass(11);
    let mut s = session(1);
    let mut script = String::new();
    let mut color = Color::Black;
    for mv in &moves {
        script.push_str(&format!("play {} {}\n", if color == Color::Black { "b" } else { "w" }, vertex(*mv)));
        color = !color;
    }
    let r = responses(&run_script(&mut s, &script).out);
    assert!(r.iter().all(|x| x == "= "), "{r:?}");
    assert_eq!(s.position(), at_pass);
    let passer = at_pass.side_to_move;
    let other = if passer == Color::Black { "b" } else { "w" };
    let mover = if passer == Color::Black { "w" } else { "b" };
    let r = responses(&run_script(&mut s, "gogui-rules_legal_moves\n").out);
    assert_eq!(r[0], "= pass");

    // The other colour moves without sending the pass: the pass is made, and undo takes both back.
    let after_pass = at_pass.play(Move::Pass).unwrap();
    let reply = &responses(&run_script(&mut s, &format!("genmove {mover}\n")).out)[0];
    let mv = parse_vertex(reply.strip_prefix("= ").unwrap());
    assert!(after_pass.board.is_legal(mv), "{reply}");
    assert_eq!(s.position(), after_pass.play(mv).unwrap());
    let r = responses(&run_script(&mut s, "undo\n").out);
    assert_eq!(r[0], "= ");
    assert_eq!(s.position(), at_pass, "the automatic pass is undone with the move");

    // An explicit pass works too, and genmove for the colour that must pass answers pass.
    let r = responses(&run_script(&mut s, &format!("genmove {other}\nundo\nplay {other} pass\n")).out);
    assert_eq!(r, ["= pass", "= ", "= "]);
    assert_eq!(s.position(), after_pass);
}

#[test]
fn whole_game_by_genmove_ends_with_the_right_score() {
    let mut s = session(1);
    let mut position = Position::INITIAL;
    let mut color = "b";
    let mut passes = 0;
    while passes < 2 {
        let r = responses(&run_script(&mut s, &format!("genmove {color}\n")).out);
        let mv = parse_vertex(r[0].strip_prefix("= ").expect("genmove succeeds"));
        if mv == Move::Pass {
            passes += 1;
            if position.board.must_pass() {
                position = position.play(Move::Pass).unwrap();
            }
        } else {
            passes = 0;
            if position.side_to_move != if color == "b" { Color::Black } else { Color::White } {
                position = position.play(Move::Pass).unwrap();
            }
            position = position.play(mv).unwrap();
        }
        assert_eq!(s.position().black(), position.black());
        color = if color == "b" { "w" } else { "b" };
    }
    assert!(position.board.is_game_over());
    let r = responses(
        &run_script(
            &mut s,
            "play b pass\nplay w pass\nfinal_score\ngogui-rules_legal_moves\ngogui-rules_final_result\n",
        )
        .out,
    );
    assert_eq!(&r[..2], ["= ", "= "], "passes after the end change nothing");
    assert_eq!(s.position().black(), position.black());
    let r = &r[2..];
    let expected = match position.black_score() {
        0 => "0".to_owned(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(r[0], format!("= {expected}"));
    assert_eq!(r[1], "= ", "no legal move after the end");
    assert!(r[2].contains(&format!("{}-{}", position.black().count(), position.white().count())), "{}", r[2]);
}

/// An engine that thinks until it is stopped (or 20 s pass), like a deep search.
struct Blocking {
    stop: AtomicBool,
    stopped: AtomicUsize,
}

impl Engine for Blocking {
    fn think(&self, _: &Position, _: Level) -> Decision {
        // A real search clears its stop flag when it starts; so does this one.
        self.stop.store(false, Ordering::SeqCst);
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
fn gogui_interrupt_stops_genmove_which_still_plays_a_legal_move() {
    let engine = Arc::new(Blocking { stop: AtomicBool::new(false), stopped: AtomicUsize::new(0) });
    let mut s = GtpSession::new(Arc::clone(&engine), Level::new(30).unwrap());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let start = Instant::now();
    serve(&mut s, Cursor::new("1 genmove b\n# interrupt\n2 name\n"), &mut out, &mut err).expect("serve");
    assert!(start.elapsed() < Duration::from_secs(10), "the interrupt stopped the search");
    assert_eq!(engine.stopped.load(Ordering::SeqCst), 1);
    let out: Vec<String> = String::from_utf8(out).unwrap().lines().map(str::to_owned).collect();
    let r = responses(&out);
    let mv = parse_vertex(r[0].strip_prefix("=1 ").expect("genmove answered"));
    assert!(Position::INITIAL.board.is_legal(mv));
    assert_eq!(r[1], "=2 Shirokuro", "the line after the interrupt is handled");
    assert!(String::from_utf8(err).unwrap().contains("interrupted"));
}

#[test]
fn the_binary_speaks_gtp() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .args(["gtp", "--level", "2", "--threads", "1", "--hash-level", "14"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start shirokuro-cli gtp");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 name\n2 play b f5\n3 genmove w\n4 play b a1\n5 gogui-rules_side_to_move\n6 quit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let out: Vec<String> = text.lines().map(str::to_owned).collect();
    let r = responses(&out);
    assert_eq!(r[0], "=1 Shirokuro");
    assert_eq!(r[1], "=2 ");
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    assert!(after_f5.board.is_legal(parse_vertex(r[2].strip_prefix("=3 ").unwrap())), "{}", r[2]);
    assert!(r[3].starts_with("?4 illegal move"), "{}", r[3]);
    assert_eq!(r[4], "=5 black");
    assert_eq!(r[5], "=6 ");
    assert!(text.ends_with("\n\n"), "every response ends with an empty line");
}

#[test]
fn genmove_writes_each_iteration_to_the_error_stream_only() {
    let mut s = session(5);
    let output = run_script(&mut s, "play b f5\ngenmove w\n");
    let r = responses(&output.out);
    assert_eq!(r.len(), 2);
    let mv = parse_vertex(r[1].strip_prefix("= ").expect("genmove succeeds"));
    let depths: Vec<u32> = output
        .err
        .iter()
        .filter_map(|l| l.strip_prefix("shirokuro: depth "))
        .map(|rest| rest.split('@').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, (1..=5).collect::<Vec<_>>(), "{:?}", output.err);
    // The last iteration's variation starts with the move played.
    let last = output.err.last().unwrap();
    assert!(last.contains(&format!(" pv {} ", vertex(mv))), "{last} / {mv:?}");
}
