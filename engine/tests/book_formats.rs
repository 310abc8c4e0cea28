//! Book files: golden bytes checked field by field against the documented layouts, round trips, truncation (every
//! prefix is rejected with an offset), single-bit flips (never a panic), detection from the content, and atomic saves.

use shirokuro_engine::book::edax::{self, WriteOptions, edax_unique};
use shirokuro_engine::book::egaroucid::{self, write_egbk3};
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::text;
use shirokuro_engine::book::{
    Book, BookFormat, Entry, FormatError, LEVEL_HUMAN, Leaf, RecordProblem, book_child, legal_moves, load, parse, save,
};
use shirokuro_engine::{Board, Move, Square, Symmetry};

mod book_common;
use book_common::random_book;

fn egbk3_bytes(book: &Book) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_egbk3(book, &mut bytes).unwrap();
    bytes
}

fn edax_bytes(book: &Book) -> Vec<u8> {
    let mut bytes = Vec::new();
    edax::write(book, &WriteOptions { level: None, date: (2026, 11, 21, 23, 30, 5) }, &mut bytes).unwrap();
    bytes
}

/// The same positions with the same entries (leaves compared in canonical orientation).
fn assert_same_book(a: &Book, b: &Book) {
    assert_eq!(a.len(), b.len());
    for (board, entry) in a.iter() {
        assert_eq!(b.get_canonical(&board), Some(entry), "{board:?}");
    }
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap())
}

fn i16_at(bytes: &[u8], offset: usize) -> i16 {
    i16::from_le_bytes(bytes[offset..offset + 2].try_into().unwrap())
}

/// Every strict prefix fails with an error that names an offset; every single-bit flip returns without panicking.
fn check_prefixes_and_flips(bytes: &[u8], format: BookFormat) {
    for len in 0..bytes.len() {
        let error = parse(&bytes[..len], Some(format), ReadOptions::default()).map(|_| ()).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("offset"), "prefix {len} of {format}: {message}");
    }
    for bit in 0..bytes.len() * 8 {
        let mut flipped = bytes.to_vec();
        flipped[bit / 8] ^= 1 << (bit % 8);
        let _ = parse(&flipped, Some(format), ReadOptions::default());
        let _ = parse(&flipped, None, ReadOptions::default());
    }
}

#[test]
fn egbk3_golden_file_matches_the_layout_byte_for_byte() {
    // The book Egaroucid ships as empty_book.egbk3: the initial position, value 0, leaf e6 (code 19) worth 0.
    let mut book = Book::new();
    let leaf = Leaf::new(Move::Place(Square::E6), 0, 60);
    assert_eq!(leaf.code, 19);
    let _ = book.insert(&Board::INITIAL, Entry { value: 0, level: 60, lines: 1, leaf });
    let bytes = egbk3_bytes(&book);
    let mut expected = b"DICUORAGE".to_vec();
    expected.push(3); // version
    expected.extend_from_slice(&[1, 0, 0, 0]); // one position
    // Player d5, e4 and opponent d4, e5 in Egaroucid's order (a1 = bit 63), as in Egaroucid's empty book.
    expected.extend_from_slice(&0x0000_0008_1000_0000u64.to_le_bytes());
    expected.extend_from_slice(&0x0000_0010_0800_0000u64.to_le_bytes());
    expected.extend_from_slice(&[0, 60, 1, 0, 0, 0, 0, 19, 60]); // value, level, lines, leaf value/move/level
    assert_eq!(bytes.len(), 39);
    assert_eq!(bytes, expected);
    let (parsed, format) = parse(&bytes, None, ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Egbk3);
    assert_same_book(&parsed, &book);
}

#[test]
fn egbk3_round_trips_and_rewrites_identically() {
    let book = random_book(7, 300);
    let bytes = egbk3_bytes(&book);
    assert_eq!(bytes.len(), 14 + 25 * book.len());
    let (parsed, _) = parse(&bytes, None, ReadOptions::default()).unwrap();
    assert_same_book(&parsed, &book);
    assert_eq!(egbk3_bytes(&parsed), bytes);
}

#[test]
fn egbk3_in_another_order_loads_the_same_book() {
    // Enough positions for the loader to fill the table by several regions in parallel.
    let book = random_book(9, 60_000);
    let bytes = egbk3_bytes(&book);
    // Reverse the records, then swap them around (a file written in another program's order).
    let mut records: Vec<&[u8]> = bytes[14..].chunks_exact(25).rev().collect();
    let n = records.len();
    for i in (0..n).step_by(7) {
        records.swap(i, (i * 7919) % n);
    }
    let mut shuffled = bytes[..14].to_vec();
    shuffled.extend(records.concat());
    assert_ne!(shuffled, bytes);
    let (parsed, _) = parse(&shuffled, None, ReadOptions::default()).unwrap();
    assert_same_book(&parsed, &book);
    assert_eq!(egbk3_bytes(&parsed), bytes);
}

#[test]
fn egbk3_reader_canonicalises_and_merges_duplicates_by_level() {
    let board = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let mut bytes = b"DICUORAGE\x03".to_vec();
    bytes.extend_from_slice(&2i32.to_le_bytes());
    for (symmetry, value, level) in [(Symmetry::Rotate90, 3i8, 10u8), (Symmetry::MirrorDiagonal, -2, 12)] {
        let image = board.transform(symmetry);
        let (p, o) = image.egaroucid_key();
        bytes.extend_from_slice(&p.to_le_bytes());
        bytes.extend_from_slice(&o.to_le_bytes());
        let leaf = Leaf::new(Move::Place(Square::F6).transform(symmetry), 1, level);
        bytes.extend_from_slice(&[value as u8, level, 1, 0, 0, 0, 1, leaf.code, level]);
    }
    let book = egaroucid::parse_egbk3(&bytes).unwrap();
    assert_eq!(book.len(), 1);
    let entry = book.get(&board).unwrap();
    assert_eq!((entry.value, entry.level), (-2, 12));
    assert_eq!(entry.leaf.mv(), Some(Move::Place(Square::F6)));
}

#[test]
fn egbk3_damage_is_reported_with_offsets() {
    let book = random_book(3, 6);
    let bytes = egbk3_bytes(&book);
    check_prefixes_and_flips(&bytes, BookFormat::Egbk3);
    // Overlapping discs in record 1.
    let mut bad = bytes.clone();
    bad[14 + 25 + 8..14 + 25 + 16].copy_from_slice(&bytes[14 + 25..14 + 25 + 8]);
    assert!(matches!(
        egaroucid::parse_egbk3(&bad),
        Err(FormatError::Record { index: 1, offset: 39, problem: RecordProblem::Overlap { .. } })
    ));
    // A value out of range in record 0.
    let mut bad = bytes.clone();
    bad[14 + 16] = 65;
    assert!(matches!(
        egaroucid::parse_egbk3(&bad),
        Err(FormatError::Record { index: 0, offset: 14, problem: RecordProblem::Value(65) })
    ));
    // A count larger than the data, and trailing bytes.
    let mut bad = bytes.clone();
    bad[10] = bad[10].wrapping_add(1);
    assert!(matches!(egaroucid::parse_egbk3(&bad), Err(FormatError::Count { offset: 10, .. })));
    let mut bad = bytes.clone();
    bad.push(0);
    assert!(
        matches!(egaroucid::parse_egbk3(&bad), Err(FormatError::Trailing { offset, extra: 1 }) if offset == bytes.len())
    );
    let mut bad = bytes;
    bad[0] = b'E';
    assert!(matches!(egaroucid::parse_egbk3(&bad), Err(FormatError::Magic { .. })));
}

/// An egbk2 file built by hand: magic, version 2, count, then (p, o, value, level, n_links, links).
fn egbk2_bytes(book: &Book) -> Vec<u8> {
    let mut bytes = b"DICUORAGE\x02".to_vec();
    bytes.extend_from_slice(&i32::try_from(book.len()).unwrap().to_le_bytes());
    for (board, entry) in book.iter() {
        let (p, o) = board.egaroucid_key();
        bytes.extend_from_slice(&p.to_le_bytes());
        bytes.extend_from_slice(&o.to_le_bytes());
        bytes.extend_from_slice(&[entry.value as u8, entry.level]);
        let links = book.move_values(&board);
        bytes.push(u8::try_from(links.len()).unwrap());
        for link in links {
            bytes.extend_from_slice(&[link.value as u8, link.mv.egaroucid_index()]);
        }
    }
    bytes
}

#[test]
fn egbk2_reads_values_and_levels_and_skips_links() {
    let book = random_book(5, 40);
    let bytes = egbk2_bytes(&book);
    let (parsed, format) = parse(&bytes, None, ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Egbk2);
    assert_eq!(parsed.len(), book.len());
    for (board, entry) in book.iter() {
        let got = parsed.get_canonical(&board).unwrap();
        assert_eq!((got.value, got.level, got.lines, got.leaf), (entry.value, entry.level, 1, Leaf::NONE));
    }
    check_prefixes_and_flips(&egbk2_bytes(&random_book(6, 4)), BookFormat::Egbk2);
}

#[test]
fn egbk_reads_value_as_64_minus_the_byte_at_the_chosen_level() {
    let book = random_book(9, 30);
    let mut bytes = i32::try_from(book.len()).unwrap().to_le_bytes().to_vec();
    for (board, entry) in book.iter() {
        let (p, o) = board.egaroucid_key();
        bytes.extend_from_slice(&p.to_le_bytes());
        bytes.extend_from_slice(&o.to_le_bytes());
        bytes.push((64 - i32::from(entry.value)) as u8);
    }
    assert_eq!(BookFormat::detect(&bytes), Some(BookFormat::Egbk));
    let (parsed, _) = parse(&bytes, None, ReadOptions { level: 13 }).unwrap();
    for (board, entry) in book.iter() {
        let got = parsed.get_canonical(&board).unwrap();
        assert_eq!((got.value, got.level), (entry.value, 13));
    }
    let small = random_book(4, 3);
    let mut bytes = 3i32.to_le_bytes().to_vec();
    for (board, entry) in small.iter() {
        let (p, o) = board.egaroucid_key();
        bytes.extend_from_slice(&p.to_le_bytes());
        bytes.extend_from_slice(&o.to_le_bytes());
        bytes.push((64 - i32::from(entry.value)) as u8);
    }
    check_prefixes_and_flips(&bytes, BookFormat::Egbk);
}

#[test]
fn edax_golden_file_matches_the_layout_field_by_field() {
    let after_f5 = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let mut book = Book::new();
    let _ = book.insert(&Board::INITIAL, Entry { value: 0, level: 20, lines: 2, leaf: Leaf::NONE });
    let free = legal_moves(&after_f5).find(|mv| mv.square().is_some()).unwrap();
    let _ = book.insert(&after_f5, Entry { value: 1, level: 20, lines: 1, leaf: Leaf::new(free, 1, 20) });
    let bytes = edax_bytes(&book);
    assert_eq!(&bytes[0..8], b"XADEKOOB");
    assert_eq!(bytes[8..18], [4, 4, 0xea, 0x07, 11, 21, 23, 30, 5, 0]); // version, release, 2026-11-21 23:30:05, pad
    assert_eq!(u32_at(&bytes, 18), 20); // level: the highest in the book
    assert_eq!(u32_at(&bytes, 22), 61 - 1); // n_empties: 61 - largest ply (1)
    assert_eq!(bytes[26..38], [2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]); // midgame and endgame errors, verbosity
    assert_eq!(u32_at(&bytes, 38), 2);
    // Records are sorted by Edax key: the position after f5 (one disc for the side to move) comes first.
    let (f5, symmetry) = edax_unique(&after_f5);
    let (initial, _) = edax_unique(&Board::INITIAL);
    assert!((f5.player.0, f5.opponent.0) < (initial.player.0, initial.opponent.0));
    let first = 42;
    assert_eq!((u64_at(&bytes, first), u64_at(&bytes, first + 8)), (f5.player.0, f5.opponent.0));
    assert_eq!([u32_at(&bytes, first + 16), u32_at(&bytes, first + 20), u32_at(&bytes, first + 24)], [0, 0, 0]);
    assert_eq!(u32_at(&bytes, first + 28), 1); // lines
    // Value 1; bounds from the level-20 midgame leaf: 1 ± 2 (searched 21 plies deep from 59 empties: no parity bias).
    assert_eq!([i16_at(&bytes, first + 32), i16_at(&bytes, first + 34), i16_at(&bytes, first + 36)], [1, -1, 3]);
    assert_eq!((bytes[first + 38], bytes[first + 39]), (0, 20)); // no link, level
    assert_eq!(bytes[first + 40..first + 42], [1, free.transform(symmetry).edax_index()]); // the leaf, Edax orientation
    let second = first + 42;
    assert_eq!((u64_at(&bytes, second), u64_at(&bytes, second + 8)), (initial.player.0, initial.opponent.0));
    assert_eq!(u32_at(&bytes, second + 28), 2);
    assert_eq!(i16_at(&bytes, second + 32), 0);
    // Bounds through the links: lower = -(child's upper), upper = -(child's lower).
    assert_eq!([i16_at(&bytes, second + 34), i16_at(&bytes, second + 36)], [-3, 1]);
    assert_eq!((bytes[second + 38], bytes[second + 39]), (4, 20)); // four links (every first move), level
    let links = &bytes[second + 40..second + 48];
    let mut link_moves: Vec<u8> = links.chunks(2).map(|l| l[1]).collect();
    link_moves.sort_unstable();
    let mut expected: Vec<u8> = legal_moves(&initial).map(Move::edax_index).collect();
    expected.sort_unstable();
    assert_eq!(link_moves, expected);
    assert!(links.chunks(2).all(|l| l[0] as i8 == -1)); // the child's +1 negated
    assert_eq!(bytes[second + 48..second + 50], [(-64i8) as u8, 65]); // no leaf left: every move is a link
    assert_eq!(bytes.len(), second + 50);

    let (parsed, header) = edax::parse(&bytes).unwrap();
    assert_eq!(header.date, (2026, 11, 21, 23, 30, 5));
    assert_same_book(&parsed, &book);
    check_prefixes_and_flips(&bytes, BookFormat::Edax);
}

#[test]
fn edax_round_trip_keeps_values_levels_lines_and_leaves_in_edax_orientation() {
    let book = random_book(11, 400);
    let bytes = edax_bytes(&book);
    let (parsed, header) = edax::parse(&bytes).unwrap();
    assert!(header.positions as usize >= book.len());
    assert_same_book(&parsed, &book);
    assert_eq!(edax_bytes(&parsed), bytes);
    // Every stored board is Edax-unique and every link move is legal on it with its child in the book.
    let mut offset = 42;
    while offset < bytes.len() {
        let board = Board::new(u64_at(&bytes, offset), u64_at(&bytes, offset + 8)).unwrap();
        assert_eq!(edax_unique(&board).0, board);
        let n_links = usize::from(bytes[offset + 38]);
        for link in bytes[offset + 40..offset + 40 + 2 * n_links].chunks(2) {
            let mv = Move::from_edax_index(link[1]).unwrap();
            let (child, negate) = if mv == Move::Pass { (board.pass(), true) } else { book_child(&board, mv).unwrap() };
            let value = book.get(&child).unwrap().value;
            assert_eq!(link[0] as i8, if negate { -value } else { value });
        }
        offset += 42 + 2 * n_links;
    }
}

#[test]
fn edax_win_draw_loss_counts_come_from_exact_leaves() {
    let root = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let mut moves = legal_moves(&root);
    let link = moves.next().unwrap();
    let (child, _) = book_child(&root, link).unwrap();
    let mut book = Book::new();
    let child_leaf = legal_moves(&child).next().unwrap();
    let _ = book.insert(&child, Entry { value: 0, level: 60, lines: 1, leaf: Leaf::new(child_leaf, 0, 60) });
    let root_leaf = legal_moves(&root).find(|mv| !book.contains(&book_child(&root, *mv).unwrap().0)).unwrap();
    let _ = book.insert(&root, Entry { value: 2, level: 60, lines: 2, leaf: Leaf::new(root_leaf, 2, 60) });
    let bytes = edax_bytes(&book);
    let mut offset = 42;
    let mut seen = 0;
    while offset < bytes.len() {
        let board = Board::new(u64_at(&bytes, offset), u64_at(&bytes, offset + 8)).unwrap();
        let wdl = [u32_at(&bytes, offset + 16), u32_at(&bytes, offset + 20), u32_at(&bytes, offset + 24)];
        if board.canonical().0 == root.canonical().0 {
            assert_eq!(wdl, [1, 1, 0]); // its leaf wins, its link's child draws
            seen += 1;
        } else if board.canonical().0 == child.canonical().0 {
            assert_eq!(wdl, [0, 1, 0]);
            seen += 1;
        }
        offset += 42 + 2 * usize::from(bytes[offset + 38]);
    }
    assert_eq!(seen, 2);
}

#[test]
fn edax_reader_skips_pass_positions_and_rejects_bad_values() {
    // A hand-made file: one pass position (no legal move for the side to move) and nothing else.
    let mut bytes = b"XADEKOOB".to_vec();
    bytes.extend_from_slice(&[4, 3, 0xe1, 0x07, 7, 9, 12, 26, 8, 0]);
    for field in [24i32, 38, 0, 0, 0, 1] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    // Player owns a1 only, opponent owns h8: neither side can flip anything.
    bytes.extend_from_slice(&1u64.to_le_bytes());
    bytes.extend_from_slice(&(1u64 << 63).to_le_bytes());
    bytes.extend_from_slice(&[0; 16]);
    bytes.extend_from_slice(&[0, 0, 0xc0, 0xff, 0x40, 0, 0, 24, 0, 65]);
    let (book, header) = edax::parse(&bytes).unwrap();
    assert!(book.is_empty());
    assert_eq!((header.version, header.release, header.level, header.n_empties), (4, 3, 24, 38));
    bytes[42 + 32] = 100;
    assert!(matches!(
        edax::parse(&bytes),
        Err(FormatError::Record { index: 0, offset: 42, problem: RecordProblem::Value(100) })
    ));
}

#[test]
fn egaroucid5_text_book_reads_black_values_for_either_side() {
    let after_f5 = Board::INITIAL.play(Move::Place(Square::F5)).unwrap(); // White to move
    // Black's discs are the opponent's after f5.
    let line1 = text::format_line(after_f5.opponent.0, after_f5.player.0, false, 6);
    let line0 = text::format_line(Board::INITIAL.player.0, Board::INITIAL.opponent.0, true, -2);
    let content = format!("{line0}\r\n{line1}\n\n");
    assert_eq!(BookFormat::detect(content.as_bytes()), Some(BookFormat::Egaroucid5Text));
    let (book, _) = parse(content.as_bytes(), None, ReadOptions { level: 9 }).unwrap();
    assert_eq!(book.get(&Board::INITIAL).unwrap(), Entry::new(-2, 9));
    assert_eq!(book.get(&after_f5).unwrap(), Entry::new(-6, 9)); // White to move: Black's +6 is -6
    let bad = format!("{line0}\n{}3{}\n", &line1[..10], &line1[11..]);
    assert_eq!(
        text::parse(bad.as_bytes(), 1).unwrap_err(),
        FormatError::Line { line: 2, problem: RecordProblem::Character { column: 11, found: '3' } }
    );
    assert!(matches!(
        text::parse(&content.as_bytes()[..50], 1),
        Err(FormatError::Line { line: 1, problem: RecordProblem::LineLength(50) })
    ));
}

#[test]
fn detection_uses_the_content_not_the_name() {
    let book = random_book(2, 5);
    assert_eq!(BookFormat::detect(&egbk3_bytes(&book)), Some(BookFormat::Egbk3));
    assert_eq!(BookFormat::detect(&edax_bytes(&book)), Some(BookFormat::Edax));
    assert_eq!(BookFormat::detect(&egbk2_bytes(&book)), Some(BookFormat::Egbk2));
    assert_eq!(BookFormat::detect(b"hello world"), None);
    assert_eq!(parse(b"hello world", None, ReadOptions::default()).map(|_| ()), Err(FormatError::Unknown));
}

#[test]
fn saves_are_atomic_keep_a_backup_and_damaged_files_load_nothing() {
    let dir = std::env::temp_dir().join(format!("shirokuro-book-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A misleading extension: the content decides.
    let path = dir.join("book.dat");
    let first = random_book(1, 20);
    save(&first, &path, BookFormat::Egbk3).unwrap();
    let mut second = first.clone();
    let _ = second.edit(&Board::INITIAL, Move::Place(Square::F5), Some(3)).unwrap();
    save(&second, &path, BookFormat::Egbk3).unwrap();
    let (loaded, format) = load(&path, None, ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Egbk3);
    assert_eq!(loaded.move_value(&Board::INITIAL, Move::Place(Square::F5)).unwrap().level, LEVEL_HUMAN);
    let (backup, _) = load(&dir.join("book.dat.bak"), None, ReadOptions::default()).unwrap();
    assert_same_book(&backup, &first);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file is left");
    // Damage: cut the file inside a record.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let error = load(&path, None, ReadOptions::default()).unwrap_err().to_string();
    assert!(error.contains("book.dat") && error.contains("offset"), "{error}");
    assert!(save(&first, &path, BookFormat::Egbk).is_err(), "read-only formats are refused");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gzip_compressed_book_loads_as_the_book_it_holds_and_damaged_gzip_is_a_read_error() {
    use std::io::Write;
    let book = random_book(5, 300);
    let dir = tempfile::tempdir().unwrap();
    let packed = dir.path().join("book.egbk3.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&egbk3_bytes(&book)).unwrap();
    let gz = encoder.finish().unwrap();
    std::fs::write(&packed, &gz).unwrap();
    let (loaded, format) = shirokuro_engine::book::load(&packed, None, ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Egbk3);
    assert_same_book(&loaded, &book);
    // Cut short, the gzip data is damaged: a read error that names the file, not a panic.
    std::fs::write(&packed, &gz[..gz.len() / 2]).unwrap();
    let error = shirokuro_engine::book::load(&packed, None, ReadOptions::default()).unwrap_err();
    assert!(matches!(&error, shirokuro_engine::book::BookError::Read { path, .. } if *path == packed), "{error}");
}
