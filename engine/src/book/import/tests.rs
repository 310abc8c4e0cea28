use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::*;
use crate::book::learn::ThinkerSearcher;

fn moves(text: &str) -> Vec<Move> {
    parse_transcript(text).unwrap().moves
}

fn after(text: &str) -> Board {
    parse_transcript(text).unwrap().end.board
}

fn counted(plies: usize, games: &[&str]) -> GameCounts {
    let mut counts = GameCounts::new(plies);
    for game in games {
        counts.add_game(&moves(game));
    }
    counts
}

/// A searcher that needs no evaluation: the disc difference after its first legal move; counts its searches.
struct Discs(Arc<AtomicUsize>);

impl Searcher for Discs {
    fn search(&mut self, board: &Board, _level: u8) -> (Option<Move>, i8) {
        let _ = self.0.fetch_add(1, Ordering::SeqCst);
        let Some(mv) = legal_moves(board).next() else { return (None, 0) };
        let (child, negate) = book_child(board, mv).unwrap();
        let diff = child.player.count() as i8 - child.opponent.count() as i8;
        (Some(mv), if negate { -diff } else { diff })
    }
}

#[test]
fn symmetric_first_moves_fold_into_one_position() {
    let counts = counted(10, &["f5", "d3", "c4", "e6"]);
    assert_eq!(counts.games(), 4);
    assert_eq!(counts.positions(), 2);
    assert_eq!(counts.count(&Board::INITIAL), 4);
    for first in ["f5", "d3", "c4", "e6"] {
        assert_eq!(counts.count(&after(first)), 4, "{first}");
    }
}

/// Games of the threshold tests: 3 × f5 d6 c3 (and its mirror image), 2 × f5 f6, 1 × f5 f4.
const GAMES: [&str; 6] = ["f5d6c3", "f5d6c3", "e6f4c3", "f5f6", "f5f6", "f5f4"];

#[test]
fn positions_reached_by_fewer_games_than_the_threshold_are_dropped() {
    let counts = counted(10, &GAMES);
    assert_eq!(counts.count(&after("f5d6")), 3);
    assert_eq!(counts.count(&after("f5d6c3")), 3, "c3 after e6 f4 is the mirror image of c3 after f5 d6");
    assert_eq!(counts.count(&after("f5f6")), 2);
    assert_eq!(counts.count(&after("f5f4")), 1);
    let kept = counts.kept(3);
    let boards: Vec<Board> = kept.positions.iter().map(|(b, _)| *b).collect();
    let mut expected: Vec<Board> = ["", "f5", "f5d6", "f5d6c3"].iter().map(|t| after(t).canonical().0).collect();
    expected.sort_unstable_by_key(key);
    assert_eq!(boards, expected);
    assert_eq!(kept.positions.iter().map(|(_, n)| *n).collect::<Vec<_>>().iter().sum::<u32>(), 6 + 6 + 3 + 3);
    assert_eq!(kept.leaves, vec![after("f5d6c3").canonical().0]);
    assert_eq!(kept.roots, vec![Board::INITIAL.canonical().0]);
    let kept = counts.kept(2);
    assert_eq!(kept.positions.len(), 5);
    let mut leaves = vec![after("f5d6c3").canonical().0, after("f5f6").canonical().0];
    leaves.sort_unstable_by_key(key);
    assert_eq!(kept.leaves, leaves);
    assert_eq!(counts.kept(1).positions.len(), 6);
    assert!(counts.kept(7).positions.is_empty());
}

#[test]
fn games_are_followed_for_the_given_number_of_plies_only() {
    let counts = counted(2, &["f5d6c3d3c4"]);
    assert_eq!(counts.positions(), 3);
    assert_eq!(counts.count(&after("f5d6")), 1);
    assert_eq!(counts.count(&after("f5d6c3")), 0);
    assert_eq!(GameCounts::new(0).positions(), 0);
    assert_eq!(counted(0, &["f5d6"]).positions(), 1, "the initial position alone");
}

#[test]
fn passes_are_made_without_counting_as_plies() {
    // After these 8 moves White has no move: Black plays again.
    let line = "d3c3b3b2f5a3a1c1";
    // A transcript's end is after the forced pass.
    let before_pass = after(line).pass();
    assert!(before_pass.must_pass());
    let ninth = legal_moves(&before_pass.pass()).next().unwrap();
    let game = format!("{line}{ninth}");
    let counts = counted(9, &[&game]);
    assert_eq!(counts.positions(), 10);
    assert_eq!(counts.count(&before_pass.pass()), 1);
    assert_eq!(counts.count(&before_pass), 0, "the book never holds a position that must pass");
    assert_eq!(counts.count(&after(&game)), 1);
}

#[test]
fn record_lines_are_read_in_either_form() {
    assert_eq!(parse_record_line("f5d6c3 34 41"), RecordLine::Game(moves("f5d6c3")));
    assert_eq!(parse_record_line("1056798,1,f5d6c4"), RecordLine::Game(moves("f5d6c4")));
    assert_eq!(parse_record_line("  "), RecordLine::Blank);
    assert_eq!(parse_record_line("# comment"), RecordLine::Blank);
    assert!(matches!(parse_record_line("f5f5 1"), RecordLine::Bad(_)));
    assert!(matches!(parse_record_line("12,1,"), RecordLine::Bad(_)));
    let mut counts = GameCounts::new(10);
    let report = counts.add_records("id,winner,moves\n1,1,f5d6\n\n2,-1,xx\n3,0,e6f4\nf5f6 0\nzz 1\n");
    assert_eq!((report.games, report.skipped, report.bad), (3, 2, 2));
    assert_eq!(report.first_bad.iter().map(|(line, _)| *line).collect::<Vec<_>>(), [4, 7]);
    assert_eq!(counts.count(&after("f5d6")), 2);
}

#[test]
fn a_position_reached_only_through_unkept_transpositions_is_a_root() {
    // f5 d6 c3 d3 c4 and f5 d6 c4 d3 c3 reach the same position through different parents.
    let counts = counted(10, &["f5d6c3d3c4", "f5d6c4d3c3"]);
    assert_eq!(counts.count(&after("f5d6c3d3c4")), 2);
    let kept = counts.kept(2);
    let end = after("f5d6c3d3c4").canonical().0;
    assert_eq!(kept.roots, vec![Board::INITIAL.canonical().0, end]);
    assert_eq!(kept.leaves.len(), 2, "f5 d6 and the transposed position: {kept:?}");
}

#[test]
fn shards_split_the_leaves_and_the_hash_is_stable() {
    let games = ["f5d6c3d3c4f4", "f5f6e6f4", "f5f4e3f6d3", "f5d6c5f4e3", "e6f6f5f4e3c5", "f5d6c4d3c3"];
    let kept = counted(9, &[&games[..], &TREE[..]].concat()).kept(1);
    assert!(kept.leaves.len() >= 5, "{}", kept.leaves.len());
    for count in 1..=4 {
        for leaf in &kept.leaves {
            let owners = (1..=count).filter(|&index| Shard { index, count }.contains(leaf)).count();
            assert_eq!(owners, 1, "{leaf:?} in {owners} of {count} shards");
        }
    }
    // The shard of a position does not depend on its orientation, nor on the version: it is part of the file names a
    // job array writes.
    assert_eq!(Shard::of(&after("f5"), 1000), Shard::of(&after("d3"), 1000));
    assert_eq!(Shard::of(&Board::INITIAL, 1_000_000), 380_772);
    assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
    for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

fn never_save(_: &Book) -> Result<(), ()> {
    Ok(())
}

fn settings(shard: Shard) -> EvaluateSettings {
    EvaluateSettings { level: 5, threads: 2, shard, save_every: Duration::from_secs(3600) }
}

/// Evaluates and fills `book` for `kept` with the [`Discs`] searcher; returns the number of searches.
fn build(book: &mut Book, kept: &Kept, shard: Shard) -> (usize, EvaluateReport, FillReport) {
    let searches = Arc::new(AtomicUsize::new(0));
    let make = || -> Box<dyn Searcher> { Box::new(Discs(Arc::clone(&searches))) };
    let report =
        evaluate_leaves(book, &kept.leaves, settings(shard), &make, &mut never_save, &Control::none()).unwrap();
    let filled = fill(book, kept, 5, &Control::none());
    (searches.load(Ordering::SeqCst), report, filled)
}

fn entries(book: &Book) -> Vec<(Board, Entry)> {
    let mut all: Vec<_> = book.iter().collect();
    all.sort_unstable_by_key(|(b, _)| key(b));
    all
}

const TREE: [&str; 8] =
    ["f5d6c3d3c4", "f5d6c3d3c4f4", "f5d6c5f4e3", "f5f6e6f4", "f5f6e6f4e3", "f5f4e3f6d3", "d3c3b3d2e1d6d7e3f4", "f5d6"];

#[test]
fn leaves_are_searched_once_and_the_rest_is_their_negamax() {
    let mut counts = counted(9, &TREE);
    counts.add_game(&moves("d3c3b3d2e1d6d7e3f4"));
    let kept = counts.kept(1);
    let mut book = Book::new();
    let (searches, report, filled) = build(&mut book, &kept, Shard::ALL);
    // A finished game is stored with its score, without a search.
    assert_eq!(report.finished_games, 1);
    assert_eq!(searches as u64, report.searched);
    assert_eq!(report.searched + report.finished_games, kept.leaves.len() as u64);
    let end = book.get(&after("d3c3b3d2e1d6d7e3f4")).unwrap();
    // Black has all 13 discs; the 51 empty squares go to the winner, and White is to move.
    assert_eq!((end.value, end.level), (-64, 60));
    assert_eq!(filled.missing_leaves, 0);
    assert_eq!(book.len(), kept.positions.len());
    for (board, entry) in book.iter() {
        if let Some(best) = book.best_link_value(&board) {
            assert_eq!(entry.value, best, "{board:?}");
            assert_eq!(entry.level, 5);
        }
    }
    // Line counts are the fix's: 1 + the children's (the four first moves are one position).
    let lines = |t: &str| book.get(&after(t)).unwrap().lines;
    assert_eq!(lines(""), 1 + 4 * lines("f5"));
    // Run again: nothing to search, nothing changes.
    let before = entries(&book);
    let (searches, report, _) = build(&mut book, &kept, Shard::ALL);
    assert_eq!((searches, report.to_do, report.already), (0, 0, kept.leaves.len() as u64));
    assert_eq!(entries(&book), before);
}

#[test]
fn shards_merged_then_filled_give_the_book_of_one_run() {
    let kept = counted(9, &TREE).kept(1);
    let mut whole = Book::new();
    let _ = build(&mut whole, &kept, Shard::ALL);
    let mut merged = Book::new();
    for index in 1..=3 {
        let mut part = Book::new();
        let (_, report, filled) = build(&mut part, &kept, Shard { index, count: 3 });
        assert!(filled.missing_leaves > 0 || report.other_shards == 0);
        assert_eq!(part.len() as u64, report.to_do, "a shard holds its leaves only");
        merged.merge(&part);
    }
    assert_eq!(merged.len(), kept.leaves.len());
    let (searches, _, filled) = build(&mut merged, &kept, Shard::ALL);
    assert_eq!((searches, filled.missing_leaves), (0, 0));
    assert_eq!(entries(&merged), entries(&whole));
}

/// [`Discs`] that sets `stop` at its `stop_at`-th search.
struct Stopping {
    searches: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    stop_at: usize,
}

impl Searcher for Stopping {
    fn search(&mut self, board: &Board, level: u8) -> (Option<Move>, i8) {
        let result = Discs(Arc::clone(&self.searches)).search(board, level);
        if self.searches.load(Ordering::SeqCst) == self.stop_at {
            self.stop.store(true, Ordering::SeqCst);
        }
        result
    }
}

#[test]
fn a_stopped_run_keeps_what_it_searched_and_the_next_one_finishes_it() {
    let kept = counted(9, &TREE).kept(1);
    assert!(kept.leaves.len() > 4);
    let stop = Arc::new(AtomicBool::new(false));
    let searches = Arc::new(AtomicUsize::new(0));
    let make = || -> Box<dyn Searcher> {
        Box::new(Stopping { searches: Arc::clone(&searches), stop: Arc::clone(&stop), stop_at: 3 })
    };
    let control = Control { stop: &stop, progress: &|_| {} };
    let mut book = Book::new();
    let mut saves = 0;
    let every_time = EvaluateSettings { threads: 1, save_every: Duration::ZERO, ..settings(Shard::ALL) };
    let mut count_saves = |_: &Book| -> Result<(), ()> {
        saves += 1;
        Ok(())
    };
    let report = evaluate_leaves(&mut book, &kept.leaves, every_time, &make, &mut count_saves, &control).unwrap();
    // The search under way when the stop came finished and is kept; no other started.
    assert!(report.stopped && report.searched == 3, "{report:?}");
    let done = report.searched + report.finished_games;
    assert!(done < kept.leaves.len() as u64 && book.len() as u64 == done, "{report:?}");
    assert!(saves > 0);
    stop.store(false, Ordering::SeqCst);
    let report = evaluate_leaves(&mut book, &kept.leaves, every_time, &make, &mut never_save, &control).unwrap();
    assert!(!report.stopped && report.already == done, "{report:?}");
    assert_eq!(report.searched + report.finished_games, kept.leaves.len() as u64 - done);
    let mut whole = Book::new();
    let _ = build(&mut whole, &kept, Shard::ALL);
    let _ = fill(&mut book, &kept, 5, &Control::none());
    assert_eq!(entries(&book), entries(&whole));
}

#[test]
fn the_real_search_gives_each_leaf_the_same_entry_in_any_order() {
    let weights = Arc::new(crate::eval::weights::bundled().unwrap());
    let make = || -> Box<dyn Searcher> { Box::new(ThinkerSearcher::new(Arc::clone(&weights), 14).unwrap()) };
    let kept = counted(8, &TREE).kept(1);
    let mut leaves = kept.leaves.clone();
    let level = 10;
    let one = EvaluateSettings { level, threads: 1, shard: Shard::ALL, save_every: Duration::from_secs(3600) };
    let mut forward = Book::new();
    let _ = evaluate_leaves(&mut forward, &leaves, one, &make, &mut never_save, &Control::none()).unwrap();
    leaves.reverse();
    let mut backward = Book::new();
    let _ = evaluate_leaves(&mut backward, &leaves, one, &make, &mut never_save, &Control::none()).unwrap();
    assert_eq!(entries(&forward), entries(&backward));
    assert!(entries(&forward).iter().all(|(_, e)| e.level == level || e.level == 60));
}
