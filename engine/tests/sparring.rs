//! The sparring partner's realised loss over 200 seeded games against an AI: within ±20 % of the setting, and no
//! move beyond the maximum (issue #31; the full-strength measurement is `shirokuro-cli sparring match`,
//! docs/sparring.md).

use std::sync::Arc;

use shirokuro_engine::eval::weights;
use shirokuro_engine::level::Level;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::think::sparring::SparringStyle;
use shirokuro_engine::tools::sparring::{SparringSetup, play_sparring_games, profile_of};

#[test]
fn realised_loss_over_200_games_meets_the_setting() {
    let weights = Arc::new(weights::bundled().unwrap());
    let new_thinker =
        || Thinker::new(Arc::clone(&weights), SolveOptions::default().with_threads(1).with_hash_level(14)).ok();
    for (average_loss, max_loss) in [(10, 16), (20, 24)] {
        let style = SparringStyle { average_loss, max_loss };
        let setup = SparringSetup { style, level: Level::new(3).unwrap(), opponent: Level::new(2).unwrap() };
        let games = play_sparring_games(&new_thinker, setup, 200, 31);
        assert_eq!(games.len(), 200);
        let profile = profile_of(&games);
        let mean = profile.mean_per_game();
        let setting = f64::from(average_loss);
        assert!((mean - setting).abs() <= 0.2 * setting, "average {average_loss}: realised {mean:.2}");
        assert!(profile.largest <= i32::from(max_loss), "a move lost {}", profile.largest);
        // Small losses are the commonest non-zero ones, as in people's games.
        let sizes = profile.overall().sizes;
        assert!(sizes[1] > sizes[4], "{sizes:?}");
    }
}
