//! No input makes a reader panic: every parser of files and text, and the GTP and NBoard sessions, on arbitrary bytes
//! and on lines made of their own words with arbitrary arguments (proptest; `PROPTEST_CASES` sets how many cases, and
//! CI runs the default share). Failing inputs are shrunk and printed.

use std::sync::Arc;

use proptest::prelude::*;
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::{self, BookFormat};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::format::records::{RecordFormat, parse_records_lenient};
use shirokuro_engine::format::wthor::{self, NameKind};
use shirokuro_engine::game_file::GameFile;
use shirokuro_engine::level::Level;
use shirokuro_engine::protocol::gtp::GtpSession;
use shirokuro_engine::protocol::nboard::NboardSession;
use shirokuro_engine::protocol::{ggf::parse_ggf, read_line, run_script};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Position, notation};

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..2048)
}

/// The commands that choose the level: a test session keeps to level 2 (a level-60 search of the initial position is
/// hours of work, not a hang, and is no business of a no-panic test).
const LEVEL_WORDS: [&str; 3] = ["level", "shirokuro-level", "set depth"];

/// Lines of a session: a command word of the protocol (or a stray one), then arbitrary arguments.
fn session_lines(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    let word = prop::sample::select(words);
    let argument =
        prop_oneof!["[a-h][1-8]", "-?[0-9]{1,20}", "(black|white|b|w|pass|PA|ps)", "[ -~]{0,12}", "\\PC{0,8}",];
    let line = (word, prop::collection::vec(argument, 0..4)).prop_map(|(w, args)| match LEVEL_WORDS.contains(&w) {
        true => format!("{w} 2"),
        false => format!("{w} {}", args.join(" ")),
    });
    prop::collection::vec(line, 1..12).prop_map(|lines| lines.join("\n"))
}

fn thinker() -> Arc<Thinker> {
    let options = SolveOptions::default().with_threads(1).with_hash_level(12);
    Arc::new(Thinker::new(Arc::new(Weights::zero()), options).expect("a thinker"))
}

const NBOARD_WORDS: &[&str] = &[
    "nboard",
    "set",
    "set depth",
    "set game",
    "set contempt",
    "move",
    "go",
    "hint",
    "analyze",
    "learn",
    "ping",
    "quit",
    "f5",
    "d3/1.0/2",
    "xyzzy",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn book_readers_never_panic(data in bytes()) {
        let _ = book::parse(&data, None, ReadOptions::default());
        for format in BookFormat::ALL {
            let _ = book::parse(&data, Some(format), ReadOptions { level: 5 });
        }
    }

    #[test]
    fn text_readers_never_panic(data in bytes()) {
        let text = String::from_utf8_lossy(&data);
        let _ = notation::parse_move(&text);
        let _ = notation::parse_transcript(&text);
        let _ = notation::parse_board(&text);
        let _ = notation::parse_obf_file(&text);
        let _ = notation::import_any(&text, Position::INITIAL);
        let _ = GameFile::parse(&text);
        let _ = parse_ggf(&text);
        for format in RecordFormat::ALL {
            let _ = parse_records_lenient(&text, format);
        }
    }

    #[test]
    fn binary_readers_never_panic(data in bytes()) {
        let _ = shirokuro_engine::eval::weights::parse(&data);
        let _ = shirokuro_engine::eval::net::Net::parse(&data);
        let _ = wthor::parse(&data);
        let _ = wthor::parse_names(&data, NameKind::Players);
        let _ = wthor::parse_names(&data, NameKind::Tournaments);
        let mut input = data.as_slice();
        while let Ok(Some(_)) = read_line(&mut input) {}
    }

    #[test]
    fn gtp_sessions_never_panic(script in session_lines(shirokuro_engine::protocol::gtp::COMMANDS)) {
        let mut session = GtpSession::new(thinker(), Level::clamped(1));
        let _ = run_script(&mut session, &script);
    }

    #[test]
    fn nboard_sessions_never_panic(script in session_lines(NBOARD_WORDS)) {
        let mut session = NboardSession::new(thinker(), Level::clamped(1));
        let _ = run_script(&mut session, &script);
    }
}
