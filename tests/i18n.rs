//! Every language has exactly the English keys, no empty string, the same `{}` placeholders, and only characters
//! the bundled font can draw.

use shirokuro::i18n::{KEYS, Language};

fn table(language: Language) -> toml::Table {
    language.source().parse().unwrap_or_else(|e| panic!("{}: {e}", language.code()))
}

#[test]
fn every_language_has_exactly_the_reference_keys() {
    let english = table(Language::English);
    let mut keys: Vec<&str> = english.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut declared: Vec<&str> = KEYS.to_vec();
    declared.sort_unstable();
    assert_eq!(keys, declared, "en.toml and the Strings struct disagree");
    for language in Language::ALL {
        let other = table(language);
        let mut other_keys: Vec<&str> = other.keys().map(String::as_str).collect();
        other_keys.sort_unstable();
        assert_eq!(other_keys, keys, "{} keys", language.code());
        // Parsing into the typed table works too.
        let _strings = language.strings();
    }
}

#[test]
fn strings_are_non_empty_and_placeholders_match() {
    let english = table(Language::English);
    for language in Language::ALL {
        for (key, value) in table(language) {
            let value = value.as_str().unwrap_or_else(|| panic!("{}.{key} is not a string", language.code()));
            assert!(!value.trim().is_empty(), "{}.{key} is empty", language.code());
            let reference = english[&key].as_str().unwrap();
            assert_eq!(
                value.matches("{}").count(),
                reference.matches("{}").count(),
                "{}.{key} has a different number of placeholders",
                language.code()
            );
        }
    }
}

#[test]
fn the_bundled_font_covers_every_character() {
    let bold = ttf_parser::Face::parse(shirokuro::FONTS[1], 0).expect("the bold font parses");
    for language in Language::ALL {
        // Each language's text is drawn in its own font (M PLUS 1, or the Noto Sans CJK subset of its region).
        let regular = ttf_parser::Face::parse(language.font(), 0).expect("the bundled font parses");
        let code = language.code();
        for (key, value) in table(language) {
            for c in value.as_str().unwrap().chars().filter(|c| !c.is_whitespace()) {
                assert!(regular.glyph_index(c).is_some(), "{code}.{key}: {c:?} missing from the font");
                if matches!(language, Language::English | Language::Japanese) {
                    assert!(bold.glyph_index(c).is_some(), "{code}.{key}: {c:?} missing from the bold font");
                }
            }
        }
        for line in shirokuro::opening::source(language).lines().filter(|l| !l.starts_with('#')) {
            for c in line.chars().filter(|c| !c.is_whitespace()) {
                assert!(regular.glyph_index(c).is_some(), "{code} opening name {line:?}: {c:?} missing from the font");
            }
        }
        // The menu marks, and every language's name as the Language menu shows it.
        for c in "›•".chars().chain(Language::ALL.iter().flat_map(|l| l.to_string().chars().collect::<Vec<_>>())) {
            let any_font =
                shirokuro::FONTS.iter().any(|f| ttf_parser::Face::parse(f, 0).unwrap().glyph_index(c).is_some());
            assert!(any_font, "{c:?} of the menus is in no bundled font");
        }
        assert!(regular.glyph_index('›').is_some() && regular.glyph_index('•').is_some(), "{code}: menu marks");
    }
}

#[test]
fn each_font_family_is_the_one_its_file_names() {
    for language in Language::ALL {
        let face = ttf_parser::Face::parse(language.font(), 0).unwrap();
        let family = face
            .names()
            .into_iter()
            .filter(|n| n.name_id == ttf_parser::name_id::FAMILY && n.is_unicode())
            .find_map(|n| n.to_string())
            .expect("a family name");
        assert_eq!(family, language.font_family(), "{}", language.code());
    }
}
