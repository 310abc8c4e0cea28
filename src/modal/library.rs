//! In/Out ▸ Game Library (Egaroucid's): the games saved in `<data dir>/games` and its folders, newest first; a click
//! opens one. Ctrl-click and Shift-click select (or the check boxes), Ctrl+A selects all; the selection can be deleted
//! (to the recycle bin), copied (Ctrl+C) or cut (Ctrl+X) and pasted (Ctrl+V) into another folder; folders can be
//! made, renamed and deleted; the recycle bin restores or is emptied. The file work runs in the background
//! (`crate::game_library`), and the folder is read again after each change.

use std::collections::BTreeSet;
use std::path::PathBuf;

use iced::keyboard::Modifiers;
use iced::widget::{Column, button, checkbox, column, container, row, scrollable, text, text_input};
use iced::{Alignment, Element, Length, Task};

use crate::game_library::{self, LibraryEntry, LibraryError, Listing, RECYCLE_BIN};
use crate::i18n::{Strings, fill};

/// Messages of the box.
#[derive(Debug, Clone)]
pub enum Message {
    /// The folder was read.
    Listed(Result<Listing, LibraryError>),
    /// A file operation ended.
    Done(Result<(), LibraryError>),
    /// Into this subfolder.
    Folder(String),
    /// To the parent folder.
    Up,
    /// Into the recycle bin.
    Bin,
    /// A game's line was clicked: Ctrl toggles it in the selection, Shift selects up to it, else it opens.
    Row(usize),
    /// A game's check box.
    Check(usize, bool),
    /// Select every game of the folder (Ctrl+A).
    SelectAll,
    /// Hold the selection to paste a copy (Ctrl+C).
    Copy,
    /// Hold the selection to move it (Ctrl+X).
    Cut,
    /// Paste what is held into the folder shown (Ctrl+V).
    Paste,
    /// Move the selection to the recycle bin (Delete).
    Delete,
    /// Move the selection out of the recycle bin, into the library's top folder.
    Restore,
    /// Remove everything in the recycle bin.
    EmptyBin,
    /// The folder name typed.
    Name(String),
    /// Make a folder with that name here.
    NewFolder,
    /// Rename the folder shown.
    RenameFolder,
    /// Move the folder shown (and all it holds) to the recycle bin.
    DeleteFolder,
    /// The keyboard's modifiers changed (for Ctrl- and Shift-clicks).
    Modifiers(Modifiers),
}

/// What the root must do for the box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    None,
    /// Run this file work in the background and hand its message back.
    Work(Job),
    /// Open this game.
    Open(PathBuf),
}

/// File work of the library, done in the background ([`Job::run`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Read a folder (`true`: the library's top folder).
    List(PathBuf, bool),
    /// Copy games into a folder.
    Copy(Vec<PathBuf>, PathBuf),
    /// Move games or folders into a folder.
    Move(Vec<PathBuf>, PathBuf),
    /// Empty the recycle bin of the library at this root.
    EmptyBin(PathBuf),
    /// Make a folder with this name in a folder.
    NewFolder(PathBuf, String),
    /// Rename a folder.
    Rename(PathBuf, String),
}

impl Job {
    /// Does the work (blocking: call it off the UI thread); the message to give the box.
    #[must_use]
    pub fn run(self) -> Message {
        match self {
            Job::List(folder, is_root) => Message::Listed(game_library::list(&folder, is_root)),
            Job::Copy(games, dest) => Message::Done(game_library::copy_into(&games, &dest)),
            Job::Move(things, dest) => Message::Done(game_library::move_into(&things, &dest)),
            Job::EmptyBin(root) => Message::Done(game_library::empty_bin(&root)),
            Job::NewFolder(dir, name) => Message::Done(game_library::new_folder(&dir, &name)),
            Job::Rename(dir, name) => Message::Done(game_library::rename_folder(&dir, &name)),
        }
    }

    /// The work as a background task.
    pub fn task(self) -> Task<Message> {
        Task::perform(async move { self.run() }, std::convert::identity)
    }
}

/// Held games: to be copied or moved by Paste.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Held {
    Copy(Vec<PathBuf>),
    Cut(Vec<PathBuf>),
}

/// The box's state.
#[derive(Debug)]
pub struct LibraryBox {
    root: PathBuf,
    /// The folder shown, as names below the root (`[RECYCLE_BIN]` for the bin).
    path: Vec<String>,
    listing: Option<Listing>,
    selected: BTreeSet<usize>,
    anchor: Option<usize>,
    modifiers: Modifiers,
    held: Option<Held>,
    name: String,
    problem: Option<LibraryError>,
}

impl LibraryBox {
    /// The box over the library at `root` (the games folder) and the work that reads its top folder.
    #[must_use]
    pub fn new(root: PathBuf) -> (LibraryBox, Job) {
        let form = LibraryBox {
            root,
            path: Vec::new(),
            listing: None,
            selected: BTreeSet::new(),
            anchor: None,
            modifiers: Modifiers::empty(),
            held: None,
            name: String::new(),
            problem: None,
        };
        let read = form.read();
        (form, read)
    }

    /// The folder shown.
    #[must_use]
    pub fn folder(&self) -> PathBuf {
        self.path.iter().fold(self.root.clone(), |dir, name| dir.join(name))
    }

    fn in_bin(&self) -> bool {
        self.path.first().is_some_and(|p| p == RECYCLE_BIN)
    }

    /// The games shown (for tests), `None` while they are read.
    #[must_use]
    pub fn games(&self) -> Option<&[LibraryEntry]> {
        self.listing.as_ref().map(|l| l.games.as_slice())
    }

    /// The selected games' indices.
    #[must_use]
    pub fn selected(&self) -> Vec<usize> {
        self.selected.iter().copied().collect()
    }

    fn read(&self) -> Job {
        Job::List(self.folder(), self.path.is_empty())
    }

    /// Goes to `path` and reads it.
    fn go(&mut self, path: Vec<String>) -> Effect {
        self.path = path;
        self.listing = None;
        self.selected.clear();
        self.anchor = None;
        Effect::Work(self.read())
    }

    fn selection(&self) -> Vec<PathBuf> {
        let games = self.games().unwrap_or_default();
        self.selected.iter().filter_map(|&i| games.get(i)).map(|g| g.path.clone()).collect()
    }

    /// Runs a file operation in the background; the folder is read again when it ends.
    fn work(&mut self, job: Job) -> Effect {
        self.selected.clear();
        self.anchor = None;
        Effect::Work(job)
    }

    /// Handles a message.
    pub fn update(&mut self, message: Message) -> Effect {
        match message {
            Message::Listed(Ok(listing)) => {
                self.listing = Some(listing);
                Effect::None
            }
            Message::Listed(Err(error)) => {
                self.listing = Some(Listing::default());
                self.problem = Some(error);
                Effect::None
            }
            Message::Done(result) => {
                self.problem = result.err();
                Effect::Work(self.read())
            }
            Message::Folder(name) => {
                let mut path = self.path.clone();
                path.push(name);
                self.go(path)
            }
            Message::Up => {
                let mut path = self.path.clone();
                let _parent = path.pop();
                self.go(path)
            }
            Message::Bin => self.go(vec![RECYCLE_BIN.to_owned()]),
            Message::Modifiers(modifiers) => {
                self.modifiers = modifiers;
                Effect::None
            }
            Message::Row(index) => self.click(index),
            Message::Check(index, on) => {
                if on {
                    let _new = self.selected.insert(index);
                } else {
                    let _had = self.selected.remove(&index);
                }
                self.anchor = Some(index);
                Effect::None
            }
            Message::SelectAll => {
                self.selected = (0..self.games().map_or(0, <[LibraryEntry]>::len)).collect();
                Effect::None
            }
            Message::Copy | Message::Cut => {
                let games = self.selection();
                if !games.is_empty() {
                    self.held =
                        Some(if matches!(message, Message::Copy) { Held::Copy(games) } else { Held::Cut(games) });
                }
                Effect::None
            }
            Message::Paste => match (self.held.take(), self.in_bin()) {
                (Some(held), false) => {
                    let dest = self.folder();
                    match held {
                        Held::Copy(games) => {
                            self.held = Some(Held::Copy(games.clone()));
                            self.work(Job::Copy(games, dest))
                        }
                        Held::Cut(games) => self.work(Job::Move(games, dest)),
                    }
                }
                (held, _) => {
                    self.held = held;
                    Effect::None
                }
            },
            Message::Delete if !self.in_bin() => {
                let (games, bin) = (self.selection(), self.root.join(RECYCLE_BIN));
                if games.is_empty() { Effect::None } else { self.work(Job::Move(games, bin)) }
            }
            Message::Restore if self.in_bin() => {
                let (games, root) = (self.selection(), self.root.clone());
                if games.is_empty() { Effect::None } else { self.work(Job::Move(games, root)) }
            }
            Message::EmptyBin => {
                let root = self.root.clone();
                self.work(Job::EmptyBin(root))
            }
            Message::Name(name) => {
                self.name = name;
                Effect::None
            }
            Message::NewFolder if self.name_ok() && !self.in_bin() => {
                let (dir, name) = (self.folder(), std::mem::take(&mut self.name).trim().to_owned());
                self.work(Job::NewFolder(dir, name))
            }
            Message::RenameFolder if self.name_ok() && !self.path.is_empty() && !self.in_bin() => {
                let (dir, name) = (self.folder(), std::mem::take(&mut self.name).trim().to_owned());
                let _ = self.path.pop();
                self.path.push(name.clone());
                self.work(Job::Rename(dir, name))
            }
            Message::DeleteFolder if !self.path.is_empty() && !self.in_bin() => {
                let (dir, bin) = (self.folder(), self.root.join(RECYCLE_BIN));
                let _ = self.path.pop();
                self.work(Job::Move(vec![dir], bin))
            }
            Message::Delete | Message::Restore | Message::NewFolder | Message::RenameFolder | Message::DeleteFolder => {
                Effect::None
            }
        }
    }

    fn name_ok(&self) -> bool {
        crate::forced_opening::store::valid_folder_name(&self.name) && self.name.trim() != RECYCLE_BIN
    }

    fn click(&mut self, index: usize) -> Effect {
        if self.modifiers.command() {
            if !self.selected.insert(index) {
                let _had = self.selected.remove(&index);
            }
            self.anchor = Some(index);
            Effect::None
        } else if self.modifiers.shift() {
            let from = self.anchor.unwrap_or(index);
            self.selected.extend(from.min(index)..=from.max(index));
            Effect::None
        } else {
            self.games().and_then(|g| g.get(index)).map_or(Effect::None, |g| Effect::Open(g.path.clone()))
        }
    }

    /// The folder shown, its games and the tools.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, on: fn(Message) -> M, close: M) -> Element<'a, M> {
        let place = if self.in_bin() {
            s.library_bin.clone()
        } else {
            std::iter::once(s.game_library.as_str())
                .chain(self.path.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let mut header = row![text(place).size(18).width(Length::Fill)].spacing(8).align_y(Alignment::Center);
        if !self.path.is_empty() {
            header = header
                .push(container(button(text(s.forced_up.clone()).size(13)).on_press(on(Message::Up))).id("library-up"));
        } else {
            header = header.push(
                container(button(text(s.library_bin.clone()).size(13)).on_press(on(Message::Bin))).id("library-bin"),
            );
        }
        let mut list = Column::new().spacing(3);
        match &self.listing {
            None => list = list.push(text(s.library_reading.clone())),
            Some(listing) => {
                for name in &listing.folders {
                    let open = button(text(format!("{name} /")).size(13))
                        .style(button::text)
                        .on_press(on(Message::Folder(name.clone())));
                    list = list.push(container(open).id(format!("library-folder-{name}")));
                }
                if listing.games.is_empty() && listing.folders.is_empty() {
                    list = list.push(text(if self.in_bin() {
                        s.library_bin_empty.clone()
                    } else {
                        s.library_empty.clone()
                    }));
                }
                for (index, entry) in listing.games.iter().enumerate() {
                    let result = entry.result.map_or_else(|| "??-??".to_owned(), |(b, w)| format!("{b}-{w}"));
                    let name = |n: &str| if n.is_empty() { "—".to_owned() } else { n.to_owned() };
                    let line = fill(
                        &s.library_entry,
                        &[&entry.date, &name(&entry.black), &name(&entry.white), &result, &entry.moves, &entry.memo],
                    );
                    let selected = self.selected.contains(&index);
                    let style = if selected { button::primary } else { button::text };
                    list = list.push(
                        row![
                            checkbox(selected).on_toggle(move |b| on(Message::Check(index, b))),
                            container(
                                button(text(line).size(13))
                                    .style(style)
                                    .width(Length::Fill)
                                    .on_press(on(Message::Row(index)))
                            )
                            .id(format!("library-game-{index}"))
                            .width(Length::Fill),
                        ]
                        .spacing(6)
                        .align_y(Alignment::Center),
                    );
                }
            }
        }
        let any = !self.selected.is_empty();
        let tool = |label: &String, id: &'static str, message: Message, enabled: bool| {
            container(button(text(label.clone()).size(13)).on_press_maybe(enabled.then(|| on(message)))).id(id)
        };
        let tools = if self.in_bin() {
            row![
                tool(&s.library_restore, "library-restore", Message::Restore, any),
                tool(&s.library_empty_bin, "library-empty-bin", Message::EmptyBin, true),
            ]
        } else {
            let held = match &self.held {
                Some(Held::Copy(g) | Held::Cut(g)) => g.len(),
                None => 0,
            };
            row![
                tool(&s.library_select_all, "library-select-all", Message::SelectAll, true),
                tool(&s.forced_delete, "library-delete", Message::Delete, any),
                tool(&s.library_copy, "library-copy", Message::Copy, any),
                tool(&s.library_cut, "library-cut", Message::Cut, any),
                tool(&fill(&s.library_paste, &[&held]), "library-paste", Message::Paste, held > 0),
            ]
        }
        .spacing(8);
        let name_ok = self.name_ok();
        let mut folders = row![
            container(text_input(&s.forced_folder_name, &self.name).on_input(move |t| on(Message::Name(t))).size(13))
                .id("library-name")
                .width(Length::Fill),
        ]
        .spacing(8)
        .align_y(Alignment::Center);
        if !self.in_bin() {
            folders = folders.push(tool(&s.forced_new_folder, "library-new-folder", Message::NewFolder, name_ok));
            if !self.path.is_empty() {
                folders = folders.push(tool(
                    &s.library_rename_folder,
                    "library-rename-folder",
                    Message::RenameFolder,
                    name_ok,
                ));
                folders =
                    folders.push(tool(&s.library_delete_folder, "library-delete-folder", Message::DeleteFolder, true));
            }
        }
        let mut page = column![
            header,
            text(s.library_help.clone()).size(12),
            scrollable(list).height(Length::Fixed(360.0)),
            tools,
        ]
        .spacing(10);
        if !self.in_bin() {
            page = page.push(folders);
        }
        if let Some(problem) = &self.problem {
            page = page.push(
                text(fill(&s.library_failed, &[&problem.path.display(), &crate::failure::io(s, &problem.error)]))
                    .size(13),
            );
        }
        page.push(button(text(s.close.clone())).on_press(close)).padding(20).max_width(820).into()
    }
}
