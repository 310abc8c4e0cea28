//! Fuzz target: every notation parser on arbitrary bytes (read as lossy UTF-8). Nothing may panic, and whatever
//! parses must print and parse back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shirokuro_engine::Position;
use shirokuro_engine::notation::{
    IndexConvention, PassStyle, format_board, format_hex_board, format_obf_line, format_transcript, parse_board,
    parse_hex_board, parse_move, parse_move_index, parse_obf_file, parse_obf_line, parse_transcript,
    parse_transcript_from,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();

    if let Ok(mv) = parse_move(text) {
        assert_eq!(parse_move(&mv.to_string()), Ok(mv));
    }
    for convention in [IndexConvention::Edax, IndexConvention::Egaroucid] {
        if let Ok(mv) = parse_move_index(text, convention) {
            assert_eq!(parse_move_index(&convention.index_of(mv).to_string(), convention), Ok(mv));
        }
    }

    match parse_transcript(text) {
        Ok(game) => {
            for style in [PassStyle::Omit, PassStyle::Include] {
                assert_eq!(parse_transcript(&format_transcript(&game.moves, style)).as_ref(), Ok(&game));
            }
        }
        Err(error) => drop(error.to_string()),
    }

    // A board, if the input is one, else the start; then the same text as a transcript from there.
    let start = match parse_board(text) {
        Ok(position) => {
            assert_eq!(parse_board(&format_board(&position)), Ok(position));
            position
        }
        Err(error) => {
            drop(error.to_string());
            Position::INITIAL
        }
    };
    if let Ok(game) = parse_transcript_from(start, text) {
        assert_eq!(
            parse_transcript_from(start, &format_transcript(&game.moves, PassStyle::Include)).as_ref(),
            Ok(&game)
        );
    }

    match parse_hex_board(text) {
        Ok(board) => assert_eq!(parse_hex_board(&format_hex_board(&board)), Ok(board)),
        Err(error) => drop(error.to_string()),
    }

    match parse_obf_line(text) {
        Ok(obf) => assert_eq!(parse_obf_line(&format_obf_line(&obf)).as_ref(), Ok(&obf)),
        Err(error) => drop(error.to_string()),
    }
    match parse_obf_file(text) {
        Ok(entries) => {
            let printed: String = entries.iter().map(|obf| format_obf_line(obf) + "\n").collect();
            assert_eq!(parse_obf_file(&printed).as_ref(), Ok(&entries));
        }
        Err(error) => drop(error.to_string()),
    }
});
