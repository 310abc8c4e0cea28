//! Lines of the log panel, kept as data and put into words in the current language when shown (so switching the
//! language re-words the whole log).

use shirokuro_engine::Move;

use crate::book::{Operation, Outcome};
use crate::i18n::{Strings, fill};

/// Which search a line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// The AI's move.
    Move,
    /// Hint values.
    Hints,
    /// Analysis of the line.
    Analysis,
    /// Generating a random board.
    RandomBoard,
    /// AI's Focus.
    Focus,
}

/// One line of the log panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogLine {
    /// The engine was (re)built.
    EngineReady {
        /// Search threads.
        threads: u16,
        /// Table size exponent.
        hash_level: u8,
        /// Whether the network is added to the patterns (Settings ▸ Evaluation, and its file read).
        network: bool,
    },
    /// The transposition tables were cleared.
    CacheCleared,
    /// A search returned after a cancel, this long after it.
    Stopped {
        /// The search.
        search: Search,
        /// Microseconds from the cancel to the return.
        micros: u64,
    },
    /// The game was saved to this file.
    GameSaved(std::path::PathBuf),
    /// Game ▸ Review's text was saved there.
    ReviewSaved(std::path::PathBuf),
    /// A game was opened from this file.
    GameOpened(std::path::PathBuf),
    /// A screenshot was saved to this file.
    ScreenshotSaved(std::path::PathBuf),
    /// The screenshot was put on the clipboard.
    ScreenshotCopied,
    /// A random board was made.
    RandomBoard {
        /// Its moves.
        moves: u8,
        /// Its score for Black.
        black_score: i32,
        /// Tries it took.
        tries: usize,
    },
    /// One finished iteration of the AI's search.
    Iteration {
        /// Depth completed.
        depth: u8,
        /// Selectivity in percent; `None` for an exact result.
        percent: Option<String>,
        /// Score for the side to move.
        score: i32,
        /// Principal variation (first moves).
        pv: Vec<Move>,
        /// Nodes so far.
        nodes: u64,
        /// Nodes per second.
        nps: u64,
    },
    /// A finished move search.
    MoveSearched {
        /// Level.
        level: u8,
        /// The move (`None` when the game is over).
        best: Option<Move>,
        /// Score for the side to move.
        score: i32,
        /// Whether the score is exact.
        exact: bool,
        /// Depth reached.
        depth: u8,
        /// Nodes.
        nodes: u64,
        /// Milliseconds.
        millis: u64,
        /// Nodes per second.
        nps: u64,
    },
    /// The AI played a book move.
    BookMove {
        /// The move.
        mv: Move,
        /// Its book value for the side that played it.
        value: i32,
    },
    /// The AI played the move of a forced opening.
    ForcedMove(shirokuro_engine::Square),
    /// An analysis finished.
    AnalysisDone {
        /// Its level.
        level: u8,
    },
    /// The engine chose a move the record refused (a defect, reported rather than hidden).
    MoveRejected {
        /// The move.
        mv: Option<Move>,
    },
    /// A book operation started.
    BookStarted(Operation),
    /// A book operation ended.
    BookFinished(Operation, Outcome),
}

impl LogLine {
    /// The line in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            LogLine::EngineReady { threads, hash_level, network } => {
                let evaluation = if *network { &s.log_evaluation_network } else { &s.log_evaluation_patterns };
                fill(&s.log_engine_ready, &[threads, hash_level, evaluation])
            }
            LogLine::CacheCleared => s.log_cache_cleared.clone(),
            LogLine::Stopped { search, micros } => {
                let ms = format!("{:.1}", *micros as f64 / 1e3);
                fill(&s.log_stopped, &[&search_name(s, *search), &ms])
            }
            LogLine::GameSaved(path) => fill(&s.log_game_saved, &[&path.display()]),
            LogLine::ReviewSaved(path) => fill(&s.log_review_saved, &[&path.display()]),
            LogLine::GameOpened(path) => fill(&s.log_game_opened, &[&path.display()]),
            LogLine::ScreenshotSaved(path) => fill(&s.log_screenshot, &[&path.display()]),
            LogLine::ScreenshotCopied => s.log_screenshot_copied.clone(),
            LogLine::RandomBoard { moves, black_score, tries } => {
                fill(&s.log_random_board, &[moves, &format!("{black_score:+}"), tries])
            }
            LogLine::Iteration { depth, percent, score, pv, nodes, nps } => {
                let selectivity = percent.as_ref().map_or_else(|| s.log_exact.clone(), |p| format!("{p}%"));
                let pv = moves(pv);
                fill(&s.log_iteration, &[depth, &selectivity, &format!("{score:+}"), &pv, nodes, nps])
            }
            LogLine::MoveSearched { level, best, score, exact, depth, nodes, millis, nps } => {
                let best = best.map_or_else(|| "-".to_owned(), |mv| mv.to_string());
                let score = if *exact { format!("{score:+} {}", s.log_exact) } else { format!("{score:+}") };
                let secs = format!("{:.3}", *millis as f64 / 1e3);
                fill(&s.log_move_searched, &[level, &best, &score, depth, nodes, &secs, nps])
            }
            LogLine::BookMove { mv, value } => fill(&s.log_book_move, &[mv, &format!("{value:+}")]),
            LogLine::ForcedMove(square) => fill(&s.log_forced_move, &[&square.to_lowercase()]),
            LogLine::AnalysisDone { level } => fill(&s.log_analysis_done, &[level]),
            LogLine::MoveRejected { mv } => {
                fill(&s.log_move_rejected, &[&mv.map_or_else(|| "-".to_owned(), |mv| mv.to_string())])
            }
            LogLine::BookStarted(operation) => fill(&s.log_book_started, &[&operation.name(s)]),
            LogLine::BookFinished(operation, outcome) => {
                let name = operation.name(s);
                match outcome {
                    Outcome::Done { positions, added } => fill(&s.log_book_done, &[&name, positions, added]),
                    Outcome::Stopped { positions, added } => fill(&s.log_book_stopped, &[&name, positions, added]),
                    Outcome::Failed(error) => fill(&s.log_book_failed, &[&name, &error.text(s)]),
                    Outcome::NoFile => fill(&s.log_book_failed, &[&name, &s.book_no_file]),
                }
            }
        }
    }
}

fn moves(pv: &[Move]) -> String {
    pv.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

fn search_name(s: &Strings, search: Search) -> String {
    match search {
        Search::Move => s.log_search_move.clone(),
        Search::Hints => s.log_search_hints.clone(),
        Search::Analysis => s.log_search_analysis.clone(),
        Search::Focus => s.show_focus.clone(),
        Search::RandomBoard => s.log_search_random.clone(),
    }
}
