//! `update()` tests of Operate ▸ Generate XOT Position and of new games from XOT openings.

use shirokuro::context::Ctx;
use shirokuro::game::{Game, Message};
use shirokuro::i18n::Language;
use shirokuro::settings::Settings;
use shirokuro_engine::Square;

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

fn humans() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() }
}

/// The moves of the main line.
fn line(game: &Game) -> Vec<Square> {
    game.record().main().iter().filter_map(|node| node.played).collect()
}

#[test]
fn an_xot_position_is_a_line_of_the_list_kept_as_the_generated_start() {
    let settings = humans();
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    let _ = game.update(Message::GenerateXot, &ctx(&settings));
    let moves = line(&game);
    assert_eq!(moves.len(), 8);
    assert!(shirokuro::xot::openings().contains(&moves), "{moves:?} is in the list");
    assert_eq!(game.record().ply(), 8, "the cursor is at the opening's end");
    assert_eq!(game.random_start(), Some(8));
    // Back to Random Pos. comes back to it after moving around.
    let _ = game.update(Message::First, &ctx(&settings));
    let _ = game.update(Message::BackToRandom, &ctx(&settings));
    assert_eq!(game.record().ply(), 8);
}

#[test]
fn new_games_start_from_xot_openings_only_when_asked() {
    let mut settings = humans();
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    let _ = game.new_game(&ctx(&settings));
    assert!(line(&game).is_empty());
    settings.xot_new_games = true;
    let _ = game.new_game(&ctx(&settings));
    assert_eq!(line(&game).len(), 8);
    assert!(shirokuro::xot::openings().contains(&line(&game)));
}
