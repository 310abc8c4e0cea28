//! Tests of the level table against Egaroucid's (feature inventory §3) and of its invariants.

use super::*;

fn level(n: u8) -> Level {
    Level::new(n).expect("test levels are in range")
}

fn stages(n: u8) -> Vec<(u8, f64)> {
    level(n).stages().iter().map(|s| (s.empties, s.selectivity.percent())).collect()
}

const fn mid(depth: u8, selectivity: Selectivity) -> SearchPlan {
    SearchPlan::Midgame { depth, selectivity }
}

const fn end(selectivity: Selectivity) -> SearchPlan {
    SearchPlan::Endgame { selectivity }
}

/// Egaroucid's `get_level` on its 5-stage row, padded with `NODEPTH` (100) at 100 % like `level_definition`.
fn egaroucid_get_level(level: Level, empties: u8) -> SearchPlan {
    let mut rows = [(100u8, Selectivity::Exact); 5];
    for (row, stage) in rows.iter_mut().zip(level.stages()) {
        *row = (stage.empties, stage.selectivity);
    }
    if empties > rows[0].0 {
        return mid(level.midgame_depth(), level.midgame_selectivity());
    }
    let selectivity = if empties > rows[1].0 {
        rows[0].1
    } else if empties > rows[2].0 {
        rows[1].1
    } else if empties > rows[3].0 {
        rows[2].1
    } else if empties > rows[4].0 {
        rows[3].1
    } else {
        rows[4].1
    };
    end(selectivity)
}

#[test]
fn levels_1_to_10_have_no_mpc_and_exact_from_twice_the_level() {
    for n in 1..=10 {
        let l = level(n);
        assert_eq!(l.midgame_depth(), n);
        assert_eq!(l.midgame_selectivity(), Selectivity::Exact);
        assert_eq!(stages(n), vec![(2 * n, 100.0)]);
        assert_eq!((l.endgame_start(), l.exact_from()), (2 * n, 2 * n));
        assert_eq!(l.plan(2 * n + 1), mid(n, Selectivity::Exact));
        assert_eq!(l.plan(2 * n), end(Selectivity::Exact));
    }
    assert_eq!(level(1).plan(60), mid(1, Selectivity::Exact));
    assert_eq!(level(1).plan(3), mid(1, Selectivity::Exact));
    assert_eq!(level(1).plan(2), end(Selectivity::Exact));
    assert_eq!(level(10).plan(21), mid(10, Selectivity::Exact));
    assert_eq!(level(10).plan(20), end(Selectivity::Exact));
}

#[test]
fn spot_checks_against_the_inventory_table() {
    assert_eq!(stages(11), vec![(25, 98.0), (23, 99.0), (21, 100.0)]);
    assert_eq!(level(11).midgame_selectivity(), Selectivity::P74);
    assert_eq!(level(11).plan(26), mid(11, Selectivity::P74));
    assert_eq!(level(11).plan(25), end(Selectivity::P98));
    assert_eq!(level(11).plan(24), end(Selectivity::P98));
    assert_eq!(level(11).plan(23), end(Selectivity::P99));
    assert_eq!(level(11).plan(22), end(Selectivity::P99));
    assert_eq!(level(11).plan(21), end(Selectivity::Exact));

    assert_eq!(stages(21), vec![(30, 93.0), (28, 98.0), (26, 99.0), (24, 100.0)]);
    assert_eq!(stages(22), stages(21));
    assert_eq!(level(21), Level::DEFAULT);

    // The documented example: level 27 = midgame 27 plies @74 % while > 36 empties; endgame from 36 empties @88 %,
    // then 93/98/99 %, exact from 28 empties.
    let l27 = level(27);
    assert_eq!(stages(27), vec![(36, 88.0), (34, 93.0), (32, 98.0), (30, 99.0), (28, 100.0)]);
    assert_eq!((l27.endgame_start(), l27.exact_from()), (36, 28));
    assert_eq!(l27.plan(60), mid(27, Selectivity::P74));
    assert_eq!(l27.plan(37), mid(27, Selectivity::P74));
    for (empties, selectivity) in [
        (36, Selectivity::P88),
        (35, Selectivity::P88),
        (34, Selectivity::P93),
        (33, Selectivity::P93),
        (32, Selectivity::P98),
        (31, Selectivity::P98),
        (30, Selectivity::P99),
        (29, Selectivity::P99),
        (28, Selectivity::Exact),
        (1, Selectivity::Exact),
    ] {
        assert_eq!(l27.plan(empties), end(selectivity), "level 27 at {empties} empties");
    }
    assert_eq!(stages(28), stages(27));

    assert_eq!(stages(55), vec![(58, 88.0), (56, 93.0), (54, 98.0), (52, 99.0), (50, 100.0)]);
    assert_eq!(level(55).plan(59), mid(55, Selectivity::P74));
}

#[test]
fn level_37_keeps_its_empty_98_percent_stage() {
    let l = level(37);
    assert_eq!(stages(37), vec![(40, 93.0), (36, 98.0), (36, 99.0), (34, 100.0)]);
    assert_eq!(l.plan(41), mid(37, Selectivity::P74));
    assert_eq!(l.plan(40), end(Selectivity::P93));
    assert_eq!(l.plan(37), end(Selectivity::P93));
    // 93 % straight to 99 %: no empties count selects the 98 % stage.
    assert_eq!(l.plan(36), end(Selectivity::P99));
    assert_eq!(l.plan(35), end(Selectivity::P99));
    assert_eq!(l.plan(34), end(Selectivity::Exact));
    assert!((0..=60).all(|e| l.plan(e).selectivity() != Selectivity::P98));
    assert_eq!(stages(38), vec![(40, 93.0), (38, 98.0), (36, 99.0), (34, 100.0)]);
}

#[test]
fn levels_56_to_60_never_search_the_midgame() {
    assert_eq!(stages(56), vec![(60, 88.0), (58, 93.0), (56, 98.0), (54, 99.0), (52, 100.0)]);
    assert_eq!(level(56).midgame_selectivity(), Selectivity::P88);
    assert_eq!(stages(57), vec![(60, 93.0), (58, 98.0), (56, 99.0), (54, 100.0)]);
    assert_eq!(stages(58), vec![(60, 98.0), (58, 99.0), (56, 100.0)]);
    assert_eq!(stages(59), vec![(60, 99.0), (58, 100.0)]);
    assert_eq!(stages(60), vec![(60, 100.0)]);
    for n in 56..=60 {
        assert!(!level(n).uses_midgame());
        assert_eq!(level(n).midgame_depth(), n);
        assert!((0..=60).all(|e| level(n).plan(e).is_endgame()));
    }
    assert_eq!(level(56).plan(60), end(Selectivity::P88));
    assert!((0..=60).all(|e| Level::MAX.plan(e).is_exact()));
    assert!(Level::all().filter(|l| l.get() < 56).all(Level::uses_midgame));
}

#[test]
fn plan_agrees_with_egaroucids_cascade_everywhere() {
    for l in Level::all() {
        for empties in 0..=64 {
            assert_eq!(l.plan(empties), egaroucid_get_level(l, empties), "level {l} at {empties} empties");
        }
    }
}

#[test]
fn table_invariants() {
    assert_eq!(Level::all().len(), 60);
    for l in Level::all() {
        let n = l.get();
        let stages = l.stages();
        assert!(!stages.is_empty() && stages.len() <= 5, "level {n}");
        assert_eq!(l.midgame_depth(), n);
        assert!(l.endgame_start() <= 60);
        // Stages from the most empties down; selectivity rises stage by stage; the last one is exact and is the only
        // exact one.
        assert!(stages.windows(2).all(|w| w[0].empties >= w[1].empties), "level {n}");
        assert!(stages.windows(2).all(|w| w[0].selectivity < w[1].selectivity), "level {n}");
        assert_eq!(stages.iter().filter(|s| s.selectivity.is_exact()).count(), 1, "level {n}");
        assert!(stages.last().is_some_and(|s| s.selectivity.is_exact()), "level {n}");
        assert!(l.exact_from() <= l.endgame_start());
        assert!(stages.iter().all(|s| s.selectivity != Selectivity::P99_9));
        assert_eq!(l.midgame_selectivity() == Selectivity::Exact, n <= 10 || n == 60, "level {n}");

        // Every empties count: midgame above E_0, endgame below with a selectivity that never falls as the game goes
        // on, exact from exact_from() down.
        let mut previous = Selectivity::P74;
        for empties in (1..=60).rev() {
            let plan = l.plan(empties);
            assert_eq!(plan.is_endgame(), empties <= l.endgame_start(), "level {n} at {empties}");
            assert_eq!(plan.is_exact(), empties <= l.exact_from(), "level {n} at {empties}");
            match plan {
                SearchPlan::Midgame { depth, selectivity } => {
                    assert_eq!((depth, selectivity), (n, l.midgame_selectivity()));
                }
                SearchPlan::Endgame { selectivity } => {
                    assert!(selectivity >= previous, "level {n} at {empties}");
                    assert!(stages.iter().any(|s| s.selectivity == selectivity && empties <= s.empties));
                    previous = selectivity;
                }
            }
        }
    }
}

#[test]
fn stronger_levels_never_start_later() {
    for (weaker, stronger) in Level::all().zip(Level::all().skip(1)) {
        assert!(stronger.exact_from() >= weaker.exact_from(), "levels {weaker} and {stronger}");
        assert!(stronger.endgame_start() >= weaker.endgame_start(), "levels {weaker} and {stronger}");
        assert!(stronger.midgame_depth() > weaker.midgame_depth());
    }
}

#[test]
fn categories_and_their_boundaries() {
    for (n, category) in [
        (1, LevelCategory::Light),
        (15, LevelCategory::Light),
        (16, LevelCategory::Standard),
        (21, LevelCategory::Standard),
        (22, LevelCategory::Pragmatic),
        (25, LevelCategory::Pragmatic),
        (26, LevelCategory::Accurate),
        (40, LevelCategory::Accurate),
        (41, LevelCategory::Danger),
        (60, LevelCategory::Danger),
    ] {
        assert_eq!(level(n).category(), category, "level {n}");
    }
    assert!(Level::all().map(Level::category).is_sorted());
    assert_eq!(LevelCategory::Pragmatic.to_string(), "Pragmatic");
}

#[test]
fn construction_clamping_and_parsing() {
    assert_eq!(Level::new(0), Err(LevelError::OutOfRange(0)));
    assert_eq!(Level::new(61), Err(LevelError::OutOfRange(61)));
    assert_eq!(Level::new(255), Err(LevelError::OutOfRange(255)));
    assert_eq!(Level::new(1).map(Level::get), Ok(1));
    assert_eq!(Level::new(60).map(Level::get), Ok(60));
    assert_eq!(Level::try_from(30u8).map(u8::from), Ok(30));
    assert_eq!(Level::clamped(0), Level::MIN);
    assert_eq!(Level::clamped(61), Level::MAX);
    assert_eq!(Level::clamped(200), Level::MAX);
    assert_eq!(Level::clamped(33).get(), 33);
    assert_eq!(Level::default(), Level::DEFAULT);

    assert_eq!(" 21 ".parse::<Level>(), Ok(Level::DEFAULT));
    assert_eq!("60".parse::<Level>(), Ok(Level::MAX));
    assert_eq!("0".parse::<Level>(), Err(LevelError::OutOfRange(0)));
    assert_eq!("-3".parse::<Level>(), Err(LevelError::OutOfRange(-3)));
    assert_eq!("300".parse::<Level>(), Err(LevelError::OutOfRange(300)));
    assert_eq!("lv5".parse::<Level>(), Err(LevelError::NotANumber("lv5".to_owned())));
    assert_eq!("".parse::<Level>(), Err(LevelError::NotANumber(String::new())));
    assert_eq!(LevelError::OutOfRange(61).to_string(), "level 61 is out of range (expected 1 to 60)");
    assert_eq!(level(7).to_string(), "7");
}

#[test]
fn selectivity_indices_and_percentages() {
    let percents: Vec<f64> = Selectivity::ALL.iter().map(|s| s.percent()).collect();
    assert_eq!(percents, [74.0, 88.0, 93.0, 98.0, 99.0, 99.9, 100.0]);
    for (i, s) in Selectivity::ALL.iter().enumerate() {
        assert_eq!(usize::from(s.index()), i);
        assert_eq!(Selectivity::from_index(s.index()), Some(*s));
    }
    assert_eq!(Selectivity::from_index(7), None);
    assert!(Selectivity::ALL.is_sorted());
    let shown: Vec<String> = Selectivity::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["74%", "88%", "93%", "98%", "99%", "99.9%", "100%"]);
    assert!(Selectivity::Exact.is_exact() && !Selectivity::P99_9.is_exact());
}
