//! Game ▸ Opening Trainer (being built).

use iced::widget::text;
use iced::{Element, Task};

use super::{Env, Step};
use crate::i18n::Strings;

/// Messages of the opening trainer.
#[derive(Debug, Clone)]
pub enum Message {}

/// The opening trainer.
#[derive(Debug)]
pub struct Trainer {
    env: Env,
}

impl Trainer {
    /// The trainer.
    pub fn new(env: Env) -> (Trainer, Task<Message>) {
        (Trainer { env }, Task::none())
    }

    /// Handles `message`.
    pub fn update(&mut self, message: Message) -> Step<Message> {
        match message {}
    }

    /// The screen.
    pub fn view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let _ = &self.env;
        text(s.trainer_title.clone()).into()
    }
}
