//! The menu items that edit one group of settings: Accept AI's Loss, Evaluation, AI Style and Review Settings.

use shirokuro_engine::think::loss_curves::{MAX_LOSS_STEPS, MAX_LOSS_UNLIMITED, PERCENT_STEP};
use shirokuro_engine::think::sparring::Strength;

use super::{MenuItem, action, check, range, shown_range};
use crate::i18n::{Strings, fill};
use crate::message::Message;
use crate::settings::{self, Change};

/// The Accept AI's Loss items: the switch, then one slider per curve, which sets every point of it (Egaroucid edits
/// the 15 points one by one; the sliders show the first point), and Egaroucid's Default button.
pub(super) fn ai_loss_items<'a>(s: &crate::i18n::Strings, settings: &settings::Settings) -> Vec<MenuItem<'a>> {
    let curves = settings.ai_loss;
    let max_loss = curves.max_loss_points()[0];
    let step = MAX_LOSS_STEPS.iter().position(|v| *v == max_loss).unwrap_or(0);
    let shown = if max_loss == MAX_LOSS_UNLIMITED { s.book_unlimited.clone() } else { max_loss.to_string() };
    let percent = curves.percent_points()[0];
    let last_step = u8::try_from(MAX_LOSS_STEPS.len() - 1).unwrap_or(0);
    vec![
        check(label!(s.accept_ai_loss), settings.accept_ai_loss, |on| Message::Setting(Change::AcceptAiLoss(on))),
        shown_range(format!("{}: {shown}", s.ai_max_loss), 0..=last_step, u8::try_from(step).unwrap_or(0), |i| {
            Message::Setting(Change::AiMaxLoss(MAX_LOSS_STEPS[usize::from(i)]))
        }),
        shown_range(format!("{}: {percent}%", s.ai_loss_percent), 0..=20u8, percent / PERCENT_STEP, |i| {
            Message::Setting(Change::AiLossPercent(i * PERCENT_STEP))
        }),
        action(label!(s.ai_loss_default), None, Message::Setting(Change::AiLossDefault)),
        action(label!(s.ai_loss_curves), None, Message::LossCurves),
    ]
}

/// Settings ▸ Evaluation: the patterns with the network, or alone (one checked).
pub(super) fn evaluation_items<'a>(s: &Strings, chosen: settings::Evaluation) -> Vec<MenuItem<'a>> {
    use settings::Evaluation;
    Evaluation::ALL
        .into_iter()
        .map(|evaluation| {
            let label = match evaluation {
                Evaluation::Network => label!(s.evaluation_network),
                Evaluation::Patterns => label!(s.evaluation_patterns),
            };
            check(label, evaluation == chosen, move |_| Message::Setting(Change::Evaluation(evaluation)))
        })
        .collect()
}

/// Settings ▸ AI Style: the engine, or the human-like sparring partner at a named strength or a loss of one's own.
pub(super) fn ai_style_items<'a>(s: &Strings, style: settings::AiStyle) -> Vec<MenuItem<'a>> {
    use settings::AiStyle;
    let set = move |style: AiStyle| Message::Setting(Change::AiStyle(style));
    let engine =
        check(label!(s.ai_style_engine), !style.human_like, move |on| set(AiStyle { human_like: !on, ..style }));
    let strengths = Strength::ALL.into_iter().map(move |strength| {
        let (name, id) = match strength {
            Strength::Beginner => label!(s.strength_beginner),
            Strength::Casual => label!(s.strength_casual),
            Strength::Club => label!(s.strength_club),
            Strength::Tournament => label!(s.strength_tournament),
            Strength::Expert => label!(s.strength_expert),
        };
        let line = fill(&s.ai_style_strength, &[&name, &strength.style().average_loss]);
        let chosen = style.human_like && style.strength() == Some(strength);
        check((line, id), chosen, move |_| set(AiStyle::at(strength)))
    });
    let average = range(label!(s.ai_style_average), settings::SPARRING_AVERAGES, style.average_loss, move |v| {
        set(AiStyle { human_like: true, average_loss: v, ..style })
    });
    let max = range(label!(s.ai_style_max), settings::SPARRING_MAX_LOSSES, style.max_loss, move |v| {
        set(AiStyle { human_like: true, max_loss: v, ..style })
    });
    std::iter::once(engine).chain(strengths).chain([average, max]).collect()
}

/// Game ▸ Review Settings: the level, the exact range and the grade thresholds.
pub(super) fn review_items<'a>(s: &Strings, r: settings::ReviewSettings) -> Vec<MenuItem<'a>> {
    let set = move |r: settings::ReviewSettings| Message::Setting(Change::Review(r));
    vec![
        range(label!(s.review_level), settings::REVIEW_LEVELS, r.level, move |level| {
            set(settings::ReviewSettings { level, ..r })
        }),
        range(label!(s.review_exact_from), settings::REVIEW_EXACT, r.exact_from, move |exact_from| {
            set(settings::ReviewSettings { exact_from, ..r })
        }),
        range(label!(s.review_good_max), settings::REVIEW_THRESHOLDS, r.good, move |good| {
            set(settings::ReviewSettings { good, ..r })
        }),
        range(label!(s.review_inaccuracy_max), settings::REVIEW_THRESHOLDS, r.inaccuracy, move |inaccuracy| {
            set(settings::ReviewSettings { inaccuracy, ..r })
        }),
        range(label!(s.review_mistake_max), settings::REVIEW_THRESHOLDS, r.mistake, move |mistake| {
            set(settings::ReviewSettings { mistake, ..r })
        }),
    ]
}
