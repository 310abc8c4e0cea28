//! The root message: each feature's messages wrapped, and the few the root handles itself.

use std::path::PathBuf;

use iced::keyboard;
use shirokuro_engine::fsutil::IoFailure;

use crate::book;
use crate::dialog::{self, Picked};
use crate::engine_worker;
use crate::game::{self, Mode};
use crate::i18n::Language;
use crate::in_out;
use crate::modal;
use crate::open_file;
use crate::settings::Change;

/// Root messages.
#[derive(Debug, Clone)]
pub enum Message {
    /// A game message.
    Game(game::Message),
    /// A Book feature message.
    Book(book::Message),
    /// An In/Out message.
    InOut(in_out::Message),
    /// An Archive Explorer message.
    Explorer(crate::explorer::Message),
    /// A training screen's message.
    Study(crate::study::Message),
    /// Open a training screen (Operate ▸ Best-Move Quiz, Game ▸ Opening Trainer, Display ▸ Study Progress).
    OpenStudy(crate::study::Open),
    /// A message of the box shown.
    Modal(modal::Message),
    /// An event from the engine worker.
    Engine(engine_worker::Event),
    /// Game ▸ New Game in this mode.
    NewGame(Mode),
    /// A settings change.
    Setting(Change),
    /// Language menu.
    LanguageSelected(Language),
    /// Help ▸ About.
    About,
    /// Help ▸ Website.
    Website,
    /// Settings ▸ AI's Loss ▸ Edit the Curves….
    LossCurves,
    /// Settings ▸ Shortcut Key Settings…: open its box.
    ShortcutKeys,
    /// Settings ▸ Shortcut Button / Mouse Additional Button Settings…: open their box.
    ButtonSettings,
    /// A shortcut button was clicked: start its function.
    Run(crate::settings::shortcuts::Function),
    /// One of the mouse's extra buttons was pressed: start the function it was given, if any.
    MouseButton(crate::settings::shortcuts::MouseButton),
    /// Help ▸ Data Migration: Export Data… (`true`) or Import Data… (`false`): open its box.
    Migration(bool),
    /// An export was written (or not).
    Exported(Result<PathBuf, crate::migration::MigrationError>),
    /// An export was read back (or not).
    Imported(Result<(PathBuf, crate::settings::Loaded), crate::migration::MigrationError>),
    /// Settings ▸ Opening Setting…: open the forced-opening editor.
    ForcedOpenings,
    /// The forced openings were read from the data folder (at start).
    ForcedLoaded(
        Result<
            (crate::forced_opening::Folder, crate::forced_opening::store::Skipped),
            shirokuro_engine::fsutil::IoFailure,
        >,
    ),
    /// The forced openings were saved (or not).
    ForcedSaved(Result<(), crate::fsutil::SaveFailure>),
    /// Settings ▸ AI Profile… or Display ▸ Display Profile….
    Profiles(crate::settings::profile::ProfileKind),
    /// A profile was read (or not).
    ProfileLoaded(
        crate::settings::profile::ProfileKind,
        String,
        Result<Box<crate::settings::Settings>, shirokuro_engine::fsutil::IoFailure>,
    ),
    /// A profile was written (or not).
    ProfileSaved(crate::settings::profile::ProfileKind, String, Result<(), crate::modal::profiles::Problem>),
    /// An auto-save of a profile on exit ended (a failure is logged; the app ends anyway).
    ProfilesAutoSaved,
    /// Help ▸ How to Use: open the manual.
    HowToUse,
    /// Help ▸ Licences.
    Licences,
    /// Help ▸ Report a Problem: open the issue tracker.
    ReportProblem,
    /// The desktop was asked to show this address or file (or could not be).
    LinkOpened(String, Result<(), IoFailure>),
    /// Open this file (given on the command line or dropped on the window): a game, a book or a transcript.
    OpenFile(PathBuf),
    /// What the file to open holds was read.
    FileClassified(open_file::Classified),
    /// The window was moved to this position.
    WindowMoved(iced::Point),
    /// Book ▸ Book Deviate with Transcripts: open its box.
    DeviateTranscripts,
    /// A system file dialog answered (with the request it answers).
    FilePicked(dialog::Request, Picked),
    /// A key press no widget took.
    Key(keyboard::Event),
    /// The window was resized to this size.
    WindowResized(iced::Size),
    /// The settings file was written (or not).
    SettingsSaved(Result<(), crate::fsutil::SaveFailure>),
    /// Game ▸ Review's text was saved (or not).
    ReviewSaved(Result<PathBuf, crate::fsutil::SaveFailure>),
    /// A notice was dismissed.
    NoticeDismissed(usize),
    /// A quarter of a second passed while a long job runs (the progress line redraws).
    Tick,
    /// The window's close button, or a signal (SIGTERM, SIGHUP, SIGINT): end once the book and settings are saved.
    CloseRequested,
}
