//! Settings changes from the menus and shortcuts: one [`Change`] per setting, applied with its range checks.

use shirokuro_engine::think::loss_curves::LossCurves;

use super::{
    BOOK_DEPTHS, BOOK_ERRORS, Display, EndgameError, GraphMode, HASH_LEVELS, HINT_COUNTS, LEVELS, PlayOrder,
    RANDOM_MOVES, Settings, THREADS, UMIGAME_DEPTHS, UMIGAME_ERRORS, UMIGAME_SCORES,
};

/// A settings change from the menus or shortcuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// AI level.
    Level(u8),
    /// Search threads.
    Threads(u16),
    /// Table size exponent.
    HashLevel(u8),
    /// Settings ▸ Evaluation.
    Evaluation(super::Evaluation),
    /// AI plays Black.
    AiBlack(bool),
    /// AI plays White.
    AiWhite(bool),
    /// Pause when a human must pass.
    PauseOnPass(bool),
    /// New games from a random XOT opening.
    XotNewGames(bool),
    /// Screenshots show the coordinates.
    ScreenshotCoordinates(bool),
    /// Screenshots' margin around the board.
    ScreenshotMargin(u8),
    /// A profile kind's auto-save on exit.
    ProfileAutoSave(super::profile::ProfileKind, super::profile::AutoSave),
    /// Number of hint values.
    HintCount(u8),
    /// A display switch.
    Display(Toggle, bool),
    /// Move numbers on the discs.
    PlayOrder(PlayOrder),
    /// What the graph draws.
    GraphMode(GraphMode),
    /// Endgame Error under the graph.
    EndgameError(EndgameError),
    /// Umigame depth.
    UmigameDepth(u8),
    /// Each player's time in minutes (0 = no limit).
    TimerMinutes(u8),
    /// Settings ▸ Force AI's Opening.
    ForceOpenings(bool),
    /// The board's colours.
    BoardStyle(super::BoardStyle),
    /// Game ▸ Review's settings (kept in range and in order).
    Review(super::ReviewSettings),
    /// Settings ▸ AI Style (kept in range).
    AiStyle(super::AiStyle),
    /// Umigame accumulated error (the top value: no limit).
    UmigameError(u8),
    /// Umigame lowest value for Black (the other bound follows to keep them in order).
    UmigameMin(i8),
    /// Umigame highest value for Black.
    UmigameMax(i8),
    /// Use the book for AI moves and hints.
    UseBook(bool),
    /// Book learning depth.
    BookDepth(u8),
    /// Book learning error per move.
    BookErrorPerMove(u8),
    /// Book learning accumulated error.
    BookErrorSum(u8),
    /// Book learning leaf error.
    BookErrorLeaf(u8),
    /// Right-click edits book values.
    BookRightClick(bool),
    /// Moves of a random board.
    RandomMoves(u8),
    /// Lowest score (Black) of a random board.
    RandomMin(i8),
    /// Highest score (Black) of a random board.
    RandomMax(i8),
    /// Accept AI's Loss on or off.
    AcceptAiLoss(bool),
    /// The maximum loss at every point of the curve.
    AiMaxLoss(u8),
    /// The occurring ratio (percent) at every point of the curve.
    AiLossPercent(u8),
    /// Egaroucid's Default: 2 discs, 30 %.
    AiLossDefault,
    /// An AI profile was loaded: its settings replace the AI's.
    AiProfile(super::profile::AiSettings),
    /// A display profile was loaded.
    DisplayProfile(Display),
    /// One point of one curve (the curve editor): curve, point 0–14, value (snapped).
    AiLossPoint(crate::modal::loss_curves::Curve, usize, u8),
}

/// The display switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggle {
    /// Legal-move dots.
    Legal,
    /// Hint values.
    Hints,
    /// Hint search labels.
    HintLevel,
    /// Last-move mark.
    LastMove,
    /// Next-move mark.
    NextMove,
    /// Next move drawn as a square.
    NextMoveAsSquare,
    /// Stable discs.
    Stable,
    /// Info panel.
    Info,
    /// Graph.
    Graph,
    /// Log.
    Log,
    /// Colour-vision-friendly palette.
    AltPalette,
    /// Book accuracy labels.
    BookAccuracy,
    /// Umigame numbers.
    Umigame,
    /// A random board's line before its generated position, drawn and analysed like the rest.
    RandomGraph,
    /// Marks on the discs the last move flipped.
    FlippedLast,
    /// Marks on the discs the hovered move would flip.
    FlippedHover,
    /// Hint values coloured by their loss.
    ColorizeHints,
    /// The pointer drawn as a laser pointer over the board.
    LaserPointer,
    /// The clocks in the info panel.
    Timer,
    /// AI's Focus.
    Focus,
    /// Hint values on the AI's turn.
    HintsOnAiTurn,
    /// The Archive Explorer panel.
    Explorer,
}

impl Settings {
    /// Applies `change`, clamped to the setting's range; `true` when the engine must be rebuilt (threads, table
    /// size, evaluation).
    pub fn apply(&mut self, change: Change) -> bool {
        let s = self;
        let mut reconfigure = false;
        match change {
            Change::Level(level) => s.level = level.clamp(*LEVELS.start(), *LEVELS.end()),
            Change::Threads(threads) => {
                s.threads = threads.clamp(*THREADS.start(), *THREADS.end());
                reconfigure = true;
            }
            Change::HashLevel(level) => {
                s.hash_level = level.clamp(*HASH_LEVELS.start(), *HASH_LEVELS.end());
                reconfigure = true;
            }
            Change::Evaluation(evaluation) => {
                reconfigure = s.evaluation != evaluation;
                s.evaluation = evaluation;
            }
            Change::AiBlack(on) => s.ai_plays_black = on,
            Change::AiWhite(on) => s.ai_plays_white = on,
            Change::PauseOnPass(on) => s.pause_on_pass = on,
            Change::XotNewGames(on) => s.xot_new_games = on,
            Change::ScreenshotCoordinates(on) => s.screenshot_coordinates = on,
            Change::ScreenshotMargin(m) => s.screenshot_margin = m.min(*super::SCREENSHOT_MARGINS.end()),
            Change::ProfileAutoSave(super::profile::ProfileKind::Ai, auto) => s.ai_profile_autosave = auto,
            Change::ProfileAutoSave(super::profile::ProfileKind::Display, auto) => s.display_profile_autosave = auto,
            Change::HintCount(n) => s.display.hint_count = n.clamp(*HINT_COUNTS.start(), *HINT_COUNTS.end()),
            Change::Display(toggle, on) => *display_flag(&mut s.display, toggle) = on,
            Change::PlayOrder(order) => s.display.play_order = order,
            Change::GraphMode(mode) => s.display.graph_mode = mode,
            Change::EndgameError(from) => s.display.endgame_error = from,
            Change::UmigameDepth(depth) => {
                s.display.umigame_depth = depth.clamp(*UMIGAME_DEPTHS.start(), *UMIGAME_DEPTHS.end());
            }
            Change::ForceOpenings(on) => s.force_openings = on,
            Change::BoardStyle(style) => s.display.board_style = style,
            Change::Review(review) => s.review = review.clamped(),
            Change::AiStyle(style) => s.ai_style = style.clamped(),
            Change::TimerMinutes(m) => s.display.timer_minutes = m.min(*super::TIMER_MINUTES.end()),
            Change::UmigameError(error) => s.display.umigame_error = error.min(*UMIGAME_ERRORS.end()),
            Change::UmigameMin(v) if UMIGAME_SCORES.contains(&v) => {
                s.display.umigame_min = v;
                s.display.umigame_max = s.display.umigame_max.max(v);
            }
            Change::UmigameMax(v) if UMIGAME_SCORES.contains(&v) => {
                s.display.umigame_max = v;
                s.display.umigame_min = s.display.umigame_min.min(v);
            }
            Change::UmigameMin(_) | Change::UmigameMax(_) => {}
            Change::UseBook(on) => s.use_book = on,
            Change::BookDepth(v) => s.book.depth = v.min(*BOOK_DEPTHS.end()),
            Change::BookErrorPerMove(v) => s.book.error_per_move = v.min(*BOOK_ERRORS.end()),
            Change::BookErrorSum(v) => s.book.error_sum = v.min(*BOOK_ERRORS.end()),
            Change::BookErrorLeaf(v) => s.book.error_leaf = v.min(*BOOK_ERRORS.end()),
            Change::BookRightClick(on) => s.book.right_click_edit = on,
            Change::RandomMoves(n) => s.random_board.moves = n.clamp(*RANDOM_MOVES.start(), *RANDOM_MOVES.end()),
            Change::RandomMin(v) => s.random_board.set_min(v),
            Change::RandomMax(v) => s.random_board.set_max(v),
            Change::AcceptAiLoss(on) => s.accept_ai_loss = on,
            Change::AiMaxLoss(v) => s.ai_loss = LossCurves::flat(v, s.ai_loss.percent_points()[0]),
            Change::AiLossPercent(p) => s.ai_loss = LossCurves::flat(s.ai_loss.max_loss_points()[0], p),
            Change::AiLossDefault => s.ai_loss = LossCurves::default(),
            Change::AiProfile(ai) => {
                s.level = ai.level.clamp(*LEVELS.start(), *LEVELS.end());
                s.threads = ai.threads.clamp(*THREADS.start(), *THREADS.end());
                s.hash_level = ai.hash_level.clamp(*HASH_LEVELS.start(), *HASH_LEVELS.end());
                s.evaluation = ai.evaluation;
                s.use_book = ai.use_book;
                s.accept_ai_loss = ai.accept_ai_loss;
                s.ai_loss = ai.ai_loss;
                reconfigure = true;
            }
            Change::DisplayProfile(display) => s.display = display,
            Change::AiLossPoint(curve, point, value) => {
                s.ai_loss = crate::modal::loss_curves::with_point(&s.ai_loss, curve, point, value);
            }
        }
        reconfigure
    }
}

/// The field behind a display switch.
fn display_flag(display: &mut Display, toggle: Toggle) -> &mut bool {
    match toggle {
        Toggle::Legal => &mut display.show_legal,
        Toggle::Hints => &mut display.show_hints,
        Toggle::HintLevel => &mut display.show_hint_level,
        Toggle::LastMove => &mut display.show_last_move,
        Toggle::NextMove => &mut display.show_next_move,
        Toggle::NextMoveAsSquare => &mut display.next_move_as_square,
        Toggle::Stable => &mut display.show_stable,
        Toggle::Info => &mut display.show_info,
        Toggle::Graph => &mut display.show_graph,
        Toggle::Log => &mut display.show_log,
        Toggle::AltPalette => &mut display.alt_palette,
        Toggle::BookAccuracy => &mut display.show_book_accuracy,
        Toggle::Umigame => &mut display.show_umigame,
        Toggle::RandomGraph => &mut display.show_random_graph,
        Toggle::FlippedLast => &mut display.show_flipped_last,
        Toggle::FlippedHover => &mut display.show_flipped_hover,
        Toggle::ColorizeHints => &mut display.colorize_hints,
        Toggle::LaserPointer => &mut display.laser_pointer,
        Toggle::Timer => &mut display.show_timer,
        Toggle::Focus => &mut display.show_focus,
        Toggle::HintsOnAiTurn => &mut display.hints_on_ai_turn,
        Toggle::Explorer => &mut display.show_explorer,
    }
}

/// The current value of a display switch.
#[must_use]
pub fn display_value(display: &Display, toggle: Toggle) -> bool {
    let mut copy = *display;
    *display_flag(&mut copy, toggle)
}
