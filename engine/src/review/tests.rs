use super::*;
use crate::notation::parse_transcript;

/// The positions of a transcript's line, with the squares played.
fn line_of(transcript: &str) -> Vec<LinePosition> {
    line_of_moves(Position::INITIAL, &parse_transcript(transcript).unwrap().moves)
}

fn value(value: i32, best: Option<&str>) -> Option<PositionValue> {
    let best = best.map(|s| Move::Place(s.parse::<Square>().unwrap()));
    Some(PositionValue { value, best, line: best.into_iter().collect(), exact: false, book: false })
}

#[test]
fn thresholds_grade_losses_as_documented() {
    let t = Thresholds::default();
    let grades: Vec<Grade> = [0, 1, 2, 3, 5, 6, 9, 10, 40].iter().map(|&l| t.grade(l)).collect();
    use Grade::*;
    assert_eq!(grades, [Best, Good, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Blunder, Blunder]);
    // Thresholds out of order are raised to the one before.
    let odd = Thresholds { good: 4, inaccuracy: 1, mistake: 2 };
    assert_eq!((odd.grade(4), odd.grade(5)), (Good, Blunder));
}

#[test]
fn losses_follow_the_values_for_the_player_who_moved() {
    // f5 (Black) d6 (White) c3 (Black).
    let line = line_of("f5d6c3");
    let values = vec![value(0, Some("f5")), value(0, Some("f6")), value(-6, Some("c5")), value(-7, None)];
    let graded = grade_moves(&line, &values, Thresholds::default(), |_| false);
    assert!(graded[0].is_none());
    let f5 = graded[1].as_ref().unwrap();
    assert_eq!((f5.mover, f5.loss, f5.grade), (Color::Black, 0, Grade::Best));
    // White played d6 where the search preferred f6: the value went from 0 to −6, a gain for White, so no loss.
    let d6 = graded[2].as_ref().unwrap();
    assert_eq!((d6.mover, d6.loss, d6.grade), (Color::White, 0, Grade::Best));
    // Black played c3 where c5 was best: −6 to −7 for Black, one disc.
    let c3 = graded[3].as_ref().unwrap();
    assert_eq!((c3.mover, c3.loss, c3.grade), (Color::Black, 1, Grade::Good));
    assert_eq!(c3.best, Some(Move::Place(Square::C5)));
    assert_eq!(c3.phase, Phase::Opening);
}

#[test]
fn the_best_move_loses_nothing_even_when_the_values_disagree() {
    let line = line_of("f5d6");
    // The next search is less optimistic for White than the last one: noise, not a loss.
    let values = vec![value(0, Some("f5")), value(2, Some("d6")), value(5, None)];
    let graded = grade_moves(&line, &values, Thresholds::default(), |_| false);
    assert_eq!(graded[2].as_ref().unwrap().loss, 0);
}

#[test]
fn book_moves_are_graded_book_and_missing_values_give_no_grade() {
    let line = line_of("f5d6c3d3");
    let values = vec![value(0, Some("f5")), value(0, Some("d6")), value(0, Some("c3")), None, value(20, None)];
    let graded = grade_moves(&line, &values, Thresholds::default(), |ply| ply <= 2);
    assert_eq!(graded[1].as_ref().unwrap().grade, Grade::Book);
    assert_eq!(graded[2].as_ref().unwrap().grade, Grade::Book);
    assert!(graded[3].is_none() && graded[4].is_none());
}

#[test]
fn summaries_count_grades_and_phases_per_player() {
    let line = line_of("f5d6c3d3c4");
    let values = vec![
        value(0, Some("f5")),
        value(0, Some("d6")),
        value(0, Some("c5")),
        value(-10, Some("e3")),
        value(-4, Some("c4")),
        value(-4, None),
    ];
    let graded = grade_moves(&line, &values, Thresholds::default(), |_| false);
    // Black's c3 lost 10 (a blunder: c5 was best); White's d3 lost 6 (a mistake: −10 became −4); c4 was best.
    let [black, white] = summarize(&graded);
    assert_eq!((black.total_loss, black.moves, black.counts[Grade::Blunder.index()]), (10, 3, 1));
    assert_eq!((white.total_loss, white.moves, white.counts[Grade::Mistake.index()]), (6, 2, 1));
    assert_eq!(black.loss_by_phase, [10, 0, 0]);
    // Next mistake from the start lands before c3 (ply 2), then before d3 (ply 3); back from the end, before d3.
    assert_eq!(next_error(&graded, 0, true), Some(2));
    assert_eq!(next_error(&graded, 2, true), Some(3));
    assert_eq!(next_error(&graded, 3, true), None);
    assert_eq!(next_error(&graded, 5, false), Some(3));
    assert_eq!(next_error(&graded, 2, false), None);
}

#[test]
fn phases_split_at_40_and_20_empties() {
    assert_eq!(
        [Phase::of(60), Phase::of(41), Phase::of(40), Phase::of(21), Phase::of(20), Phase::of(0)],
        [Phase::Opening, Phase::Opening, Phase::Midgame, Phase::Midgame, Phase::Endgame, Phase::Endgame]
    );
}
