//! Derived book views: umigame counts, accuracy grades and the book move choice (with their distributions).

use shirokuro_engine::book::views::{
    AccuracyCache, Grade, UmigameCache, UmigameSettings, book_moves, choose_book_move, choose_with_loss, move_views,
};
use shirokuro_engine::book::{Book, Entry, Leaf, MoveValue, book_child};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::think::loss_curves::{Curve, LossCurves, LossCurvesError, choose_with_curves, move_number};
use shirokuro_engine::{Board, Move, Position, Square};

fn play(moves: &[Square]) -> Position {
    moves.iter().fold(Position::INITIAL, |p, sq| p.play(Move::Place(*sq)).unwrap())
}

/// initial → f5 (value 0 for White) → d6 (0 for Black), f6 (0), f4 (−3: White loses 3 there);
/// after f5 d6: c3 (0 for White) and c5 (−1 for White).
fn tree(level: u8) -> Book {
    let mut book = Book::new();
    let mut add = |moves: &[Square], value: i8| {
        let _ = book.insert(&play(moves).board, Entry::new(value, level));
    };
    add(&[], 0);
    add(&[Square::F5], 0);
    add(&[Square::F5, Square::D6], 0);
    add(&[Square::F5, Square::F6], 0);
    add(&[Square::F5, Square::F4], 3);
    add(&[Square::F5, Square::D6, Square::C3], 0);
    add(&[Square::F5, Square::D6, Square::C5], 1);
    book
}

#[test]
fn umigame_counts_take_the_minimum_for_the_mover_and_the_sum_for_the_other() {
    let book = tree(20);
    let mut cache = UmigameCache::new();
    let best_only = UmigameSettings::default();
    // After f5 d6 (Black to move): best move c3 only → Black 1, White 1.
    assert_eq!(cache.count(&book, &play(&[Square::F5, Square::D6]), best_only), umi(1, 1));
    // After f5 (White to move): best moves d6 and f6 (both 0), f4 loses 3. White picks one: min; Black must know
    // both: sum.
    assert_eq!(cache.count(&book, &play(&[Square::F5]), best_only), umi(2, 1));
    // With an accumulated error of 1, after f5 d6 c5 (loss 1) becomes a candidate: Black's min stays 1, White 2;
    // then at f5, d6 gives (1, 2) and f6 (1, 1): White min 1, Black sum 2.
    let loose = UmigameSettings { error: 1, ..best_only };
    assert_eq!(cache.count(&book, &play(&[Square::F5, Square::D6]), loose), umi(1, 2));
    assert_eq!(cache.count(&book, &play(&[Square::F5]), loose), umi(2, 1));
    // A depth of 1 (at most 5 discs) stops right after f5.
    let shallow = UmigameSettings { depth: 1, ..best_only };
    assert_eq!(cache.count(&book, &play(&[Square::F5]), shallow), umi(1, 1));
    // Black's range excluding 0 leaves no candidate after f5 d6: (1, 1) … and after f5 only f4 (+3 for Black) stays.
    let ranged = UmigameSettings { black_range: Some((1, 64)), ..best_only };
    assert_eq!(cache.count(&book, &play(&[Square::F5]), ranged), umi(1, 1));
    // Every first move is f5 up to symmetry.
    let moves = cache.moves(&book, &Position::INITIAL, best_only);
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|(_, u)| *u == umi(2, 1)));
}

fn umi(black: u64, white: u64) -> shirokuro_engine::book::views::Umigame {
    shirokuro_engine::book::views::Umigame { black, white }
}

#[test]
fn accuracy_follows_the_levels_of_the_terminal_values() {
    let after = play(&[Square::F5]).board;
    // Level 60 is exact everywhere: A, and AA with the wider tolerance.
    let book = tree(60);
    let mut cache = AccuracyCache::new();
    assert_eq!(cache.grade(&book, &after, 1), Some(Grade::A));
    assert_eq!(cache.label(&book, &after).as_deref(), Some("AA"));
    // Level 1 is a midgame search at 58 empties: F.
    let book = tree(1);
    let mut cache = AccuracyCache::new();
    assert_eq!(cache.label(&book, &after).as_deref(), Some("F"));
    // Mixed: d6's line exact, f6 midgame → A and F among the best → D.
    let mut book = tree(60);
    let _ = book.insert(&play(&[Square::F5, Square::F6]).board, Entry::new(0, 1));
    let mut cache = AccuracyCache::new();
    assert_eq!(cache.grade(&book, &after, 1), Some(Grade::D));
    assert_eq!(Grade::combine(&[Grade::A, Grade::C]), Grade::B);
    assert_eq!(Grade::combine(&[Grade::C, Grade::C]), Grade::C);
    assert_eq!(Grade::combine(&[Grade::E, Grade::F]), Grade::E);
    assert_eq!(Grade::combine(&[Grade::B, Grade::F]), Grade::D);
}

#[test]
fn move_views_combine_values_counts_and_labels() {
    let book = tree(60);
    let views = move_views(
        &book,
        &play(&[Square::F5]),
        UmigameSettings::default(),
        &mut UmigameCache::new(),
        &mut AccuracyCache::new(),
    );
    assert_eq!(views.len(), 3);
    let f4 = views.iter().find(|v| v.value.mv == Move::Place(Square::F4)).unwrap();
    assert_eq!(f4.value.value, -3);
    assert_eq!(f4.accuracy.as_deref(), Some("AA"));
}

fn mv(square: Square, value: i8) -> MoveValue {
    MoveValue { mv: Move::Place(square), value, level: 20, lines: 1 }
}

#[test]
fn the_best_book_moves_are_drawn_uniformly() {
    let moves = [mv(Square::C4, 2), mv(Square::D3, 2), mv(Square::E6, 1), mv(Square::F5, -5)];
    let mut rng = GameRng::new(9);
    let mut counts = [0u32; 2];
    for _ in 0..20_000 {
        match choose_book_move(&moves, 0, &mut rng) {
            Some(Move::Place(Square::C4)) => counts[0] += 1,
            Some(Move::Place(Square::D3)) => counts[1] += 1,
            other => panic!("only the best moves may be drawn, got {other:?}"),
        }
    }
    // Binomial(20000, 0.5): sd ≈ 71; allow 5 sd.
    assert!(counts[0].abs_diff(10_000) < 355, "{counts:?}");
}

#[test]
fn the_variation_level_weights_follow_the_formula() {
    // X = 2: cut-off best − 4.5; weights ((e^(v−best) + 1.5)/3)^8.
    let moves = [mv(Square::C4, 2), mv(Square::D3, 1), mv(Square::E6, -2), mv(Square::F5, -3)];
    let weight = |d: f64| ((d.exp() + 1.5) / 3.0).powi(8);
    let weights = [weight(0.0), weight(-1.0), weight(-4.0)];
    let total: f64 = weights.iter().sum();
    let mut rng = GameRng::new(17);
    let n = 40_000;
    let mut counts = [0u32; 3];
    for _ in 0..n {
        match choose_book_move(&moves, 2, &mut rng).unwrap() {
            Move::Place(Square::C4) => counts[0] += 1,
            Move::Place(Square::D3) => counts[1] += 1,
            Move::Place(Square::E6) => counts[2] += 1,
            other => panic!("f5 is beyond the cut-off, got {other}"),
        }
    }
    for (count, w) in counts.iter().zip(weights) {
        let p = w / total;
        let expected = p * f64::from(n);
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        assert!((f64::from(*count) - expected).abs() < 5.0 * sd + 1.0, "{counts:?} vs p = {p}");
    }
}

#[test]
fn accepting_a_loss_happens_at_the_given_rate() {
    let moves = [mv(Square::C4, 2), mv(Square::D3, 0), mv(Square::E6, -1)];
    let mut rng = GameRng::new(23);
    let n = 30_000;
    let mut counts = [0u32; 3];
    for _ in 0..n {
        match choose_with_loss(&moves, 30.0, 2, &mut rng).unwrap() {
            Move::Place(Square::C4) => counts[0] += 1,
            Move::Place(Square::D3) => counts[1] += 1,
            other => panic!("e6 loses 3, got {other}"),
        }
    }
    // d6 is drawn with probability 0.3 × 1/2 = 0.15.
    let expected = 0.15 * f64::from(n);
    let sd = (f64::from(n) * 0.15 * 0.85).sqrt();
    assert!((f64::from(counts[1]) - expected).abs() < 5.0 * sd, "{counts:?}");
}

#[test]
fn the_book_is_ignored_when_its_best_move_loses_too_much() {
    let mut book = Book::new();
    let after = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let _ = book.insert(&Board::INITIAL, Entry { leaf: Leaf::NONE, ..Entry::new(10, 20) });
    let _ = book.insert(&after, Entry::new(-1, 20)); // every first move is worth +1 < 10 − 8
    assert!(book_moves(&book, &Board::INITIAL).is_empty());
    let _ = book.insert(&after, Entry::new(-2, 20)); // +2 = 10 − 8: still used
    assert_eq!(book_moves(&book, &Board::INITIAL).len(), 4);
    assert!(book_child(&Board::INITIAL, Move::Pass).is_none());
}

/// Draws `n` times and returns how often each of `moves` came out.
fn draw_counts(moves: &[MoveValue], board: &Board, curves: &LossCurves, seed: u64, n: u32) -> Vec<u32> {
    let mut rng = GameRng::new(seed);
    let mut counts = vec![0u32; moves.len()];
    for _ in 0..n {
        let chosen = choose_with_curves(moves, board, curves, &mut rng).unwrap();
        let i = moves.iter().position(|m| m.mv == chosen).unwrap();
        counts[i] += 1;
    }
    counts
}

/// Whether `count` of `n` draws is within 5 standard deviations of probability `p`.
fn near(count: u32, n: u32, p: f64) -> bool {
    let (count, n) = (f64::from(count), f64::from(n));
    let sd = (n * p * (1.0 - p)).sqrt();
    (count - n * p).abs() <= 5.0 * sd + 0.5
}

#[test]
fn the_loss_curves_apply_by_move_number() {
    // Point 0 (moves 1-4): 2 discs at 30 %; point 1 (moves 5-8): no loss; point 2 (moves 9-12): any loss, always.
    let mut max_loss = [2i64; 15];
    let mut percent = [30i64; 15];
    (max_loss[1], percent[1]) = (0, 100);
    (max_loss[2], percent[2]) = (129, 100);
    let curves = LossCurves::new(&max_loss, &percent).unwrap();
    let moves = [mv(Square::C4, 2), mv(Square::D3, 1), mv(Square::E6, 0), mv(Square::F5, -1)];
    let n = 30_000;
    // Move 1: the best with 0.7 + 0.3 / 3, each move losing 1 or 2 with 0.3 / 3, f5 (losing 3) never.
    let start = Board::INITIAL;
    assert_eq!(move_number(&start), 1);
    let counts = draw_counts(&moves, &start, &curves, 31, n);
    assert!(near(counts[0], n, 0.8) && near(counts[1], n, 0.1) && near(counts[2], n, 0.1), "{counts:?}");
    assert_eq!(counts[3], 0, "{counts:?}");
    // Move 5 (8 discs): only the best.
    let fifth = play(&[Square::F5, Square::D6, Square::C3, Square::D3]).board;
    assert_eq!(move_number(&fifth), 5);
    assert_eq!(draw_counts(&moves, &fifth, &curves, 32, 2000), [2000, 0, 0, 0]);
    // Move 9 (12 discs): every move alike.
    let ninth =
        play(&[Square::F5, Square::D6, Square::C3, Square::D3, Square::C4, Square::F4, Square::F6, Square::F3]).board;
    assert_eq!(move_number(&ninth), 9);
    let counts = draw_counts(&moves, &ninth, &curves, 33, n);
    assert!(counts.iter().all(|&c| near(c, n, 0.25)), "{counts:?}");
    // The defaults: 2 discs at 30 % everywhere (same distribution as move 1 above, at move 9 too).
    let counts = draw_counts(&moves, &ninth, &LossCurves::default(), 34, n);
    assert!(near(counts[0], n, 0.8) && near(counts[1], n, 0.1) && near(counts[2], n, 0.1), "{counts:?}");
    assert_eq!(counts[3], 0);
}

#[test]
fn loss_curves_load_from_toml_snapped_and_checked() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Settings {
        curves: LossCurves,
    }
    let settings = Settings { curves: LossCurves::default() };
    let text = toml::to_string(&settings).unwrap();
    assert!(text.contains("max_loss = [2, 2, 2,"), "{text}");
    assert!(text.contains("percent = [30, 30,"), "{text}");
    assert_eq!(toml::from_str::<Settings>(&text).unwrap(), settings);
    // Off-step points snap to the nearest step.
    let text = "[curves]\nmax_loss = [0, 1, 3, 5, 6, 7, 12, 13, 40, 49, 96, 97, 128, 129, 2]\n\
                percent = [0, 2, 3, 7, 8, 12, 13, 50, 55, 99, 100, 30, 30, 30, 30]\n";
    let curves = toml::from_str::<Settings>(text).unwrap().curves;
    assert_eq!(curves.max_loss_points(), &[0, 1, 2, 4, 4, 8, 8, 16, 32, 64, 64, 129, 129, 129, 2]);
    assert_eq!(curves.percent_points(), &[0, 0, 5, 5, 10, 10, 15, 50, 55, 100, 100, 30, 30, 30, 30]);
    // Wrong lengths and values out of range are errors naming the curve and the point.
    assert_eq!(LossCurves::new(&[2; 14], &[30; 15]), Err(LossCurvesError::Length { curve: Curve::MaxLoss, found: 14 }));
    let mut percent = [30i64; 15];
    percent[4] = 101;
    assert_eq!(
        LossCurves::new(&[2; 15], &percent),
        Err(LossCurvesError::Range { curve: Curve::Percent, point: 4, value: 101, max: 100 })
    );
    let mut max_loss = [2i64; 15];
    max_loss[0] = -1;
    assert!(matches!(LossCurves::new(&max_loss, &[30; 15]), Err(LossCurvesError::Range { point: 0, value: -1, .. })));
    let bad = "[curves]\nmax_loss = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 130]\npercent = [30, 30, 30, 30, 30, 30, 30, \
               30, 30, 30, 30, 30, 30, 30, 30]\n";
    let error = toml::from_str::<Settings>(bad).unwrap_err().to_string();
    assert!(error.contains("max_loss[14] = 130 is outside 0..=129"), "{error}");
}
