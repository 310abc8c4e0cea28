//! In/Out ▸ Input Board as Bitboard, and the text Output Board as Bitboard copies: two 64-bit hex numbers, the side
//! to move's discs and the opponent's (or Black's and White's), in Egaroucid's bit order so that boards go between
//! the two apps: bit 63 is a1, bit 0 is h8 (Edax and `shirokuro-cli` number the other way, a1 = bit 0; the two orders
//! are the board turned 180°).

use iced::Element;
use iced::widget::{button, column, container, row, text, text_input};
use shirokuro_engine::notation::{HexBoardError, format_hex_board, parse_hex_board};
use shirokuro_engine::{Bitboard, Board, Color, Move, Position};

use crate::i18n::{Strings, fill};

/// The box's state: the two numbers as typed, and why the last import was refused.
#[derive(Debug, Default)]
pub struct BitboardBox {
    player: String,
    opponent: String,
    problem: Option<HexBoardError>,
}

/// Messages of the box.
#[derive(Debug, Clone)]
pub enum Message {
    /// The side to move's number typed.
    Player(String),
    /// The opponent's number typed.
    Opponent(String),
    /// Import with this side to move.
    Import(Color),
}

/// One of our bitboards in Egaroucid's order, and back (the same map both ways).
#[must_use]
pub fn egaroucid_order(bits: u64) -> u64 {
    bits.reverse_bits()
}

/// The text Output Board as Bitboard copies: `first` then `second`, in Egaroucid's order and format.
#[must_use]
pub fn output(first: Bitboard, second: Bitboard) -> String {
    let board = Board::from_raw(egaroucid_order(first.0), egaroucid_order(second.0));
    format_hex_board(&board)
}

impl BitboardBox {
    /// Handles a message; `Some` with the position to play from when an import succeeds.
    pub fn update(&mut self, message: Message) -> Option<Position> {
        match message {
            Message::Player(text) => self.player = text,
            Message::Opponent(text) => self.opponent = text,
            Message::Import(side) => match parse_hex_board(&format!("{} {}", self.player.trim(), self.opponent.trim()))
            {
                Ok(board) => {
                    self.problem = None;
                    let board = Board::from_raw(egaroucid_order(board.player.0), egaroucid_order(board.opponent.0));
                    let position = Position { board, side_to_move: side };
                    // As any board imported: a side with no move passes when the other can move.
                    return Some(if board.must_pass() {
                        position.play(Move::Pass).unwrap_or(position)
                    } else {
                        position
                    });
                }
                Err(problem) => self.problem = Some(problem),
            },
        }
        None
    }

    /// The box; `close` closes it.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let mut form = column![
            text(s.bitboard_input.clone()).size(20),
            text(s.bitboard_help.clone()).size(13).width(520),
            text(s.bitboard_player.clone()).size(14),
            text_input("0x0000000810000000", &self.player)
                .id("bitboard-player")
                .on_input(move |t| map(Message::Player(t))),
            text(s.bitboard_opponent.clone()).size(14),
            text_input("0x0000001008000000", &self.opponent)
                .id("bitboard-opponent")
                .on_input(move |t| map(Message::Opponent(t))),
        ]
        .spacing(8)
        .padding(20)
        .width(iced::Length::Fixed(640.0));
        if let Some(problem) = &self.problem {
            form = form.push(text(problem_text(s, problem)).size(13));
        }
        form.push(
            row![
                container(button(text(s.bitboard_as_black.clone())).on_press(map(Message::Import(Color::Black))))
                    .id("bitboard-black"),
                container(button(text(s.bitboard_as_white.clone())).on_press(map(Message::Import(Color::White))))
                    .id("bitboard-white"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(10),
        )
        .into()
    }
}

/// Why the numbers were refused, in the UI's language.
fn problem_text(s: &Strings, problem: &HexBoardError) -> String {
    match problem {
        HexBoardError::MissingPlayer => s.bitboard_missing_player.clone(),
        HexBoardError::MissingOpponent => s.bitboard_missing_opponent.clone(),
        HexBoardError::InvalidChar { found, .. } => fill(&s.bitboard_invalid_char, &[found]),
        HexBoardError::TooLarge { .. } => s.bitboard_too_large.clone(),
        HexBoardError::Overlap { .. } => s.bitboard_overlap.clone(),
        _ => s.bitboard_invalid.clone(),
    }
}

#[cfg(test)]
mod tests {
    use shirokuro_engine::Square;

    use super::*;

    #[test]
    fn egaroucid_order_is_the_board_turned_half_round() {
        let a1 = Square::A1.bitboard().0;
        assert_eq!(egaroucid_order(a1), 1 << 63);
        assert_eq!(egaroucid_order(egaroucid_order(0x1234_5678_9abc_def0)), 0x1234_5678_9abc_def0);
        // The initial position reads the same both ways; after f5 it does not.
        let initial = Position::INITIAL;
        assert_eq!(output(initial.black(), initial.white()), "0x0000000810000000\t0x0000001008000000");
        let f5 = initial.play(Move::Place(Square::F5)).unwrap();
        assert_eq!(output(f5.board.player, f5.board.opponent), "0x0000001000000000\t0x000000081c000000");
    }

    #[test]
    fn an_import_reads_back_what_output_wrote_and_refuses_bad_numbers() {
        let f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
        let (player, opponent) = output(f5.board.player, f5.board.opponent)
            .split_once('\t')
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .unwrap();
        let mut form = BitboardBox::default();
        let _ = form.update(Message::Player(player));
        let _ = form.update(Message::Opponent(opponent));
        assert_eq!(form.update(Message::Import(Color::White)), Some(f5));
        let _ = form.update(Message::Opponent("0xffffffffffffffff".to_owned()));
        assert_eq!(form.update(Message::Import(Color::White)), None);
        assert!(matches!(form.problem, Some(HexBoardError::Overlap { .. })));
        let _ = form.update(Message::Opponent("xyz".to_owned()));
        assert_eq!(form.update(Message::Import(Color::Black)), None);
        assert!(matches!(form.problem, Some(HexBoardError::InvalidChar { .. })));
    }
}
