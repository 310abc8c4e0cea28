//! The rules of [`Board`] checked against a deliberately simple reference, plus invariants: symmetries, `play`'s
//! errors, hashing and stable discs.
//!
//! The reference is a "mailbox" board: an 8×8 array of cells, with flips found by walking the eight directions one
//! square at a time. It shares nothing with the engine but the documented square numbering (bit `row * 8 + column`,
//! a1 = bit 0, h8 = bit 63).

use std::collections::{HashMap, HashSet};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::{Bitboard, Board, IllegalMove, Move, Square, Symmetry};

// ---------------------------------------------------------------------------------------------------------------------
// Reference implementation
// ---------------------------------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    White,
}

impl Cell {
    fn opposite(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => Cell::Empty,
        }
    }
}

/// Column and row steps of the eight directions.
const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The reference board: `cells[row][column]`, row 0 = row 1, column 0 = column a.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mailbox {
    cells: [[Cell; 8]; 8],
    to_move: Cell,
}

impl Mailbox {
    /// The starting position: White on d4 and e5, Black on d5 and e4, Black to move.
    fn initial() -> Mailbox {
        let mut cells = [[Cell::Empty; 8]; 8];
        cells[3][3] = Cell::White; // d4
        cells[4][4] = Cell::White; // e5
        cells[4][3] = Cell::Black; // d5
        cells[3][4] = Cell::Black; // e4
        Mailbox { cells, to_move: Cell::Black }
    }

    fn bits_of(&self, colour: Cell) -> u64 {
        let mut bits = 0;
        for row in 0..8 {
            for column in 0..8 {
                if self.cells[row][column] == colour {
                    bits |= 1 << (row * 8 + column);
                }
            }
        }
        bits
    }

    /// The same position as an engine board (side to move first).
    fn to_board(self) -> Board {
        Board::new(self.bits_of(self.to_move), self.bits_of(self.to_move.opposite())).expect("cells hold one colour")
    }

    /// Discs that `colour` would flip by playing at (column, row), as a bitboard.
    fn flips_for(&self, colour: Cell, column: i32, row: i32) -> u64 {
        if self.cells[row as usize][column as usize] != Cell::Empty {
            return 0;
        }
        let mut flips = 0;
        for (dc, dr) in DIRECTIONS {
            let (mut c, mut r) = (column + dc, row + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let cell = self.cells[r as usize][c as usize];
                if cell == colour.opposite() {
                    run |= 1 << (r * 8 + c);
                } else {
                    if cell == colour {
                        flips |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        flips
    }

    fn flips(&self, column: i32, row: i32) -> u64 {
        self.flips_for(self.to_move, column, row)
    }

    fn moves_for(&self, colour: Cell) -> u64 {
        let mut moves = 0;
        for row in 0..8 {
            for column in 0..8 {
                if self.flips_for(colour, column, row) != 0 {
                    moves |= 1 << (row * 8 + column);
                }
            }
        }
        moves
    }

    fn moves(&self) -> u64 {
        self.moves_for(self.to_move)
    }

    fn is_game_over(&self) -> bool {
        self.moves_for(Cell::Black) == 0 && self.moves_for(Cell::White) == 0
    }

    fn must_pass(&self) -> bool {
        self.moves() == 0 && self.moves_for(self.to_move.opposite()) != 0
    }

    /// Plays at (column, row), which must be a legal move.
    fn play(&self, column: i32, row: i32) -> Mailbox {
        let flips = self.flips(column, row);
        assert_ne!(flips, 0, "reference asked to play an illegal move");
        let mut next = *self;
        next.cells[row as usize][column as usize] = self.to_move;
        for r in 0..8 {
            for c in 0..8 {
                if flips >> (r * 8 + c) & 1 != 0 {
                    next.cells[r][c] = self.to_move;
                }
            }
        }
        next.to_move = self.to_move.opposite();
        next
    }

    fn pass(&self) -> Mailbox {
        Mailbox { cells: self.cells, to_move: self.to_move.opposite() }
    }

    fn count(&self, colour: Cell) -> u32 {
        self.cells.iter().flatten().filter(|&&cell| cell == colour).count() as u32
    }

    /// The side to move's final score: disc difference, empties to the winner, nothing to either side on a draw.
    fn final_score(&self) -> i32 {
        let mine = self.count(self.to_move) as i32;
        let theirs = self.count(self.to_move.opposite()) as i32;
        let empties = self.count(Cell::Empty) as i32;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empties,
            std::cmp::Ordering::Less => mine - theirs - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

fn square(column: i32, row: i32) -> Square {
    Square::from_coords(column as u8, row as u8).expect("on the board")
}

// ---------------------------------------------------------------------------------------------------------------------
// Random positions
// ---------------------------------------------------------------------------------------------------------------------

/// Plays a uniformly random legal move (or the forced pass); returns `None` when the game is over.
fn random_step(board: &Board, rng: &mut StdRng) -> Option<Board> {
    let moves = board.moves();
    if moves.is_empty() {
        return if board.is_game_over() { None } else { Some(board.pass()) };
    }
    let pick = rng.random_range(0..moves.count() as usize);
    let sq = moves.into_iter().nth(pick).expect("pick < count");
    Some(board.play_unchecked(sq, board.flips(sq)))
}

/// A position reached by random play, stopped at `empties` empty squares or at the end of the game.
fn random_position(rng: &mut StdRng, empties: u32) -> Board {
    let mut board = Board::INITIAL;
    while board.empty_count() > empties {
        match random_step(&board, rng) {
            Some(next) => board = next,
            None => break,
        }
    }
    board
}

/// Positions from random play, a few per game at random depths (openings to endgames).
fn random_game_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut board = Board::INITIAL;
        positions.push(board);
        while let Some(next) = random_step(&board, &mut rng) {
            board = next;
            if rng.random_range(0..8) == 0 {
                positions.push(board);
            }
        }
        positions.push(board);
    }
    positions.truncate(count);
    positions
}

// ---------------------------------------------------------------------------------------------------------------------
// The engine against the reference
// ---------------------------------------------------------------------------------------------------------------------

/// Compares everything the rules define at one position; returns the reference's legal moves.
fn compare(reference: &Mailbox, board: &Board) -> Vec<(i32, i32)> {
    assert_eq!(*board, reference.to_board(), "boards diverged");
    let moves = reference.moves();
    assert_eq!(board.moves().0, moves, "moves of\n{board}");
    assert_eq!(board.has_moves(), moves != 0);
    let game_over = reference.is_game_over();
    assert_eq!(board.is_game_over(), game_over, "game over of\n{board}");
    assert_eq!(board.must_pass(), reference.must_pass(), "must_pass of\n{board}");
    assert_eq!(board.is_legal(Move::Pass), reference.must_pass());
    let mine = reference.count(reference.to_move);
    let theirs = reference.count(reference.to_move.opposite());
    assert_eq!(board.disc_counts(), (mine, theirs));
    assert_eq!(board.empty_count(), 64 - mine - theirs);
    assert_eq!(board.final_score(), reference.final_score(), "final score of\n{board}");

    let mut legal = Vec::new();
    for row in 0..8 {
        for column in 0..8 {
            let sq = square(column, row);
            let flips = reference.flips(column, row);
            assert_eq!(board.flips(sq).0, flips, "flips of {sq} in\n{board}");
            assert_eq!(board.is_legal(Move::Place(sq)), flips != 0);
            let result = board.play(Move::Place(sq));
            if flips != 0 {
                let expected = reference.play(column, row).to_board();
                assert_eq!(result, Ok(expected), "play {sq} in\n{board}");
                assert_eq!(board.play_unchecked(sq, board.flips(sq)), expected);
                legal.push((column, row));
            } else if reference.cells[row as usize][column as usize] != Cell::Empty {
                assert_eq!(result, Err(IllegalMove::Occupied(sq)));
            } else if game_over {
                assert_eq!(result, Err(IllegalMove::GameOver));
            } else {
                assert_eq!(result, Err(IllegalMove::NoFlip(sq)));
            }
        }
    }

    let pass = board.play(Move::Pass);
    if moves != 0 {
        assert_eq!(pass, Err(IllegalMove::PassWithMoves));
    } else if game_over {
        assert_eq!(pass, Err(IllegalMove::GameOver));
    } else {
        assert_eq!(pass, Ok(reference.pass().to_board()));
    }
    legal
}

#[test]
fn random_games_match_reference() {
    const GAMES: usize = 2_000;
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    let (mut plies, mut passes, mut early_ends) = (0u32, 0u32, 0u32);
    for _ in 0..GAMES {
        let mut reference = Mailbox::initial();
        let mut board = Board::INITIAL;
        loop {
            let legal = compare(&reference, &board);
            if legal.is_empty() {
                if reference.is_game_over() {
                    if reference.count(Cell::Empty) > 0 {
                        early_ends += 1;
                    }
                    break;
                }
                passes += 1;
                reference = reference.pass();
                board = board.play(Move::Pass).expect("a forced pass is legal");
            } else {
                let (column, row) = legal[rng.random_range(0..legal.len())];
                reference = reference.play(column, row);
                board = board.play(Move::Place(square(column, row))).expect("a reference move is legal");
            }
            plies += 1;
        }
    }
    // The games must exercise the rare cases too.
    assert!(plies > 100_000, "{plies} plies");
    assert!(passes > 100, "{passes} passes");
    assert!(early_ends > 0, "no game ended with empty squares");
}

// ---------------------------------------------------------------------------------------------------------------------
// Symmetries
// ---------------------------------------------------------------------------------------------------------------------

#[test]
fn symmetries_commute_with_the_rules() {
    for board in random_game_positions(3_000, 0x5eed_0002) {
        let moves = board.moves();
        let stable = board.stable_discs();
        for symmetry in Symmetry::ALL {
            let image = board.transform(symmetry);
            assert_eq!(image.moves(), moves.transform(symmetry), "{symmetry:?} of\n{board}");
            assert_eq!(image.final_score(), board.final_score());
            assert_eq!(image.must_pass(), board.must_pass());
            assert_eq!(image.is_game_over(), board.is_game_over());
            assert_eq!(image.stable_discs(), stable.transform(symmetry), "stable discs, {symmetry:?} of\n{board}");
            for sq in Square::ALL {
                assert_eq!(image.flips(symmetry.apply_square(sq)), board.flips(sq).transform(symmetry));
            }
            for sq in moves {
                let mv = Move::Place(sq);
                let expected = board.play(mv).expect("legal").transform(symmetry);
                assert_eq!(image.play(mv.transform(symmetry)), Ok(expected));
            }
            assert_eq!(image.transform(symmetry.inverse()), board);
        }
    }
}

#[test]
fn canonical_form_is_shared_by_all_images() {
    for board in random_game_positions(3_000, 0x5eed_0003) {
        let images: Vec<Board> = Symmetry::ALL.iter().map(|&symmetry| board.transform(symmetry)).collect();
        let (canonical, symmetry) = board.canonical();
        assert_eq!(
            board.transform(symmetry),
            canonical,
            "the returned symmetry maps the board onto its canonical form"
        );
        assert!(images.contains(&canonical));
        let smallest = images.iter().map(Board::egaroucid_key).min().expect("eight images");
        assert_eq!(canonical.egaroucid_key(), smallest);
        for image in &images {
            assert_eq!(image.canonical().0, canonical, "image {image:?} of {board:?}");
        }
    }
    // The initial position has two distinct images: both diagonal mirrors and the half turn leave it unchanged.
    let distinct: HashSet<Board> = Symmetry::ALL.iter().map(|&s| Board::INITIAL.transform(s)).collect();
    assert_eq!(distinct.len(), 2);
    assert_eq!(Board::INITIAL.canonical().0, Board::INITIAL.transform(Symmetry::MirrorHorizontal).canonical().0);
}

// ---------------------------------------------------------------------------------------------------------------------
// play() errors
// ---------------------------------------------------------------------------------------------------------------------

#[test]
fn play_errors() {
    let initial = Board::INITIAL;
    assert_eq!(initial.play(Move::Place(Square::D4)), Err(IllegalMove::Occupied(Square::D4)));
    assert_eq!(initial.play(Move::Place(Square::E4)), Err(IllegalMove::Occupied(Square::E4)));
    assert_eq!(initial.play(Move::Place(Square::A1)), Err(IllegalMove::NoFlip(Square::A1)));
    assert_eq!(initial.play(Move::Place(Square::C3)), Err(IllegalMove::NoFlip(Square::C3)));
    assert_eq!(initial.play(Move::Pass), Err(IllegalMove::PassWithMoves));
    assert!(initial.play(Move::Place(Square::F5)).is_ok());

    // Only one colour left on the board: nobody can move.
    let one_sided = Board::from_raw(Board::INITIAL.player.0 | Board::INITIAL.opponent.0, 0);
    assert!(one_sided.is_game_over());
    assert_eq!(one_sided.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(one_sided.play(Move::Place(Square::C4)), Err(IllegalMove::GameOver));
    assert_eq!(one_sided.pass().play(Move::Pass), Err(IllegalMove::GameOver));
    // An occupied square is reported as such even after the end of the game.
    assert_eq!(one_sided.play(Move::Place(Square::D4)), Err(IllegalMove::Occupied(Square::D4)));

    // A full board: the game is over; every square is occupied.
    let full = Board::from_raw(0x0f0f_0f0f_0f0f_0f0f, 0xf0f0_f0f0_f0f0_f0f0);
    assert!(full.is_game_over());
    assert_eq!(full.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(full.play(Move::Place(Square::H8)), Err(IllegalMove::Occupied(Square::H8)));

    // The side to move must pass: row 1 reads O O X (a1, b1, c1) and X, to move, brackets nothing, while O can play
    // d1 (flipping c1).
    let must_pass = Board::from_raw(Square::C1.bitboard().0, Square::A1.bitboard().0 | Square::B1.bitboard().0);
    assert!(must_pass.must_pass(), "\n{must_pass}");
    assert_eq!(must_pass.play(Move::Place(Square::D1)), Err(IllegalMove::NoFlip(Square::D1)));
    assert_eq!(must_pass.play(Move::Pass), Ok(must_pass.pass()));
    assert_eq!(must_pass.pass().play(Move::Pass), Err(IllegalMove::PassWithMoves));
    assert!(must_pass.pass().play(Move::Place(Square::D1)).is_ok());
}

// ---------------------------------------------------------------------------------------------------------------------
// Hashing
// ---------------------------------------------------------------------------------------------------------------------

#[test]
fn hash_tells_side_to_move_apart() {
    for board in random_game_positions(20_000, 0x5eed_0004) {
        assert_ne!(board.hash(), board.pass().hash(), "{board:?}");
    }
    assert_ne!(Board::INITIAL.hash(), Board::INITIAL.pass().hash());
}

#[test]
fn hash_has_no_collisions_among_100k_positions() {
    const POSITIONS: usize = 100_000;
    let mut rng = StdRng::seed_from_u64(0x5eed_0005);
    let mut boards = HashSet::with_capacity(POSITIONS);
    // Half from random games (similar, realistic boards), half random disjoint bit patterns.
    for board in random_game_positions(POSITIONS, 0x5eed_0006) {
        let _ = boards.insert(board);
    }
    let from_games = boards.len();
    while boards.len() < from_games + POSITIONS / 2 {
        let a: u64 = rng.random();
        let b: u64 = rng.random();
        let _ = boards.insert(Board::from_raw(a & b, !a & rng.random::<u64>()));
    }
    assert!(boards.len() >= POSITIONS, "only {} distinct positions", boards.len());
    let hashes: HashSet<u64> = boards.iter().map(Board::hash).collect();
    assert_eq!(hashes.len(), boards.len(), "hash collisions");
    // Nor do the low 32 bits collide much (tables index with them): at most a few birthday collisions.
    let low: HashSet<u32> = boards.iter().map(|b| b.hash() as u32).collect();
    assert!(boards.len() - low.len() < 20, "{} low-bit collisions", boards.len() - low.len());
}

// ---------------------------------------------------------------------------------------------------------------------
// Stable discs
// ---------------------------------------------------------------------------------------------------------------------

/// Squares whose disc is flipped in at least one continuation of `board` (the whole game tree, memoised).
fn ever_flipped(board: Board, memo: &mut HashMap<Board, u64>) -> u64 {
    if let Some(&known) = memo.get(&board) {
        return known;
    }
    let moves = board.moves();
    let result = if moves.is_empty() {
        if board.pass().has_moves() { ever_flipped(board.pass(), memo) } else { 0 }
    } else {
        moves.into_iter().fold(0, |acc, sq| {
            let flips = board.flips(sq);
            acc | flips.0 | ever_flipped(board.play_unchecked(sq, flips), memo)
        })
    };
    let _ = memo.insert(board, result);
    result
}

#[test]
fn stable_discs_never_flip_exhaustive() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0007);
    let (mut reported, mut truly_stable) = (0u32, 0u32);
    for _ in 0..400 {
        let empties = rng.random_range(1..=10);
        let board = random_position(&mut rng, empties);
        let stable = board.stable_discs();
        assert_eq!(stable.0 & board.empties().0, 0, "an empty square reported stable in\n{board}");
        let mut memo = HashMap::new();
        let flippable = ever_flipped(board, &mut memo);
        assert_eq!(
            stable.0 & flippable,
            0,
            "reported stable but flippable:\n{}in\n{board}",
            Bitboard(stable.0 & flippable)
        );
        reported += stable.count();
        truly_stable += (!flippable & !board.empties().0).count_ones();
    }
    // Not vacuous: the detector finds most of the truly stable discs of these near-final positions.
    assert!(reported * 2 > truly_stable, "{reported} reported of {truly_stable} stable");
}

#[test]
fn stable_discs_never_flip_in_random_playouts() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0008);
    for _ in 0..300 {
        let empties = rng.random_range(11..=40);
        let board = random_position(&mut rng, empties);
        let stable = board.stable_discs().0;
        assert_eq!(stable & board.empties().0, 0);
        // Colours in absolute terms: the discs of the side to move at the start.
        let first_player = board.player.0 & stable;
        for _ in 0..100 {
            let mut current = board;
            // Whether `current.player` is the side that was to move in `board` (every step, a pass too, swaps them).
            let mut same_side = true;
            while let Some(next) = random_step(&current, &mut rng) {
                current = next;
                same_side = !same_side;
                let starting_side = if same_side { current.player.0 } else { current.opponent.0 };
                assert_eq!(starting_side & stable, first_player, "a stable disc changed colour; start:\n{board}");
            }
        }
    }
}

#[test]
fn stable_discs_hand_made_cases() {
    assert_eq!(Board::INITIAL.stable_discs(), Bitboard::EMPTY);

    // Full boards: every disc is stable, whatever the pattern.
    let mut rng = StdRng::seed_from_u64(0x5eed_0009);
    for _ in 0..100 {
        let p: u64 = rng.random();
        assert_eq!(Board::from_raw(p, !p).stable_discs(), Bitboard::FULL);
    }
    assert_eq!(Board::from_raw(u64::MAX, 0).stable_discs(), Bitboard::FULL);

    // A corner disc is stable, of either colour, among any neighbours.
    for corner in [Square::A1, Square::H1, Square::A8, Square::H8] {
        let board = Board::INITIAL.pass();
        let with_corner = Board::from_raw(board.player.0 | corner.bitboard().0, board.opponent.0);
        assert!(with_corner.stable_discs().contains(corner), "{corner}");
        assert!(with_corner.pass().stable_discs().contains(corner), "{corner}");
    }

    // A full edge row of mixed colours is stable; the disc next to it inside the board is not (its diagonals are open).
    let edge = Board::from_raw(0x0000_0000_0000_00aa, 0x0000_0000_0000_0255);
    let stable = edge.stable_discs();
    assert_eq!(stable.0 & 0xff, 0xff, "\n{stable}");
    assert!(!stable.contains(Square::B2));

    // Discs next to empties in the middle of the board are not stable.
    let middle = Board::from_raw(Square::D4.bitboard().0, Square::E4.bitboard().0);
    assert_eq!(middle.stable_discs(), Bitboard::EMPTY);

    // a1 X with b1 O and c1 empty: X's corner is stable, O's b1 is not (X plays c1).
    let pair = Board::from_raw(Square::A1.bitboard().0, Square::B1.bitboard().0);
    assert_eq!(pair.stable_discs(), Square::A1.bitboard());
}
