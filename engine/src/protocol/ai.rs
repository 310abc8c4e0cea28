//! [`PolicyEngine`]: a [`Thinker`] that plays under a [`Policy`] (a book, its variation, accepted losses), so GTP and
//! NBoard play the same AI as the app and `shirokuro-cli play`.

use std::sync::{Arc, Mutex, PoisonError};

use super::{Decision, Engine, Iteration};
use crate::book::Book;
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;
use crate::think::{Policy, Thinker};

/// A thinker with the AI's policy: [`Engine::choose`] goes through [`Thinker::choose`] (the level is the session's,
/// replacing the policy's), evaluations through plain searches.
pub struct PolicyEngine {
    thinker: Thinker,
    policy: Policy,
    book: Option<Arc<Book>>,
    rng: Mutex<GameRng>,
}

impl PolicyEngine {
    /// `thinker` playing under `policy` from `book` (if any), drawing its random choices from `rng`.
    #[must_use]
    pub fn new(thinker: Thinker, policy: Policy, book: Option<Arc<Book>>, rng: GameRng) -> PolicyEngine {
        PolicyEngine { thinker, policy, book, rng: Mutex::new(rng) }
    }

    /// The thinker.
    #[must_use]
    pub fn thinker(&self) -> &Thinker {
        &self.thinker
    }

    /// The policy (its level is replaced by the session's at each move).
    #[must_use]
    pub fn policy(&self) -> &Policy {
        &self.policy
    }
}

impl Engine for PolicyEngine {
    fn think(&self, position: &Position, level: Level) -> Decision {
        Engine::think(&self.thinker, position, level)
    }

    fn think_with_progress(&self, position: &Position, level: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        Engine::think_with_progress(&self.thinker, position, level, progress)
    }

    fn choose(&self, position: &Position, level: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        let policy = self.policy.clone().with_level(level);
        let mut rng = self.rng.lock().unwrap_or_else(PoisonError::into_inner);
        let choice = self
            .thinker
            .choose(position, &policy, self.book.as_deref(), &mut rng, &mut |p| progress(&Iteration::from(p)));
        Decision::from(&choice.thought)
    }

    fn stop(&self) {
        self.thinker.stop_handle().stop();
    }

    fn new_game(&self) {
        self.thinker.clear();
    }
}
