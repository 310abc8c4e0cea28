//! Settings ▸ AI's Loss ▸ Edit the Curves…, clicked in the `iced_test` simulator: a click in a column of a curve sets
//! that point to the step under the pointer; Default puts both curves back.

use iced::Point;
use iced_test::{selector, simulator};
use shirokuro::message::Message;
use shirokuro::modal::Modal;
use shirokuro::settings::Settings;
use shirokuro_engine::think::loss_curves::LossCurves;

mod common;

use common::screen;

#[test]
fn a_click_in_a_column_sets_that_point_and_default_resets() {
    let (mut app, _dir) = common::app_with(Settings::default());
    assert_eq!(app.settings().ai_loss, LossCurves::default());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_settings")).expect("the Settings menu");
    let _ = ui.click(selector::id("ai_loss")).expect("the AI's Loss submenu");
    let _ = ui.click(selector::id("ai_loss_curves")).expect("Edit the Curves…");
    let messages: Vec<Message> = ui.into_messages().collect();
    for message in messages {
        let _ = app.update(message);
    }
    assert!(matches!(app.modal(), Some(Modal::LossCurves(_))));
    // The top of the last column of the maximum-loss curve: "no limit" for moves 57-60.
    let mut ui = screen(&app);
    let area = ui.find(selector::id("curve-max-loss")).expect("the curve").bounds();
    ui.point_at(Point::new(area.x + area.width - 12.0, area.y + 9.0));
    let _ = ui.simulate(simulator::click());
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(!messages.is_empty(), "the click sends a change");
    for message in messages {
        let _ = app.update(message);
    }
    let points = *app.settings().ai_loss.max_loss_points();
    assert_eq!(points[14], shirokuro_engine::think::loss_curves::MAX_LOSS_UNLIMITED, "{points:?}");
    assert!(points[..14].iter().all(|p| *p == 2), "the other points keep Egaroucid's 2: {points:?}");
    assert!(matches!(app.modal(), Some(Modal::LossCurves(_))), "the box stays open");
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("curve-default")).expect("Default");
    let messages: Vec<Message> = ui.into_messages().collect();
    for message in messages {
        let _ = app.update(message);
    }
    assert_eq!(app.settings().ai_loss, LossCurves::default());
}
