//! The review as text: the transcript with each graded move's loss and the better move, then each player's summary.

use shirokuro_engine::Color;

use super::Review;
use super::view::{better_line, grade_name, summary_lines};
use crate::i18n::{Strings, fill};

/// The review as a person reads it, in the current language.
#[must_use]
pub fn export_text(review: &Review, s: &Strings, black: &str, white: &str) -> String {
    let options = review.options();
    let mut out = String::new();
    out.push_str(&fill(&s.review_title, &[&options.level.get(), &options.exact_from]));
    out.push('\n');
    let names = [black, white].map(|n| n.trim().to_owned());
    if names.iter().any(|n| !n.is_empty()) {
        out.push_str(&format!("{} - {}\n", names[0], names[1]));
    }
    let transcript: String =
        review.line().iter().filter_map(|at| at.played).map(shirokuro_engine::Square::to_lowercase).collect();
    out.push_str(&transcript);
    out.push_str("\n\n");
    for graded in review.graded().iter().flatten() {
        let mover = match graded.mover {
            Color::Black => &s.black,
            Color::White => &s.white,
        };
        let loss = if graded.loss > 0 { format!("-{}", graded.loss) } else { String::new() };
        out.push_str(&format!(
            "{:>2}. {}{:<2} {:<6} {:>4}  {}",
            graded.ply,
            graded.played.to_lowercase(),
            graded.grade.mark(),
            mover,
            loss,
            grade_name(s, graded.grade)
        ));
        if let Some(better) = better_line(s, graded) {
            out.push_str("  ");
            out.push_str(&better);
        }
        out.push('\n');
    }
    out.push('\n');
    for (color, summary) in [Color::Black, Color::White].into_iter().zip(review.summaries()) {
        for line in summary_lines(s, color, &summary) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The review's summary for a game file's memo (Egaroucid shows the memo): the title line and each player's lines.
#[must_use]
pub fn memo_text(review: &Review, s: &Strings) -> String {
    let options = review.options();
    let mut lines = vec![fill(&s.review_title, &[&options.level.get(), &options.exact_from])];
    for (color, summary) in [Color::Black, Color::White].into_iter().zip(review.summaries()) {
        lines.extend(summary_lines(s, color, &summary));
    }
    lines.join("\n")
}

/// `memo` with the review's summary at its end, replacing an earlier summary written the same way.
#[must_use]
pub fn memo_with_review(memo: &str, summary: &str) -> String {
    let Some(title) = summary.lines().next() else { return memo.to_owned() };
    // An earlier summary starts with a title of the same form ("Review: level …"): it and what follows go.
    let prefix: String = title.chars().take_while(|c| !c.is_ascii_digit()).collect();
    let kept = match memo.find(&prefix) {
        Some(at) if !prefix.is_empty() => memo[..at].trim_end(),
        _ => memo.trim_end(),
    };
    if kept.is_empty() { summary.to_owned() } else { format!("{kept}\n\n{summary}") }
}
