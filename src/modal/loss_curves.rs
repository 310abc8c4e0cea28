//! Settings ▸ AI's Loss ▸ Edit the Curves…: Egaroucid's two 15-point curves, "Max Loss per Move" and "Occurring
//! Ratio (%)", drawn with the mouse, and its Default button. Every change goes to the settings at once.

use iced::widget::{button, canvas, column, container, row, text};
use iced::{Element, Length};
use shirokuro_engine::think::loss_curves::{LossCurves, MAX_LOSS_STEPS, MAX_LOSS_UNLIMITED, PERCENT_STEP};

use crate::i18n::Strings;
use crate::widget::curve_editor::CurveEditor;

/// Which curve a point belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    /// Max Loss per Move.
    MaxLoss,
    /// Occurring Ratio (%).
    Percent,
}

/// The steps of the percent curve: 0, 5, … 100.
fn percent_steps() -> impl Iterator<Item = u8> {
    (0..=100).step_by(usize::from(PERCENT_STEP))
}

/// The value of `curve` at `step`.
#[must_use]
pub fn value_at(curve: Curve, step: usize) -> u8 {
    match curve {
        Curve::MaxLoss => MAX_LOSS_STEPS.get(step).copied().unwrap_or(MAX_LOSS_UNLIMITED),
        Curve::Percent => percent_steps().nth(step).unwrap_or(100),
    }
}

/// The curves with point `point` of `curve` set to `value` (snapped by the engine as Egaroucid snaps).
#[must_use]
pub fn with_point(curves: &LossCurves, curve: Curve, point: usize, value: u8) -> LossCurves {
    let mut max_loss: Vec<i64> = curves.max_loss_points().iter().map(|v| i64::from(*v)).collect();
    let mut percent: Vec<i64> = curves.percent_points().iter().map(|v| i64::from(*v)).collect();
    let target = match curve {
        Curve::MaxLoss => &mut max_loss,
        Curve::Percent => &mut percent,
    };
    if let Some(slot) = target.get_mut(point) {
        *slot = i64::from(value);
    }
    LossCurves::new(&max_loss, &percent).unwrap_or(*curves)
}

/// The box's state: the step labels (made once).
#[derive(Debug)]
pub struct LossCurvesBox {
    max_loss_labels: Vec<String>,
    percent_labels: Vec<String>,
}

impl LossCurvesBox {
    /// The box; `unlimited` labels the top step of the maximum loss ("Inf").
    #[must_use]
    pub fn new(unlimited: &str) -> LossCurvesBox {
        let max_loss_labels = MAX_LOSS_STEPS
            .iter()
            .map(|v| if *v == MAX_LOSS_UNLIMITED { unlimited.to_owned() } else { v.to_string() })
            .collect();
        LossCurvesBox { max_loss_labels, percent_labels: percent_steps().map(|v| format!("{v}%")).collect() }
    }

    /// The two curves of `curves`; a drawn point sends `on_point(curve, point, value)`, Default `default`, Close
    /// `close`.
    pub fn view<'a, M: Clone + 'a>(
        &'a self,
        s: &Strings,
        curves: &LossCurves,
        on_point: fn(Curve, usize, u8) -> M,
        default: M,
        close: M,
    ) -> Element<'a, M> {
        let steps = |values: &[u8], curve: Curve| -> Vec<usize> {
            values.iter().map(|v| (0..32).find(|step| value_at(curve, *step) == *v).unwrap_or(0)).collect()
        };
        let editor = |labels: &'a [String], points: Vec<usize>, curve: Curve| {
            let editor = canvas(CurveEditor::new(points, labels, move |point, step| {
                on_point(curve, point, value_at(curve, step))
            }));
            container(editor.width(Length::Fill).height(Length::Fill))
                .width(Length::Fixed(520.0))
                .height(Length::Fixed(150.0))
        };
        column![
            text(s.ai_loss_curves_title.clone()).size(20),
            text(s.ai_loss_curves_help.clone()).size(13).width(520),
            text(s.ai_max_loss.clone()).size(14),
            editor(&self.max_loss_labels, steps(curves.max_loss_points(), Curve::MaxLoss), Curve::MaxLoss)
                .id("curve-max-loss"),
            text(s.ai_loss_percent.clone()).size(14),
            editor(&self.percent_labels, steps(curves.percent_points(), Curve::Percent), Curve::Percent)
                .id("curve-percent"),
            row![
                container(button(text(s.ai_loss_default.clone())).on_press(default)).id("curve-default"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(10),
        ]
        .spacing(8)
        .padding(20)
        .into()
    }
}
