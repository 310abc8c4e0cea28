//! User settings, stored as TOML in the platform's configuration folder.
//!
//! Loading is lenient: each value is read on its own, so a bad value falls back to its default and yields a
//! [`Notice`] the app shows; a damaged file keeps every key that still parses (the notice names the lines lost), an unreadable one (not
//! text) gives all defaults; either is left untouched and is copied to `<name>.broken` so that the next save cannot lose it. Saving is atomic and keeps a `.bak`.

use std::fs;
use std::io;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::think::loss_curves::LossCurves;

use crate::fsutil::{self, SaveFailure};
use crate::i18n::Language;
use crate::notice::{Notice, SettingsProblem};

mod ai_style;
pub mod change;
mod display;
pub mod evaluation;
pub mod profile;
mod review;
mod salvage;
pub mod shortcuts;

pub use ai_style::{AiStyle, SPARRING_AVERAGES, SPARRING_MAX_LOSSES};
pub use change::{Change, Toggle, display_value};
pub use display::{
    BoardStyle, Display, EndgameError, GraphMode, PlayOrder, TIMER_MINUTES, UMIGAME_DEPTHS, UMIGAME_ERRORS,
    UMIGAME_SCORES,
};
pub use evaluation::Evaluation;
pub use review::{REVIEW_EXACT, REVIEW_LEVELS, REVIEW_THRESHOLDS, ReviewSettings};

/// Levels the AI can play at.
pub const LEVELS: RangeInclusive<u8> = 1..=60;
/// Search threads.
/// Screenshot margins, in pixels.
pub const SCREENSHOT_MARGINS: RangeInclusive<u8> = 0..=64;
pub const THREADS: RangeInclusive<u16> = 1..=48;
/// Transposition-table sizes (2^N entries of 24 bytes, one table for the midgame and one for the endgame).
pub const HASH_LEVELS: RangeInclusive<u8> = 16..=28;
/// How many hint values can be shown (35 = every move).
pub const HINT_COUNTS: RangeInclusive<u8> = 1..=35;
/// Book learning depth (positions with at most `depth + 4` discs are learned).
pub const BOOK_DEPTHS: RangeInclusive<u8> = 0..=60;
/// Book learning errors; the top value [`BOOK_ERROR_UNLIMITED`] means no limit (Egaroucid's unchecked box).
pub const BOOK_ERRORS: RangeInclusive<u8> = 0..=25;
/// The error setting that stands for "no limit".
pub const BOOK_ERROR_UNLIMITED: u8 = 25;
/// Moves of a random board.
pub const RANDOM_MOVES: RangeInclusive<u8> = 1..=60;
/// Scores (Black's) a random board's range can have.
pub const RANDOM_SCORES: RangeInclusive<i8> = -64..=64;
/// The smallest gap between the lowest and highest score of a random board (Egaroucid's).
pub const RANDOM_SCORE_GAP: i8 = 2;
/// Window sizes remembered (logical pixels, each side).
pub const WINDOW_SIDES: RangeInclusive<u32> = 300..=16_384;
/// Window positions kept: a window further out was on a screen that is gone, and opens centred instead.
pub const WINDOW_POSITIONS: RangeInclusive<i32> = -16_384..=16_384;

/// Everything the app remembers between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// The interface language; `None` follows the operating system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// AI level (1–60), used for AI moves, hints and analysis.
    pub level: u8,
    /// Search threads.
    pub threads: u16,
    /// Transposition-table size exponent.
    pub hash_level: u8,
    /// Settings ▸ Evaluation: the patterns alone or with the network.
    pub evaluation: Evaluation,
    /// Whether the AI plays Black.
    pub ai_plays_black: bool,
    /// Whether the AI plays White.
    pub ai_plays_white: bool,
    /// Whether a human's forced pass against the AI waits for the Pass button.
    pub pause_on_pass: bool,
    /// New games start from a random XOT opening (our list) instead of the initial position.
    pub xot_new_games: bool,
    /// Egaroucid's AI Profile Auto-Save: on exit, changed AI settings go back into the profile last loaded or saved.
    pub ai_profile_autosave: profile::AutoSave,
    /// The same for the display settings.
    pub display_profile_autosave: profile::AutoSave,
    /// Screenshots show the coordinates around the board.
    pub screenshot_coordinates: bool,
    /// Screenshots keep this many pixels around the board.
    pub screenshot_margin: u8,
    /// In/Out ▸ Change Screenshot Folder…: where screenshots are saved (`None`: `screenshots/` in the data folder).
    pub screenshot_dir: Option<PathBuf>,
    /// The AI profile last loaded or saved (the one auto-save writes).
    pub ai_profile: Option<String>,
    /// The display profile last loaded or saved.
    pub display_profile: Option<String>,
    /// Whether the AI plays book moves and hints show book values.
    pub use_book: bool,
    /// The book loaded at start; `None` is `<data dir>/book.egbk3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book_file: Option<PathBuf>,
    /// Settings › Accept AI's Loss: the AI now and then plays a move that loses a little (see `ai_loss`).
    pub accept_ai_loss: bool,
    /// Window width at the last resize (logical pixels).
    pub window_width: u32,
    /// Window height at the last resize (logical pixels).
    pub window_height: u32,
    /// The window's position at the last move (`[x, y]`, logical pixels on the desktop); centred when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_position: Option<[i32; 2]>,
    /// What is shown.
    pub display: Display,
    /// Book learning limits (Book › Book Settings).
    pub book: BookSettings,
    /// Operate › Generate Random Board.
    pub random_board: RandomBoardSettings,
    /// The "Max Loss per Move" and "Occurring Ratio" curves of Accept AI's Loss (15 points, 4 moves each).
    pub ai_loss: LossCurves,
    /// Settings ▸ Force AI's Opening: the AI follows the forced openings (Opening Setting…) while the game is on one.
    pub force_openings: bool,
    /// Settings ▸ Shortcut Key Settings: which key starts which function.
    pub shortcuts: shortcuts::Shortcuts,
    /// Settings ▸ Shortcut Button / Mouse Additional Button Settings: the functions of those buttons.
    pub buttons: shortcuts::Buttons,
    /// Game ▸ Review: its level, exact range and grade thresholds.
    pub review: ReviewSettings,
    /// Settings ▸ AI Style: the engine at its level, or the human-like sparring partner.
    pub ai_style: AiStyle,
}

/// What Operate › Generate Random Board makes: a position after `moves` moves worth `score_min..=score_max` discs for
/// Black (the bounds at least [`RANDOM_SCORE_GAP`] apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RandomBoardSettings {
    /// Moves from the initial position.
    pub moves: u8,
    /// Lowest score for Black.
    pub score_min: i8,
    /// Highest score for Black.
    pub score_max: i8,
}

impl Default for RandomBoardSettings {
    fn default() -> RandomBoardSettings {
        // Egaroucid's defaults.
        RandomBoardSettings { moves: 20, score_min: -64, score_max: 64 }
    }
}

impl RandomBoardSettings {
    /// Sets the lowest score, pushing the highest up when they would be closer than [`RANDOM_SCORE_GAP`].
    pub fn set_min(&mut self, value: i8) {
        let top = RANDOM_SCORES.end() - RANDOM_SCORE_GAP;
        self.score_min = value.clamp(*RANDOM_SCORES.start(), top);
        self.score_max = self.score_max.max(self.score_min + RANDOM_SCORE_GAP);
    }

    /// Sets the highest score, pushing the lowest down when they would be closer than [`RANDOM_SCORE_GAP`].
    pub fn set_max(&mut self, value: i8) {
        let bottom = RANDOM_SCORES.start() + RANDOM_SCORE_GAP;
        self.score_max = value.clamp(bottom, *RANDOM_SCORES.end());
        self.score_min = self.score_min.min(self.score_max - RANDOM_SCORE_GAP);
    }

    /// Reads the `[random_board]` table value by value; a range with the bounds too close (or reversed) falls back
    /// to the default range.
    fn from_table(mut t: toml::Table, notices: &mut Vec<Notice>) -> RandomBoardSettings {
        let d = RandomBoardSettings::default();
        let p = "random_board.";
        let moves = take(&mut t, p, "moves", |v| RANDOM_MOVES.contains(v), notices).unwrap_or(d.moves);
        let score = |v: &i8| RANDOM_SCORES.contains(v);
        let score_min = take(&mut t, p, "score_min", score, notices).unwrap_or(d.score_min);
        let score_max = take(&mut t, p, "score_max", score, notices).unwrap_or(d.score_max);
        unknown_keys(t, p, notices);
        if i16::from(score_max) - i16::from(score_min) < i16::from(RANDOM_SCORE_GAP) {
            notices.push(Notice::BadValue { key: format!("{p}score_max") });
            return RandomBoardSettings { moves, ..d };
        }
        RandomBoardSettings { moves, score_min, score_max }
    }
}

/// Book learning limits, as Egaroucid's Book Settings: errors at [`BOOK_ERROR_UNLIMITED`] mean no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BookSettings {
    /// Positions with at most `depth + 4` discs are learned.
    pub depth: u8,
    /// Largest loss of a followed book move against the best one.
    pub error_per_move: u8,
    /// Largest accumulated loss along a line.
    pub error_sum: u8,
    /// Largest loss of a leaf that is expanded.
    pub error_leaf: u8,
    /// Right-click on a legal move edits its book value (Egaroucid's "Right-click to Change").
    pub right_click_edit: bool,
}

impl Default for BookSettings {
    fn default() -> BookSettings {
        // Egaroucid's defaults.
        BookSettings { depth: 30, error_per_move: 2, error_sum: 2, error_leaf: 2, right_click_edit: true }
    }
}

impl BookSettings {
    /// The per-move and leaf limit as the engine takes it (Egaroucid's "Inf" is 80).
    #[must_use]
    pub fn per_move_limit(value: u8) -> i32 {
        if value >= BOOK_ERROR_UNLIMITED { 80 } else { i32::from(value) }
    }

    /// The accumulated-error limit as the engine takes it (Egaroucid's "Inf" is 100000).
    #[must_use]
    pub fn sum_limit(value: u8) -> i32 {
        if value >= BOOK_ERROR_UNLIMITED { 100_000 } else { i32::from(value) }
    }

    /// Reads the `[book]` table value by value.
    fn from_table(mut t: toml::Table, notices: &mut Vec<Notice>) -> BookSettings {
        let d = BookSettings::default();
        let p = "book.";
        let errors = |v: &u8| BOOK_ERRORS.contains(v);
        let depth = take(&mut t, p, "depth", |v| BOOK_DEPTHS.contains(v), notices).unwrap_or(d.depth);
        let error_per_move = take(&mut t, p, "error_per_move", errors, notices).unwrap_or(d.error_per_move);
        let error_sum = take(&mut t, p, "error_sum", errors, notices).unwrap_or(d.error_sum);
        let error_leaf = take(&mut t, p, "error_leaf", errors, notices).unwrap_or(d.error_leaf);
        let right_click_edit = take(&mut t, p, "right_click_edit", any, notices).unwrap_or(d.right_click_edit);
        unknown_keys(t, p, notices);
        BookSettings { depth, error_per_move, error_sum, error_leaf, right_click_edit }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(32);
        Settings {
            language: None,
            // Egaroucid's default (21, "Standard").
            level: shirokuro_engine::level::Level::DEFAULT.get(),
            threads: u16::try_from(threads).unwrap_or(1),
            hash_level: shirokuro_engine::search::tt::APP_HASH_LEVEL,
            evaluation: Evaluation::default(),
            ai_plays_black: false,
            ai_plays_white: true,
            pause_on_pass: true,
            xot_new_games: false,
            ai_profile_autosave: profile::AutoSave::Off,
            display_profile_autosave: profile::AutoSave::Off,
            ai_profile: None,
            display_profile: None,
            screenshot_coordinates: true,
            screenshot_margin: 8,
            screenshot_dir: None,
            use_book: true,
            book_file: None,
            window_width: 1100,
            window_height: 720,
            window_position: None,
            display: Display::default(),
            book: BookSettings::default(),
            random_board: RandomBoardSettings::default(),
            accept_ai_loss: false,
            ai_loss: LossCurves::default(),
            force_openings: false,
            shortcuts: shortcuts::Shortcuts::default(),
            buttons: shortcuts::Buttons::default(),
            review: ReviewSettings::default(),
            ai_style: AiStyle::default(),
        }
    }
}

/// The result of [`load`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The settings to use.
    pub settings: Settings,
    /// What the user should be told.
    pub notices: Vec<Notice>,
}

/// Reads the settings at `path`: defaults if there is no file; otherwise every usable value, with a notice for each
/// one that is not.
#[must_use]
pub fn load(path: &Path) -> Loaded {
    let text = match shirokuro_engine::bounded::read(path, shirokuro_engine::bounded::SMALL_BYTES) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => return unreadable(path, SettingsProblem::NotUtf8),
        },
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Loaded { settings: Settings::default(), notices: Vec::new() };
        }
        Err(error) => return unreadable(path, SettingsProblem::Read(error.into())),
    };
    match text.parse::<toml::Table>() {
        Ok(table) => {
            let mut notices = Vec::new();
            let settings = Settings::from_table(table, &mut notices);
            Loaded { settings, notices }
        }
        Err(error) => {
            let line = error.span().map(|span| text[..span.start.min(text.len())].lines().count().max(1));
            damaged(path, &text, SettingsProblem::Toml { line })
        }
    }
}

/// The keys that can still be read from a damaged file, with a notice naming the lines lost; the file is copied to
/// `<name>.broken` first.
fn damaged(path: &Path, text: &str, problem: SettingsProblem) -> Loaded {
    let copy_failed = keep_copy(path).err().map(IoFailure::from);
    let (table, lost) = salvage::salvage(text);
    let mut notices = Vec::new();
    let settings = Settings::from_table(table, &mut notices);
    let lost = lost.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    notices.insert(0, Notice::Salvaged { problem, copy_failed, copy: copy_path(path), lost });
    Loaded { settings, notices }
}

fn copy_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".broken");
    path.with_file_name(name)
}

fn keep_copy(path: &Path) -> io::Result<u64> {
    fs::copy(path, copy_path(path))
}

/// Defaults plus an [`Notice::Unreadable`], after copying the file to `<name>.broken`.
fn unreadable(path: &Path, problem: SettingsProblem) -> Loaded {
    let copy_failed = keep_copy(path).err().map(IoFailure::from);
    let notice = Notice::Unreadable { problem, copy_failed, copy: copy_path(path) };
    Loaded { settings: Settings::default(), notices: vec![notice] }
}

/// Saves `settings` to `path` atomically, keeping the previous file as `.bak`.
///
/// # Errors
/// The step that failed (serialising cannot fail for this type, but is reported the same way, as invalid data).
pub fn save(settings: &Settings, path: &Path) -> Result<(), SaveFailure> {
    let text = toml::to_string_pretty(settings).map_err(|error| SaveFailure {
        step: None,
        error: IoFailure { kind: io::ErrorKind::InvalidData, message: error.to_string() },
    })?;
    fsutil::write_atomic(path, text.as_bytes())
}

/// Takes `key` out of `table` as a `T` accepted by `valid`; records a notice and returns `None` otherwise.
fn take<T: DeserializeOwned>(
    table: &mut toml::Table,
    prefix: &str,
    key: &str,
    valid: impl Fn(&T) -> bool,
    notices: &mut Vec<Notice>,
) -> Option<T> {
    let value = table.remove(key)?;
    match value.try_into::<T>() {
        Ok(value) if valid(&value) => Some(value),
        _ => {
            notices.push(Notice::BadValue { key: format!("{prefix}{key}") });
            None
        }
    }
}

/// Takes the sub-table `key` out of `table`: `None` when it is missing, or (with a notice) when it is not a table.
fn sub_table(table: &mut toml::Table, key: &str, notices: &mut Vec<Notice>) -> Option<toml::Table> {
    match table.remove(key)? {
        toml::Value::Table(sub) => Some(sub),
        _ => {
            notices.push(Notice::BadValue { key: key.to_owned() });
            None
        }
    }
}

/// Records every key left in `table` as unknown.
fn unknown_keys(table: toml::Table, prefix: &str, notices: &mut Vec<Notice>) {
    notices.extend(table.into_iter().map(|(key, _)| Notice::UnknownKey { key: format!("{prefix}{key}") }));
}

fn any<T>(_: &T) -> bool {
    true
}

impl Settings {
    /// Settings from a parsed TOML table, value by value.
    fn from_table(mut table: toml::Table, notices: &mut Vec<Notice>) -> Settings {
        let d = Settings::default();
        let language = take::<Language>(&mut table, "", "language", any, notices);
        let settings = Settings {
            language,
            level: take(&mut table, "", "level", |v| LEVELS.contains(v), notices).unwrap_or(d.level),
            threads: take(&mut table, "", "threads", |v| THREADS.contains(v), notices).unwrap_or(d.threads),
            hash_level: take(&mut table, "", "hash_level", |v| HASH_LEVELS.contains(v), notices)
                .unwrap_or(d.hash_level),
            evaluation: take(&mut table, "", "evaluation", any, notices).unwrap_or(d.evaluation),
            ai_plays_black: take(&mut table, "", "ai_plays_black", any, notices).unwrap_or(d.ai_plays_black),
            ai_plays_white: take(&mut table, "", "ai_plays_white", any, notices).unwrap_or(d.ai_plays_white),
            pause_on_pass: take(&mut table, "", "pause_on_pass", any, notices).unwrap_or(d.pause_on_pass),
            xot_new_games: take(&mut table, "", "xot_new_games", any, notices).unwrap_or(d.xot_new_games),
            ai_profile_autosave: take(&mut table, "", "ai_profile_autosave", any, notices)
                .unwrap_or(d.ai_profile_autosave),
            display_profile_autosave: take(&mut table, "", "display_profile_autosave", any, notices)
                .unwrap_or(d.display_profile_autosave),
            ai_profile: take(&mut table, "", "ai_profile", |n: &String| profile::valid_name(n).is_some(), notices),
            screenshot_coordinates: take(&mut table, "", "screenshot_coordinates", any, notices)
                .unwrap_or(d.screenshot_coordinates),
            screenshot_margin: take(&mut table, "", "screenshot_margin", |m| SCREENSHOT_MARGINS.contains(m), notices)
                .unwrap_or(d.screenshot_margin),
            screenshot_dir: take(&mut table, "", "screenshot_dir", |p: &PathBuf| p.is_absolute(), notices),
            display_profile: take(
                &mut table,
                "",
                "display_profile",
                |n: &String| profile::valid_name(n).is_some(),
                notices,
            ),
            use_book: take(&mut table, "", "use_book", any, notices).unwrap_or(d.use_book),
            book_file: take(&mut table, "", "book_file", |p: &PathBuf| !p.as_os_str().is_empty(), notices),
            window_width: take(&mut table, "", "window_width", |v| WINDOW_SIDES.contains(v), notices)
                .unwrap_or(d.window_width),
            window_height: take(&mut table, "", "window_height", |v| WINDOW_SIDES.contains(v), notices)
                .unwrap_or(d.window_height),
            window_position: take(
                &mut table,
                "",
                "window_position",
                |[x, y]: &[i32; 2]| WINDOW_POSITIONS.contains(x) && WINDOW_POSITIONS.contains(y),
                notices,
            ),
            book: sub_table(&mut table, "book", notices).map_or(d.book, |t| BookSettings::from_table(t, notices)),
            accept_ai_loss: take(&mut table, "", "accept_ai_loss", any, notices).unwrap_or(d.accept_ai_loss),
            force_openings: take(&mut table, "", "force_openings", any, notices).unwrap_or(d.force_openings),
            ai_loss: take(&mut table, "", "ai_loss", any, notices).unwrap_or(d.ai_loss),
            random_board: sub_table(&mut table, "random_board", notices)
                .map_or(d.random_board, |t| RandomBoardSettings::from_table(t, notices)),
            display: sub_table(&mut table, "display", notices).map_or(d.display, |t| Display::from_table(t, notices)),
            shortcuts: sub_table(&mut table, "shortcuts", notices)
                .map_or(d.shortcuts, |t| shortcuts::Shortcuts::from_table(t, notices)),
            buttons: sub_table(&mut table, "buttons", notices)
                .map_or(d.buttons, |t| shortcuts::Buttons::from_table(t, notices)),
            review: sub_table(&mut table, "review", notices)
                .map_or(d.review, |t| ReviewSettings::from_table(t, notices)),
            ai_style: sub_table(&mut table, "ai_style", notices)
                .map_or(d.ai_style, |t| AiStyle::from_table(t, notices)),
        };
        unknown_keys(table, "", notices);
        settings
    }
}

/// Where the app keeps its files, resolved once at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// The settings file.
    pub settings_file: PathBuf,
    /// The user's data folder (books, games, screenshots), in the documents folder as Egaroucid does.
    pub data_dir: PathBuf,
    /// The shipped resources (evaluation weights).
    pub resources_dir: PathBuf,
}

impl Paths {
    /// The platform folders: configuration from `directories::ProjectDirs`, data under the documents folder, resources
    /// from `SHIROKURO_RESOURCES`, next to the executable, or in the source tree.
    #[must_use]
    pub fn platform() -> Paths {
        let config_dir = directories::ProjectDirs::from("", "", "Shirokuro")
            .map_or_else(|| PathBuf::from("."), |dirs| dirs.config_dir().to_path_buf());
        let data_dir = directories::UserDirs::new()
            .and_then(|dirs| dirs.document_dir().map(Path::to_path_buf))
            .unwrap_or_else(|| config_dir.clone())
            .join("Shirokuro");
        Paths { settings_file: config_dir.join("settings.toml"), data_dir, resources_dir: resources_dir() }
    }

    /// All files inside `root` (for tests and portable use).
    #[must_use]
    pub fn inside(root: &Path) -> Paths {
        Paths { settings_file: root.join("settings.toml"), data_dir: root.join("data"), resources_dir: resources_dir() }
    }

    /// The default book: `<data dir>/book.egbk3`.
    #[must_use]
    pub fn default_book_file(&self) -> PathBuf {
        self.data_dir.join("book.egbk3")
    }

    /// The default book that comes with the app (compressed), installed as the user's book at the first start.
    #[must_use]
    pub fn shipped_book(&self) -> PathBuf {
        self.resources_dir.join("book").join(SHIPPED_BOOK)
    }

    /// The evaluation weights file.
    #[must_use]
    pub fn weights_file(&self) -> PathBuf {
        self.resources_dir.join("eval").join(shirokuro_engine::eval::weights::SHIPPED_FILE)
    }

    /// The network file `evaluation` adds to the weights (`None`: the patterns alone).
    #[must_use]
    pub fn network_file(&self, evaluation: Evaluation) -> Option<PathBuf> {
        evaluation.network_file(&self.resources_dir.join("eval"))
    }
}

/// The file name of the default book under `resources/book/`.
pub const SHIPPED_BOOK: &str = "shirokuro-book.egbk3.gz";

/// The resources folder: `SHIROKURO_RESOURCES`; else, going up from the executable's folder (four levels at most),
/// `resources/` beside it (a portable copy, a Windows installation, or the target folder of a source checkout),
/// `share/shirokuro/` (an installed package: `/usr/bin/shirokuro` finds `/usr/share/shirokuro/`) or
/// `Resources/resources/` (a macOS bundle: cargo-packager puts them in `Contents/Resources/`, keeping their folder);
/// else the source tree's.
fn resources_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SHIROKURO_RESOURCES") {
        return PathBuf::from(dir);
    }
    if let Ok(exe) = std::env::current_exe() {
        let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
        if let Some(found) = resources_near(&exe) {
            return found;
        }
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources")
}

/// The first folder holding `eval/` among `resources/`, `share/shirokuro/`, `Resources/resources/` and
/// `lib/shirokuro/resources/` beside the folders above `exe`.
fn resources_near(exe: &Path) -> Option<PathBuf> {
    exe.ancestors()
        .skip(1)
        .take(4)
        .flat_map(|dir| {
            [
                dir.join("resources"),
                dir.join("share").join("shirokuro"),
                dir.join("Resources").join("resources"),
                // cargo-packager's Linux packages (.deb, AppImage) put the resources in usr/lib/<name>/.
                dir.join("lib").join("shirokuro").join("resources"),
            ]
        })
        .find(|candidate| candidate.join("eval").is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_found_beside_the_executable_or_in_an_installed_share_folder() {
        let root = tempfile::tempdir().unwrap();
        let installed = root.path().join("usr");
        std::fs::create_dir_all(installed.join("bin")).unwrap();
        std::fs::create_dir_all(installed.join("share/shirokuro/eval")).unwrap();
        assert_eq!(resources_near(&installed.join("bin/shirokuro")), Some(installed.join("share/shirokuro")));

        let portable = root.path().join("portable");
        std::fs::create_dir_all(portable.join("resources/eval")).unwrap();
        assert_eq!(resources_near(&portable.join("shirokuro")), Some(portable.join("resources")));

        let bundle = root.path().join("Shirokuro.app/Contents");
        std::fs::create_dir_all(bundle.join("MacOS")).unwrap();
        std::fs::create_dir_all(bundle.join("Resources/resources/eval")).unwrap();
        assert_eq!(resources_near(&bundle.join("MacOS/shirokuro")), Some(bundle.join("Resources/resources")));

        let packager = root.path().join("packager/usr");
        std::fs::create_dir_all(packager.join("bin")).unwrap();
        std::fs::create_dir_all(packager.join("lib/shirokuro/resources/eval")).unwrap();
        assert_eq!(resources_near(&packager.join("bin/shirokuro")), Some(packager.join("lib/shirokuro/resources")));

        let bare = root.path().join("bare");
        std::fs::create_dir_all(&bare).unwrap();
        assert_eq!(resources_near(&bare.join("shirokuro")), None);
    }
}
