//! The pattern shapes of the evaluation and their placements on the board.
//!
//! A *group* is one shape (an ordered list of squares) together with every distinct placement of it that the eight
//! board symmetries produce; each placement is a *feature*. All features of a group share one weight table, indexed by
//! the ternary number the feature's squares spell (first square = most significant digit; 0 empty, 1 black,
//! 2 white in [`super::Features`]). Because the placements are the orbit of the base shape under the symmetry group,
//! a symmetric board reads the same digits in a different feature, so an evaluation with these groups is symmetric
//! as long as each table gives equal weight to the indices a shape's own symmetries (e.g. the 3×3 corner mirrored in
//! its diagonal) map onto each other — see [`Group::self_permutations`].

use std::sync::OnceLock;

use crate::bitboard::Symmetry;
use crate::square::Square;

/// A base shape, written as squares in reading order.
struct Shape {
    name: &'static str,
    squares: &'static [&'static str],
}

/// The shapes: corners (3×3 and 2×5), the edge with both X-squares, rows 2–4, and the diagonals of length 4–8.
const SHAPES: [Shape; 11] = [
    Shape { name: "corner 3x3", squares: &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] },
    Shape { name: "corner 2x5", squares: &["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"] },
    Shape { name: "edge + 2X", squares: &["b2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2"] },
    Shape { name: "row 2", squares: &["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"] },
    Shape { name: "row 3", squares: &["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"] },
    Shape { name: "row 4", squares: &["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"] },
    Shape { name: "diagonal 8", squares: &["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"] },
    Shape { name: "diagonal 7", squares: &["b1", "c2", "d3", "e4", "f5", "g6", "h7"] },
    Shape { name: "diagonal 6", squares: &["c1", "d2", "e3", "f4", "g5", "h6"] },
    Shape { name: "diagonal 5", squares: &["d1", "e2", "f3", "g4", "h5"] },
    Shape { name: "diagonal 4", squares: &["e1", "f2", "g3", "h4"] },
];

/// Number of pattern groups.
pub const GROUP_COUNT: usize = SHAPES.len();

/// The most squares in one feature.
pub const MAX_LENGTH: usize = 10;

/// One group: a shape, its placements and the permutations its own symmetries induce.
#[derive(Debug, Clone)]
pub struct Group {
    /// Human-readable name.
    pub name: &'static str,
    /// Squares per feature.
    pub length: usize,
    /// Every placement (feature) of the shape, squares in digit order.
    pub features: Vec<Vec<Square>>,
    /// For each symmetry that maps the base shape onto itself (identity excluded): `perm[k]` is the digit position
    /// that digit `k` moves to.
    pub self_permutations: Vec<Vec<usize>>,
}

impl Group {
    /// Number of indices (3^length).
    #[must_use]
    pub fn size(&self) -> usize {
        3usize.pow(self.length as u32)
    }

    /// The smallest index among those this group's self-symmetries make equivalent to `index`: tables must give all
    /// of them one weight.
    #[must_use]
    pub fn canonical_index(&self, index: usize) -> usize {
        let digits = to_digits(index, self.length);
        let mut best = index;
        for perm in &self.self_permutations {
            let mut moved = [0u8; MAX_LENGTH];
            for (k, &d) in digits.iter().enumerate().take(self.length) {
                moved[perm[k]] = d;
            }
            best = best.min(from_digits(&moved[..self.length]));
        }
        best
    }
}

fn to_digits(mut index: usize, length: usize) -> [u8; MAX_LENGTH] {
    let mut digits = [0u8; MAX_LENGTH];
    for k in (0..length).rev() {
        digits[k] = (index % 3) as u8;
        index /= 3;
    }
    digits
}

fn from_digits(digits: &[u8]) -> usize {
    digits.iter().fold(0, |acc, &d| acc * 3 + usize::from(d))
}

/// All groups, built once.
#[must_use]
pub fn groups() -> &'static [Group] {
    static GROUPS: OnceLock<Vec<Group>> = OnceLock::new();
    GROUPS.get_or_init(|| SHAPES.iter().map(build_group).collect())
}

fn build_group(shape: &Shape) -> Group {
    let base: Vec<Square> = shape.squares.iter().map(|s| Square::parse(s).expect("shape squares are valid")).collect();
    let base_set: u64 = base.iter().fold(0, |acc, s| acc | s.bitboard().0);
    let mut features: Vec<Vec<Square>> = Vec::new();
    let mut sets: Vec<u64> = Vec::new();
    let mut self_permutations = Vec::new();
    for symmetry in Symmetry::ALL {
        let image: Vec<Square> = base.iter().map(|&s| symmetry.apply_square(s)).collect();
        let set = image.iter().fold(0, |acc, s| acc | s.bitboard().0);
        if set == base_set && symmetry != Symmetry::Identity {
            let perm = image.iter().map(|s| base.iter().position(|b| b == s).expect("same set")).collect();
            self_permutations.push(perm);
        }
        if !sets.contains(&set) {
            sets.push(set);
            features.push(image);
        }
    }
    Group { name: shape.name, length: base.len(), features, self_permutations }
}

/// Total number of features over all groups.
#[must_use]
pub fn feature_count() -> usize {
    groups().iter().map(|g| g.features.len()).sum()
}
