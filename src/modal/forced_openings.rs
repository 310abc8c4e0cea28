//! Settings ▸ Opening Setting… (Egaroucid's forced-opening editor, inventory §7.6): the folder shown, its openings
//! (transcript, weight, on/off, delete, move to the parent folder) and subfolders (open, on/off, delete), a line to
//! register (typed, or the game's line up to the move shown), a new folder, and the folder's own switch and weight.
//! Register stays disabled while the transcript is not a legal line or the weight not a positive number. Every change
//! goes to the root at once, which saves the tree in the background.

use iced::widget::{Column, button, checkbox, column, container, row, scrollable, text, text_input};
use iced::{Alignment, Element, Length};
use shirokuro_engine::notation::parse_transcript;

use crate::forced_opening::store::valid_folder_name;
use crate::forced_opening::{Folder, Opening};
use crate::i18n::{Strings, fill};

/// Messages of the box.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// Into this subfolder.
    Open(usize),
    /// To the parent folder.
    Up,
    /// The folder shown on or off.
    FolderEnabled(bool),
    /// The folder's weight typed.
    FolderWeight(String),
    /// A subfolder on or off.
    SubfolderEnabled(usize, bool),
    /// Delete a subfolder and all it holds.
    DeleteFolder(usize),
    /// An opening on or off.
    OpeningEnabled(usize, bool),
    /// An opening's weight typed.
    OpeningWeight(usize, String),
    /// Delete an opening.
    DeleteOpening(usize),
    /// Move an opening to the parent folder.
    MoveUp(usize),
    /// The transcript to register typed.
    Transcript(String),
    /// Its weight typed.
    Weight(String),
    /// The game's line into the transcript field.
    UseGameLine,
    /// Register the typed line.
    Register,
    /// The new folder's name typed.
    FolderName(String),
    /// Create the folder.
    CreateFolder,
}

/// The box's state.
#[derive(Debug)]
pub struct ForcedOpeningsBox {
    root: Folder,
    path: Vec<usize>,
    game_line: String,
    transcript: String,
    weight: String,
    folder_name: String,
    /// Weights being typed (kept as text until they are numbers).
    folder_weight: String,
    opening_weights: Vec<String>,
}

/// A positive, finite weight.
fn weight_of(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|w| w.is_finite() && *w > 0.0)
}

impl ForcedOpeningsBox {
    /// The box over `root`; `game_line` is the game's line up to the move shown (for "Use the Game's Line").
    #[must_use]
    pub fn new(root: Folder, game_line: String) -> ForcedOpeningsBox {
        let mut form = ForcedOpeningsBox {
            root,
            path: Vec::new(),
            game_line,
            transcript: String::new(),
            weight: "1".to_owned(),
            folder_name: String::new(),
            folder_weight: String::new(),
            opening_weights: Vec::new(),
        };
        form.sync_fields();
        form
    }

    /// The tree as edited.
    #[must_use]
    pub fn root(&self) -> &Folder {
        &self.root
    }

    fn folder(&self) -> &Folder {
        self.root.at(&self.path).unwrap_or(&self.root)
    }

    fn folder_mut(&mut self) -> &mut Folder {
        if self.root.at(&self.path).is_none() {
            self.path.clear();
        }
        // The path was just checked (an empty path is the root itself).
        let mut folder = &mut self.root;
        for &i in &self.path {
            folder = &mut folder.folders[i];
        }
        folder
    }

    /// The weight fields follow the folder shown.
    fn sync_fields(&mut self) {
        let folder = self.folder();
        let (weight, openings) =
            (folder.weight.to_string(), folder.openings.iter().map(|o| o.weight.to_string()).collect());
        self.folder_weight = weight;
        self.opening_weights = openings;
    }

    /// The moves of the typed transcript, when it is a legal line of at least one move.
    fn typed_line(&self) -> Option<Vec<shirokuro_engine::Square>> {
        let moves: Vec<_> = parse_transcript(&self.transcript)
            .ok()?
            .moves
            .into_iter()
            .filter_map(shirokuro_engine::Move::square)
            .collect();
        (!moves.is_empty()).then_some(moves)
    }

    /// Handles a message; returns the tree when it changed (to be saved).
    pub fn update(&mut self, message: Message) -> Option<Folder> {
        let changed = match message {
            Message::Open(index) => {
                if self.folder().folders.get(index).is_some() {
                    self.path.push(index);
                    self.sync_fields();
                }
                false
            }
            Message::Up => {
                let _parent = self.path.pop();
                self.sync_fields();
                false
            }
            Message::FolderEnabled(on) => {
                self.folder_mut().enabled = on;
                true
            }
            Message::FolderWeight(text) => {
                let weight = weight_of(&text);
                self.folder_weight = text;
                weight.map(|w| self.folder_mut().weight = w).is_some()
            }
            Message::SubfolderEnabled(index, on) => {
                self.folder_mut().folders.get_mut(index).map(|f| f.enabled = on).is_some()
            }
            Message::DeleteFolder(index) => {
                let folder = self.folder_mut();
                (index < folder.folders.len()).then(|| folder.folders.remove(index)).is_some()
            }
            Message::OpeningEnabled(index, on) => {
                self.folder_mut().openings.get_mut(index).map(|o| o.enabled = on).is_some()
            }
            Message::OpeningWeight(index, text) => {
                let weight = weight_of(&text);
                if let Some(field) = self.opening_weights.get_mut(index) {
                    *field = text;
                }
                match (weight, self.folder_mut().openings.get_mut(index)) {
                    (Some(w), Some(opening)) => {
                        opening.weight = w;
                        true
                    }
                    _ => false,
                }
            }
            Message::DeleteOpening(index) => {
                let folder = self.folder_mut();
                let removed = (index < folder.openings.len()).then(|| folder.openings.remove(index)).is_some();
                self.sync_fields();
                removed
            }
            Message::MoveUp(index) => {
                let (_, parent_path) = self.path.split_last()?;
                let parent_path = parent_path.to_vec();
                let folder = self.folder_mut();
                if index >= folder.openings.len() {
                    return None;
                }
                let opening = folder.openings.remove(index);
                if let Some(parent) = self.root.at_mut(&parent_path) {
                    parent.openings.push(opening);
                }
                self.sync_fields();
                true
            }
            Message::Transcript(text) => {
                self.transcript = text;
                false
            }
            Message::Weight(text) => {
                self.weight = text;
                false
            }
            Message::UseGameLine => {
                self.transcript.clone_from(&self.game_line);
                false
            }
            Message::Register => match (self.typed_line(), weight_of(&self.weight)) {
                (Some(moves), Some(weight)) => {
                    self.folder_mut().openings.push(Opening { moves, weight, enabled: true });
                    self.transcript.clear();
                    self.sync_fields();
                    true
                }
                _ => false,
            },
            Message::FolderName(text) => {
                self.folder_name = text;
                false
            }
            Message::CreateFolder => {
                let name = self.folder_name.trim().to_owned();
                let folder = self.folder_mut();
                if !valid_folder_name(&name) || folder.folders.iter().any(|f| f.name == name) {
                    return None;
                }
                folder.folders.push(Folder { name, ..Folder::default() });
                folder.folders.sort_by(|a, b| a.name.cmp(&b.name));
                self.folder_name.clear();
                true
            }
        };
        changed.then(|| self.root.clone())
    }

    /// The folder shown and the forms.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, on: fn(Message) -> M, close: M) -> Element<'a, M> {
        let folder = self.folder();
        let mut names = vec![s.forced_root.clone()];
        let mut at = &self.root;
        for &i in &self.path {
            if let Some(sub) = at.folders.get(i) {
                names.push(sub.name.clone());
                at = sub;
            }
        }
        let mut header =
            row![text(names.join(" / ")).size(15).width(Length::Fill)].spacing(8).align_y(Alignment::Center);
        if !self.path.is_empty() {
            header = header
                .push(container(button(text(s.forced_up.clone()).size(12)).on_press(on(Message::Up))).id("forced-up"));
            header = header.push(
                checkbox(folder.enabled)
                    .label(s.forced_enabled.clone())
                    .text_size(13)
                    .on_toggle(move |b| on(Message::FolderEnabled(b))),
            );
            header = header.push(text(s.forced_weight.clone()).size(13));
            header = header.push(
                text_input("1", &self.folder_weight).on_input(move |t| on(Message::FolderWeight(t))).width(60).size(13),
            );
        }
        let mut list = Column::new().spacing(3);
        for (index, sub) in folder.folders.iter().enumerate() {
            list = list.push(
                row![
                    container(
                        button(text(format!("{} /", sub.name)).size(13))
                            .style(button::text)
                            .on_press(on(Message::Open(index)))
                    )
                    .id(format!("forced-folder-{index}"))
                    .width(Length::Fill),
                    checkbox(sub.enabled)
                        .label(s.forced_enabled.clone())
                        .text_size(12)
                        .on_toggle(move |b| on(Message::SubfolderEnabled(index, b))),
                    text(fill(&s.forced_folder_weight, &[&sub.weight])).size(12),
                    button(text(s.forced_delete.clone()).size(12)).on_press(on(Message::DeleteFolder(index))),
                ]
                .spacing(8)
                .align_y(Alignment::Center),
            );
        }
        for (index, opening) in folder.openings.iter().enumerate() {
            let weight = self.opening_weights.get(index).cloned().unwrap_or_default();
            let mut line = row![
                text(opening.transcript()).size(13).width(Length::Fill),
                checkbox(opening.enabled)
                    .label(s.forced_enabled.clone())
                    .text_size(12)
                    .on_toggle(move |b| on(Message::OpeningEnabled(index, b))),
                text(s.forced_weight.clone()).size(12),
                text_input("1", &weight).on_input(move |t| on(Message::OpeningWeight(index, t))).width(60).size(12),
                container(button(text(s.forced_delete.clone()).size(12)).on_press(on(Message::DeleteOpening(index))))
                    .id(format!("forced-delete-{index}")),
            ]
            .spacing(8)
            .align_y(Alignment::Center);
            if !self.path.is_empty() {
                line = line.push(button(text(s.forced_move_up.clone()).size(12)).on_press(on(Message::MoveUp(index))));
            }
            list = list.push(line);
        }
        if folder.folders.is_empty() && folder.openings.is_empty() {
            list = list.push(text(s.forced_empty.clone()).size(13));
        }
        let valid = self.typed_line().is_some() && weight_of(&self.weight).is_some();
        let register =
            button(text(s.forced_register.clone()).size(13)).on_press_maybe(valid.then(|| on(Message::Register)));
        let add = row![
            container(
                text_input(&s.forced_transcript, &self.transcript)
                    .on_input(move |t| on(Message::Transcript(t)))
                    .on_submit(on(Message::Register))
                    .size(13)
            )
            .id("forced-transcript")
            .width(Length::Fill),
            text(s.forced_weight.clone()).size(12),
            text_input("1", &self.weight).on_input(move |t| on(Message::Weight(t))).width(60).size(13),
            container(register).id("forced-register"),
            container(button(text(s.forced_game_line.clone()).size(12)).on_press(on(Message::UseGameLine)))
                .id("forced-game-line"),
        ]
        .spacing(8)
        .align_y(Alignment::Center);
        let folder_ok =
            valid_folder_name(&self.folder_name) && !folder.folders.iter().any(|f| f.name == self.folder_name.trim());
        let new_folder = row![
            container(
                text_input(&s.forced_folder_name, &self.folder_name)
                    .on_input(move |t| on(Message::FolderName(t)))
                    .size(13)
            )
            .id("forced-folder-name")
            .width(Length::Fill),
            container(
                button(text(s.forced_new_folder.clone()).size(13))
                    .on_press_maybe(folder_ok.then(|| on(Message::CreateFolder)))
            )
            .id("forced-create-folder"),
        ]
        .spacing(8)
        .align_y(Alignment::Center);
        column![
            text(s.forced_title.clone()).size(18),
            text(s.forced_help.clone()).size(12),
            header,
            container(scrollable(list.padding([0, 12])).height(Length::Fixed(300.0))).id("forced-list"),
            add,
            new_folder,
            button(text(s.close.clone())).on_press(close),
        ]
        .spacing(8)
        .padding(16)
        .width(Length::Fixed(720.0))
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_registered_only_when_legal_and_folders_nest() {
        let mut form = ForcedOpeningsBox::new(Folder::default(), "f5d6c3".to_owned());
        let _ = form.update(Message::Transcript("f5a1".into()));
        assert_eq!(form.update(Message::Register), None, "not a legal line");
        let _ = form.update(Message::UseGameLine);
        let _ = form.update(Message::Weight("0".into()));
        assert_eq!(form.update(Message::Register), None, "not a positive weight");
        let _ = form.update(Message::Weight("2".into()));
        let tree = form.update(Message::Register).expect("registered");
        assert_eq!(tree.openings[0].transcript(), "f5d6c3");
        assert_eq!(tree.openings[0].weight, 2.0);
        let _ = form.update(Message::FolderName("a/b".into()));
        assert_eq!(form.update(Message::CreateFolder), None, "not a folder name");
        let _ = form.update(Message::FolderName("Tiger".into()));
        let tree = form.update(Message::CreateFolder).expect("created");
        assert_eq!(tree.folders[0].name, "Tiger");
        let _ = form.update(Message::Open(0));
        let _ = form.update(Message::Transcript("f5d6c3d3c4".into()));
        let _ = form.update(Message::Register);
        let tree = form.update(Message::FolderWeight("3".into())).expect("weight set");
        assert_eq!((tree.folders[0].weight, tree.folders[0].openings.len()), (3.0, 1));
        // Moved to the parent: the root has both lines now.
        let tree = form.update(Message::MoveUp(0)).expect("moved");
        assert_eq!((tree.openings.len(), tree.folders[0].openings.len()), (2, 0));
        let _ = form.update(Message::Up);
        let tree = form.update(Message::DeleteFolder(0)).expect("deleted");
        assert!(tree.folders.is_empty());
    }
}
