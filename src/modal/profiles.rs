//! Settings ▸ AI Profile… and Display ▸ Display Profile… (Egaroucid's profile scenes): the profiles of one kind, each
//! with Load, Overwrite (with the current settings), Rename (to the name typed) and Delete, and New Save under the
//! name typed. The files are read and written by the root in the background; the box shows the list and the last
//! problem.

use iced::widget::{button, column, container, row, scrollable, text, text_input};
use iced::{Element, Length};

use shirokuro_engine::fsutil::IoFailure;

use crate::fsutil::SaveFailure;
use crate::i18n::{Strings, fill};
use crate::settings::profile::{ProfileKind, valid_name};

/// Why a request failed, worded at view time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Reading, renaming or deleting.
    Io(IoFailure),
    /// Saving.
    Save(SaveFailure),
}

/// What the user asked of the profiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Read the list.
    List,
    /// Load this profile.
    Load(String),
    /// Save the current settings under this name (a new profile, or over an existing one).
    Save(String),
    /// Rename a profile.
    Rename {
        /// Its name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Delete this profile.
    Delete(String),
}

/// The box's state.
#[derive(Debug)]
pub struct ProfilesBox {
    kind: ProfileKind,
    /// The profiles, `None` while they are read.
    names: Option<Vec<String>>,
    name: String,
    problem: Option<Problem>,
}

/// Messages of the box.
#[derive(Debug, Clone)]
pub enum Message {
    /// The list was read (or not).
    Listed(Result<Vec<String>, IoFailure>),
    /// A name typed.
    Name(String),
    /// A button: the request to carry out.
    Ask(Request),
    /// A request failed; the list is read again.
    Failed(Problem),
}

impl ProfilesBox {
    /// A box for `kind`'s profiles (the root reads the list).
    #[must_use]
    pub fn new(kind: ProfileKind) -> ProfilesBox {
        ProfilesBox { kind, names: None, name: String::new(), problem: None }
    }

    /// Which profiles.
    #[must_use]
    pub fn kind(&self) -> ProfileKind {
        self.kind
    }

    /// Handles a message; `Some` with a request for the root to carry out.
    pub fn update(&mut self, message: Message) -> Option<Request> {
        match message {
            Message::Listed(Ok(names)) => self.names = Some(names),
            Message::Listed(Err(error)) => self.problem = Some(Problem::Io(error)),
            Message::Failed(problem) => {
                self.problem = Some(problem);
                return Some(Request::List);
            }
            Message::Name(name) => self.name = name,
            Message::Ask(request) => {
                self.problem = None;
                return Some(request);
            }
        }
        None
    }

    /// The box; `map` wraps its messages, `close` closes it.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let title = match self.kind {
            ProfileKind::Ai => &s.profile_ai_title,
            ProfileKind::Display => &s.profile_display_title,
        };
        let typed = valid_name(&self.name);
        let ask = move |request: Request| map(Message::Ask(request));
        let mut list = column![].spacing(4);
        match &self.names {
            None => list = list.push(text(s.library_reading.clone()).size(14)),
            Some(names) if names.is_empty() => list = list.push(text(s.profile_none.clone()).size(14)),
            Some(names) => {
                for name in names {
                    let rename =
                        typed.clone().filter(|to| to != name).map(|to| ask(Request::Rename { from: name.clone(), to }));
                    list = list.push(
                        row![
                            text(name.clone()).size(14).width(Length::Fill),
                            button(text(s.profile_load.clone()).size(13)).on_press(ask(Request::Load(name.clone()))),
                            button(text(s.profile_overwrite.clone()).size(13))
                                .on_press(ask(Request::Save(name.clone()))),
                            button(text(s.profile_rename.clone()).size(13)).on_press_maybe(rename),
                            button(text(s.profile_delete.clone()).size(13))
                                .on_press(ask(Request::Delete(name.clone()))),
                        ]
                        .spacing(6)
                        .align_y(iced::Alignment::Center),
                    );
                }
            }
        }
        let mut form = column![
            text(title.clone()).size(20),
            text(s.profile_help.clone()).size(13).width(560),
            container(scrollable(list)).height(Length::Fixed(220.0)),
            row![
                text_input(&s.profile_name, &self.name).id("profile-name").on_input(move |n| map(Message::Name(n))),
                container(
                    button(text(s.profile_new_save.clone())).on_press_maybe(typed.map(|name| ask(Request::Save(name))))
                )
                .id("profile-new-save"),
            ]
            .spacing(8),
        ]
        .spacing(8)
        .padding(20)
        .width(Length::Fixed(640.0));
        if let Some(problem) = &self.problem {
            let why = match problem {
                Problem::Io(error) => crate::failure::io(s, error),
                Problem::Save(failure) => crate::failure::save_failure(s, failure),
            };
            form = form.push(text(fill(&s.profile_failed, &[&why])).size(13));
        }
        form.push(button(text(s.close.clone())).on_press(close)).into()
    }
}
