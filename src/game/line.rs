//! Replacing or changing the whole line: moves, a line from any start, a game file, a conversion.

use shirokuro_engine::bitboard::Symmetry;
use shirokuro_engine::game_file::{GameFile, GameNode};
use shirokuro_engine::{Move, Position, Square};

use super::{Action, Game};
use crate::context::Ctx;
use crate::record::Record;

impl Game {
    /// Replaces the game by these moves from the initial position (already checked legal, e.g. by the transcript
    /// parser), with the cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_moves(&mut self, moves: &[Square], ctx: &Ctx<'_>) -> Action {
        let moves: Vec<Move> = moves.iter().copied().map(Move::Place).collect();
        self.load_line(Position::INITIAL, &moves, ctx)
    }

    /// A new game along a random opening of the XOT list drawn with `rng`: its position is kept as the generated one
    /// (Back to Random Pos. returns there, the graph greys the moves before it), as a random board's is.
    pub fn load_xot(&mut self, rng: &mut shirokuro_engine::rng::GameRng, ctx: &Ctx<'_>) -> Action {
        let Some(moves) = crate::xot::random(rng) else { return Action::None };
        let action = self.load_moves(moves, ctx);
        self.random_start = Some(self.record.last_ply());
        self.refresh(ctx);
        action
    }

    /// Plays these moves (checked legal) on from the position shown, as clicks would (a fork when reviewing).
    pub fn play_moves(&mut self, moves: &[Move], ctx: &Ctx<'_>) -> Action {
        for square in moves.iter().filter_map(|mv| mv.square()) {
            if self.record.play(square, true).is_err() {
                break;
            }
        }
        self.paused = false;
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// Replaces the game by `moves` (checked legal; passes are made by themselves) played from `start`, with the
    /// cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_line(&mut self, start: Position, moves: &[Move], ctx: &Ctx<'_>) -> Action {
        self.load_line_at(start, moves, usize::MAX, ctx)
    }

    /// As [`load_line`](Self::load_line), with the cursor at `ply` (discs placed from the start; the end if the line
    /// is shorter): an archived game loaded at the position it was picked from.
    pub fn load_line_at(&mut self, start: Position, moves: &[Move], ply: usize, ctx: &Ctx<'_>) -> Action {
        self.forget_last_game();
        self.random_start = None;
        self.board_edit = None;
        self.record = Record::from_line(start, None, moves.iter().filter_map(|mv| mv.square()).map(|sq| (sq, None)));
        self.record.go_to(ply);
        self.clocks = super::clock::Clocks::default();
        self.paused = false;
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// The main line as a game file (Egaroucid's "Save main line"), with the values known, dated `date`; `level` is
    /// written as the source of the values.
    #[must_use]
    pub fn game_file(&self, date: String, level: u8) -> GameFile {
        let nodes = self
            .record
            .main()
            .iter()
            .map(|node| GameNode {
                position: node.position,
                played: node.played,
                value: node.value,
                level: i32::from(level),
                clock: node.clock,
            })
            .collect();
        let mut file = GameFile::new(nodes, date);
        file.random_start = self.random_start.filter(|ply| *ply < self.record.main().len());
        // A review of the main line goes with it (a review of a fork does not fit the file's line).
        let main = self.record.main().iter().map(|node| node.position);
        file.review = self
            .review
            .as_ref()
            .filter(|r| r.is_of(main))
            .map(|r| shirokuro_engine::game_file::SavedReview { options: r.options(), values: r.values().to_vec() });
        file
    }

    /// Replaces the game by the line of `file` (from its first position, which need not be the initial one), with
    /// its values and random start, the cursor at the end. If the AI is to move there, it waits for Start.
    pub fn load_game(&mut self, file: &GameFile, ctx: &Ctx<'_>) -> Action {
        self.forget_last_game();
        let Some((first, rest)) = file.nodes.split_first() else { return Action::None };
        let steps = rest.iter().map_while(|node| node.played.map(|sq| (sq, node.value)));
        self.record = Record::from_line(first.position, first.value, steps);
        for (ply, node) in file.nodes.iter().enumerate().take(self.record.last_ply() + 1) {
            self.record.set_clock(ply, node.clock);
        }
        self.clocks = super::clock::Clocks::at(self.record.current().clock);
        self.random_start = file.random_start.filter(|ply| *ply <= self.record.last_ply());
        self.review = file.review.as_ref().map(|saved| {
            let line = super::loss::current_line(&self.record)
                .iter()
                .map(|node| shirokuro_engine::review::LinePosition { position: node.position, played: node.played })
                .collect();
            crate::review::Review::restored(line, saved.options, saved.values.clone())
        });
        self.paused = false;
        self.hints.clear();
        self.awaiting_start = self.ai_to_move(ctx.settings);
        self.plan(ctx)
    }

    /// Turns or mirrors the main line by `symmetry`, keeping its values, the random start and the ply shown (a
    /// fork is dropped).
    pub(super) fn convert(&mut self, symmetry: Symmetry, ctx: &Ctx<'_>) -> Action {
        let Some((first, rest)) = self.record.main().split_first() else { return Action::None };
        let start =
            Position { board: first.position.board.transform(symmetry), side_to_move: first.position.side_to_move };
        let steps = rest.iter().map_while(|node| node.played.map(|sq| (symmetry.apply_square(sq), node.value)));
        let mut record = Record::from_line(start, first.value, steps);
        let ply = self.record.ply().min(record.last_ply());
        record.go_to(ply);
        self.record = record;
        self.plan(ctx)
    }
}
