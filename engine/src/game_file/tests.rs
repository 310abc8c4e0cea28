use super::*;
use crate::notation::parse_transcript;

/// The nodes of a transcript's line, passes applied at once, with a value on every other position.
fn line(transcript: &str) -> Vec<GameNode> {
    nodes_of(&parse_transcript(transcript).expect("a transcript").moves)
}

fn nodes_of(moves: &[Move]) -> Vec<GameNode> {
    let mut position = Position::INITIAL;
    let mut nodes = vec![GameNode { position, played: None, value: Some(0), level: 21, clock: [0, 0] }];
    for &mv in moves {
        let Move::Place(sq) = mv else { continue };
        position = step(&position, mv).expect("a legal move");
        let value = (nodes.len() % 2 == 0).then_some(i32::try_from(nodes.len()).unwrap() - 30);
        nodes.push(GameNode { position, played: Some(sq), value, level: 21, clock: [0, 0] });
    }
    nodes
}

/// A whole random game (seeded) in which someone had to pass.
fn game_with_a_pass() -> Vec<Move> {
    let mut rng = crate::rng::GameRng::new(5);
    loop {
        let mut position = Position::INITIAL;
        let mut moves = Vec::new();
        while !position.board.is_game_over() {
            let mv = if position.board.must_pass() {
                Move::Pass
            } else {
                let legal: Vec<Square> = position.board.moves().into_iter().collect();
                Move::Place(legal[rng.below(legal.len())])
            };
            position = position.play(mv).unwrap();
            moves.push(mv);
        }
        if moves.contains(&Move::Pass) {
            return moves;
        }
    }
}

#[test]
fn a_game_round_trips_with_values_passes_and_the_random_start() {
    let moves = game_with_a_pass();
    let mut game = GameFile::new(nodes_of(&moves), "2026-11-23".to_owned());
    game.black_player = "Kuro \"K\"".to_owned();
    game.white_player = "白".to_owned();
    game.memo = "line 1\nline 2".to_owned();
    game.random_start = Some(20);
    for (i, node) in game.nodes.iter_mut().enumerate() {
        let i = u64::try_from(i).unwrap();
        node.clock = [1500 * i, 700 * i + 3];
    }
    let json = game.to_json();
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (value["6"]["black_time_msec"].as_u64(), value["6"]["white_time_msec"].as_u64()),
        (Some(3000), Some(1403))
    );
    assert_eq!(GameFile::parse(&json), Ok(game.clone()));
}

#[test]
fn the_json_uses_egaroucid_keys_and_cell_order() {
    let game = GameFile::new(line("f5d6"), "2026-11-23".to_owned());
    let value: Value = serde_json::from_str(&game.to_json()).unwrap();
    assert_eq!(value["date"], "2026-11-23");
    assert_eq!((value["black_discs"].as_i64(), value["white_discs"].as_i64()), (Some(-1), Some(-1)));
    // After f5: White to move; f5 is cell 26 (0 = h8); the next move d6 is cell 20.
    let five = &value["5"];
    assert_eq!(five["player"], 1);
    assert_eq!(five["policy"], 26);
    assert_eq!(five["next_policy"], 20);
    assert_eq!(value["4"]["policy"], -1);
    assert_eq!(value["6"]["next_policy"], -1);
    // White's discs (the side to move) after f5: d4 only, which is cell 63 - 27 = 36.
    assert_eq!(five["board_player"].as_u64(), Some(1u64 << 36));
    assert_eq!(value["5"]["value"].as_i64(), Some(NOT_CALCULATED));
    assert_eq!(value["6"]["value"].as_i64(), Some(-28));
    assert_eq!(value["6"]["is_random_generated_position"], false);
}

#[test]
fn a_finished_game_records_its_disc_counts() {
    let game = GameFile::new(nodes_of(&game_with_a_pass()), String::new());
    let value: Value = serde_json::from_str(&game.to_json()).unwrap();
    let last = game.nodes.last().unwrap().position;
    assert!(last.board.is_game_over());
    assert_eq!(value["black_discs"].as_i64(), Some(i64::from(last.black().count())));
    assert_eq!(value["white_discs"].as_i64(), Some(i64::from(last.white().count())));
}

#[test]
fn a_minimal_egaroucid_file_without_moves_is_replayed() {
    // Only the boards and players, as an older file may have them; the moves are found from the boards.
    let full: Value = serde_json::from_str(&GameFile::new(line("f5d6c3"), String::new()).to_json()).unwrap();
    let mut minimal = Map::new();
    for key in ["4", "5", "6", "7"] {
        let mut node = Map::new();
        for field in ["board_player", "board_opponent", "player"] {
            let _ = node.insert(field.to_owned(), full[key][field].clone());
        }
        let _ = minimal.insert(key.to_owned(), Value::Object(node));
    }
    let _ = minimal.insert("12".to_owned(), serde_json::json!({ "memo": "no board: skipped" }));
    let game = GameFile::parse(&Value::Object(minimal).to_string()).unwrap();
    let played: Vec<Option<Square>> = game.nodes.iter().map(|n| n.played).collect();
    assert_eq!(played, [None, Some(Square::F5), Some(Square::D6), Some(Square::C3)]);
    assert!(game.nodes.iter().all(|n| n.value.is_none()));
    assert_eq!((game.black_player.as_str(), game.random_start), ("", None));
}

#[test]
fn bad_files_are_rejected_with_the_position_at_fault() {
    assert!(matches!(GameFile::parse("{"), Err(GameFileError::Json { line: 1, .. })));
    assert_eq!(GameFile::parse("[1, 2]"), Err(GameFileError::NotObject));
    assert_eq!(GameFile::parse("{\"memo\": \"x\"}"), Err(GameFileError::Empty));
    let good: Value = serde_json::from_str(&GameFile::new(line("f5d6c3"), String::new()).to_json()).unwrap();
    let with = |key: &str, field: &str, value: Value| {
        let mut v = good.clone();
        v[key][field] = value;
        GameFile::parse(&v.to_string()).unwrap_err()
    };
    let overlap = with("5", "board_opponent", good["5"]["board_player"].clone());
    assert_eq!(overlap.to_string(), "position \"5\": the two sides' discs overlap");
    let player = with("6", "player", Value::from(2));
    assert_eq!(player.to_string(), "position \"6\": player is not 0 (Black) or 1 (White)");
    let board = with("4", "board_player", Value::from("x"));
    assert_eq!(board.to_string(), "position \"4\": board_player is not a board");
    // Position 6 replaced by one after d3 c3: it does not follow from position 5 (after f5).
    let other: Value = serde_json::from_str(&GameFile::new(line("d3c3"), String::new()).to_json()).unwrap();
    let mut gap = good.clone();
    gap["6"] = other["6"].clone();
    let error = GameFile::parse(&gap.to_string()).unwrap_err();
    assert_eq!(error, GameFileError::Gap { key: "6".to_owned(), previous: "5".to_owned() });
}

#[test]
fn files_are_saved_atomically_and_load_back() {
    let dir = std::env::temp_dir().join(format!("shirokuro-game-file-{}", std::process::id()));
    let path = dir.join("games").join("2026_11_23_22_40_05.json");
    let game = GameFile::new(line("f5d6c3d3c4"), "2026-11-23".to_owned());
    game.save(&path).unwrap();
    assert_eq!(GameFile::load(&path), Ok(game.clone()));
    // Saving again keeps the previous file as a backup.
    game.save(&path).unwrap();
    assert!(crate::fsutil::backup_path(&path).exists());
    let missing = GameFile::load(&dir.join("missing.json")).unwrap_err();
    assert!(missing.to_string().contains("missing.json"), "{missing}");
    std::fs::write(dir.join("bad.json"), "{\"4\": 3").unwrap();
    let bad = GameFile::load(&dir.join("bad.json")).unwrap_err();
    assert!(bad.to_string().contains("bad.json") && bad.to_string().contains("not a JSON game file"), "{bad}");
    let _ = std::fs::remove_dir_all(&dir);
}
