//! The profiles' file work for the profiles box: list, load, save, rename and delete, each on a background task;
//! a loaded profile's settings are applied as one settings change. The profile last loaded or saved of each kind is
//! the current one: with Auto-Save on, settings of that kind changed since are written back on exit (Egaroucid's
//! Profile Auto-Save: over the profile, or as a new one named after it and the date).

use iced::Task;

use super::App;
use crate::message::Message;
use crate::modal::profiles::{self, Problem, Request};
use crate::modal::{self, Modal};
use crate::settings::profile::{self, AiSettings, AutoSave, Part, ProfileKind};
use crate::settings::{Change, Settings};

/// A profiles box message, as the root's.
fn to_box(message: profiles::Message) -> Message {
    Message::Modal(modal::Message::Profiles(message))
}

/// The index of `kind` in [`App`]'s profile fields.
fn slot(kind: ProfileKind) -> usize {
    match kind {
        ProfileKind::Ai => 0,
        ProfileKind::Display => 1,
    }
}

/// At start the current profiles hold what the settings hold (auto-save wrote them back at the last exit).
pub(super) fn bases_at_start(settings: &Settings) -> [Option<Part>; 2] {
    [
        settings.ai_profile.as_ref().map(|_| profile::part(ProfileKind::Ai, settings)),
        settings.display_profile.as_ref().map(|_| profile::part(ProfileKind::Display, settings)),
    ]
}

impl App {
    /// Opens the profiles box of `kind` and reads its list.
    pub(super) fn open_profiles(&mut self, kind: ProfileKind) -> Task<Message> {
        self.modal = Some(Modal::Profiles(profiles::ProfilesBox::new(kind)));
        self.profile_request(kind, Request::List)
    }

    fn current_profile(&mut self, kind: ProfileKind) -> &mut Option<String> {
        match kind {
            ProfileKind::Ai => &mut self.settings.ai_profile,
            ProfileKind::Display => &mut self.settings.display_profile,
        }
    }

    /// Carries out a request of the profiles box in the background.
    pub(super) fn profile_request(&mut self, kind: ProfileKind, request: Request) -> Task<Message> {
        let data = self.paths.data_dir.clone();
        match request {
            Request::List => Task::perform(async move { profile::list(&data, kind).map_err(Into::into) }, |listed| {
                to_box(profiles::Message::Listed(listed))
            }),
            Request::Load(name) => Task::perform(
                {
                    let name = name.clone();
                    async move { profile::load(&data, kind, &name).map(Box::new).map_err(Into::into) }
                },
                move |loaded| Message::ProfileLoaded(kind, name.clone(), loaded),
            ),
            Request::Save(name) => {
                let settings = self.settings.clone();
                let target = name.clone();
                let saved = async move { profile::save(&settings, &data, kind, &target).map_err(Problem::Save) };
                Task::perform(saved, move |saved| Message::ProfileSaved(kind, name.clone(), saved))
            }
            Request::Rename { from, to } => {
                let current = self.current_profile(kind);
                if current.as_deref() == Some(from.as_str()) {
                    *current = Some(to.clone());
                }
                Task::perform(
                    async move { profile::rename(&data, kind, &from, &to).map_err(|e| Problem::Io(e.into())) },
                    done,
                )
            }
            Request::Delete(name) => {
                let current = self.current_profile(kind);
                if current.as_deref() == Some(name.as_str()) {
                    *current = None;
                    self.profile_bases[slot(kind)] = None;
                }
                Task::perform(
                    async move { profile::delete(&data, kind, &name).map_err(|e| Problem::Io(e.into())) },
                    done,
                )
            }
        }
    }

    /// A profile was read: its settings replace the current ones of its kind, it becomes the current profile, and
    /// the box closes.
    pub(super) fn profile_loaded(
        &mut self,
        kind: ProfileKind,
        name: String,
        loaded: Result<Box<Settings>, shirokuro_engine::fsutil::IoFailure>,
    ) -> Task<Message> {
        match loaded {
            Ok(settings) => {
                self.modal = None;
                *self.current_profile(kind) = Some(name);
                let task = self.change(match kind {
                    ProfileKind::Ai => Change::AiProfile(AiSettings::of(&settings)),
                    ProfileKind::Display => Change::DisplayProfile(settings.display),
                });
                self.profile_bases[slot(kind)] = Some(profile::part(kind, &self.settings));
                task
            }
            Err(error) => self.update(to_box(profiles::Message::Failed(Problem::Io(error)))),
        }
    }

    /// A profile was written: it becomes the current one (the list is read again), or the box shows why not.
    pub(super) fn profile_saved(
        &mut self,
        kind: ProfileKind,
        name: String,
        saved: Result<(), Problem>,
    ) -> Task<Message> {
        match saved {
            Ok(()) => {
                *self.current_profile(kind) = Some(name);
                self.profile_bases[slot(kind)] = Some(profile::part(kind, &self.settings));
                let save = self.save();
                Task::batch([save, self.update(to_box(profiles::Message::Ask(Request::List)))])
            }
            Err(problem) => self.update(to_box(profiles::Message::Failed(problem))),
        }
    }

    /// On exit: the auto-saves to make (a current profile whose settings changed, with its kind's Auto-Save on),
    /// each a background task that reports [`Message::ProfilesAutoSaved`]; counted in `profiles_pending`.
    pub(super) fn auto_save_profiles(&mut self) -> Vec<Task<Message>> {
        let mut tasks = Vec::new();
        for kind in [ProfileKind::Ai, ProfileKind::Display] {
            let (auto, current) = match kind {
                ProfileKind::Ai => (self.settings.ai_profile_autosave, self.settings.ai_profile.clone()),
                ProfileKind::Display => (self.settings.display_profile_autosave, self.settings.display_profile.clone()),
            };
            let Some(current) = current else { continue };
            let changed = self.profile_bases[slot(kind)] != Some(profile::part(kind, &self.settings));
            let name = match auto {
                AutoSave::Off => continue,
                _ if !changed => continue,
                AutoSave::Overwrite => current,
                AutoSave::NewSave => {
                    let date = shirokuro_engine::calendar::UtcDateTime::of(std::time::SystemTime::now()).date();
                    profile::valid_name(&format!("{current} {date}")).unwrap_or(current)
                }
            };
            let (settings, data) = (self.settings.clone(), self.paths.data_dir.clone());
            self.profiles_pending += 1;
            tasks.push(Task::perform(
                async move {
                    if let Err(failure) = profile::save(&settings, &data, kind, &name) {
                        tracing::error!("profile auto-save of {name:?}: {failure}");
                    }
                },
                |()| Message::ProfilesAutoSaved,
            ));
        }
        tasks
    }
}

/// After a rename or a delete: the list again, or the problem (which reads the list again too).
fn done(result: Result<(), Problem>) -> Message {
    match result {
        Ok(()) => to_box(profiles::Message::Ask(Request::List)),
        Err(problem) => to_box(profiles::Message::Failed(problem)),
    }
}
