//! The app's own file chooser, used when the system has no file dialog (no desktop portal, no zenity): a path field
//! and the entries of its folder, filtered by the purpose's extensions. Keyboard friendly: type or paste a path and
//! press Enter (a folder opens, a file is chosen); a click on a folder opens it, on a file puts it in the field.

use std::path::{Path, PathBuf};

use iced::widget::{Column, button, column, container, row, scrollable, text, text_input};
use iced::{Element, Length, Task};

use crate::dialog::Purpose;
use crate::i18n::{Strings, fill};

/// The id of the path field (focused when the chooser opens).
pub const PATH_INPUT: &str = "file-chooser-path";

/// One entry of the folder shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file or folder name.
    pub name: String,
    /// Whether it is a folder.
    pub is_dir: bool,
}

/// The chooser's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChooser {
    purpose: Purpose,
    folder: PathBuf,
    path: String,
    entries: Option<Result<Vec<Entry>, String>>,
    problem: Option<Problem>,
}

/// Why Enter did not choose the path typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Nothing typed.
    Empty,
    /// The file does not exist (opening).
    Missing,
    /// The extension is not one of the purpose's.
    Extension,
}

/// Messages of the chooser.
#[derive(Debug, Clone)]
pub enum Message {
    /// The path field changed.
    PathEdited(String),
    /// Enter in the path field, or the Choose button.
    Submit,
    /// A folder entry was clicked (open it).
    OpenFolder(String),
    /// A file entry was clicked (put it in the field).
    PickFile(String),
    /// The parent folder.
    Up,
    /// A folder's entries were read (or not).
    Listed(PathBuf, Result<Vec<Entry>, String>),
}

/// What the modal must do after an update.
#[derive(Debug)]
pub enum Action {
    /// Nothing more.
    None,
    /// Run this task (reading a folder).
    Run(Task<Message>),
    /// The file was chosen.
    Chosen(Purpose, PathBuf),
}

impl FileChooser {
    /// A chooser for `purpose` in `folder`, proposing `name` (saving); the task reads the folder.
    pub fn new(purpose: Purpose, folder: PathBuf, name: Option<String>) -> (FileChooser, Task<Message>) {
        let path = folder.join(name.unwrap_or_default()).display().to_string();
        let chooser = FileChooser { purpose, folder: folder.clone(), path, entries: None, problem: None };
        (chooser, list(folder))
    }

    /// What the file is for.
    #[must_use]
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The path in the field.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The folder's entries, once read.
    #[must_use]
    pub fn entries(&self) -> Option<&[Entry]> {
        self.entries.as_ref().and_then(|entries| entries.as_deref().ok())
    }

    /// Handles a message.
    pub fn update(&mut self, message: Message) -> Action {
        match message {
            Message::PathEdited(path) => {
                self.path = path;
                self.problem = None;
                Action::None
            }
            Message::Submit => self.submit(),
            Message::OpenFolder(name) => self.open(self.folder.join(name)),
            Message::PickFile(name) => {
                self.path = self.folder.join(name).display().to_string();
                self.problem = None;
                Action::None
            }
            Message::Up => match self.folder.parent() {
                Some(parent) => self.open(parent.to_path_buf()),
                None => Action::None,
            },
            Message::Listed(folder, entries) => {
                if folder == self.folder {
                    self.entries = Some(entries);
                }
                Action::None
            }
        }
    }

    fn open(&mut self, folder: PathBuf) -> Action {
        let name = Path::new(&self.path).file_name().filter(|_| self.purpose.saves()).map(PathBuf::from);
        self.path = name.map_or_else(|| folder.display().to_string(), |n| folder.join(n).display().to_string());
        self.folder = folder.clone();
        self.entries = None;
        self.problem = None;
        Action::Run(list(folder))
    }

    fn submit(&mut self) -> Action {
        let typed = self.path.trim();
        if typed.is_empty() {
            self.problem = Some(Problem::Empty);
            return Action::None;
        }
        let path = expand_home(typed);
        let path = if path.is_relative() { self.folder.join(path) } else { path };
        if path.is_dir() {
            return self.open(path);
        }
        if !self.purpose.accepts(&path) {
            self.problem = Some(Problem::Extension);
            return Action::None;
        }
        if !self.purpose.saves() && !path.is_file() {
            self.problem = Some(Problem::Missing);
            return Action::None;
        }
        Action::Chosen(self.purpose, path)
    }

    /// The chooser: title, the folder, the path field, the entries, Choose / Up / Close (`close` for the last).
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let extensions: Vec<String> = self.purpose.extensions().iter().map(|e| format!("*.{e}")).collect();
        let title = if self.purpose.saves() { &s.chooser_save } else { &s.chooser_open };
        let mut list = Column::new().spacing(2);
        match &self.entries {
            None => list = list.push(text(s.chooser_reading.clone()).size(13)),
            Some(Err(error)) => list = list.push(text(fill(&s.chooser_unreadable, &[error])).size(13)),
            Some(Ok(entries)) => {
                let shown: Vec<&Entry> =
                    entries.iter().filter(|e| e.is_dir || self.purpose.accepts(Path::new(&e.name))).collect();
                if shown.is_empty() {
                    list = list.push(text(s.chooser_empty.clone()).size(13));
                }
                for entry in shown {
                    let (label, message) = if entry.is_dir {
                        (format!("{}/", entry.name), Message::OpenFolder(entry.name.clone()))
                    } else {
                        (entry.name.clone(), Message::PickFile(entry.name.clone()))
                    };
                    list = list.push(
                        button(text(label).size(13)).style(button::text).width(Length::Fill).on_press(map(message)),
                    );
                }
            }
        }
        let problem = self.problem.map(|problem| match problem {
            Problem::Empty => s.chooser_empty_path.clone(),
            Problem::Missing => s.chooser_missing.clone(),
            Problem::Extension => fill(&s.chooser_extension, &[&extensions.join(" ")]),
        });
        let mut page = column![
            text(title.clone()).size(20),
            text(fill(&s.chooser_folder, &[&self.folder.display()])).size(13),
            text_input("", &self.path)
                .id(PATH_INPUT)
                .on_input(move |p| map(Message::PathEdited(p)))
                .on_submit(map(Message::Submit)),
        ]
        .spacing(8)
        .padding(20)
        .max_width(760);
        if let Some(problem) = problem {
            page = page.push(text(problem).size(13));
        }
        page = page.push(container(scrollable(list).height(Length::Fixed(360.0))).id("file-chooser-entries"));
        page = page.push(text(fill(&s.chooser_filter, &[&extensions.join(" ")])).size(12));
        page.push(
            row![
                container(button(text(s.chooser_choose.clone())).on_press(map(Message::Submit))).id("chooser-choose"),
                button(text(s.chooser_up.clone())).on_press(map(Message::Up)),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(10),
        )
        .into()
    }
}

/// `~` and `~/…` as the home folder.
fn expand_home(typed: &str) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match (typed.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => home.join(rest.trim_start_matches('/')),
        _ => PathBuf::from(typed),
    }
}

/// Reads `folder`'s entries in the background: folders first, then files, each by name; hidden entries left out.
fn list(folder: PathBuf) -> Task<Message> {
    Task::perform(
        async move {
            let read = read_entries(&folder);
            (folder, read)
        },
        |(folder, read)| Message::Listed(folder, read),
    )
}

fn read_entries(folder: &Path) -> Result<Vec<Entry>, String> {
    let dir = std::fs::read_dir(folder).map_err(|e| e.to_string())?;
    let mut entries: Vec<Entry> = dir
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            (!name.starts_with('.')).then(|| Entry { is_dir: entry.path().is_dir(), name })
        })
        .collect();
    entries.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase())));
    Ok(entries)
}
