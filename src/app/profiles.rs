//! The profiles' file work for the profiles box: list, load, save, rename and delete, each on a background task;
//! a loaded profile's settings are applied as one settings change.

use iced::Task;

use super::App;
use crate::message::Message;
use crate::modal::profiles::{self, Problem, Request};
use crate::modal::{self, Modal};
use crate::settings::profile::{self, AiSettings, ProfileKind};
use crate::settings::{Change, Settings};

/// A profiles box message, as the root's.
fn to_box(message: profiles::Message) -> Message {
    Message::Modal(modal::Message::Profiles(message))
}

impl App {
    /// Opens the profiles box of `kind` and reads its list.
    pub(super) fn open_profiles(&mut self, kind: ProfileKind) -> Task<Message> {
        self.modal = Some(Modal::Profiles(profiles::ProfilesBox::new(kind)));
        self.profile_request(kind, Request::List)
    }

    /// Carries out a request of the profiles box in the background.
    pub(super) fn profile_request(&mut self, kind: ProfileKind, request: Request) -> Task<Message> {
        let data = self.paths.data_dir.clone();
        match request {
            Request::List => Task::perform(async move { profile::list(&data, kind).map_err(Into::into) }, |listed| {
                to_box(profiles::Message::Listed(listed))
            }),
            Request::Load(name) => Task::perform(
                async move { profile::load(&data, kind, &name).map(Box::new).map_err(Into::into) },
                move |loaded| Message::ProfileLoaded(kind, loaded),
            ),
            Request::Save(name) => {
                let settings = self.settings.clone();
                let saved = async move { profile::save(&settings, &data, kind, &name).map_err(Problem::Save) };
                Task::perform(saved, done)
            }
            Request::Rename { from, to } => Task::perform(
                async move { profile::rename(&data, kind, &from, &to).map_err(|e| Problem::Io(e.into())) },
                done,
            ),
            Request::Delete(name) => Task::perform(
                async move { profile::delete(&data, kind, &name).map_err(|e| Problem::Io(e.into())) },
                done,
            ),
        }
    }

    /// A profile was read: its settings replace the current ones of its kind, and the box closes.
    pub(super) fn profile_loaded(
        &mut self,
        kind: ProfileKind,
        loaded: Result<Box<Settings>, shirokuro_engine::fsutil::IoFailure>,
    ) -> Task<Message> {
        match loaded {
            Ok(settings) => {
                self.modal = None;
                self.change(match kind {
                    ProfileKind::Ai => Change::AiProfile(AiSettings::of(&settings)),
                    ProfileKind::Display => Change::DisplayProfile(settings.display),
                })
            }
            Err(error) => self.update(to_box(profiles::Message::Failed(Problem::Io(error)))),
        }
    }
}

/// After a change to the files: the list again, or the problem (which reads the list again too).
fn done(result: Result<(), Problem>) -> Message {
    match result {
        Ok(()) => to_box(profiles::Message::Ask(Request::List)),
        Err(problem) => to_box(profiles::Message::Failed(problem)),
    }
}
