//! Who plays which colour in a new game.

/// Who plays which colour in a new game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Two people.
    HumanVsHuman,
    /// You play Black, the AI White.
    YouAsBlack,
    /// You play White, the AI Black (it waits for Start).
    YouAsWhite,
    /// The AI plays both sides (it waits for Start).
    SelfPlay,
}

impl Mode {
    /// Whether the AI plays (Black, White) in this mode.
    #[must_use]
    pub const fn ai_sides(self) -> (bool, bool) {
        match self {
            Mode::HumanVsHuman => (false, false),
            Mode::YouAsBlack => (false, true),
            Mode::YouAsWhite => (true, false),
            Mode::SelfPlay => (true, true),
        }
    }
}
