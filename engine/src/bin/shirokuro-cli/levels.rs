//! `shirokuro-cli levels [LEVEL]...`: the AI level table, like Egaroucid for Console's `-linfo`.
//!
//! One row per level: the midgame search (`depth@selectivity`), the endgame stages (`E@p`: from `E` empties down, a
//! search to the end at `p` %), the category, the empties count from which the endgame is exact, and a strip of 60
//! characters, one per move 1..60 (60..1 empty squares before the move), showing which search the level runs there:
//!
//! | glyph | search                                      |
//! |-------|---------------------------------------------|
//! | `.`   | midgame search to depth = level             |
//! | `_`   | endgame search at 74 %                      |
//! | `-`   | endgame search at 88 %                      |
//! | `=`   | endgame search at 93 %                      |
//! | `+`   | endgame search at 98 %                      |
//! | `^`   | endgame search at 99 %                      |
//! | `*`   | endgame search at 99.9 % (no level uses it) |
//! | `#`   | exact endgame search (100 %)                |
//!
//! The endgame glyphs `_-=+^#` are Egaroucid's; it leaves midgame moves blank, we print `.` so the columns stay
//! countable, and `*` for 99.9 %, which Egaroucid's legend does not show.

use std::fmt::Write as _;
use std::process::ExitCode;

use shirokuro_engine::level::{Level, SearchPlan, Selectivity};

/// Options of `levels`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Levels to show (1–60); default: all of them.
    levels: Vec<Level>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let levels: Vec<Level> = if args.levels.is_empty() { Level::all().collect() } else { args.levels.clone() };
    out!("{}", render(&levels));
    Ok(ExitCode::SUCCESS)
}

/// The strip glyph of a selectivity (endgame searches).
fn glyph(selectivity: Selectivity) -> char {
    match selectivity {
        Selectivity::P74 => '_',
        Selectivity::P88 => '-',
        Selectivity::P93 => '=',
        Selectivity::P98 => '+',
        Selectivity::P99 => '^',
        Selectivity::P99_9 => '*',
        Selectivity::Exact => '#',
    }
}

/// `74`, `99.9`, `100`: a selectivity without its `%` sign, for the compact `E@p` columns.
fn percent(selectivity: Selectivity) -> String {
    selectivity.to_string().trim_end_matches('%').to_owned()
}

/// One character per move 1..60, i.e. per empties count 60..1.
fn strip(level: Level) -> String {
    (1..=60u8)
        .rev()
        .map(|empties| match level.plan(empties) {
            SearchPlan::Midgame { .. } => '.',
            SearchPlan::Endgame { selectivity } => glyph(selectivity),
        })
        .collect()
}

/// The move numbers 1, 10, 20, …, 60 above the strip, each ending on its column.
fn ruler() -> String {
    let mut columns = [' '; 60];
    columns[0] = '1';
    for mv in (10..=60usize).step_by(10) {
        let digits = mv.to_string();
        let start = mv - digits.len();
        for (column, digit) in columns[start..mv].iter_mut().zip(digits.chars()) {
            *column = digit;
        }
    }
    columns.iter().collect()
}

/// The endgame stages as `E@p` words; a stage that covers no empties count (the next stage has the same `E`, as
/// level 37's 98 % stage) is put in parentheses.
fn stages(level: Level) -> (String, bool) {
    let stages = level.stages();
    let mut text = String::new();
    let mut has_empty_stage = false;
    for (k, stage) in stages.iter().enumerate() {
        let empty = stages.get(k + 1).is_some_and(|next| next.empties == stage.empties);
        has_empty_stage |= empty;
        if !text.is_empty() {
            text.push(' ');
        }
        let word = format!("{}@{}", stage.empties, percent(stage.selectivity));
        if empty {
            let _ = write!(text, "({word})");
        } else {
            text.push_str(&word);
        }
    }
    (text, has_empty_stage)
}

fn render(levels: &[Level]) -> String {
    const STAGES_WIDTH: usize = 31;
    let mut out = String::new();
    let legend: Vec<String> = Selectivity::ALL.iter().map(|&s| format!("{} {s}", glyph(s))).collect();
    let _ = writeln!(out, "AI levels, with Egaroucid's meaning. Moves: one character per move 1-60 (60-1 empties):");
    let _ = writeln!(out, "  .  midgame search to depth = level (column Midgame: depth@selectivity)");
    let _ = writeln!(out, "  {}: endgame search to the end at that selectivity (100% = exact)", legend.join("  "));
    let _ = writeln!(out, "Endgame stages E@p: from E empties down, at p %. Exact <=E: exact from E empties down.");
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>5}  {:<9}  {:<8}  {:<STAGES_WIDTH$}  {:>5}  Moves",
        "Level", "Category", "Midgame", "Endgame stages (E@p)", "Exact"
    );
    let _ = writeln!(out, "{:>5}  {:<9}  {:<8}  {:<STAGES_WIDTH$}  {:>5}  {}", "", "", "", "", "<=E", ruler());
    let mut any_empty_stage = false;
    let mut any_unused_midgame = false;
    for &level in levels {
        let midgame = if level.uses_midgame() {
            format!("{}@{}%", level.midgame_depth(), percent(level.midgame_selectivity()))
        } else {
            any_unused_midgame = true;
            "none".to_owned()
        };
        let (stage_text, has_empty_stage) = stages(level);
        any_empty_stage |= has_empty_stage;
        let _ = writeln!(
            out,
            "{:>5}  {:<9}  {:<8}  {:<STAGES_WIDTH$}  {:>5}  {}",
            level.get(),
            level.category().name(),
            midgame,
            stage_text,
            level.exact_from(),
            strip(level)
        );
    }
    if any_empty_stage || any_unused_midgame {
        let _ = writeln!(out);
    }
    if any_empty_stage {
        let _ = writeln!(
            out,
            "(E@p): a stage that covers no position (the next one starts at the same E), as in Egaroucid's table."
        );
    }
    if any_unused_midgame {
        let _ =
            writeln!(out, "none: the endgame search starts at move 1 (60 empties), so the midgame search never runs.");
    }
    out
}
