//! Settings ▸ Shortcut Button Settings… and Mouse Additional Button Settings… (Egaroucid's two scenes, one box here):
//! a function, or none, for each of the six shortcut buttons and for the mouse's middle, back and forward buttons;
//! **Default** for Egaroucid's (no shortcut buttons; back = Backward, forward = Forward). Each change goes to the
//! settings at once.

use std::fmt;

use iced::widget::{Column, button, column, container, pick_list, row, text};
use iced::{Alignment, Element, Length};

use crate::i18n::{Strings, fill};
use crate::settings::shortcuts::{Buttons, Function, MouseButton, ON_SCREEN};

/// Messages of the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    /// A shortcut button's function.
    OnScreen(usize, Option<Function>),
    /// A mouse button's function.
    Mouse(MouseButton, Option<Function>),
    /// Egaroucid's defaults.
    Default,
}

/// One entry of a function list: a function or none, with its name in the UI language.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Choice {
    function: Option<Function>,
    label: String,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

/// The box's state: the buttons as edited.
#[derive(Debug)]
pub struct ButtonsBox {
    buttons: Buttons,
}

impl ButtonsBox {
    /// The box over the current buttons.
    #[must_use]
    pub fn new(buttons: Buttons) -> ButtonsBox {
        ButtonsBox { buttons }
    }

    /// Handles a message; returns the new buttons.
    pub fn update(&mut self, message: Message) -> Buttons {
        match message {
            Message::OnScreen(index, function) => {
                if let Some(slot) = self.buttons.on_screen.get_mut(index) {
                    *slot = function;
                }
            }
            Message::Mouse(button, function) => self.buttons.set_mouse(button, function),
            Message::Default => self.buttons = Buttons::default(),
        }
        self.buttons
    }

    /// The lists of functions.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, on: fn(Message) -> M, close: M) -> Element<'a, M> {
        let choices: Vec<Choice> = std::iter::once(Choice { function: None, label: "-".to_owned() })
            .chain(Function::ALL.iter().map(|&f| Choice { function: Some(f), label: f.label(s).to_owned() }))
            .collect();
        let chosen = |function: Option<Function>| choices.iter().find(|c| c.function == function).cloned();
        let line =
            |caption: String, id: String, current: Option<Function>, send: Box<dyn Fn(Option<Function>) -> M>| {
                let list = pick_list(choices.clone(), chosen(current), move |c: Choice| send(c.function)).text_size(13);
                row![text(caption).size(13).width(Length::Fixed(200.0)), container(list).id(id)]
                    .spacing(8)
                    .align_y(Alignment::Center)
            };
        let mut on_screen = Column::new().spacing(4);
        for index in 0..ON_SCREEN {
            let current = self.buttons.on_screen.get(index).copied().flatten();
            let send = Box::new(move |f| on(Message::OnScreen(index, f)));
            on_screen =
                on_screen.push(line(fill(&s.button_number, &[&(index + 1)]), format!("button-{index}"), current, send));
        }
        let mut mouse = Column::new().spacing(4);
        for (button, caption) in MouseButton::ALL.into_iter().zip([&s.mouse_middle, &s.mouse_back, &s.mouse_forward]) {
            let send = Box::new(move |f| on(Message::Mouse(button, f)));
            let id = format!("mouse-{button:?}").to_lowercase();
            mouse = mouse.push(line(caption.clone(), id, self.buttons.mouse(button), send));
        }
        column![
            text(s.buttons_title.clone()).size(18),
            text(s.buttons_on_screen.clone()).size(14),
            on_screen,
            text(s.buttons_mouse.clone()).size(14),
            mouse,
            row![
                container(button(text(s.shortcut_default.clone())).on_press(on(Message::Default)))
                    .id("buttons-default"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(8),
        ]
        .spacing(8)
        .padding(16)
        .width(Length::Fixed(560.0))
        .into()
    }
}
