//! The game archive on small inputs with known counts: symmetry folding, orientation, filters, duplicates, a stopped
//! import, damaged files, WTHOR names and GGF games.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use shirokuro_engine::archive::{Archive, ArchiveError, Filter, GameId, ImportStage, Lookup, MoveStats};
use shirokuro_engine::format::Winner;
use shirokuro_engine::format::wthor::{self, NameFile, NameKind, WthorFile, WthorGame, WthorHeader};
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::{Move, Position, Square};

/// Six games in eOthello's CSV layout (`id,winner,moves`): after f5, d6 three times (one win each way and a draw)
/// and f6 twice, plus c4c3, which is f5f6 turned by 180 degrees.
const CSV: &str = "Othello_game_id,winner,game_moves\n\
                   1,1,f5d6c3\n\
                   2,-1,f5d6c3\n\
                   3,0,f5d6c5\n\
                   4,1,f5f6e6\n\
                   5,1,f5f6e6f4\n\
                   6,-1,c4c3\n";

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn position(moves: &str) -> Position {
    parse_transcript(moves).unwrap().end
}

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

fn import(archive: &mut Archive, files: &[PathBuf]) -> shirokuro_engine::archive::ImportReport {
    archive.import(files, |_| {}, &no_stop()).unwrap()
}

fn lookup(archive: &Archive, moves: &str, filter: &Filter) -> Lookup {
    archive.lookup(&position(moves), filter, 100).unwrap()
}

fn place(square: Square) -> Move {
    Move::Place(square)
}

/// (move, games, black wins, draws, white wins) of each move.
fn counts(moves: &[MoveStats]) -> Vec<(Move, u32, u32, u32, u32)> {
    moves.iter().map(|m| (m.mv, m.games, m.black_wins, m.draws, m.white_wins)).collect()
}

#[test]
fn symmetric_games_fold_and_moves_come_back_in_the_callers_orientation() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "games.csv", CSV);
    let mut archive = Archive::create(dir.path().join("a.sqlite")).unwrap();
    let report = import(&mut archive, &[csv]);
    assert_eq!((report.games_read, report.added, report.duplicates, report.skipped), (6, 6, 0, 0));

    let after_f5 = lookup(&archive, "f5", &Filter::default());
    assert_eq!(after_f5.total_games, 6);
    // d6 and f6 (with c4c3 folded in) are played 3 times each; ties list the smaller square first.
    let mut expected = vec![(place(Square::D6), 3, 1, 1, 1), (place(Square::F6), 3, 2, 0, 1)];
    expected.sort_by_key(|&(mv, ..)| mv.square().map(Square::index));
    let mut got = counts(&after_f5.moves);
    got.sort_by_key(|&(mv, ..)| mv.square().map(Square::index));
    assert_eq!(got, expected);
    // The same position turned by 180 degrees (after c4): the same counts, the moves turned too.
    let after_c4 = lookup(&archive, "c4", &Filter::default());
    assert_eq!(after_c4.total_games, 6);
    let mut turned = counts(&after_c4.moves);
    turned.sort_by_key(|&(mv, ..)| mv.square().map(Square::index));
    let mut expected = vec![(place(Square::E3), 3, 1, 1, 1), (place(Square::C3), 3, 2, 0, 1)];
    expected.sort_by_key(|&(mv, ..)| mv.square().map(Square::index));
    assert_eq!(turned, expected);
    // The game list says where each game went next, in the caller's orientation.
    let c4c3 = after_c4.games.iter().find(|g| g.id == GameId(6)).unwrap();
    assert_eq!((c4c3.next, c4c3.ply), (Some(place(Square::C3)), 1));
    let f5f6 = after_c4.games.iter().find(|g| g.id == GameId(4)).unwrap();
    assert_eq!(f5f6.next, Some(place(Square::C3)));

    // The initial position is symmetric in itself: its four moves are one.
    let start = lookup(&archive, "", &Filter::default());
    assert_eq!(start.total_games, 6);
    assert_eq!(start.moves.len(), 1);
    let first = &start.moves[0];
    assert_eq!(first.games, 6);
    let mut all: Vec<Move> = first.equivalent.clone();
    all.push(first.mv);
    all.sort_by_key(|mv| mv.square().map(Square::index));
    assert_eq!(all, [Square::D3, Square::C4, Square::F5, Square::E6].map(place).to_vec());

    // Mean score: none of these games finished.
    assert!(after_f5.moves.iter().all(|m| m.mean_black_diff.is_none()));
    // Games end where their moves end: the position after f5d6c3 has 2 games and no next move.
    let end = lookup(&archive, "f5d6c3", &Filter::default());
    assert_eq!((end.total_games, end.moves.len()), (2, 0));
    assert!(end.games.iter().all(|g| g.next.is_none() && g.ply == 3));
    // Newest first: the later game of a year comes first.
    assert_eq!(end.games.iter().map(|g| g.id).collect::<Vec<_>>(), vec![GameId(2), GameId(1)]);
    // A position no game reached.
    assert_eq!(lookup(&archive, "f5f4", &Filter::default()), Lookup::default());
    // min_games drops rare moves from the list only.
    let filter = Filter { min_games: 4, ..Filter::default() };
    let rare = lookup(&archive, "f5", &filter);
    assert_eq!((rare.total_games, rare.moves.len()), (6, 0));
}

#[test]
fn duplicates_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "games.csv", CSV);
    let copy = write(dir.path(), "copy.csv", CSV);
    let mut archive = Archive::create(dir.path().join("a.sqlite")).unwrap();
    // The same games twice in one import, then again in a second one.
    let report = import(&mut archive, &[csv.clone(), copy]);
    assert_eq!((report.added, report.duplicates), (6, 6));
    let again = import(&mut archive, &[csv]);
    assert_eq!((again.added, again.duplicates, again.positions_added), (0, 6, 0));
    assert_eq!(archive.stats().unwrap().games, 6);
    // Same moves but another result is another game.
    let other = write(dir.path(), "other.csv", "7,0,f5d6c3\n8,1,f5d6c3\n");
    let report = import(&mut archive, &[other]);
    assert_eq!((report.added, report.duplicates), (1, 1));
    assert_eq!(lookup(&archive, "f5d6c3", &Filter::default()).total_games, 3);
}

/// A small WTHOR set: games of 2001 between Alice, Bob and Carol at the "Paris Open", one of them finished.
fn write_wthor(dir: &Path, wtb_name: &str, jou_name: &str, trn_name: &str) -> PathBuf {
    // The first game of the WTHOR text dump, played to its end.
    let finished = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8\
                    a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
    let record = |moves: &str| parse_transcript(moves).unwrap().moves;
    let finished_game = WthorGame::new(0, (0, 1), (0, 0), &record(finished)).unwrap();
    let black_discs = u8::try_from(finished_game.end.black().count()).unwrap();
    let games = vec![
        WthorGame::new(0, (0, 1), (black_discs, black_discs), &record(finished)).unwrap(),
        WthorGame::new(0, (1, 2), (40, 33), &record("f5d6c3")).unwrap(),
        WthorGame::new(0, (2, 0), (20, 30), &record("f5f6")).unwrap(),
    ];
    let header = WthorHeader { game_year: 2001, board_size: 8, depth: 22, ..WthorHeader::default() };
    let wtb = wthor::to_bytes(&WthorFile { header, games }).unwrap();
    let players =
        NameFile { header: WthorHeader::default(), names: vec!["Alice".into(), "Bob".into(), "Carol".into()] };
    let tournaments = NameFile { header: WthorHeader::default(), names: vec!["Paris Open".into()] };
    let _jou = write(dir, jou_name, wthor::names_to_bytes(&players, NameKind::Players).unwrap());
    let _trn = write(dir, trn_name, wthor::names_to_bytes(&tournaments, NameKind::Tournaments).unwrap());
    write(dir, wtb_name, wtb)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/archive").join(name)
}

#[test]
fn wthor_names_ggf_games_and_filters() {
    let dir = tempfile::tempdir().unwrap();
    // The name files are found whatever their case.
    let wtb = write_wthor(dir.path(), "WTH_2001.WTB", "wth.jou", "Wth.Trn");
    let csv = write(dir.path(), "games.csv", CSV);
    let mut archive = Archive::create(dir.path().join("a.sqlite")).unwrap();
    let report = import(&mut archive, &[wtb, csv, fixture("two-games.ggf")]);
    assert_eq!((report.added, report.skipped), (11, 0), "{report:?}");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);

    let stats = archive.stats().unwrap();
    assert_eq!((stats.games, stats.players, stats.tournaments, stats.sources), (11, 6, 3, 3));
    assert_eq!(stats.years, Some((1999, 2003)));
    assert!(stats.file_bytes > 0 && stats.positions > 60);

    // The finished WTHOR game: names, year, tournament, scores.
    let all = lookup(&archive, "", &Filter::default());
    assert_eq!(all.total_games, 11);
    // Newest first: 2003 (GGF), the three 2001 games (last imported first), 1999, then the games without a year.
    let years: Vec<Option<u16>> = all.games.iter().map(|g| g.year).collect();
    assert_eq!(years[..5], [Some(2003), Some(2001), Some(2001), Some(2001), Some(1999)]);
    assert!(years[5..].iter().all(Option::is_none));
    let finished = all.games.iter().find(|g| g.black_diff.is_some()).unwrap();
    let game = archive.game(finished.id).unwrap().unwrap();
    assert_eq!((game.black.as_deref(), game.white.as_deref()), (Some("Alice"), Some("Bob")));
    assert_eq!(
        (game.tournament.as_deref(), game.year, game.source.as_str()),
        (Some("Paris Open"), Some(2001), "WTH_2001.WTB")
    );
    assert_eq!(game.theoretical_black_discs, game.recorded_black_discs);
    assert_eq!(game.winner, game.black_diff.map(Winner::from_black_diff));
    assert_eq!(game.moves.iter().filter(|m| m.square().is_some()).count(), 60);
    // An unfinished WTHOR game keeps its recorded result: Carol-Alice 20 discs is a white win.
    let carol = all.games.iter().find(|g| g.black.as_deref() == Some("Carol")).unwrap();
    assert_eq!((carol.black_diff, carol.winner), (None, Some(Winner::White)));

    // Years: 2001 only; 1999-2001; and games without a year are left out of any year filter.
    let y2001 = Filter { years: Some((2001, 2001)), ..Filter::default() };
    assert_eq!(lookup(&archive, "", &y2001).total_games, 3);
    assert_eq!(lookup(&archive, "f5", &y2001).total_games, 3);
    let range = Filter { years: Some((1999, 2001)), ..Filter::default() };
    let after_f5 = lookup(&archive, "f5", &range);
    assert_eq!(after_f5.total_games, 4);
    // After f5 in 1999-2001: d6 (Alice's finished game and Bob-Carol), f6 (Carol-Alice and the GGF game Dave-Alice).
    let mut got = counts(&after_f5.moves);
    got.sort_by_key(|&(mv, ..)| mv.square().map(Square::index));
    assert_eq!(
        got.iter().map(|&(mv, games, ..)| (mv, games)).collect::<Vec<_>>(),
        vec![(place(Square::D6), 2), (place(Square::F6), 2)]
    );

    // Players: a case-blind part of Black's or White's name.
    let alice = Filter { player: Some("ALI".into()), ..Filter::default() };
    let with_alice = lookup(&archive, "f5", &alice);
    assert_eq!(with_alice.total_games, 3);
    assert!(
        with_alice.games.iter().all(|g| g.black.as_deref() == Some("Alice") || g.white.as_deref() == Some("Alice"))
    );
    let both = Filter { player: Some("alice".into()), years: Some((2000, 2010)), ..Filter::default() };
    assert_eq!(lookup(&archive, "f5", &both).total_games, 2);
    let nobody = Filter { player: Some("zzz".into()), ..Filter::default() };
    assert_eq!(lookup(&archive, "f5", &nobody).total_games, 0);

    // GGF: the place as tournament, the year from DT, the result from RE for an unfinished game.
    // (c4e3 is f5d6 turned, so 6 games reach it; Eve's is one.)
    assert_eq!(lookup(&archive, "c4e3", &Filter::default()).total_games, 6);
    let eve = lookup(&archive, "c4e3", &Filter { player: Some("eve".into()), ..Filter::default() });
    assert_eq!(eve.total_games, 1);
    let g = &eve.games[0];
    assert_eq!((g.black.as_deref(), g.tournament.as_deref(), g.year), (Some("Eve"), Some("Osaka"), Some(2003)));
    assert_eq!((g.black_diff, g.winner), (None, Some(Winner::White)));
}

#[test]
fn a_stopped_import_leaves_the_archive_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "games.csv", CSV);
    let more = write(dir.path(), "more.csv", "10,1,f5f4e3\n11,0,d3c3c4\n");
    let path = dir.path().join("a.sqlite");
    let mut archive = Archive::create(&path).unwrap();
    let _report = import(&mut archive, &[csv]);
    let before = (archive.stats().unwrap(), lookup(&archive, "f5", &Filter::default()));
    // Raised while the positions are being written, after the games are stored.
    let stop = AtomicBool::new(false);
    let mut stages = Vec::new();
    let result = archive.import(
        std::slice::from_ref(&more),
        |p| {
            stages.push(p.stage);
            if p.stage == ImportStage::Positions {
                stop.store(true, Ordering::SeqCst);
            }
        },
        &stop,
    );
    assert!(matches!(result, Err(ArchiveError::Stopped)), "{result:?}");
    assert!(stages.contains(&ImportStage::Games));
    let after = (archive.stats().unwrap(), lookup(&archive, "f5", &Filter::default()));
    assert_eq!(before.0.games, after.0.games);
    assert_eq!(before.0.positions, after.0.positions);
    assert_eq!(before.1, after.1);
    drop(archive);
    // Reopened, it is the same, and the stopped import can be done again.
    let mut archive = Archive::open(&path).unwrap();
    assert_eq!(archive.stats().unwrap().games, 6);
    assert_eq!(import(&mut archive, &[more]).added, 2);
    // d3c3c4 is f5f4e3's position turned: both count after f5.
    assert_eq!(lookup(&archive, "f5", &Filter::default()).total_games, 8);
    // A stop raised before the start: nothing is read.
    let raised = AtomicBool::new(true);
    let result = archive.import(&[dir.path().join("games.csv")], |_| {}, &raised);
    assert!(matches!(result, Err(ArchiveError::Stopped)));
}

#[test]
fn damaged_files_are_errors_naming_the_file_and_bad_games_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(dir.path(), "games.csv", CSV);
    let path = dir.path().join("a.sqlite");
    let mut archive = Archive::create(&path).unwrap();
    let _report = import(&mut archive, std::slice::from_ref(&csv));
    let stats = archive.stats().unwrap();

    // A .wtb cut in the middle of a game: the whole import fails, naming the file, and keeps nothing.
    let wtb = write_wthor(dir.path(), "WTH_2001.wtb", "WTH.JOU", "WTH.TRN");
    let mut bytes = std::fs::read(&wtb).unwrap();
    bytes.truncate(bytes.len() - 10);
    let cut = write(dir.path(), "CUT.wtb", &bytes);
    let more = write(dir.path(), "more.csv", "10,1,f5f4e3\n");
    let error = archive.import(&[more.clone(), cut], |_| {}, &no_stop()).unwrap_err();
    assert!(matches!(error, ArchiveError::Wthor { .. }), "{error:?}");
    assert!(error.to_string().contains("CUT.wtb"), "{error}");
    assert_eq!(archive.stats().unwrap(), stats);

    // Text that is no game file, and a file that is not there.
    let junk = write(dir.path(), "notes.txt", "hello\nworld\n");
    let error = archive.import(&[junk], |_| {}, &no_stop()).unwrap_err();
    assert!(
        matches!(error, ArchiveError::UnsupportedFile { .. }) && error.to_string().contains("notes.txt"),
        "{error}"
    );
    let error = archive.import(&[dir.path().join("missing.csv")], |_| {}, &no_stop()).unwrap_err();
    assert!(matches!(error, ArchiveError::Read { .. }) && error.to_string().contains("missing.csv"), "{error}");

    // A WTHOR file whose second game has an illegal move: that game is skipped and named, the others imported.
    let mut bytes = std::fs::read(&wtb).unwrap();
    let second_game_first_move = 16 + 68 + 8;
    bytes[second_game_first_move] = 11; // a1: not a legal first move
    let bad = write(dir.path(), "BAD.wtb", &bytes);
    let report = archive.import(&[bad], |_| {}, &no_stop()).unwrap();
    assert_eq!((report.added, report.skipped), (2, 1));
    let skipped = &report.skipped_details[0];
    assert!(skipped.file.ends_with("BAD.wtb") && skipped.item == "game 1", "{skipped:?}");
    assert!(skipped.reason.contains("illegal move 1"), "{}", skipped.reason);

    // Bad lines of a text file are skipped with their line numbers.
    // (The layout is still recognised when some of the first lines are bad.)
    let lines = write(dir.path(), "lines.csv", "20,1,f5d6\n21,1,f5f5\n22,x,f5f6\n23,1,d3c3\n24,0,e6f4\n");
    let report = archive.import(&[lines], |_| {}, &no_stop()).unwrap();
    assert_eq!((report.added, report.skipped), (3, 2));
    let items: Vec<&str> = report.skipped_details.iter().map(|s| s.item.as_str()).collect();
    assert_eq!(items, ["line 2", "line 3"]);

    // A file that is no archive.
    let error = Archive::open(&csv).unwrap_err();
    assert!(matches!(error, ArchiveError::NotAnArchive { .. }), "{error:?}");
    assert!(matches!(Archive::create(&path), Err(ArchiveError::Exists { .. })));
}
