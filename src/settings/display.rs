//! The `[display]` table: what the board, the panels and the graph show.

use serde::{Deserialize, Serialize};

pub use crate::widget::board_style::BoardStyle;

use super::{HINT_COUNTS, any, take, unknown_keys};
use crate::notice::Notice;

/// Display options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Display {
    /// Dots on the legal moves.
    pub show_legal: bool,
    /// Hint values on the best moves.
    pub show_hints: bool,
    /// How many hint values (35 = all).
    pub hint_count: u8,
    /// The "Lv N" / "NN%" label under each hint value.
    pub show_hint_level: bool,
    /// A mark on the last move.
    pub show_last_move: bool,
    /// A mark on the next move of the record while reviewing.
    pub show_next_move: bool,
    /// Draw the next move as a square outline instead of a faint disc.
    pub next_move_as_square: bool,
    /// Dots on stable discs.
    pub show_stable: bool,
    /// The information panel.
    pub show_info: bool,
    /// The evaluation graph.
    pub show_graph: bool,
    /// The engine log.
    pub show_log: bool,
    /// The colour-vision-friendly palette for the graph.
    pub alt_palette: bool,
    /// The accuracy label (A–F, AA–AF) and level of book moves.
    pub show_book_accuracy: bool,
    /// The umigame numbers of book moves.
    pub show_umigame: bool,
    /// Egaroucid's "Show Random Position Graph": a random board's line before its generated position is drawn and
    /// analysed like the rest (off: drawn grey and not analysed).
    pub show_random_graph: bool,
    /// Marks on the discs the last move flipped.
    pub show_flipped_last: bool,
    /// Marks on the discs the hovered legal move would flip.
    pub show_flipped_hover: bool,
    /// Move numbers on the discs (Egaroucid's Play Ordering).
    pub play_order: PlayOrder,
    /// Hint values coloured by sign and certainty (Egaroucid's Colorized Hint).
    pub colorize_hints: bool,
    /// What the graph draws.
    pub graph_mode: GraphMode,
    /// Egaroucid's Endgame Error under the graph, and from which move.
    pub endgame_error: EndgameError,
    /// Umigame numbers: positions with `depth + 4` discs or more count as one line each (1–60).
    pub umigame_depth: u8,
    /// Umigame numbers: the accumulated error of the lines counted (0 = best moves only, 21 = no limit).
    pub umigame_error: u8,
    /// Umigame numbers: only lines whose value for Black is at least this (−64, −8 … 8, 64).
    pub umigame_min: i8,
    /// Umigame numbers: only lines whose value for Black is at most this.
    pub umigame_max: i8,
    /// Egaroucid's Laser Pointer: the pointer drawn as a red glow over the board.
    pub laser_pointer: bool,
    /// The clocks in the info panel (Egaroucid's On Info Area ▸ Timer).
    pub show_timer: bool,
    /// Each player's time in minutes (0 = no limit: the clocks count up); with a limit the AI plays by its clock.
    pub timer_minutes: u8,
    /// The board's colours (on screen and in screenshots; Egaroucid's Edit Board Image).
    pub board_style: BoardStyle,
    /// Egaroucid's AI's Focus: each disc tinted by its worth to Black (orange) or White (blue).
    pub show_focus: bool,
    /// Egaroucid's Display on AI's turn: the hint values of the AI's moves, found before it searches.
    pub hints_on_ai_turn: bool,
    /// The Archive Explorer panel: the archive's games through the position shown (in the log's place).
    pub show_explorer: bool,
}

/// The timer's minutes per player; 0 means no limit.
pub const TIMER_MINUTES: std::ops::RangeInclusive<u8> = 0..=60;

/// The umigame depths.
pub const UMIGAME_DEPTHS: std::ops::RangeInclusive<u8> = 1..=60;
/// The umigame errors; the top one means no limit.
pub const UMIGAME_ERRORS: std::ops::RangeInclusive<u8> = 0..=21;
/// The umigame score bounds Egaroucid's two-handle slider offers, lowest first: −64, −8 … 8, 64.
pub const UMIGAME_SCORES: [i8; 19] = [-64, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 64];

impl Display {
    /// The umigame settings the book views are computed with.
    #[must_use]
    pub fn umigame(&self) -> shirokuro_engine::book::views::UmigameSettings {
        let error = if self.umigame_error >= *UMIGAME_ERRORS.end() { 10_000 } else { i32::from(self.umigame_error) };
        let range = (i32::from(self.umigame_min), i32::from(self.umigame_max));
        shirokuro_engine::book::views::UmigameSettings {
            depth: self.umigame_depth,
            error,
            black_range: (range != (-64, 64)).then_some(range),
        }
    }
}

/// What the graph draws (Egaroucid's Graph ▸ Evaluation / Sum of Loss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphMode {
    /// The predicted final disc difference, Black up.
    #[default]
    Evaluation,
    /// Each player's accumulated loss, from 0 downwards.
    SumOfLoss,
}

/// Egaroucid's Endgame Error: each player's summed loss over the last moves, shown under the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndgameError {
    /// Not shown (the search-plan legend is).
    #[default]
    Off,
    /// Moves 40–60 (into positions of 44 discs or more).
    From40,
    /// Moves 41–60.
    From41,
}

impl EndgameError {
    /// The fewest discs of a position whose move counts, when shown.
    #[must_use]
    pub fn from_discs(self) -> Option<u32> {
        match self {
            EndgameError::Off => None,
            EndgameError::From40 => Some(44),
            EndgameError::From41 => Some(45),
        }
    }
}

/// Egaroucid's Play Ordering: the number of the move that placed each disc, drawn on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayOrder {
    /// No numbers.
    #[default]
    Off,
    /// On the discs as they stand now (Board Format).
    Board,
    /// On discs of the colour of the player who placed them, as a written transcript shows them (Transcript Format).
    Transcript,
}

impl Default for Display {
    fn default() -> Display {
        Display {
            show_legal: true,
            show_hints: true,
            hint_count: 35,
            show_hint_level: true,
            show_last_move: true,
            show_next_move: true,
            next_move_as_square: false,
            show_stable: false,
            show_info: true,
            show_graph: true,
            show_log: true,
            alt_palette: false,
            // On from the first start: the default book's accuracy letters and umigame counts are what a newcomer
            // opens a study tool for.
            show_book_accuracy: true,
            show_umigame: true,
            show_random_graph: false,
            show_flipped_last: false,
            show_flipped_hover: false,
            play_order: PlayOrder::Off,
            colorize_hints: false,
            graph_mode: GraphMode::Evaluation,
            endgame_error: EndgameError::Off,
            umigame_depth: 60,
            umigame_error: 0,
            umigame_min: -64,
            umigame_max: 64,
            laser_pointer: false,
            show_timer: false,
            timer_minutes: 0,
            board_style: BoardStyle::Green,
            show_focus: false,
            hints_on_ai_turn: false,
            show_explorer: false,
        }
    }
}

impl Display {
    /// Display options from the `[display]` table, value by value.
    pub(super) fn from_table(mut t: toml::Table, notices: &mut Vec<Notice>) -> Display {
        let d = Display::default();
        let p = "display.";
        let mut flag = |t: &mut toml::Table, key: &str, default: bool| take(t, p, key, any, notices).unwrap_or(default);
        let show_legal = flag(&mut t, "show_legal", d.show_legal);
        let show_hints = flag(&mut t, "show_hints", d.show_hints);
        let show_hint_level = flag(&mut t, "show_hint_level", d.show_hint_level);
        let show_last_move = flag(&mut t, "show_last_move", d.show_last_move);
        let show_next_move = flag(&mut t, "show_next_move", d.show_next_move);
        let next_move_as_square = flag(&mut t, "next_move_as_square", d.next_move_as_square);
        let show_stable = flag(&mut t, "show_stable", d.show_stable);
        let show_info = flag(&mut t, "show_info", d.show_info);
        let show_graph = flag(&mut t, "show_graph", d.show_graph);
        let show_log = flag(&mut t, "show_log", d.show_log);
        let alt_palette = flag(&mut t, "alt_palette", d.alt_palette);
        let show_book_accuracy = flag(&mut t, "show_book_accuracy", d.show_book_accuracy);
        let show_umigame = flag(&mut t, "show_umigame", d.show_umigame);
        let show_random_graph = flag(&mut t, "show_random_graph", d.show_random_graph);
        let show_flipped_last = flag(&mut t, "show_flipped_last", d.show_flipped_last);
        let show_flipped_hover = flag(&mut t, "show_flipped_hover", d.show_flipped_hover);
        let colorize_hints = flag(&mut t, "colorize_hints", d.colorize_hints);
        let laser_pointer = flag(&mut t, "laser_pointer", d.laser_pointer);
        let show_timer = flag(&mut t, "show_timer", d.show_timer);
        let show_focus = flag(&mut t, "show_focus", d.show_focus);
        let hints_on_ai_turn = flag(&mut t, "hints_on_ai_turn", d.hints_on_ai_turn);
        let show_explorer = flag(&mut t, "show_explorer", d.show_explorer);
        let board_style = take(&mut t, p, "board_style", any, notices).unwrap_or(d.board_style);
        let timer_minutes =
            take(&mut t, p, "timer_minutes", |v| TIMER_MINUTES.contains(v), notices).unwrap_or(d.timer_minutes);
        let play_order = take(&mut t, p, "play_order", any, notices).unwrap_or(d.play_order);
        let graph_mode = take(&mut t, p, "graph_mode", any, notices).unwrap_or(d.graph_mode);
        let endgame_error = take(&mut t, p, "endgame_error", any, notices).unwrap_or(d.endgame_error);
        let umigame_depth =
            take(&mut t, p, "umigame_depth", |v| UMIGAME_DEPTHS.contains(v), notices).unwrap_or(d.umigame_depth);
        let umigame_error =
            take(&mut t, p, "umigame_error", |v| UMIGAME_ERRORS.contains(v), notices).unwrap_or(d.umigame_error);
        let score = |v: &i8| UMIGAME_SCORES.contains(v);
        let umigame_min = take(&mut t, p, "umigame_min", score, notices).unwrap_or(d.umigame_min);
        let umigame_max = take(&mut t, p, "umigame_max", score, notices).unwrap_or(d.umigame_max);
        let (umigame_min, umigame_max) =
            if umigame_min <= umigame_max { (umigame_min, umigame_max) } else { (d.umigame_min, d.umigame_max) };
        let hint_count = take(&mut t, p, "hint_count", |v| HINT_COUNTS.contains(v), notices).unwrap_or(d.hint_count);
        unknown_keys(t, p, notices);
        Display {
            show_legal,
            show_hints,
            hint_count,
            show_hint_level,
            show_last_move,
            show_next_move,
            next_move_as_square,
            show_stable,
            show_info,
            show_graph,
            show_log,
            alt_palette,
            show_book_accuracy,
            show_umigame,
            show_random_graph,
            show_flipped_last,
            show_flipped_hover,
            play_order,
            colorize_hints,
            graph_mode,
            endgame_error,
            umigame_depth,
            umigame_error,
            umigame_min,
            umigame_max,
            laser_pointer,
            show_timer,
            timer_minutes,
            board_style,
            show_focus,
            hints_on_ai_turn,
            show_explorer,
        }
    }
}
