//! The game archive against a brute-force count, on 1,500 random games (GGF, with years, players and results):
//! every lookup path (per-move aggregates for positions of 1,024 games or more, posting lists, the player filter
//! both ways) and both ways of writing (a fresh archive, and imports merged into an existing one) give the counts
//! found by replaying every game.

use std::collections::HashMap as BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use shirokuro_engine::archive::{Archive, Filter, GameId, Lookup};
use shirokuro_engine::format::Winner;
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Color, Move, Position, Symmetry};

const PLAYERS: [&str; 4] = ["Ann", "Ben", "Cid", "Dan"];

/// A generated game: what the archive should know about it.
#[derive(Debug, Clone)]
struct Game {
    id: u32,
    year: u16,
    black: &'static str,
    white: &'static str,
    moves: Vec<Move>,
    winner: Winner,
    black_diff: Option<i32>,
}

fn random_games(count: usize) -> Vec<Game> {
    (0..count)
        .map(|index| {
            let mut rng = GameRng::for_game(7, index as u64);
            let full = rng.below(5) == 0;
            let length = if full { 70 } else { rng.in_range(1, 14) };
            let mut position = Position::INITIAL;
            let mut moves = Vec::new();
            while moves.len() < length && !position.board.is_game_over() {
                let squares: Vec<_> = position.board.moves().into_iter().collect();
                let mv = if squares.is_empty() { Move::Pass } else { Move::Place(squares[rng.below(squares.len())]) };
                position = position.play(mv).unwrap();
                moves.push(mv);
            }
            let finished = position.board.is_game_over();
            let black_diff = finished.then(|| position.black_score());
            let recorded = [Winner::Black, Winner::Draw, Winner::White][rng.below(3)];
            let rare = index % 300 == 17;
            Game {
                id: u32::try_from(index + 1).unwrap(),
                year: 1990 + u16::try_from(rng.below(10)).unwrap(),
                black: if rare { "Zed" } else { PLAYERS[rng.below(4)] },
                white: PLAYERS[rng.below(4)],
                moves,
                winner: black_diff.map_or(recorded, Winner::from_black_diff),
                black_diff,
            }
        })
        .collect()
}

fn ggf(games: &[Game]) -> String {
    let mut text = String::new();
    for game in games {
        // A place of its own, so that no two games are duplicates.
        let result = match game.winner {
            Winner::Black => "+2",
            Winner::Draw => "0",
            Winner::White => "-2",
        };
        write!(
            text,
            "(;GM[Othello]PC[Table {}]DT[{}.06.01]PB[{}]PW[{}]RE[{result}]TY[8]",
            game.id, game.year, game.black, game.white
        )
        .unwrap();
        let mut position = Position::INITIAL;
        for &mv in &game.moves {
            let color = if position.side_to_move == Color::Black { "B" } else { "W" };
            let value = mv.square().map_or_else(|| "PA".to_owned(), shirokuro_engine::Square::to_lowercase);
            write!(text, "{color}[{value}]").unwrap();
            position = position.play(mv).unwrap();
        }
        text.push_str(";)\n");
    }
    text
}

/// What the lookup should say, counted by replaying every game: (total, per move in the query's orientation:
/// (games, black wins, draws, white wins, sum of differences, finished games), newest-first ids).
type Expected = (u32, BTreeMap<Move, (u32, u32, u32, u32, i64, u32)>, Vec<u32>);

fn brute_force(games: &[Game], query: &Position, filter: &Filter) -> Expected {
    let (canonical, _) = query.board.canonical();
    let mut total = 0;
    let mut moves: BTreeMap<Move, (u32, u32, u32, u32, i64, u32)> = BTreeMap::new();
    let mut ids = Vec::new();
    for game in games {
        if filter.years.is_some_and(|(lo, hi)| !(lo..=hi).contains(&game.year)) {
            continue;
        }
        if let Some(needle) = &filter.player {
            let needle = needle.to_lowercase();
            if !game.black.to_lowercase().contains(&needle) && !game.white.to_lowercase().contains(&needle) {
                continue;
            }
        }
        let mut position = Position::INITIAL;
        for ply in 0..=game.moves.len() {
            if position.side_to_move == query.side_to_move && position.board.canonical().0 == canonical {
                total += 1;
                ids.push(game.id);
                if let Some(&mv) = game.moves.get(ply) {
                    let symmetry =
                        Symmetry::ALL.into_iter().find(|&s| position.board.transform(s) == query.board).unwrap();
                    let counts = moves.entry(mv.transform(symmetry)).or_default();
                    counts.0 += 1;
                    match game.winner {
                        Winner::Black => counts.1 += 1,
                        Winner::Draw => counts.2 += 1,
                        Winner::White => counts.3 += 1,
                    }
                    if let Some(diff) = game.black_diff {
                        counts.4 += i64::from(diff);
                        counts.5 += 1;
                    }
                }
                break;
            }
            match game.moves.get(ply) {
                Some(&mv) => position = position.play(mv).unwrap(),
                None => break,
            }
        }
    }
    let year = |id: u32| games[usize::try_from(id - 1).unwrap()].year;
    ids.sort_by_key(|&id| (std::cmp::Reverse(year(id)), std::cmp::Reverse(id)));
    (total, moves, ids)
}

fn check(archive: &Archive, games: &[Game], query: &Position, filter: &Filter) -> Lookup {
    let limit = 25;
    let got = archive.lookup(query, filter, limit).unwrap();
    let (total, expected, ids) = brute_force(games, query, filter);
    let context = format!("{query:?} {filter:?}");
    assert_eq!(got.total_games, total, "{context}");
    // Moves equivalent under the query's own symmetries are one line of the answer.
    let mut grouped: BTreeMap<Move, (u32, u32, u32, u32, i64, u32)> = BTreeMap::new();
    for (mv, c) in &expected {
        let line = got.moves.iter().find(|m| m.mv == *mv || m.equivalent.contains(mv));
        let line = line.unwrap_or_else(|| panic!("{context}: {mv} missing from {:?}", got.moves));
        let g = grouped.entry(line.mv).or_default();
        *g = (g.0 + c.0, g.1 + c.1, g.2 + c.2, g.3 + c.3, g.4 + c.4, g.5 + c.5);
    }
    assert_eq!(got.moves.len(), grouped.len(), "{context}");
    for line in &got.moves {
        let g = grouped[&line.mv];
        assert_eq!(
            (line.games, line.black_wins, line.draws, line.white_wins),
            (g.0, g.1, g.2, g.3),
            "{context} {line:?}"
        );
        let mean = (g.5 > 0).then(|| g.4 as f64 / f64::from(g.5));
        match (line.mean_black_diff, mean) {
            (Some(a), Some(b)) => assert!((f64::from(a) - b).abs() < 1e-3, "{context}"),
            (a, b) => assert_eq!(a.is_some(), b.is_some(), "{context}"),
        }
    }
    assert!(got.moves.windows(2).all(|w| w[0].games >= w[1].games), "{context}");
    let listed: Vec<u32> = got.games.iter().map(|g| g.id.0).collect();
    assert_eq!(listed, ids.into_iter().take(limit).collect::<Vec<_>>(), "{context}");
    for summary in &got.games {
        let game = &games[usize::try_from(summary.id.0 - 1).unwrap()];
        assert_eq!((summary.year, summary.black.as_deref()), (Some(game.year), Some(game.black)), "{context}");
    }
    got
}

fn build(dir: &Path, name: &str, parts: &[Vec<PathBuf>]) -> Archive {
    let mut archive = Archive::create(dir.join(name)).unwrap();
    for files in parts {
        let report = archive.import(files, |_| {}, &AtomicBool::new(false)).unwrap();
        assert_eq!(report.skipped, 0, "{:?}", report.skipped_details);
    }
    archive
}

#[test]
fn lookups_match_a_brute_force_count_on_random_games() {
    let games = random_games(1500);
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.ggf");
    let second = dir.path().join("second.ggf");
    std::fs::write(&first, ggf(&games[..700])).unwrap();
    std::fs::write(&second, ggf(&games[700..])).unwrap();
    let whole = build(dir.path(), "whole.sqlite", &[vec![first.clone(), second.clone()]]);
    let merged = build(dir.path(), "merged.sqlite", &[vec![first.clone()], vec![second.clone()]]);
    assert_eq!(whole.stats().unwrap().games, 1500);
    assert_eq!(whole.stats().unwrap().positions, merged.stats().unwrap().positions);

    // Queries: the start, and positions a few moves into some of the games, in all 8 orientations.
    let mut queries = vec![Position::INITIAL];
    for (index, game) in games.iter().enumerate().step_by(97) {
        let mut position = Position::INITIAL;
        for &mv in game.moves.iter().take(1 + index % 6) {
            position = position.play(mv).unwrap();
        }
        let symmetry = Symmetry::ALL[index % 8];
        queries.push(Position { board: position.board.transform(symmetry), ..position });
    }
    let filters = [
        Filter::default(),
        Filter { years: Some((1993, 1996)), ..Filter::default() },
        Filter { player: Some("an".into()), ..Filter::default() },
        Filter { player: Some("ZED".into()), years: Some((1990, 1995)), ..Filter::default() },
        Filter { years: Some((2000, 2010)), ..Filter::default() },
    ];
    for query in &queries {
        for filter in &filters {
            let answer = check(&whole, &games, query, filter);
            assert_eq!(merged.lookup(query, filter, 25).unwrap(), answer, "merged archive, {query:?} {filter:?}");
        }
    }
    // The initial position has over 1,024 games (the aggregated path); a game loads back whole.
    assert_eq!(whole.lookup(&Position::INITIAL, &Filter::default(), 0).unwrap().total_games, 1500);
    let stored = whole.game(GameId(42)).unwrap().unwrap();
    assert_eq!(stored.moves, games[41].moves);
    assert_eq!((stored.black.as_deref(), stored.year), (Some(games[41].black), Some(games[41].year)));
    // Importing everything again adds nothing.
    let mut again = merged;
    let report = again.import(&[first, second], |_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!((report.added, report.duplicates), (0, 1500));
}
