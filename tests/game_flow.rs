//! `update()` tests of the game flow: moves, passes, game end, undo, forks, AI turns and stale engine results. The
//! engine is not running here: its events are injected as messages, its requests read from the returned actions.

use std::time::Duration;

use shirokuro::context::Ctx;
use shirokuro::engine_worker::{Event, HintKind, Job};
use shirokuro::game::{Action, Game, Message, Order};
use shirokuro::i18n::Language;
use shirokuro::settings::Settings;
use shirokuro_engine::level::Selectivity;
use shirokuro_engine::think::Thought;
use shirokuro_engine::{Color, Move, Position, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn human_vs_human() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() }
}

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

/// A ready game with these settings, and the action of getting ready.
fn ready_game(settings: &Settings) -> (Game, Action) {
    let mut game = Game::new(&ctx(settings));
    let action = game.engine_ready(&ctx(settings));
    (game, action)
}

fn thought(best: Move, score: i32) -> Thought {
    Thought {
        best_move: Some(best),
        score,
        exact: false,
        depth: 1,
        nodes: 10,
        elapsed: Duration::from_millis(1),
        stopped: false,
        selectivity: Selectivity::Exact,
        pv: vec![best],
    }
}

fn started_job(action: &Action) -> Option<(u64, Job)> {
    match action {
        Action::Engine(Order::Start(request)) => Some((request.generation, request.job.clone())),
        _ => None,
    }
}

#[test]
fn humans_play_legal_moves_and_illegal_clicks_do_nothing() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let _ = game.update(Message::SquareClicked(sq("a1")), &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
    let position = game.record().current().position;
    assert_eq!((position.black().count(), position.white().count()), (4, 1));
    assert_eq!(position.side_to_move, Color::White);
    // With hints on, the human's turn asks for hint values of the new position.
    let (_, job) = started_job(&action).expect("a hint job");
    assert!(matches!(job, Job::Hints { position: p, .. } if p == position));
}

#[test]
fn the_ai_replies_and_stale_results_are_dropped() {
    let settings = Settings { ai_plays_black: false, ai_plays_white: true, ..Settings::default() };
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let (generation, job) = started_job(&action).expect("the AI is asked to move");
    let after_f5 = Position::INITIAL.play(Move::Place(sq("f5"))).unwrap();
    assert!(matches!(job, Job::Think { position, .. } if position == after_f5));
    assert!(game.is_thinking());
    // While the AI thinks, clicks are ignored.
    let _ = game.update(Message::SquareClicked(sq("d6")), &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
    // A result from an older generation changes nothing.
    let stale = Event::Thought { generation: generation - 1, thought: thought(Move::Place(sq("f6")), 0) };
    let _ = game.on_engine(stale, &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
    // The current one is played, valued on the graph, and the human's hints are asked for.
    let fresh = Event::Thought { generation, thought: thought(Move::Place(sq("d6")), -3) };
    let action = game.on_engine(fresh, &ctx(&settings));
    assert_eq!(game.record().ply(), 2);
    assert_eq!(game.record().main()[1].value, Some(3), "White's -3 is Black's +3");
    assert!(!game.is_thinking());
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))));
}

#[test]
fn ai_first_waits_for_start() {
    let settings = Settings { ai_plays_black: true, ai_plays_white: false, ..Settings::default() };
    let (mut game, action) = ready_game(&settings);
    assert!(game.is_awaiting_start());
    assert!(matches!(action, Action::Engine(Order::Cancel(_))));
    let action = game.update(Message::StartPressed, &ctx(&settings));
    assert!(matches!(started_job(&action), Some((_, Job::Think { .. }))));
    assert!(!game.is_awaiting_start());
}

#[test]
fn stop_pauses_the_ai_and_resume_restarts_it() {
    let settings = Settings { ai_plays_black: true, ai_plays_white: true, ..Settings::default() };
    let (mut game, _) = ready_game(&settings);
    let _ = game.update(Message::StartPressed, &ctx(&settings));
    let action = game.update(Message::Stop, &ctx(&settings));
    assert!(game.is_paused());
    let Action::Engine(Order::Cancel(generation)) = action else { panic!("stop cancels: {action:?}") };
    assert_eq!(generation, game.generation());
    let action = game.update(Message::Resume, &ctx(&settings));
    assert!(matches!(started_job(&action), Some((_, Job::Think { .. }))));
}

#[test]
fn hint_values_stream_in_and_only_the_current_generation_counts() {
    let settings = human_vs_human();
    let (mut game, action) = ready_game(&settings);
    let (generation, _) = started_job(&action).expect("hints");
    let hint = |generation, square: &str, value| Event::Hint {
        generation,
        square: sq(square),
        value,
        kind: HintKind::Depth(1),
        pv: Vec::new(),
    };
    let _ = game.on_engine(hint(generation, "f5", 2), &ctx(&settings));
    let _ = game.on_engine(hint(generation, "d3", 5), &ctx(&settings));
    let _ = game.on_engine(hint(generation - 1, "c4", 9), &ctx(&settings));
    assert_eq!(game.hint_values(), vec![(sq("d3"), 5), (sq("f5"), 2)]);
    // A deeper value replaces the old one.
    let _ = game.on_engine(hint(generation, "f5", 7), &ctx(&settings));
    assert_eq!(game.hint_values()[0], (sq("f5"), 7));
    let _ = game.on_engine(Event::Done { generation }, &ctx(&settings));
    assert_eq!(game.record().main()[0].value, Some(7));
}

#[test]
fn navigation_undo_and_forks() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    for m in ["f5", "d6", "c3", "d3"] {
        let _ = game.update(Message::SquareClicked(sq(m)), &ctx(&settings));
    }
    let _ = game.update(Message::First, &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
    let _ = game.update(Message::Last, &ctx(&settings));
    assert_eq!(game.record().ply(), 4);
    let _ = game.update(Message::Backward, &ctx(&settings));
    let _ = game.update(Message::Backward, &ctx(&settings));
    assert_eq!(game.record().ply(), 2);
    assert_eq!(game.record().next_move(), Some(sq("c3")));
    // A different move forks; the main line keeps its four moves.
    let _ = game.update(Message::SquareClicked(sq("c5")), &ctx(&settings));
    assert!(game.record().is_on_fork());
    assert_eq!(game.record().main().len(), 5);
    let _ = game.update(Message::SaveBranch, &ctx(&settings));
    assert!(!game.record().is_on_fork());
    assert_eq!(game.record().main().len(), 4);
    assert_eq!(game.record().main()[3].played, Some(sq("c5")));
    // Undo goes back and truncates.
    let _ = game.update(Message::Undo, &ctx(&settings));
    assert_eq!(game.record().ply(), 2);
    assert_eq!(game.record().last_ply(), 2);
    // The graph picks plies of the main line.
    let _ = game.update(Message::GraphPicked(1), &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
}

#[test]
fn undo_against_the_ai_returns_to_the_humans_turn() {
    let settings = Settings { ai_plays_black: false, ai_plays_white: true, ..Settings::default() };
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let (generation, _) = started_job(&action).unwrap();
    let _ = game.on_engine(Event::Thought { generation, thought: thought(Move::Place(sq("d6")), 0) }, &ctx(&settings));
    assert_eq!(game.record().ply(), 2);
    let _ = game.update(Message::Undo, &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
    assert_eq!(game.record().current().position.side_to_move, Color::Black);
}

/// A deterministic pseudo-random line from the start to a position where the side to move must pass (the game not
/// over), found by a fixed linear congruential generator.
fn line_to_a_pass() -> Vec<Square> {
    let mut seed: u64 = 12345;
    loop {
        let mut position = Position::INITIAL;
        let mut moves = Vec::new();
        loop {
            let legal: Vec<Square> = position.board.moves().into_iter().collect();
            if legal.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let square = legal[(seed >> 33) as usize % legal.len()];
            moves.push(square);
            position = position.play(Move::Place(square)).unwrap();
            if position.board.must_pass() {
                return moves;
            }
        }
    }
}

#[test]
fn a_forced_pass_happens_by_itself_between_humans() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let line = line_to_a_pass();
    for &square in &line {
        let _ = game.update(Message::SquareClicked(square), &ctx(&settings));
    }
    assert_eq!(game.record().ply(), line.len());
    let position = game.record().current().position;
    assert!(position.board.has_moves(), "the pass was applied: the same colour moves again");
}

#[test]
fn a_human_facing_the_ai_confirms_a_pass_when_asked_to() {
    let line = line_to_a_pass();
    // The side that must pass is the one to move after the line.
    let mut position = Position::INITIAL;
    for &square in &line {
        position = position.play(Move::Place(square)).unwrap();
    }
    let passer = position.side_to_move;
    let human_vs_human = human_vs_human();
    let (mut game, _) = ready_game(&human_vs_human);
    for &square in &line[..line.len() - 1] {
        let _ = game.update(Message::SquareClicked(square), &ctx(&human_vs_human));
    }
    // Now the passer is human, the other side is the AI, and pause on pass is on.
    let settings = Settings {
        ai_plays_black: passer == Color::White,
        ai_plays_white: passer == Color::Black,
        pause_on_pass: true,
        ..Settings::default()
    };
    // The last move of the line is the AI's; inject it as its thought.
    let action = game.settings_changed(&ctx(&settings));
    let (generation, _) = started_job(&action).expect("the AI moves");
    let last = *line.last().unwrap();
    let _ = game.on_engine(Event::Thought { generation, thought: thought(Move::Place(last), 0) }, &ctx(&settings));
    assert!(game.record().current().position.board.must_pass(), "waits for the Pass button");
    let action = game.update(Message::PassPressed, &ctx(&settings));
    assert!(!game.record().current().position.board.must_pass());
    assert!(matches!(started_job(&action), Some((_, Job::Think { .. }))), "then the AI moves again");
}

#[test]
fn a_game_played_to_the_end_stops_asking_the_engine() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let mut last = Action::None;
    for _ in 0..70 {
        let position = game.record().current().position;
        let Some(square) = position.board.moves().into_iter().next() else { break };
        last = game.update(Message::SquareClicked(square), &ctx(&settings));
    }
    assert!(game.record().current().position.board.is_game_over());
    assert!(matches!(last, Action::Engine(Order::Cancel(_))));
    // Nothing is clickable any more.
    let ply = game.record().ply();
    let _ = game.update(Message::SquareClicked(sq("a1")), &ctx(&settings));
    assert_eq!(game.record().ply(), ply);
}

#[test]
fn ai_move_once_plays_for_a_human_side() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::AiMoveOnce, &ctx(&settings));
    let (generation, job) = started_job(&action).expect("a think job");
    assert!(matches!(job, Job::Think { position, .. } if position == Position::INITIAL));
    let _ = game.on_engine(Event::Thought { generation, thought: thought(Move::Place(sq("c4")), 0) }, &ctx(&settings));
    assert_eq!(game.record().main()[1].played, Some(sq("c4")));
}

#[test]
fn analysis_values_fill_the_line() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    for m in ["f5", "d6"] {
        let _ = game.update(Message::SquareClicked(sq(m)), &ctx(&settings));
    }
    let action = game.update(Message::Analyze, &ctx(&settings));
    let (generation, job) = started_job(&action).expect("analysis");
    let Job::Analyze { positions, .. } = job else { panic!("not an analysis") };
    assert_eq!(positions.iter().map(|(ply, _)| *ply).collect::<Vec<_>>(), vec![2, 1, 0]);
    for (ply, value) in [(2, 1), (1, -1), (0, 0)] {
        let _ = game.on_engine(Event::Analyzed { generation, ply, value }, &ctx(&settings));
    }
    let values: Vec<_> = game.record().main().iter().map(|n| n.value).collect();
    assert_eq!(values, vec![Some(0), Some(-1), Some(1)]);
    let action = game.on_engine(Event::Done { generation }, &ctx(&settings));
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))));
}

#[test]
fn a_transcript_from_the_clipboard_replaces_the_game() {
    use shirokuro::app::App;
    use shirokuro::in_out;
    use shirokuro::message::Message as AppMessage;
    use shirokuro::notice::Notice;
    use shirokuro::settings::{Loaded, Paths};
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(Paths::inside(dir.path()), Loaded { settings: human_vs_human(), notices: Vec::new() });
    let _ = app.update(AppMessage::InOut(in_out::Message::ClipboardRead(Some(" F5d6 c3\n".to_owned()))));
    assert_eq!(app.game().record().ply(), 3);
    assert_eq!(app.game().transcript(), "f5d6c3");
    let _ = app.update(AppMessage::InOut(in_out::Message::ClipboardRead(Some("f5a1".to_owned()))));
    assert!(matches!(app.notices(), [Notice::TranscriptRejected { .. }]), "{:?}", app.notices());
    assert_eq!(app.game().record().ply(), 3, "a bad transcript changes nothing");
    let _ = app.update(AppMessage::InOut(in_out::Message::ClipboardRead(None)));
    assert!(matches!(app.notices().last(), Some(Notice::ClipboardEmpty)));
    let _ = app.update(AppMessage::NoticeDismissed(0));
    assert_eq!(app.notices().len(), 1);
}

#[test]
fn the_opening_so_far_and_the_one_a_hovered_move_leads_to() {
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    assert_eq!(game.opening_so_far(Language::English), None);
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let _ = game.update(Message::SquareHovered(Some(sq("d6"))), &ctx(&settings));
    assert_eq!(game.hovered_opening(Language::English), Some((sq("d6"), "Perpendicular Opening")));
    let _ = game.update(Message::SquareHovered(Some(sq("a1"))), &ctx(&settings));
    assert_eq!(game.hovered_opening(Language::English), None, "not a legal move");
    for m in ["d6", "c3"] {
        let _ = game.update(Message::SquareClicked(sq(m)), &ctx(&settings));
    }
    assert_eq!(game.opening_so_far(Language::Japanese), Some("虎系"));
    // The last named position along the line counts, also after moves that have no name.
    let _ = game.update(Message::SquareClicked(sq("h8")), &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("d3")), &ctx(&settings));
    assert!(game.opening_so_far(Language::Japanese).is_some());
}

#[test]
fn the_best_line_comes_from_the_ai_and_from_the_best_hint() {
    let settings = Settings { ai_plays_black: false, ai_plays_white: true, ..Settings::default() };
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let (generation, _) = started_job(&action).unwrap();
    let mut t = thought(Move::Place(sq("d6")), 0);
    t.pv = vec![Move::Place(sq("d6")), Move::Place(sq("c3")), Move::Place(sq("d3"))];
    let action = game.on_engine(Event::Thought { generation, thought: t }, &ctx(&settings));
    assert_eq!(game.best_line(), Some(&[Move::Place(sq("c3")), Move::Place(sq("d3"))][..]));
    // A hint better than the others replaces it.
    let (generation, _) = started_job(&action).unwrap();
    let hint = Event::Hint {
        generation,
        square: sq("c5"),
        value: 4,
        kind: HintKind::Depth(1),
        pv: vec![Move::Place(sq("f6"))],
    };
    let _ = game.on_engine(hint, &ctx(&settings));
    assert_eq!(game.best_line(), Some(&[Move::Place(sq("c5")), Move::Place(sq("f6"))][..]));
    // It belongs to its position only.
    let _ = game.update(Message::Backward, &ctx(&settings));
    assert_eq!(game.best_line(), None);
}

#[test]
fn a_random_board_replaces_the_game_and_back_to_random_returns_to_it() {
    use shirokuro_engine::random_board::{RandomBoard, RandomBoardError};
    let mut settings = human_vs_human();
    settings.random_board.moves = 6;
    settings.random_board.set_min(-3);
    settings.random_board.set_max(5);
    let (mut game, _) = ready_game(&settings);
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let action = game.update(Message::GenerateRandom, &ctx(&settings));
    let (generation, job) = started_job(&action).expect("a random board job");
    let Job::RandomBoard { spec, .. } = job else { panic!("{job:?}") };
    assert_eq!((spec.moves(), spec.score_range(), spec.level().get()), (6, (-3, 5), settings.level));
    // While it runs, clicks wait.
    let _ = game.update(Message::SquareClicked(sq("d6")), &ctx(&settings));
    assert_eq!(game.record().ply(), 1);

    let line: Vec<Move> = ["f5", "d6", "c3", "d3", "c4", "f4"].iter().map(|s| Move::Place(sq(s))).collect();
    let mut position = Position::INITIAL;
    for mv in &line {
        position = position.play(*mv).unwrap();
    }
    let board = RandomBoard { line, position, black_score: 1, tries: 1 };
    // A stale result changes nothing.
    let _ =
        game.on_engine(Event::RandomBoard { generation: generation - 1, result: Ok(board.clone()) }, &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
    let action = game.on_engine(Event::RandomBoard { generation, result: Ok(board) }, &ctx(&settings));
    assert_eq!(game.record().current().position, position);
    assert_eq!(game.random_start(), Some(6));
    assert_eq!(game.transcript(), "f5d6c3d3c4f4");
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))), "hints for the new position");

    // Play on, look back, then jump to the generated position.
    let _ = game.update(Message::SquareClicked(sq("f3")), &ctx(&settings));
    let _ = game.update(Message::First, &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
    let _ = game.update(Message::BackToRandom, &ctx(&settings));
    assert_eq!((game.record().ply(), game.record().current().position), (6, position));

    // A failed generation leaves the game as it was; a new game forgets the random start.
    let action = game.update(Message::GenerateRandom, &ctx(&settings));
    let (generation, _) = started_job(&action).unwrap();
    let not_found = RandomBoardError::NotFound { moves: 6, min: -3, max: 5, tries: 40 };
    let action = game.on_engine(Event::RandomBoard { generation, result: Err(not_found) }, &ctx(&settings));
    assert_eq!(game.record().current().position, position);
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))));
    let _ = game.new_game(&ctx(&settings));
    assert_eq!(game.random_start(), None);
    let _ = game.update(Message::BackToRandom, &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
}

#[test]
fn a_saved_game_file_opens_as_the_same_line_with_its_values() {
    use shirokuro_engine::game_file::GameFile;
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        let _ = game.update(Message::SquareClicked(sq(square)), &ctx(&settings));
    }
    let _ = game.on_engine(Event::Analyzed { generation: game.generation(), ply: 3, value: -2 }, &ctx(&settings));
    let _ = game.update(Message::Backward, &ctx(&settings));
    let file = game.game_file("2026-11-23".to_owned(), 21);
    assert_eq!(file.nodes.len(), 6, "the main line, whatever the cursor");
    assert_eq!(file.nodes[3].value, Some(-2));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games").join("a.json");
    file.save(&path).unwrap();
    let loaded = GameFile::load(&path).unwrap();
    let (mut other, _) = ready_game(&settings);
    let action = other.load_game(&loaded, &ctx(&settings));
    assert_eq!(other.transcript(), "f5d6c3d3c4");
    assert_eq!(other.record().ply(), 5, "the cursor at the end");
    assert_eq!(other.record().node_at(3).and_then(|n| n.value), Some(-2));
    assert_eq!(other.record().node_at(2).and_then(|n| n.value), None);
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))));
}

#[test]
fn accept_ai_loss_sends_the_curves_with_the_ais_move() {
    use shirokuro_engine::think::loss_curves::LossCurves;
    let mut settings = Settings { ai_plays_black: false, ai_plays_white: true, ..Settings::default() };
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert!(matches!(started_job(&action), Some((_, Job::Think { loss: None, .. }))));
    let _ = game.update(Message::Undo, &ctx(&settings));
    settings.accept_ai_loss = true;
    settings.ai_loss = LossCurves::flat(4, 50);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let curves = LossCurves::flat(4, 50);
    assert!(matches!(started_job(&action), Some((_, Job::Think { loss: Some(c), .. })) if c == curves), "{action:?}");
}

#[test]
fn the_board_editor_paints_a_position_and_starts_a_game_from_it() {
    use shirokuro::game::Brush;
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    // Opening the editor stops the engine's work for the game.
    let action = game.update(Message::EditBoard(true), &ctx(&settings));
    assert!(matches!(action, Action::Engine(Order::Cancel(_))), "{action:?}");
    assert!(game.is_editing());
    // Clicks paint instead of playing: black discs on a1 and b1, a white one on h8, then b1 emptied again.
    let _ = game.update(Message::SquareClicked(sq("a1")), &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("b1")), &ctx(&settings));
    // A click on a disc of the brush's colour empties the square; another puts it back.
    let _ = game.update(Message::SquareClicked(sq("a1")), &ctx(&settings));
    assert!(!game.scene().black.contains(sq("a1")));
    let _ = game.update(Message::SquareClicked(sq("a1")), &ctx(&settings));
    let _ = game.update(Message::EditBrush(Brush::White), &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("h8")), &ctx(&settings));
    let _ = game.update(Message::EditBrush(Brush::Empty), &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("b1")), &ctx(&settings));
    let _ = game.update(Message::EditSide(Color::White), &ctx(&settings));
    assert_eq!(game.record().ply(), 1, "the game is untouched while editing");
    assert!(game.scene().black.contains(sq("a1")) && game.scene().white.contains(sq("h8")));
    assert!(game.scene().legal.is_empty(), "no legal dots in the editor");
    let action = game.update(Message::EditDone, &ctx(&settings));
    assert!(!game.is_editing());
    let start = game.record().current().position;
    assert_eq!(game.record().ply(), 0);
    assert_eq!(start.side_to_move, Color::White);
    assert!(start.black().contains(sq("a1")) && start.white().contains(sq("h8")));
    assert!(!start.white().contains(sq("b1")) && !start.black().contains(sq("b1")));
    assert!(start.black().contains(sq("f5")), "the rest is the position the editor started from");
    assert!(
        matches!(started_job(&action), Some((_, Job::Hints { position, .. })) if position == start),
        "{action:?} {start:?}"
    );

    // Cancel leaves the game as it was.
    let _ = game.update(Message::EditBoard(true), &ctx(&settings));
    let _ = game.update(Message::EditClear, &ctx(&settings));
    assert!(game.scene().black.is_empty() && game.scene().white.is_empty());
    let _ = game.update(Message::EditBoard(false), &ctx(&settings));
    assert_eq!(game.record().current().position, start);
    assert!(game.scene().black.contains(sq("a1")));
}

#[test]
fn convert_turns_the_whole_game_and_keeps_values_and_the_ply() {
    use shirokuro_engine::Symmetry;
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    for square in ["f5", "d6", "c3"] {
        let _ = game.update(Message::SquareClicked(sq(square)), &ctx(&settings));
    }
    let _ = game.on_engine(Event::Analyzed { generation: game.generation(), ply: 2, value: 3 }, &ctx(&settings));
    let _ = game.update(Message::Backward, &ctx(&settings));
    let _ = game.update(Message::Convert(Symmetry::Rotate180), &ctx(&settings));
    assert_eq!(game.transcript(), "c4e3f6");
    assert_eq!(game.record().ply(), 2, "the same ply is shown");
    assert_eq!(game.record().node_at(2).and_then(|n| n.value), Some(3));
    // Clockwise as drawn (a1 at the top left): the top-left corner goes to the top right.
    assert_eq!(Symmetry::Rotate90.apply_square(sq("a1")), sq("h1"));
    let _ = game.update(Message::Convert(Symmetry::Rotate180), &ctx(&settings));
    assert_eq!(game.transcript(), "f5d6c3", "twice is the identity");
}

#[test]
fn analysis_skips_the_moves_that_made_a_random_board_unless_asked() {
    use shirokuro_engine::random_board::RandomBoard;
    let mut settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::GenerateRandom, &ctx(&settings));
    let (generation, _) = started_job(&action).unwrap();
    let line: Vec<Move> = ["f5", "d6", "c3", "d3"].iter().map(|s| Move::Place(sq(s))).collect();
    let mut position = Position::INITIAL;
    for mv in &line {
        position = position.play(*mv).unwrap();
    }
    let board = RandomBoard { line, position, black_score: 0, tries: 1 };
    let _ = game.on_engine(Event::RandomBoard { generation, result: Ok(board) }, &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("c4")), &ctx(&settings));
    let plies = |action: &Action| match started_job(action) {
        Some((_, Job::Analyze { positions, .. })) => positions.iter().map(|(ply, _)| *ply).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    let action = game.update(Message::Analyze, &ctx(&settings));
    assert_eq!(plies(&action), [5, 4]);
    settings.display.show_random_graph = true;
    let action = game.update(Message::Analyze, &ctx(&settings));
    assert_eq!(plies(&action), [5, 4, 3, 2, 1, 0]);
}

#[test]
fn the_random_board_generator_shows_where_it_is_and_stops_without_pausing_the_ai() {
    use shirokuro_engine::level::Level;
    use shirokuro_engine::random_board::RandomBoardProgress;
    let settings = human_vs_human();
    let (mut game, _) = ready_game(&settings);
    let action = game.update(Message::GenerateRandom, &ctx(&settings));
    let (generation, _) = started_job(&action).expect("a random board job");
    let progress = |generation, depth| Event::RandomProgress {
        generation,
        progress: RandomBoardProgress {
            attempt: 2,
            move_number: 19,
            level: Level::clamped(21),
            candidate: Move::Place(sq("c4")),
            depth,
            black_score: -3,
        },
    };
    let _ = game.on_engine(progress(generation - 1, 9), &ctx(&settings));
    let status = game.status(&ctx(&settings)).unwrap();
    assert!(!status.contains("try 2"), "a stale report is not shown: {status}");
    let _ = game.on_engine(progress(generation, 11), &ctx(&settings));
    let status = game.status(&ctx(&settings)).unwrap();
    assert!(status.contains("try 2 of 40, move 19 of 20 at level 21: c4 to depth 11, -3 for Black"), "{status}");
    // Stop ends the generation: the board is free again, and the AI is not paused by it.
    let action = game.update(Message::Stop, &ctx(&settings));
    assert!(!game.is_busy());
    assert!(matches!(started_job(&action), Some((_, Job::Hints { .. }))), "hints again, as before");
    let status = game.status(&ctx(&settings));
    assert!(status.as_ref().is_none_or(|s| !s.contains("try 2")), "{status:?}");
}
