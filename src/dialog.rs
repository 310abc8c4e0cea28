//! File dialogs: the system's (through `rfd`: the desktop portal, or zenity) when there is one, otherwise — or when
//! it fails to open — the app's own file chooser ([`crate::modal::file_chooser`]), so that saving a game or importing
//! a book always works.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use iced::Task;

use crate::book::Operation;

/// What a file is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// In/Out ▸ Open Game.
    OpenGame,
    /// In/Out ▸ Save Game.
    SaveGame,
    /// A Book menu item that needs a file (Import, Export, Merge, Book Reference).
    Book(Operation),
    /// Game ▸ Review's Export: the review as text.
    ExportReview,
    /// Game records to import into the game archive.
    Archive,
}

impl Purpose {
    /// Whether the file is written (so it need not exist).
    #[must_use]
    pub const fn saves(self) -> bool {
        match self {
            Purpose::SaveGame | Purpose::ExportReview => true,
            Purpose::OpenGame | Purpose::Archive => false,
            Purpose::Book(operation) => operation.writes_file(),
        }
    }

    /// The extensions offered (without the dot).
    #[must_use]
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Purpose::OpenGame | Purpose::SaveGame => &["json"],
            Purpose::ExportReview => &["txt"],
            Purpose::Book(operation) => operation.extensions(),
            Purpose::Archive => crate::explorer::EXTENSIONS,
        }
    }

    /// Whether `path` has one of the offered extensions.
    #[must_use]
    pub fn accepts(self, path: &Path) -> bool {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        extension.is_some_and(|e| self.extensions().contains(&e.as_str()))
    }
}

/// What came of a system file dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    /// The user chose this file.
    Chosen(PathBuf),
    /// The user closed the dialog.
    Cancelled,
    /// No system dialog could be shown: the app's own chooser takes over.
    Unavailable,
}

/// A request for a file: what for, the folder to start in and the name proposed when saving.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// What the file is for.
    pub purpose: Purpose,
    /// The folder to start in.
    pub folder: PathBuf,
    /// The file name proposed (saving).
    pub name: Option<String>,
    /// The filter's name in the current language ("Book files", "Game files").
    pub filter: String,
}

/// A dialog that answers sooner than this did not open: no person closes a file dialog this fast.
const TOO_FAST: Duration = Duration::from_millis(250);

/// Whether a system dialog can be shown at all. On Linux and the BSDs `rfd` needs the desktop portal (over the
/// session bus) or zenity; without either it returns at once as if cancelled.
#[must_use]
pub fn system_dialog_available() -> bool {
    if cfg!(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd")) {
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty()) || on_path("zenity")
    } else {
        true
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Shows the system's dialog for `request` in the background; the answer comes back through `done` with the
/// request (whose folder and name the app's own chooser starts from when there is no system dialog).
pub fn pick<M: Send + 'static>(request: Request, done: impl Fn(Request, Picked) -> M + Send + 'static) -> Task<M> {
    if !system_dialog_available() {
        return Task::done(done(request, Picked::Unavailable));
    }
    Task::perform(
        async move {
            // The folder may not exist yet; the dialog then starts wherever the system likes.
            let _ = std::fs::create_dir_all(&request.folder);
            let dialog = rfd::AsyncFileDialog::new()
                .add_filter(request.filter.clone(), request.purpose.extensions())
                .set_directory(&request.folder);
            let opened = Instant::now();
            let handle = if request.purpose.saves() {
                let dialog = match &request.name {
                    Some(name) => dialog.set_file_name(name),
                    None => dialog,
                };
                dialog.save_file().await
            } else {
                dialog.pick_file().await
            };
            let picked = match handle {
                Some(handle) => Picked::Chosen(handle.path().to_path_buf()),
                None if opened.elapsed() < TOO_FAST => Picked::Unavailable,
                None => Picked::Cancelled,
            };
            (request, picked)
        },
        move |(request, picked)| done(request, picked),
    )
}
