//! Tests of the notation parsers and printers: round trips on random positions, every alphabet, every error with its
//! reported position, and a no-panic run over random and mutated inputs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::cast_possible_truncation, clippy::arithmetic_side_effects)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::board::{Board, Color, IllegalMove, Move};
use crate::position::Position;
use crate::square::Square;

/// A random game from `start`: every move (passes explicit) and every position, `positions[i]` before `moves[i]`.
/// Stops at the game's end or after `max_plies`. A forced pass is always made, even past `max_plies`, so the last
/// position is never one that must pass (as the transcript parser leaves it).
fn random_game(rng: &mut StdRng, start: Position, max_plies: usize) -> (Vec<Move>, Vec<Position>) {
    let mut position = start;
    let mut moves = Vec::new();
    let mut positions = vec![position];
    loop {
        let mv = if position.board.must_pass() {
            Move::Pass
        } else if position.board.is_game_over() || moves.len() >= max_plies {
            break;
        } else {
            let legal: Vec<Square> = position.board.moves().into_iter().collect();
            Move::Place(legal[rng.random_range(0..legal.len())])
        };
        position = position.play(mv).unwrap();
        moves.push(mv);
        positions.push(position);
    }
    (moves, positions)
}

/// A random position reached by random play (any length, any side to move, possibly a pass or a finished game).
fn random_position(rng: &mut StdRng) -> Position {
    let plies = rng.random_range(0..70);
    let (_, positions) = random_game(rng, Position::INITIAL, plies);
    let mut position = *positions.last().unwrap();
    if rng.random_bool(0.1) {
        // A position that must pass, or a position from the other side.
        position = Position { board: position.board.pass(), side_to_move: position.side_to_move.opposite() };
    }
    position
}

fn place(name: &str) -> Move {
    Move::Place(Square::parse(name).unwrap())
}

/// A finished game with a pass in the middle (not at its end), found by random play.
fn game_with_inner_pass(rng: &mut StdRng) -> Vec<Move> {
    loop {
        let (moves, positions) = random_game(rng, Position::INITIAL, 200);
        let last = moves.len() - 1;
        if positions.last().unwrap().board.is_game_over() && moves[..last].contains(&Move::Pass) {
            return moves;
        }
    }
}

// ---------------------------------------------------------------- move tokens and indices

#[test]
fn move_tokens() {
    for square in Square::ALL {
        let mv = Move::Place(square);
        assert_eq!(parse_move(&mv.to_string()), Ok(mv));
        assert_eq!(parse_move(&square.to_string()), Ok(mv));
        assert_eq!(parse_move(&format!(" \t{square}\n")), Ok(mv));
    }
    for pass in ["ps", "PS", "Pa", "pA", "pass", "PASS", "--", " -- "] {
        assert_eq!(parse_move(pass), Ok(Move::Pass), "{pass}");
    }
    assert_eq!(parse_move(&Move::Pass.to_string()), Ok(Move::Pass));
    assert_eq!(parse_move(""), Err(ParseMoveError::Empty));
    assert_eq!(parse_move(" \n"), Err(ParseMoveError::Empty));
    for bad in ["i1", "a9", "a0", "a", "f5f", "-", "p", "pasS!", "f 5", "ｆ５"] {
        assert_eq!(parse_move(bad), Err(ParseMoveError::Invalid { text: bad.trim().to_owned() }), "{bad}");
    }
    assert_eq!(
        parse_move("i9").unwrap_err().to_string(),
        "\"i9\" is not a move (expected a coordinate a1-h8, or ps, pa, pass, --)"
    );
}

#[test]
fn move_indices() {
    for convention in [IndexConvention::Edax, IndexConvention::Egaroucid] {
        for index in 0..=64u8 {
            let mv = convention.move_at(index).unwrap();
            assert_eq!(convention.index_of(mv), index);
            assert_eq!(parse_move_index(&index.to_string(), convention), Ok(mv));
            assert_eq!(parse_move_index(&format!(" 00{index}\t"), convention), Ok(mv));
        }
        assert_eq!(convention.move_at(65), None);
    }
    assert_eq!(parse_move_index("37", IndexConvention::Edax), Ok(place("f5")));
    assert_eq!(parse_move_index("37", IndexConvention::Egaroucid), Ok(place("c4")));
    assert_eq!(parse_move_index("0", IndexConvention::Egaroucid), Ok(place("h8")));
    assert_eq!(parse_move_index("64", IndexConvention::Egaroucid), Ok(Move::Pass));
    let edax = IndexConvention::Edax;
    assert_eq!(parse_move_index("", edax), Err(ParseIndexError::Empty));
    assert_eq!(parse_move_index("  ", edax), Err(ParseIndexError::Empty));
    assert_eq!(parse_move_index("65", edax), Err(ParseIndexError::OutOfRange { text: "65".into() }));
    assert_eq!(parse_move_index(" 256", edax), Err(ParseIndexError::OutOfRange { text: "256".into() }));
    let huge = "9".repeat(40);
    assert_eq!(parse_move_index(&huge, edax), Err(ParseIndexError::OutOfRange { text: huge.clone() }));
    assert_eq!(parse_move_index("+3", edax), Err(ParseIndexError::InvalidChar { offset: 0, found: '+' }));
    assert_eq!(parse_move_index("3 4", edax), Err(ParseIndexError::InvalidChar { offset: 2, found: '4' }));
    assert_eq!(parse_move_index("1x", edax), Err(ParseIndexError::InvalidChar { offset: 1, found: 'x' }));
    assert_eq!(parse_move_index("é1٣", edax), Err(ParseIndexError::InvalidChar { offset: 0, found: 'é' }));
    assert_eq!(parse_move_index("1٣", edax), Err(ParseIndexError::InvalidChar { offset: 1, found: '٣' }));
    assert_eq!(
        parse_move_index("65", edax).unwrap_err().to_string(),
        "move index 65 is out of range (expected 0-63, or 64 for a pass)"
    );
}

// ---------------------------------------------------------------- transcripts

#[test]
fn transcript_basics() {
    let t = parse_transcript("f5d6c3d3c4").unwrap();
    assert_eq!(t.start, Position::INITIAL);
    assert_eq!(t.moves, ["f5", "d6", "c3", "d3", "c4"].map(place));
    assert_eq!(t.end.side_to_move, Color::White);
    assert_eq!(t.to_string(), "f5d6c3d3c4");
    assert_eq!(parse_transcript(" F5 D6\r\nc 3\td3C4 ").unwrap(), t);
    let empty = parse_transcript("  \n").unwrap();
    assert_eq!(empty, Transcript { start: Position::INITIAL, moves: vec![], end: Position::INITIAL });
}

#[test]
fn transcript_round_trips_on_random_games() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..2000 {
        let plies = rng.random_range(0..80);
        let (moves, positions) = random_game(&mut rng, Position::INITIAL, plies);
        let expected = Transcript { start: Position::INITIAL, moves: moves.clone(), end: *positions.last().unwrap() };
        for style in [PassStyle::Omit, PassStyle::Include] {
            let text = format_transcript(&moves, style);
            assert_eq!(parse_transcript(&text).as_ref(), Ok(&expected), "{text}");
            assert_eq!(text, text.to_lowercase());
        }
        // Upper case, `PA`, and whitespace everywhere.
        let mut noisy = String::new();
        for ch in format_transcript(&moves, PassStyle::Include).replace("ps", "PA").chars() {
            noisy.push(if rng.random_bool(0.5) { ch.to_ascii_uppercase() } else { ch });
            if rng.random_bool(0.3) {
                noisy.push([' ', '\n', '\t', '\r', '\u{3000}'][rng.random_range(0..5)]);
            }
        }
        assert_eq!(parse_transcript(&noisy).as_ref(), Ok(&expected), "{noisy}");
        // From a position in the middle.
        let cut = rng.random_range(0..positions.len());
        let tail = format_transcript(&moves[cut..], PassStyle::Omit);
        let from = parse_transcript_from(positions[cut], &tail).unwrap();
        assert_eq!(from.end, expected.end);
        assert_eq!(from.start, positions[cut]);
        // A leading pass of the tail is the implicit one at the start.
        assert_eq!(from.moves, moves[cut..]);
    }
}

#[test]
fn transcript_passes() {
    let mut rng = StdRng::seed_from_u64(2);
    let moves = game_with_inner_pass(&mut rng);
    let first_pass = moves.iter().position(|mv| *mv == Move::Pass).unwrap();
    let before = format_transcript(&moves[..first_pass], PassStyle::Omit);
    let after = format_transcript(&moves[first_pass + 1..], PassStyle::Omit);
    let number = first_pass + 1; // the token number of an explicit pass written at this point
    let offset = before.len();
    for pass in ["ps", "pa", "PS", "PA", "Ps"] {
        let text = format!("{before}{pass}{after}");
        assert_eq!(parse_transcript(&text).unwrap().moves, moves, "{text}");
    }
    // A second pass is not forced.
    let text = format!("{before}psps{after}");
    assert_eq!(
        parse_transcript(&text),
        Err(TranscriptError::Illegal {
            move_number: number + 1,
            offset: offset + 2,
            mv: Move::Pass,
            reason: IllegalMove::PassWithMoves
        })
    );
    // A pass before the forced one.
    let text = format!("ps{before}");
    assert_eq!(
        parse_transcript(&text),
        Err(TranscriptError::Illegal { move_number: 1, offset: 0, mv: Move::Pass, reason: IllegalMove::PassWithMoves })
    );
    // A game over: any further move is rejected, a pass too.
    let full = format_transcript(&moves, PassStyle::Omit);
    let game = parse_transcript(&full).unwrap();
    assert!(game.end.board.is_game_over());
    let placements = moves.iter().filter(|mv| **mv != Move::Pass).count();
    for (extra, mv) in [("a1", place("a1")), ("ps", Move::Pass)] {
        assert_eq!(
            parse_transcript(&format!("{full} {extra}")),
            Err(TranscriptError::Illegal {
                move_number: placements + 1,
                offset: full.len() + 1,
                mv,
                reason: IllegalMove::GameOver
            })
        );
    }
    // Starting from a position that must pass: the pass is made and listed, and may be written.
    let mid = parse_transcript(&before).unwrap();
    let stuck = Position { board: mid.end.board.pass(), side_to_move: mid.end.side_to_move.opposite() };
    assert!(stuck.board.must_pass());
    let from = parse_transcript_from(stuck, &after).unwrap();
    assert_eq!(from.moves, moves[first_pass..]);
    assert_eq!(parse_transcript_from(stuck, &format!("ps{after}")).unwrap(), from);
    assert_eq!(parse_transcript_from(stuck, "").unwrap().moves, [Move::Pass]);
}

#[test]
fn transcript_errors() {
    let cases: [(&str, TranscriptError); 11] = [
        (
            "f5d6f5",
            TranscriptError::Illegal {
                move_number: 3,
                offset: 4,
                mv: place("f5"),
                reason: IllegalMove::Occupied(Square::F5),
            },
        ),
        (
            "f5 a1",
            TranscriptError::Illegal {
                move_number: 2,
                offset: 3,
                mv: place("a1"),
                reason: IllegalMove::NoFlip(Square::A1),
            },
        ),
        (
            "f5 ps",
            TranscriptError::Illegal { move_number: 2, offset: 3, mv: Move::Pass, reason: IllegalMove::PassWithMoves },
        ),
        ("f5 x6", TranscriptError::InvalidChar { move_number: 2, offset: 3, found: 'x' }),
        ("f5f9", TranscriptError::InvalidChar { move_number: 2, offset: 3, found: '9' }),
        ("f5f", TranscriptError::Incomplete { move_number: 2, offset: 2 }),
        ("f5 p", TranscriptError::Incomplete { move_number: 2, offset: 3 }),
        ("pz", TranscriptError::InvalidChar { move_number: 1, offset: 1, found: 'z' }),
        ("f5,d6", TranscriptError::InvalidChar { move_number: 2, offset: 2, found: ',' }),
        // Offsets count characters, not bytes: the ideographic space is 3 bytes but one character.
        ("f5d6\u{3000}c3z", TranscriptError::InvalidChar { move_number: 4, offset: 7, found: 'z' }),
        ("é", TranscriptError::InvalidChar { move_number: 1, offset: 0, found: 'é' }),
    ];
    for (text, error) in cases {
        assert_eq!(parse_transcript(text), Err(error), "{text}");
    }
    let messages = [
        ("f5d6f5", "move 3 (f5) at offset 4: f5 is occupied"),
        ("f5a1", "move 2 (a1) at offset 2: a1 flips no disc"),
        ("ps", "move 1 (ps) at offset 0: cannot pass: a move is available"),
        ("f5?", "invalid character '?' at offset 2 (move 2): expected a coordinate a1-h8 or ps/pa"),
        ("f5d", "move 2 at offset 2 is incomplete"),
    ];
    for (text, message) in messages {
        assert_eq!(parse_transcript(text).unwrap_err().to_string(), message);
    }
}

// ---------------------------------------------------------------- boards

const BLACK: [char; 6] = ['X', 'x', 'B', 'b', '0', '*'];
const WHITE: [char; 5] = ['O', 'o', 'W', 'w', '1'];
const EMPTY: [char; 2] = ['-', '.'];

#[test]
fn board_round_trips_in_every_alphabet() {
    let mut rng = StdRng::seed_from_u64(3);
    for round in 0..3000 {
        let position = random_position(&mut rng);
        let text = format_board(&position);
        assert_eq!(text.len(), 66);
        assert!(text[..64].chars().all(|c| "XO-".contains(c)));
        assert_eq!(&text[64..65], " ");
        assert_eq!(parse_board(&text), Ok(position), "{text}");
        // Each round uses one alphabet throughout (cycling through all of them), or mixes them at random.
        let pick = |rng: &mut StdRng, set: &[char]| {
            if round % 2 == 0 { set[(round / 2) % set.len()] } else { set[rng.random_range(0..set.len())] }
        };
        let mut pasted = String::new();
        for (i, c) in text.chars().take(64).enumerate() {
            pasted.push(match c {
                'X' => pick(&mut rng, &BLACK),
                'O' => pick(&mut rng, &WHITE),
                _ => pick(&mut rng, &EMPTY),
            });
            if i % 8 == 7 {
                pasted.push_str(["\n", "\r\n", " ", ""][rng.random_range(0..4)]);
            }
        }
        pasted.push_str(["", " ", ";", " ; ", "\t"][rng.random_range(0..5)]);
        pasted.push(match position.side_to_move {
            Color::Black => pick(&mut rng, &BLACK),
            Color::White => pick(&mut rng, &WHITE),
        });
        pasted.push_str(["", "\n", "  "][rng.random_range(0..3)]);
        assert_eq!(parse_board(&pasted), Ok(position), "{pasted}");
    }
}

#[test]
fn board_initial() {
    let initial = "---------------------------OX------XO--------------------------- X";
    assert_eq!(format_board(&Position::INITIAL), initial);
    assert_eq!(parse_board(initial), Ok(Position::INITIAL));
    let white = Position { board: Board::INITIAL.pass(), side_to_move: Color::White };
    assert_eq!(parse_board(&initial.replace(" X", ";O")), Ok(white));
}

#[test]
fn board_errors() {
    let initial = format_board(&Position::INITIAL);
    let cells = &initial[..64];
    let cases: [(String, BoardTextError); 9] = [
        (String::new(), BoardTextError::TooShort { squares: 0 }),
        (cells[..10].to_owned(), BoardTextError::TooShort { squares: 10 }),
        (cells.to_owned(), BoardTextError::MissingSide),
        (format!("{cells};"), BoardTextError::MissingSide),
        (format!("{cells} -"), BoardTextError::InvalidSide { offset: 65, found: '-' }),
        (format!("{cells};;X"), BoardTextError::InvalidSide { offset: 65, found: ';' }),
        (format!("{cells} X X"), BoardTextError::Trailing { offset: 67, found: 'X' }),
        (format!("--\n-?{}", &initial[4..]), BoardTextError::InvalidSquare { offset: 4, found: '?', square: 4 }),
        (format!("{}é X", &cells[..63]), BoardTextError::InvalidSquare { offset: 63, found: 'é', square: 64 }),
    ];
    for (text, error) in cases {
        assert_eq!(parse_board(&text), Err(error), "{text:?}");
    }
    // 65 squares then a side: the 65th square is read as the side, the side is trailing.
    assert_eq!(parse_board(&format!("{cells}X O")), Err(BoardTextError::Trailing { offset: 66, found: 'O' }));
    assert_eq!(
        parse_board("--?").unwrap_err().to_string(),
        "invalid character '?' at offset 2 for square 3: expected one of X x B b 0 * O o W w 1 - ."
    );
    assert_eq!(parse_board("").unwrap_err().to_string(), "board ends after 0 of 64 squares");
}

// ---------------------------------------------------------------- hex pairs

#[test]
fn hex_round_trips() {
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..3000 {
        let board = random_position(&mut rng).board;
        let text = format_hex_board(&board);
        assert_eq!(text.len(), 37);
        assert_eq!(parse_hex_board(&text), Ok(board), "{text}");
        let (p, o) = (board.player.0, board.opponent.0);
        let variants = [
            format!("{p:x} {o:x}"),
            format!("{p:X},{o:X}"),
            format!("0X{p:X} , 0x{o:x}\n"),
            format!("  {p:#x}\t\t{o:#032x}  "),
            format!("{p:020x},\t{o:#x}"),
        ];
        for text in variants {
            assert_eq!(parse_hex_board(&text), Ok(board), "{text}");
        }
    }
    assert_eq!(format_hex_board(&Board::INITIAL), "0x0000000810000000\t0x0000001008000000");
    assert_eq!(parse_hex_board("0 0"), Ok(Board::new(0, 0).unwrap()));
    assert_eq!(parse_hex_board("0x0,0"), Ok(Board::new(0, 0).unwrap()));
}

#[test]
fn hex_errors() {
    let cases = [
        ("", HexBoardError::MissingPlayer),
        (" \t", HexBoardError::MissingPlayer),
        ("0x10", HexBoardError::MissingOpponent),
        ("0x10 ,", HexBoardError::MissingOpponent),
        ("0x1 0x2 0x3", HexBoardError::InvalidChar { offset: 8, found: '0' }),
        ("0x1g 0x2", HexBoardError::InvalidChar { offset: 3, found: 'g' }),
        ("0x1,,0x2", HexBoardError::InvalidChar { offset: 4, found: ',' }),
        ("0x 0x2", HexBoardError::InvalidChar { offset: 2, found: ' ' }),
        ("+1 2", HexBoardError::InvalidChar { offset: 0, found: '+' }),
        ("1 0xx2", HexBoardError::InvalidChar { offset: 4, found: 'x' }),
        ("1 2;", HexBoardError::InvalidChar { offset: 3, found: ';' }),
        ("1 10000000000000000", HexBoardError::TooLarge { offset: 2 }),
        ("0x00000000000000001 0x1ffffffffffffffff", HexBoardError::TooLarge { offset: 20 }),
        ("3 6", HexBoardError::Overlap { squares: 2 }),
    ];
    for (text, error) in cases {
        assert_eq!(parse_hex_board(text), Err(error), "{text:?}");
    }
    assert_eq!(
        parse_hex_board("0x0000000000000001 0xffffffffffffffff").unwrap_err().to_string(),
        "the bitboards overlap on 0x0000000000000001"
    );
}

// ---------------------------------------------------------------- OBF

/// A random OBF value: a random position with a random subset of its legal moves and random scores.
fn random_obf(rng: &mut StdRng) -> Obf {
    let position = random_position(rng);
    let candidates: Vec<Move> = if position.board.must_pass() {
        vec![Move::Pass]
    } else {
        position.board.moves().into_iter().map(Move::Place).collect()
    };
    let mut moves = Vec::new();
    for mv in candidates {
        if rng.random_bool(0.7) {
            moves.push((mv, rng.random_range(-64..=64)));
        }
    }
    Obf { position, moves }
}

#[test]
fn obf_round_trips() {
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..3000 {
        let obf = random_obf(&mut rng);
        let text = format_obf_line(&obf);
        assert_eq!(parse_obf_line(&text).as_ref(), Ok(&obf), "{text}");
        assert_eq!(text.parse::<Obf>().as_ref(), Ok(&obf));
        // Lenient forms: no trailing `;`, lower case, `pa`, extra spaces, a comment.
        let loose = text.trim_end_matches(';').to_lowercase().replace("ps:", "pa :").replace("; ", " ;  ") + " % note";
        assert_eq!(parse_obf_line(&loose).as_ref(), Ok(&obf), "{loose}");
    }
    let bare = Obf { position: Position::INITIAL, moves: vec![] };
    assert_eq!(format_obf_line(&bare), format!("{};", format_board(&Position::INITIAL)));
    assert_eq!(parse_obf_line(&format_board(&Position::INITIAL)), Ok(bare));
}

#[test]
fn obf_errors() {
    let board = format_board(&Position::INITIAL); // 66 characters
    let cases = [
        (format!("{board} F5:+0"), ObfError::MissingSemicolon { offset: 67, found: 'F' }),
        (format!("{board}; F5+0;"), ObfError::MissingColon { offset: 68, text: "F5+0".into() }),
        (
            format!("{board}; F5:+0; Z5:+1;"),
            ObfError::InvalidMove { offset: 75, error: ParseMoveError::Invalid { text: "Z5".into() } },
        ),
        (format!("{board}; :+1;"), ObfError::InvalidMove { offset: 68, error: ParseMoveError::Empty }),
        (format!("{board}; F5: x1;"), ObfError::InvalidScore { offset: 72, text: "x1".into() }),
        (format!("{board}; F5:;"), ObfError::InvalidScore { offset: 71, text: String::new() }),
        (format!("{board}; F5:99999999999;"), ObfError::InvalidScore { offset: 71, text: "99999999999".into() }),
        (
            format!("{board}; A1:+0;"),
            ObfError::IllegalMove { offset: 68, mv: place("a1"), reason: IllegalMove::NoFlip(Square::A1) },
        ),
        (
            format!("{board}; D4:+0;"),
            ObfError::IllegalMove { offset: 68, mv: place("d4"), reason: IllegalMove::Occupied(Square::D4) },
        ),
        (
            format!("{board}; PS:+0;"),
            ObfError::IllegalMove { offset: 68, mv: Move::Pass, reason: IllegalMove::PassWithMoves },
        ),
        (
            format!("{} X;", &board[..60]),
            ObfError::Board(BoardTextError::InvalidSquare { offset: 62, found: ';', square: 62 }),
        ),
        (format!("%{board}"), ObfError::Board(BoardTextError::TooShort { squares: 0 })),
    ];
    for (text, error) in cases {
        assert_eq!(parse_obf_line(&text), Err(error), "{text:?}");
    }
    assert_eq!(
        parse_obf_line(&format!("{board}; A1:+0;")).unwrap_err().to_string(),
        "move A1 at offset 68: A1 flips no disc"
    );
}

#[test]
fn obf_files() {
    let good = format_obf_line(&Obf { position: Position::INITIAL, moves: vec![(place("f5"), 0)] });
    let text = format!("% a comment\n\n  # another\n{good}\r\n   \n{good} % trailing comment\n");
    let parsed = parse_obf_file(&text).unwrap();
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[0], parsed[1]);
    let bad = format!("{good}\n\n{good}\n{}\n", good.replace("F5", "A1"));
    let error = parse_obf_file(&bad).unwrap_err();
    assert_eq!(error.line, 4);
    assert_eq!(error.to_string(), "line 4: move A1 at offset 68: A1 flips no disc");
    assert_eq!(parse_obf_file(""), Ok(vec![]));
}

// ---------------------------------------------------------------- never panics

/// Feeds `text` to every parser; where one succeeds, printing and parsing again must give the same value.
fn exercise(text: &str) {
    if let Ok(mv) = parse_move(text) {
        assert_eq!(parse_move(&mv.to_string()), Ok(mv));
    }
    for convention in [IndexConvention::Edax, IndexConvention::Egaroucid] {
        if let Ok(mv) = parse_move_index(text, convention) {
            assert_eq!(parse_move_index(&convention.index_of(mv).to_string(), convention), Ok(mv));
        }
    }
    if let Ok(t) = parse_transcript(text) {
        for style in [PassStyle::Omit, PassStyle::Include] {
            assert_eq!(parse_transcript(&format_transcript(&t.moves, style)).as_ref(), Ok(&t));
        }
    }
    let start = parse_board(text).unwrap_or(Position::INITIAL);
    if let Ok(t) = parse_transcript_from(start, text) {
        assert_eq!(parse_transcript_from(start, &format_transcript(&t.moves, PassStyle::Include)).as_ref(), Ok(&t));
    }
    if let Ok(position) = parse_board(text) {
        assert_eq!(parse_board(&format_board(&position)), Ok(position));
    }
    if let Ok(board) = parse_hex_board(text) {
        assert_eq!(parse_hex_board(&format_hex_board(&board)), Ok(board));
    }
    if let Ok(obf) = parse_obf_line(text) {
        assert_eq!(parse_obf_line(&format_obf_line(&obf)).as_ref(), Ok(&obf));
    }
    if let Ok(file) = parse_obf_file(text) {
        let printed: String = file.iter().map(|obf| format_obf_line(obf) + "\n").collect();
        assert_eq!(parse_obf_file(&printed).as_ref(), Ok(&file));
    }
    // Input in any format: whatever it reads replays from its start.
    match import_any(text, start) {
        Ok(imported) => {
            let mut position = imported.start;
            for mv in &imported.moves {
                position = position.play(*mv).expect("imported moves are legal");
            }
        }
        Err(error) => drop(error.to_string()),
    }
    // Touch every error message too.
    let _ = parse_transcript(text).map_err(|e| e.to_string());
    let _ = parse_obf_file(text).map_err(|e| e.to_string());
}

#[test]
fn never_panics_on_random_and_mutated_input() {
    let mut rng = StdRng::seed_from_u64(6);
    let mut seeds: Vec<String> = vec!["f5".into(), "PS".into(), "pass".into(), "--".into(), "37".into(), "64".into()];
    for _ in 0..40 {
        let position = random_position(&mut rng);
        seeds.push(format_board(&position));
        seeds.push(format_hex_board(&position.board));
        seeds.push(format_obf_line(&random_obf(&mut rng)));
        let plies = rng.random_range(0..70);
        let (moves, _) = random_game(&mut rng, Position::INITIAL, plies);
        seeds.push(format_transcript(&moves, PassStyle::Include));
    }
    seeds.push(include_str!("../../tests/data/ffo-40-59.obf").to_owned());
    const ALPHABET: &[u8] = b"abcdefghpsABCDEFGHPSXOxobw01*-.; \t\n\r:+%#x,9";
    for round in 0..200_000 {
        let bytes: Vec<u8> = if round % 4 == 0 {
            let len = rng.random_range(0..120);
            (0..len).map(|_| rng.random()).collect()
        } else {
            let mut bytes = seeds[rng.random_range(0..seeds.len())].clone().into_bytes();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..=bytes.len());
                let byte =
                    if rng.random_bool(0.7) { ALPHABET[rng.random_range(0..ALPHABET.len())] } else { rng.random() };
                match rng.random_range(0..5) {
                    0 => bytes.truncate(at),
                    1 => bytes.insert(at, byte),
                    2 if at < bytes.len() => drop(bytes.remove(at)),
                    3 if at < bytes.len() => bytes[at] = byte,
                    _ => bytes.splice(at..at, bytes[..at].to_vec()).for_each(drop),
                }
            }
            bytes
        };
        exercise(&String::from_utf8_lossy(&bytes));
    }
}
