//! The game record: the main line, at most one fork, and where the user is looking.
//!
//! A line is the sequence of positions after each disc placed, so index = ply = number of moves played (0–60), as on
//! the graph's x axis. A forced pass does not add a ply: the position at that ply is replaced by the passed one.
//! Playing a move other than the recorded next one while reviewing the main line starts a fork from that point;
//! going back before the fork's start drops it; [`Record::save_branch`] makes it the main line (Egaroucid's rules).

use shirokuro_engine::{IllegalMove, Move, Position, Square};

/// One position of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The position (after the move and any pass that was applied).
    pub position: Position,
    /// The square played to reach it; `None` for the start position.
    pub played: Option<Square>,
    /// The position's value for the graph (predicted final disc difference, Black positive), once known.
    pub value: Option<i32>,
    /// The time Black and White had used when the position was reached, in milliseconds (0 without a clock).
    pub clock: [u64; 2],
}

/// The current fork: it leaves the main line after `from` plies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    /// The ply at which the fork leaves the main line (its first node is main ply `from + 1`'s alternative).
    pub from: usize,
    /// Nodes of the fork: `nodes[i]` is at ply `from + 1 + i`.
    pub nodes: Vec<Node>,
}

/// Main line, fork and cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    main: Vec<Node>,
    fork: Option<Fork>,
    ply: usize,
    on_fork: bool,
}

impl Default for Record {
    fn default() -> Record {
        Record::new(Position::INITIAL)
    }
}

impl Record {
    /// A record starting at `start`.
    #[must_use]
    pub fn new(start: Position) -> Record {
        Record {
            main: vec![Node { position: start, played: None, value: None, clock: [0, 0] }],
            fork: None,
            ply: 0,
            on_fork: false,
        }
    }

    /// A record of the line from `start` (valued `start_value`) along `steps`: each the square played and the value of
    /// the position after it. Forced passes are made by themselves; the line stops at the first move that is not legal.
    #[must_use]
    pub fn from_line(
        start: Position,
        start_value: Option<i32>,
        steps: impl IntoIterator<Item = (Square, Option<i32>)>,
    ) -> Record {
        let mut record = Record::new(start);
        if let Some(value) = start_value {
            record.set_value(0, value);
        }
        for (square, value) in steps {
            if record.play(square, true).is_err() {
                break;
            }
            if let Some(value) = value {
                record.set_value(record.ply(), value);
            }
        }
        record
    }

    /// The ply the user is looking at.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Whether the cursor is on the fork.
    #[must_use]
    pub fn is_on_fork(&self) -> bool {
        self.on_fork
    }

    /// The main line.
    #[must_use]
    pub fn main(&self) -> &[Node] {
        &self.main
    }

    /// The fork, if any.
    #[must_use]
    pub fn fork(&self) -> Option<&Fork> {
        self.fork.as_ref()
    }

    /// The node at `ply` of the line being viewed (the fork when on it, else the main line).
    #[must_use]
    pub fn node_at(&self, ply: usize) -> Option<&Node> {
        match (&self.fork, self.on_fork) {
            (Some(fork), true) if ply > fork.from => fork.nodes.get(ply - fork.from - 1),
            _ => self.main.get(ply),
        }
    }

    /// The last ply of the line being viewed.
    #[must_use]
    pub fn last_ply(&self) -> usize {
        match (&self.fork, self.on_fork) {
            (Some(fork), true) => fork.from + fork.nodes.len(),
            _ => self.main.len() - 1,
        }
    }

    /// The node being viewed.
    #[must_use]
    pub fn current(&self) -> &Node {
        // The cursor always points at an existing node.
        self.node_at(self.ply).unwrap_or(&self.main[0])
    }

    /// Whether the cursor is at the end of the line being viewed.
    #[must_use]
    pub fn is_at_end(&self) -> bool {
        self.ply == self.last_ply()
    }

    /// The recorded move after the cursor, if the line goes on.
    #[must_use]
    pub fn next_move(&self) -> Option<Square> {
        self.node_at(self.ply + 1).and_then(|node| node.played)
    }

    /// The squares played along the line being viewed, up to `ply` included.
    #[must_use]
    pub fn moves_to(&self, ply: usize) -> Vec<Square> {
        (1..=ply.min(self.last_ply())).filter_map(|p| self.node_at(p).and_then(|n| n.played)).collect()
    }

    /// Plays `square` at the cursor. Following the recorded next move just moves forward; a different move at the end
    /// of a line extends it, elsewhere it starts (or replaces) the fork. `auto_pass` applies a forced pass of the next
    /// side right away (otherwise the position waits for [`Record::pass`]).
    ///
    /// # Errors
    /// [`IllegalMove`] when the move is not legal here.
    pub fn play(&mut self, square: Square, auto_pass: bool) -> Result<(), IllegalMove> {
        let mut position = self.current().position.play(Move::Place(square))?;
        if auto_pass && position.board.must_pass() {
            position = Position { board: position.board.pass(), side_to_move: !position.side_to_move };
        }
        if self.next_move() == Some(square) {
            // The recorded node stays, with its value.
            self.ply += 1;
            return Ok(());
        }
        let node = Node { position, played: Some(square), value: None, clock: [0, 0] };
        let ply = self.ply;
        if self.on_fork {
            if let Some(fork) = &mut self.fork {
                fork.nodes.truncate(ply - fork.from);
                fork.nodes.push(node);
            }
        } else if self.is_at_end() {
            self.main.push(node);
        } else {
            self.fork = Some(Fork { from: ply, nodes: vec![node] });
            self.on_fork = true;
        }
        self.ply = ply + 1;
        Ok(())
    }

    /// Applies the forced pass at the cursor. Returns whether there was one to apply.
    pub fn pass(&mut self) -> bool {
        let ply = self.ply;
        let Some(node) = self.node_mut(ply) else { return false };
        if !node.position.board.must_pass() {
            return false;
        }
        node.position = Position { board: node.position.board.pass(), side_to_move: !node.position.side_to_move };
        true
    }

    /// Moves the cursor to `ply` of the line being viewed (clamped). Going back to or before the fork's start leaves
    /// the fork and drops it.
    pub fn go_to(&mut self, ply: usize) {
        let ply = ply.min(self.last_ply());
        if let Some(fork) = &self.fork
            && self.on_fork
            && ply <= fork.from
        {
            self.fork = None;
            self.on_fork = false;
        }
        self.ply = ply;
    }

    /// Moves the cursor to `ply` of the main line, leaving (and dropping) the fork.
    pub fn go_to_main(&mut self, ply: usize) {
        self.fork = None;
        self.on_fork = false;
        self.ply = ply.min(self.main.len() - 1);
    }

    /// Moves to `ply` of the fork if there is one that long (used by graph clicks on the fork line).
    pub fn go_to_fork(&mut self, ply: usize) -> bool {
        match &self.fork {
            Some(fork) if ply > fork.from && ply <= fork.from + fork.nodes.len() => {
                self.on_fork = true;
                self.ply = ply;
                true
            }
            _ => false,
        }
    }

    /// One ply back and everything after it removed (Egaroucid's Undo). On the fork only the fork is cut; undoing
    /// its first move drops it and leaves the main line whole. Returns whether anything changed.
    pub fn undo(&mut self) -> bool {
        if self.ply == 0 {
            return false;
        }
        let ply = self.ply - 1;
        self.ply = ply;
        if self.on_fork {
            match &mut self.fork {
                Some(fork) if ply > fork.from => fork.nodes.truncate(ply - fork.from),
                _ => {
                    self.fork = None;
                    self.on_fork = false;
                }
            }
        } else {
            self.main.truncate(ply + 1);
            self.fork = None;
        }
        true
    }

    /// Makes the fork the main line (Egaroucid's "Save this Branch"). Returns whether there was a fork.
    pub fn save_branch(&mut self) -> bool {
        let Some(fork) = self.fork.take() else { return false };
        self.main.truncate(fork.from + 1);
        self.main.extend(fork.nodes);
        self.on_fork = false;
        true
    }

    /// Records the value of `ply` on the line being viewed.
    pub fn set_value(&mut self, ply: usize, value: i32) {
        if let Some(node) = self.node_mut(ply) {
            node.value = Some(value);
        }
    }

    /// Records the clock reading of `ply` on the line being viewed.
    pub fn set_clock(&mut self, ply: usize, clock: [u64; 2]) {
        if let Some(node) = self.node_mut(ply) {
            node.clock = clock;
        }
    }

    /// The node at `ply` of the line being viewed, mutably.
    fn node_mut(&mut self, ply: usize) -> Option<&mut Node> {
        match (&mut self.fork, self.on_fork) {
            (Some(fork), true) if ply > fork.from => fork.nodes.get_mut(ply - fork.from - 1),
            _ => self.main.get_mut(ply),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn played(record: &Record, moves: &[&str]) -> bool {
        record.moves_to(record.last_ply()) == moves.iter().map(|m| sq(m)).collect::<Vec<_>>()
    }

    #[test]
    fn playing_at_the_end_extends_the_main_line() {
        let mut r = Record::default();
        r.play(sq("f5"), true).unwrap();
        r.play(sq("d6"), true).unwrap();
        assert_eq!(r.ply(), 2);
        assert!(r.is_at_end());
        assert!(played(&r, &["f5", "d6"]));
        assert!(r.play(sq("a1"), true).is_err());
        assert_eq!(r.ply(), 2);
    }

    #[test]
    fn following_the_record_moves_forward_and_a_new_move_forks() {
        let mut r = Record::default();
        for m in ["f5", "d6", "c3"] {
            r.play(sq(m), true).unwrap();
        }
        r.go_to(1);
        r.play(sq("d6"), true).unwrap();
        assert_eq!(r.ply(), 2);
        assert!(r.fork().is_none());
        r.go_to(1);
        r.play(sq("f6"), true).unwrap();
        assert!(r.is_on_fork());
        assert_eq!(r.fork().unwrap().from, 1);
        assert!(played(&r, &["f5", "f6"]));
        assert_eq!(r.main().len(), 4);
        // Back to the fork's start drops it.
        r.go_to(1);
        assert!(r.fork().is_none());
        assert!(!r.is_on_fork());
        assert_eq!(r.last_ply(), 3);
    }

    #[test]
    fn save_branch_replaces_the_rest_of_the_main_line() {
        let mut r = Record::default();
        for m in ["f5", "d6", "c3"] {
            r.play(sq(m), true).unwrap();
        }
        r.go_to(1);
        r.play(sq("f6"), true).unwrap();
        r.play(sq("e6"), true).unwrap();
        assert!(r.save_branch());
        assert!(!r.is_on_fork());
        assert!(played(&r, &["f5", "f6", "e6"]));
        assert_eq!(r.ply(), 3);
        assert!(!r.save_branch());
    }

    #[test]
    fn undo_goes_back_and_truncates() {
        let mut r = Record::default();
        for m in ["f5", "d6", "c3"] {
            r.play(sq(m), true).unwrap();
        }
        r.go_to(2);
        assert!(r.undo());
        assert_eq!(r.ply(), 1);
        assert_eq!(r.last_ply(), 1);
        assert!(r.undo());
        assert!(!r.undo());
        assert_eq!(r.current().position, Position::INITIAL);
    }

    #[test]
    fn undo_on_a_fork_cuts_only_the_fork() {
        let mut r = Record::default();
        for m in ["f5", "d6", "c3"] {
            r.play(sq(m), true).unwrap();
        }
        r.go_to(1);
        r.play(sq("f6"), true).unwrap();
        r.play(sq("e6"), true).unwrap();
        assert!(r.undo());
        assert!(r.is_on_fork());
        assert_eq!((r.ply(), r.last_ply()), (2, 2));
        assert!(r.undo());
        assert!(!r.is_on_fork());
        assert!(r.fork().is_none());
        assert_eq!(r.ply(), 1);
        assert!(played(&r, &["f5", "d6", "c3"]), "the main line is whole");
    }
}
