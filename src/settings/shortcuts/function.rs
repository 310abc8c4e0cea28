//! The functions a key or a button can be given (Egaroucid's function ids, for what exists here), with their names.
//! What each one does is `crate::shortcut::message`, above the settings.

use serde::{Deserialize, Serialize};

use crate::i18n::Strings;

macro_rules! functions {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        /// A function a shortcut key can start. The serde names are Egaroucid's function ids where it has the
        /// function, so that a shortcut file reads alike.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Function {
            $($(#[$doc])* $name,)*
        }

        impl Function {
            /// Every function, in the order of the menus.
            pub const ALL: &'static [Function] = &[$(Function::$name),*];
        }
    };
}

functions! {
    /// Start (the AI's first move, or after a pause).
    StartGame,
    /// New game, human against human.
    NewGame,
    /// New game, you as Black.
    NewGameHumanBlack,
    /// New game, you as White.
    NewGameHumanWhite,
    /// New selfplay.
    NewSelfplay,
    /// Analyze the game.
    Analyze,
    /// Review the game (grade every move).
    Review,
    /// In a review: to the position before the next mistake.
    NextMistake,
    /// In a review: to the position before the previous mistake.
    PreviousMistake,
    /// Game Information.
    GameInformation,
    /// Pass (when a pass waits for a click).
    Pass,
    /// Use Book on/off.
    UseBook,
    /// AI plays Black on/off.
    AiPutBlack,
    /// AI plays White on/off.
    AiPutWhite,
    /// Legal move dots on/off.
    ShowLegal,
    /// Hint values on/off.
    ShowDiscHint,
    /// Umigame numbers on/off.
    ShowUmigameValue,
    /// Book accuracy on/off.
    ShowBookAccuracy,
    /// Stable discs on/off.
    ShowStable,
    /// Last move mark on/off.
    ShowLastMove,
    /// Next move mark on/off.
    ShowNextMove,
    /// Information panel on/off.
    ShowInfo,
    /// Graph on/off.
    ShowGraph,
    /// Log on/off.
    ShowLog,
    /// Timer on/off.
    ShowTimer,
    /// Graph: evaluation.
    ShowGraphValue,
    /// Graph: sum of loss.
    ShowGraphSumOfLoss,
    /// Laser pointer on/off.
    ShowLaserPointer,
    /// One AI move.
    Put1MoveByAi,
    /// Forward.
    Forward,
    /// Backward.
    Backward,
    /// Undo.
    Undo,
    /// To the first position.
    GoToFirst,
    /// To the last position.
    GoToLast,
    /// Save this branch.
    SaveThisBranch,
    /// Back to the random position.
    BackToRandomPos,
    /// Generate a random board.
    GenerateRandomBoard,
    /// Generate an XOT position.
    GenerateXotPosition,
    /// Stop calculating.
    StopCalculating,
    /// Clear the transposition tables.
    CacheClear,
    /// Rotate 180°.
    ConvertRotate180,
    /// Rotate 90° clockwise.
    ConvertRotate90Clockwise,
    /// Rotate 90° counterclockwise.
    ConvertRotate90Counterclockwise,
    /// Mirror on the black line.
    ConvertBlackLine,
    /// Mirror on the white line.
    ConvertWhiteLine,
    /// Mirror left-right.
    ConvertHorizontal,
    /// Mirror top-bottom.
    ConvertVertical,
    /// Input from the clipboard.
    InputFromClipboard,
    /// Input text.
    InputText,
    /// Edit the board.
    EditBoard,
    /// Copy the transcript.
    OutputTranscript,
    /// Copy the board.
    OutputBoard,
    /// Screenshot.
    ScreenShot,
    /// Save the game.
    SaveGame,
    /// Open a game.
    OpenGame,
    /// The game library.
    GameLibrary,
    /// Book information.
    BookInfo,
    /// The manual.
    HowToUse,
    /// About.
    About,
}

impl Function {
    /// The function's name, as its menu item says it.
    #[must_use]
    pub fn label(self, s: &Strings) -> &str {
        use Function as F;
        match self {
            F::StartGame => &s.start,
            F::NewGame => &s.new_game_human,
            F::NewGameHumanBlack => &s.new_game_as_black,
            F::NewGameHumanWhite => &s.new_game_as_white,
            F::NewSelfplay => &s.new_selfplay,
            F::Analyze => &s.analyze,
            F::Review => &s.review,
            F::NextMistake => &s.review_next,
            F::PreviousMistake => &s.review_previous,
            F::GameInformation => &s.game_information,
            F::Pass => &s.pass,
            F::UseBook => &s.use_book,
            F::AiPutBlack => &s.ai_plays_black,
            F::AiPutWhite => &s.ai_plays_white,
            F::ShowLegal => &s.show_legal,
            F::ShowDiscHint => &s.show_hints,
            F::ShowUmigameValue => &s.show_umigame,
            F::ShowBookAccuracy => &s.show_book_accuracy,
            F::ShowStable => &s.show_stable,
            F::ShowLastMove => &s.show_last_move,
            F::ShowNextMove => &s.show_next_move,
            F::ShowInfo => &s.show_info,
            F::ShowGraph => &s.show_graph,
            F::ShowLog => &s.show_log,
            F::ShowTimer => &s.show_timer,
            F::ShowGraphValue => &s.graph_evaluation,
            F::ShowGraphSumOfLoss => &s.graph_sum_of_loss,
            F::ShowLaserPointer => &s.laser_pointer,
            F::Put1MoveByAi => &s.ai_one_move,
            F::Forward => &s.forward,
            F::Backward => &s.backward,
            F::Undo => &s.undo,
            F::GoToFirst => &s.first_position,
            F::GoToLast => &s.last_position,
            F::SaveThisBranch => &s.save_branch,
            F::BackToRandomPos => &s.back_to_random,
            F::GenerateRandomBoard => &s.random_generate,
            F::GenerateXotPosition => &s.generate_xot,
            F::StopCalculating => &s.stop_ai,
            F::CacheClear => &s.clear_cache,
            F::ConvertRotate180 => &s.convert_rotate180,
            F::ConvertRotate90Clockwise => &s.convert_rotate90_cw,
            F::ConvertRotate90Counterclockwise => &s.convert_rotate90_ccw,
            F::ConvertBlackLine => &s.convert_black_line,
            F::ConvertWhiteLine => &s.convert_white_line,
            F::ConvertHorizontal => &s.convert_horizontal,
            F::ConvertVertical => &s.convert_vertical,
            F::InputFromClipboard => &s.paste_transcript,
            F::InputText => &s.input_text,
            F::EditBoard => &s.edit_board,
            F::OutputTranscript => &s.copy_transcript,
            F::OutputBoard => &s.copy_board,
            F::ScreenShot => &s.screenshot,
            F::SaveGame => &s.save_game,
            F::OpenGame => &s.open_game,
            F::GameLibrary => &s.game_library,
            F::BookInfo => &s.book_info,
            F::HowToUse => &s.how_to_use,
            F::About => &s.about,
        }
    }
}
