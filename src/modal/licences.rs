//! Help ▸ Licences: ours, and the licence of every crate the app is built from — the list `cargo about generate`
//! writes into `resources/licences/third-party.txt` (see `packaging/licences.sh`), compiled into the app so that it
//! is there without any file. Each licence is a line with the crates under it; a click shows or hides its text.

use iced::widget::{button, column, container, scrollable, text};
use iced::{Element, Length};

use crate::i18n::Strings;

/// Our licence, the GNU GPL version 3 (the app is under version 3 or any later version).
pub const OURS: &str = include_str!("../../COPYING");

/// The generated list: sections that start with a `=== ` line.
pub const THIRD_PARTY: &str = include_str!("../../resources/licences/third-party.txt");

/// One licence text and the crates under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Licence<'a> {
    /// The licence's name and SPDX id.
    pub title: &'a str,
    /// The crates (`name version`) under this text.
    pub crates: Vec<&'a str>,
    /// The licence text.
    pub text: &'a str,
}

/// The sections of a generated list: `=== TITLE`, a `crates: a 1.0, b 2.0` line, then the text up to the next
/// section.
#[must_use]
pub fn parse(list: &str) -> Vec<Licence<'_>> {
    list.split("\n=== ")
        .filter_map(|section| {
            let section = section.strip_prefix("=== ").unwrap_or(section);
            let (title, rest) = section.split_once('\n')?;
            let (crates, text) = rest.split_once('\n').unwrap_or((rest, ""));
            let crates = crates.strip_prefix("crates: ")?.split(", ").filter(|c| !c.is_empty()).collect();
            Some(Licence { title: title.trim(), crates, text: text.trim() })
        })
        .collect()
}

/// The box's state: which licence's text is shown.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Licences {
    open: Option<usize>,
}

impl Licences {
    /// Shows licence `index`'s text, or hides it when it is shown.
    pub fn toggle(&mut self, index: usize) {
        self.open = if self.open == Some(index) { None } else { Some(index) };
    }

    /// The box: our licence, then each third-party licence with its crates; `toggle(i)` shows or hides text `i`.
    pub fn view<'a, M: Clone + 'a>(&self, s: &Strings, toggle: impl Fn(usize) -> M, close: M) -> Element<'a, M> {
        let mut list = column![].spacing(6);
        let ours = Licence { title: "GPL-3.0-or-later", crates: vec!["Shirokuro"], text: OURS.trim() };
        for (index, licence) in std::iter::once(ours).chain(parse(THIRD_PARTY)).enumerate() {
            let heading = format!("{} — {}", licence.title, licence.crates.join(", "));
            list = list.push(button(text(heading).size(13)).style(button::text).on_press(toggle(index)));
            if self.open == Some(index) {
                list = list.push(container(text(licence.text).size(12)).padding([4, 16]));
            }
        }
        // The list takes the height left by the window (at most 480 px), so Close stays in view in a small window.
        let content = column![
            text(s.licences.clone()).size(20),
            text(s.licences_intro.clone()).width(640),
            scrollable(list).height(Length::Fill).width(680),
            container(button(text(s.close.clone())).on_press(close)).id("close"),
        ]
        .spacing(10)
        .padding(20);
        container(content).max_height(680).into()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn sections_parse_into_title_crates_and_text() {
        let list = "=== MIT License (MIT)\ncrates: a 1.0.0, b 0.2.1\nPermission is hereby granted…\n\n=== Zlib\ncrates: c 3.0.0\nzlib text\n";
        let parsed = parse(list);
        assert_eq!(parsed.len(), 2);
        assert_eq!(
            parsed[0],
            Licence {
                title: "MIT License (MIT)",
                crates: vec!["a 1.0.0", "b 0.2.1"],
                text: "Permission is hereby granted…"
            }
        );
        assert_eq!(parsed[1].text, "zlib text");
    }

    /// Packages `Cargo.lock` records for optional features that nothing in our build turns on, on any target
    /// (`cargo tree --target all -e all -i NAME` prints nothing): they are not built, so they have no licence to list.
    const LOCKED_BUT_NEVER_BUILT: [&str; 17] = [
        "borsh 1.8.1",
        "borsh-derive 1.8.1",
        "dtor 0.8.1",
        "objc2-cloud-kit 0.2.2",
        "objc2-contacts 0.2.2",
        "objc2-core-data 0.2.2",
        "objc2-core-image 0.2.2",
        "objc2-core-location 0.2.2",
        "objc2-io-surface 0.3.2",
        "objc2-link-presentation 0.2.2",
        "objc2-metal 0.2.2",
        "objc2-quartz-core 0.2.2",
        "objc2-symbols 0.2.2",
        "objc2-uniform-type-identifiers 0.2.2",
        "objc2-user-notifications 0.2.2",
        "termcolor 1.4.1",
        "zlib-rs 0.6.8",
    ];

    /// The list is generated, not written by hand: every crate of `Cargo.lock` that can be built must be in it, and
    /// nothing else, so that a dependency change without `packaging/licences.sh` fails here.
    #[test]
    fn every_crate_of_the_lock_file_has_its_licence_listed() {
        let lock: toml::Table = toml::from_str(include_str!("../../Cargo.lock")).unwrap();
        let ours = ["shirokuro", "shirokuro-engine"];
        let locked: BTreeSet<String> = lock["package"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| !ours.contains(&p["name"].as_str().unwrap()))
            .map(|p| format!("{} {}", p["name"].as_str().unwrap(), p["version"].as_str().unwrap()))
            .collect();
        let listed: BTreeSet<String> =
            parse(THIRD_PARTY).iter().flat_map(|l| l.crates.iter().map(|c| (*c).to_owned())).collect();
        let missing: Vec<&String> =
            locked.difference(&listed).filter(|c| !LOCKED_BUT_NEVER_BUILT.contains(&c.as_str())).collect();
        let stale: Vec<&String> = listed.difference(&locked).collect();
        assert!(
            missing.is_empty() && stale.is_empty(),
            "run packaging/licences.sh: missing {missing:?}, stale {stale:?}"
        );
    }
}
