//! Losses along a line, from the values the graph holds (Black's view, predicted final disc difference): each move's
//! loss for the player who made it is how much the value moved against them, never below zero (Egaroucid's rule).
//! Egaroucid's "Sum of Loss" graph and its "Endgame Error" figures are built from them.

use shirokuro_engine::Color;

use crate::record::{Node, Record};

/// The fork's whole line (the main line up to where it leaves, then the fork) with that ply, when there is a fork.
#[must_use]
pub fn fork_line(record: &Record) -> Option<(usize, Vec<Node>)> {
    let fork = record.fork()?;
    let mut line: Vec<Node> = record.main().iter().take(fork.from + 1).copied().collect();
    line.extend(fork.nodes.iter().copied());
    Some((fork.from, line))
}

/// The line being looked at: the fork's when on it, else the main line.
#[must_use]
pub fn current_line(record: &Record) -> Vec<Node> {
    match fork_line(record) {
        Some((_, line)) if record.is_on_fork() => line,
        _ => record.main().to_vec(),
    }
}

/// The loss of the move into each node of `line` for the player who made it: `None` for the first node and where
/// either value is missing. A forced pass is folded into the position, so the mover is the side to move of the
/// node before.
#[must_use]
pub fn move_losses(line: &[Node]) -> Vec<Option<(Color, i32)>> {
    let mut losses = vec![None];
    for pair in line.windows(2) {
        let [before, after] = pair else { continue };
        let loss = match (before.value, after.value) {
            (Some(v0), Some(v1)) => {
                let mover = before.position.side_to_move;
                let drop = if mover == Color::Black { v0 - v1 } else { v1 - v0 };
                Some((mover, drop.max(0)))
            }
            _ => None,
        };
        losses.push(loss);
    }
    losses
}

/// Each player's accumulated loss at each ply of `line` from ply `start` on, as (Black's, White's), drawn
/// downwards from 0 (so both are zero or negative). `None` before `start` and where the move into the node has no
/// known loss (the sums go on with the moves that have one).
#[must_use]
pub fn sum_of_loss(line: &[Node], start: usize) -> Vec<Option<(i32, i32)>> {
    let mut sums = (0, 0);
    move_losses(line)
        .into_iter()
        .enumerate()
        .map(|(ply, loss)| {
            if ply < start {
                return None;
            }
            if ply == start {
                return Some(sums);
            }
            let (mover, loss) = loss?;
            match mover {
                Color::Black => sums.0 -= loss,
                Color::White => sums.1 -= loss,
            }
            Some(sums)
        })
        .collect()
}

/// Egaroucid's Endgame Error: each player's summed loss over the moves into positions of at least `from_discs`
/// discs (44 for "Move 40–60", 45 for "Move 41–60"). `None` when the line has no such move or one of them lacks a
/// value (Egaroucid shows "-").
#[must_use]
pub fn endgame_error(line: &[Node], from_discs: u32) -> Option<(i32, i32)> {
    let mut sums = (0, 0);
    let mut any = false;
    for (node, loss) in line.iter().zip(move_losses(line)).skip(1) {
        if 64 - node.position.board.empty_count() < from_discs {
            continue;
        }
        let (mover, loss) = loss?;
        any = true;
        match mover {
            Color::Black => sums.0 += loss,
            Color::White => sums.1 += loss,
        }
    }
    any.then_some(sums)
}

#[cfg(test)]
mod tests {
    use shirokuro_engine::{Move, Position, Square};

    use super::*;

    /// The nodes of a line of moves from the initial position with the given values (Black's view).
    fn line(moves: &[&str], values: &[Option<i32>]) -> Vec<Node> {
        let mut position = Position::INITIAL;
        let mut nodes = vec![Node { position, played: None, value: values[0], clock: [0, 0] }];
        for (m, value) in moves.iter().zip(&values[1..]) {
            let square: Square = m.parse().unwrap();
            position = position.play(Move::Place(square)).unwrap();
            nodes.push(Node { position, played: Some(square), value: *value, clock: [0, 0] });
        }
        nodes
    }

    #[test]
    fn each_move_loses_what_the_value_moved_against_its_player() {
        // Black f5 keeps 0; White d6 lets Black gain 4 (White loses 4); Black c3 drops to +1 (Black loses 3).
        let nodes = line(&["f5", "d6", "c3"], &[Some(0), Some(0), Some(4), Some(1)]);
        assert_eq!(
            move_losses(&nodes),
            vec![None, Some((Color::Black, 0)), Some((Color::White, 4)), Some((Color::Black, 3))]
        );
        assert_eq!(sum_of_loss(&nodes, 0), vec![Some((0, 0)), Some((0, 0)), Some((0, -4)), Some((-3, -4))]);
        // A gain is no negative loss.
        let nodes = line(&["f5"], &[Some(0), Some(6)]);
        assert_eq!(move_losses(&nodes), vec![None, Some((Color::Black, 0))]);
    }

    #[test]
    fn missing_values_leave_gaps_and_a_start_skips_the_line_before_it() {
        let nodes = line(&["f5", "d6", "c3"], &[Some(0), None, Some(4), Some(1)]);
        assert_eq!(sum_of_loss(&nodes, 0), vec![Some((0, 0)), None, None, Some((-3, 0))]);
        assert_eq!(sum_of_loss(&nodes, 2), vec![None, None, Some((0, 0)), Some((-3, 0))]);
    }

    #[test]
    fn endgame_error_sums_the_late_moves_and_needs_every_value() {
        let nodes = line(&["f5", "d6", "c3"], &[Some(0), Some(0), Some(4), Some(1)]);
        // Moves into positions of 6 and 7 discs: White's 4 and Black's 3.
        assert_eq!(endgame_error(&nodes, 6), Some((3, 4)));
        assert_eq!(endgame_error(&nodes, 7), Some((3, 0)));
        assert_eq!(endgame_error(&nodes, 44), None, "no move that late");
        let gap = line(&["f5", "d6", "c3"], &[Some(0), Some(0), None, Some(1)]);
        assert_eq!(endgame_error(&gap, 6), None);
        assert_eq!(endgame_error(&gap, 7), None, "the move into the 7-disc position has no known loss");
    }
}
