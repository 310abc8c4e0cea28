//! Multi-ProbCut: the statistical model that lets a shallow search predict a deep one.
//!
//! At a node to be searched to depth `d`, a search to the shallower depth [`shallow_depth`]`(d)` is run first. If its
//! value is above `beta + t·σ` (or below `alpha − t·σ`), the deep search is assumed to fail high (low) too and is
//! skipped. `σ` is the standard deviation of (deep − shallow) scores, which [`MpcModel`] predicts from the number of
//! discs and the two depths (midgame) or from the number of empties and the shallow depth (a search to the end of the
//! game); `t` comes from the selectivity: a cut agrees with the full search with the selectivity's probability when the
//! errors are normal, e.g. t = 1.55 for 88 %.
//!
//! The model's coefficients are fitted by `shirokuro-cli mpc-fit` (see [`fit`]) and stored as a small text file; the
//! fitted file for the shipped evaluation is compiled in ([`MpcModel::bundled`]).

use std::fmt::Write as _;
use std::path::Path;

use crate::level::Selectivity;

/// Number of coefficients of the midgame model.
pub const MIDGAME_TERMS: usize = 5;
/// Number of coefficients of the endgame model.
pub const ENDGAME_TERMS: usize = 2;

/// The deepest midgame depth the model is evaluated at: deeper searches use this depth's σ. The fit measures depths
/// up to about 10, σ changes slowly with depth, and a polynomial is not to be trusted far outside its data.
pub const MAX_MODEL_DEPTH: u32 = 12;
/// The range of empties the endgame model is evaluated at (clamped), for the same reason.
pub const ENDGAME_MODEL_EMPTIES: (u32, u32) = (13, 24);

/// The fitted σ model.
#[derive(Debug, Clone, PartialEq)]
pub struct MpcModel {
    /// σ = Σ cᵢ·termᵢ over [`midgame_terms`].
    pub midgame: [f64; MIDGAME_TERMS],
    /// σ = Σ eᵢ·termᵢ over [`endgame_terms`], for a search to the end probed at [`shallow_depth`]`(empties)`.
    pub endgame: [f64; ENDGAME_TERMS],
    /// A shallower probe for the searches to the end of the midgame search (the levels' selective endgame stages),
    /// with its own σ; without it they probe as the solver's presearch does.
    pub reduced_endgame: Option<ReducedEndgame>,
}

/// A probe of a search to the end some plies shallower than [`shallow_depth`], and its σ.
#[derive(Debug, Clone, PartialEq)]
pub struct ReducedEndgame {
    /// Plies less than [`shallow_depth`]`(empties)`: even, so the probe keeps the parity ([`endgame_probe_depth`]).
    pub reduction: u32,
    /// σ = Σ eᵢ·termᵢ over [`endgame_terms`], measured with that probe.
    pub endgame: [f64; ENDGAME_TERMS],
}

/// The largest [`ReducedEndgame::reduction`] a model file may ask for.
pub const MAX_ENDGAME_REDUCTION: u32 = 8;

/// The model compiled in (`resources/eval/shirokuro-mpc-1.txt`: fitted with eval-0, endgame probe two plies shallower
/// than [`shallow_depth`]).
const BUNDLED: &str = include_str!("../../../resources/eval/shirokuro-mpc-1.txt");

/// The model compiled in for the shipped network (`resources/eval/`
/// [`SHIPPED_NETWORK_MPC_FILE`](crate::eval::weights::SHIPPED_NETWORK_MPC_FILE): fitted with eval-2 and
/// [`SHIPPED_NETWORK_FILE`](crate::eval::weights::SHIPPED_NETWORK_FILE), the same reduced endgame probe).
const BUNDLED_NETWORK: &str = include_str!("../../../resources/eval/shirokuro-mpc-net-5.txt");

/// The smallest σ the model returns (a fit can dip near zero at the edges of its data).
const MIN_SIGMA: f64 = 1.0;

/// Terms of the midgame model: 1, x, x², z, x·z with x = discs/64 and z = deep depth/60 (the shallow depth is a
/// function of the deep one, [`shallow_depth`], so it adds no information).
#[must_use]
pub fn midgame_terms(discs: u32, deep: u32) -> [f64; MIDGAME_TERMS] {
    let (x, z) = (f64::from(discs) / 64.0, f64::from(deep) / 60.0);
    [1.0, x, x * x, z, x * z]
}

/// Terms of the endgame model: 1, x with x = empties/64 (the shallow depth is [`shallow_depth`] of the empties).
#[must_use]
pub fn endgame_terms(empties: u32) -> [f64; ENDGAME_TERMS] {
    [1.0, f64::from(empties) / 64.0]
}

/// The depth of the shallow search that stands in for a search to `depth`: about half, with the same parity (odd and
/// even depths of an Othello search disagree systematically).
#[must_use]
pub const fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if (half ^ depth) & 1 == 0 {
        half
    } else if depth & 1 == 1 {
        half + 1
    } else {
        half - 1
    }
}

/// The depth of the probe that stands in for a search to the end with `empties` empties: [`shallow_depth`] less
/// `reduction` plies (an even number), or [`shallow_depth`] itself where that would leave no search.
#[must_use]
pub const fn endgame_probe_depth(empties: u32, reduction: u32) -> u32 {
    let s = shallow_depth(empties);
    if s > reduction { s - reduction } else { s }
}

/// The multiplier `t` of σ for a selectivity: the two-sided normal quantile of its probability; `None` for
/// [`Selectivity::Exact`] (no cut).
#[must_use]
pub fn t_value(selectivity: Selectivity) -> Option<f64> {
    Some(match selectivity {
        Selectivity::P74 => 1.13,
        Selectivity::P88 => 1.55,
        Selectivity::P93 => 1.81,
        Selectivity::P98 => 2.33,
        Selectivity::P99 => 2.58,
        Selectivity::P99_9 => 3.29,
        Selectivity::Exact => return None,
    })
}

/// Errors reading a model file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MpcError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A line is malformed.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A model is missing.
    #[error("the `{0}` line is missing")]
    Missing(&'static str),
}

impl MpcModel {
    /// The model compiled into the engine.
    ///
    /// # Panics
    /// Never in a released build: the bundled file is checked by a test.
    #[must_use]
    pub fn bundled() -> MpcModel {
        MpcModel::parse(BUNDLED).expect("the bundled MPC model parses")
    }

    /// The model compiled in for the shipped network (`eval::weights::SHIPPED_NETWORK_FILE`): its cuts are fitted
    /// to the evaluation with the network added, which errs less than eval-2 alone.
    ///
    /// # Panics
    /// Never in a released build: the bundled file is checked by a test.
    #[must_use]
    pub fn bundled_network() -> MpcModel {
        MpcModel::parse(BUNDLED_NETWORK).expect("the bundled network's MPC model parses")
    }

    /// σ of (deep − shallow) for a midgame search to `deep` plies replaced by one to [`shallow_depth`]`(deep)`, with
    /// `discs` discs.
    #[must_use]
    pub fn midgame_sigma(&self, discs: u32, deep: u32) -> f64 {
        let terms = midgame_terms(discs, deep.min(MAX_MODEL_DEPTH));
        terms.iter().zip(&self.midgame).map(|(t, c)| t * c).sum::<f64>().max(MIN_SIGMA)
    }

    /// σ of (exact − shallow) for a search to the end with `empties` empties replaced by one to
    /// [`shallow_depth`]`(empties)` plies.
    #[must_use]
    pub fn endgame_sigma(&self, empties: u32) -> f64 {
        endgame_sigma_of(&self.endgame, empties)
    }

    /// The probe of a search to the end with `empties` empties in the midgame search: its depth and σ, from
    /// [`Self::reduced_endgame`] where the model has one, else [`shallow_depth`] and [`Self::endgame_sigma`].
    #[must_use]
    pub fn endgame_probe(&self, empties: u32) -> (u32, f64) {
        match &self.reduced_endgame {
            Some(r) => (endgame_probe_depth(empties, r.reduction), endgame_sigma_of(&r.endgame, empties)),
            None => (shallow_depth(empties), self.endgame_sigma(empties)),
        }
    }

    /// The model without its reduced endgame probe: what the exact solver's presearch uses (its node counts were
    /// tuned with the full probe, and the shallower one left FFO #40–#49 flat there).
    #[must_use]
    pub fn without_reduced_endgame(mut self) -> MpcModel {
        self.reduced_endgame = None;
        self
    }

    /// Reads the text form: `midgame c0 … c4` and `endgame e0 e1` lines and an optional `endgame-reduced n e0 e1`
    /// line (reduction in plies, then σ's coefficients); `#` starts a comment.
    ///
    /// # Errors
    /// [`MpcError`] naming the line.
    pub fn parse(text: &str) -> Result<MpcModel, MpcError> {
        let mut midgame = None;
        let mut endgame = None;
        let mut reduced_endgame = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or("");
            let values: Result<Vec<f64>, _> = words.map(str::parse::<f64>).collect();
            let values = values.map_err(|e| MpcError::Syntax { line: i + 1, message: format!("bad number: {e}") })?;
            if values.iter().any(|v| !v.is_finite()) {
                return Err(MpcError::Syntax { line: i + 1, message: "coefficients must be finite".into() });
            }
            let wrong = |n: usize| MpcError::Syntax {
                line: i + 1,
                message: format!("`{key}` needs {n} coefficients, found {}", values.len()),
            };
            match key {
                "midgame" => midgame = Some(values.clone().try_into().map_err(|_| wrong(MIDGAME_TERMS))?),
                "endgame" => endgame = Some(values.clone().try_into().map_err(|_| wrong(ENDGAME_TERMS))?),
                "endgame-reduced" => {
                    let [n, e0, e1] = values[..] else { return Err(wrong(1 + ENDGAME_TERMS)) };
                    if !(0.0..=f64::from(MAX_ENDGAME_REDUCTION)).contains(&n) || n.fract() != 0.0 || n % 2.0 != 0.0 {
                        return Err(MpcError::Syntax {
                            line: i + 1,
                            message: format!(
                                "the reduction of `endgame-reduced` must be an even whole number of plies from 0 to \
                                 {MAX_ENDGAME_REDUCTION}, found {n}"
                            ),
                        });
                    }
                    reduced_endgame = Some(ReducedEndgame { reduction: n as u32, endgame: [e0, e1] });
                }
                other => {
                    return Err(MpcError::Syntax {
                        line: i + 1,
                        message: format!("unknown key `{other}` (expected `midgame`, `endgame` or `endgame-reduced`)"),
                    });
                }
            }
        }
        Ok(MpcModel {
            midgame: midgame.ok_or(MpcError::Missing("midgame"))?,
            endgame: endgame.ok_or(MpcError::Missing("endgame"))?,
            reduced_endgame,
        })
    }

    /// Reads a model file.
    ///
    /// # Errors
    /// [`MpcError`] if it cannot be read or parsed.
    pub fn load(path: &Path) -> Result<MpcModel, MpcError> {
        let text = crate::bounded::read_to_string(path, crate::bounded::SMALL_BYTES)
            .map_err(|source| MpcError::Io { path: path.display().to_string(), source })?;
        MpcModel::parse(&text)
    }

    /// The text form, with `comment` lines (e.g. the measured cells) before the coefficients.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::from("# Shirokuro Multi-ProbCut model (shirokuro-cli mpc-fit)\n");
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let join = |v: &[f64]| v.iter().map(|c| format!("{c:.6}")).collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, "midgame {}", join(&self.midgame));
        let _ = writeln!(out, "endgame {}", join(&self.endgame));
        if let Some(r) = &self.reduced_endgame {
            let _ = writeln!(out, "endgame-reduced {} {}", r.reduction, join(&r.endgame));
        }
        out
    }
}

/// σ of the endgame model with `coefficients` at `empties` (clamped to [`ENDGAME_MODEL_EMPTIES`], at least
/// [`MIN_SIGMA`]).
fn endgame_sigma_of(coefficients: &[f64; ENDGAME_TERMS], empties: u32) -> f64 {
    let terms = endgame_terms(empties.clamp(ENDGAME_MODEL_EMPTIES.0, ENDGAME_MODEL_EMPTIES.1));
    terms.iter().zip(coefficients).map(|(t, c)| t * c).sum::<f64>().max(MIN_SIGMA)
}

/// One measured cell: the (deep − shallow) differences of a group of positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The model terms of the cell.
    pub terms: Vec<f64>,
    /// Number of samples.
    pub count: usize,
    /// Mean difference (deep − shallow).
    pub mean: f64,
    /// Standard deviation of the difference.
    pub sigma: f64,
}

impl Cell {
    /// A cell from its samples.
    #[must_use]
    pub fn from_samples(terms: Vec<f64>, diffs: &[f64]) -> Cell {
        let n = diffs.len().max(1) as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / n;
        Cell { terms, count: diffs.len(), mean, sigma: var.sqrt() }
    }
}

/// Least-squares fit of σ over cells, weighted by their sample counts: the coefficients of the terms.
///
/// Returns `None` when the cells do not determine the coefficients (too few or degenerate).
#[must_use]
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn fit(cells: &[Cell]) -> Option<Vec<f64>> {
    let k = cells.first()?.terms.len();
    // Normal equations AᵀWA c = AᵀWσ.
    let mut a = vec![vec![0.0; k + 1]; k];
    for cell in cells.iter().filter(|c| c.count > 0) {
        let w = cell.count as f64;
        for i in 0..k {
            for j in 0..k {
                a[i][j] += w * cell.terms[i] * cell.terms[j];
            }
            a[i][k] += w * cell.terms[i] * cell.sigma;
        }
    }
    // Gaussian elimination with partial pivoting (a tiny ridge keeps near-singular systems finite).
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-9;
    }
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for row in 0..k {
            if row != col {
                let factor = a[row][col] / a[col][col];
                for j in col..=k {
                    a[row][j] -= factor * a[col][j];
                }
            }
        }
    }
    let coefficients: Vec<f64> = (0..k).map(|i| a[i][k] / a[i][i]).collect();
    coefficients.iter().all(|c| c.is_finite()).then_some(coefficients)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_models_parse_and_give_sensible_sigmas() {
        for model in [MpcModel::bundled(), MpcModel::bundled_network()] {
            sensible(&model);
        }
        // The network's model is its own fit, not a copy.
        assert_ne!(MpcModel::bundled().midgame_sigma(30, 10), MpcModel::bundled_network().midgame_sigma(30, 10));
    }

    #[test]
    fn the_network_model_compiled_in_is_the_file_the_weights_name() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../resources/eval/");
        let file = std::path::Path::new(path).join(crate::eval::weights::SHIPPED_NETWORK_MPC_FILE);
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(text, BUNDLED_NETWORK, "{} and mpc.rs's include_str! differ", file.display());
    }

    fn sensible(model: &MpcModel) {
        // Searches disagree by one to a few discs: a σ near the floor would make Multi-ProbCut cut blindly.
        for discs in 8..60 {
            for deep in 2..40 {
                let s = model.midgame_sigma(discs, deep);
                assert!((MIN_SIGMA..8.0).contains(&s), "σ({discs}, {deep}) = {s}");
            }
        }
        for empties in 10..50 {
            let s = model.endgame_sigma(empties);
            assert!((2.0..10.0).contains(&s), "σ_end({empties}) = {s}");
        }
        let reduced = model.reduced_endgame.as_ref().expect("the shipped model has a reduced endgame probe");
        assert_eq!(reduced.reduction, 2);
        for empties in 13..40 {
            let (depth, sigma) = model.endgame_probe(empties);
            assert_eq!(depth, shallow_depth(empties) - 2);
            assert!((2.0..10.0).contains(&sigma), "σ_reduced({empties}) = {sigma}");
        }
        let solver_model = model.clone().without_reduced_endgame();
        assert_eq!(solver_model.endgame_probe(20), (shallow_depth(20), model.endgame_sigma(20)));
    }

    #[test]
    fn shallow_depth_is_about_half_with_the_same_parity() {
        for d in 2..60 {
            let s = shallow_depth(d);
            assert_eq!(s % 2, d % 2, "{d} -> {s}");
            assert!(s < d && s + 2 >= d / 2, "{d} -> {s}");
        }
    }

    #[test]
    fn fit_recovers_known_coefficients() {
        let truth = [1.5, 2.0, -3.0, 4.0, 0.5];
        let cells: Vec<Cell> = (10..60)
            .flat_map(|discs| (2..12).map(move |d| (discs, d)))
            .map(|(discs, d)| {
                let terms = midgame_terms(discs, d).to_vec();
                let sigma = terms.iter().zip(&truth).map(|(t, c)| t * c).sum();
                Cell { terms, count: 10, mean: 0.0, sigma }
            })
            .collect();
        let c = fit(&cells).unwrap();
        for (got, want) in c.iter().zip(truth) {
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
    }

    #[test]
    fn the_endgame_probe_is_shallower_by_the_reduction_and_keeps_parity() {
        for empties in 13..40 {
            let s = shallow_depth(empties);
            assert_eq!(endgame_probe_depth(empties, 0), s);
            for reduction in [2, 4, 6, 8] {
                let p = endgame_probe_depth(empties, reduction);
                assert_eq!(p % 2, empties % 2, "{empties} empties, reduction {reduction}: {p}");
                assert!(p >= 1 && p <= s, "{empties} empties, reduction {reduction}: {p}");
                if s > reduction {
                    assert_eq!(p, s - reduction);
                }
            }
        }
    }

    #[test]
    fn the_reduced_endgame_line_round_trips_and_is_optional() {
        let mut model = MpcModel::parse(include_str!("../../../resources/eval/shirokuro-mpc-0.txt")).unwrap();
        assert_eq!(model.reduced_endgame, None, "a model without the line has no reduced probe");
        assert!(!model.to_text("").contains("endgame-reduced"));
        assert_eq!(model.endgame_probe(20), (shallow_depth(20), model.endgame_sigma(20)));
        model.reduced_endgame = Some(ReducedEndgame { reduction: 2, endgame: [6.5, -2.5] });
        let back = MpcModel::parse(&model.to_text("with a reduced probe")).unwrap();
        assert_eq!(back, model);
        let (depth, sigma) = back.endgame_probe(20);
        assert_eq!(depth, shallow_depth(20) - 2);
        assert!((sigma - (6.5 - 2.5 * 20.0 / 64.0)).abs() < 1e-9, "{sigma}");
        for bad in ["1 6 -2", "3 6 -2", "-2 6 -2", "10 6 -2", "2.5 6 -2", "2 6", "2", ""] {
            let text = format!("midgame 1 2 3 4 5\nendgame 1 2\nendgame-reduced {bad}\n");
            let err = MpcModel::parse(&text).unwrap_err();
            assert!(err.to_string().starts_with("line 3:"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn bad_text_is_rejected_with_its_line() {
        let err = MpcModel::parse("midgame 1 2 3 4 5\nendgame 1 x\n").unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
        let err = MpcModel::parse("midgame 1 2 3\nendgame 1 2\n").unwrap_err();
        assert!(err.to_string().contains("needs 5"), "{err}");
        assert!(matches!(MpcModel::parse("endgame 1 2"), Err(MpcError::Missing("midgame"))));
        assert!(MpcModel::parse("midgame 1 2 3 4 NaN\nendgame 1 2").is_err());
        assert!(matches!(
            MpcModel::parse("midgame 1 2 3 4 5\nendgame 1 2\nextra 1"),
            Err(MpcError::Syntax { line: 3, .. })
        ));
    }
}
