//! A level's whole search plan as a value, so that a tuning run can change it: the midgame depth and selectivity and
//! the endgame stages. [`Level`] converts into its own plan; `shirokuro-cli match --plan-a` and `level-profile
//! --plan` parse another one (Egaroucid's console has `-dpr` for this kind of experiment).
//!
//! The text form is the midgame as `depth@percent`, a `;`, then the endgame stages as `empties@percent` from the most
//! empties down, separated by commas. Level 15 is `15@74;27@98,24@99,22@100`:
//!
//! ```
//! use shirokuro_engine::level::{Level, LevelPlan, SearchPlan, Selectivity};
//! let plan: LevelPlan = "17@74;25@98,23@99,21@100".parse()?;
//! assert_eq!(plan.plan(30), SearchPlan::Midgame { depth: 17, selectivity: Selectivity::P74 });
//! assert_eq!(plan.plan(24), SearchPlan::Endgame { selectivity: Selectivity::P98 });
//! assert_eq!(LevelPlan::from(Level::new(15)?).to_string(), "15@74;27@98,24@99,22@100");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::{EndgameStage, Level, SearchPlan, Selectivity, plan_of};

/// The most endgame stages a plan may have (Egaroucid's levels have up to 5).
pub const MAX_STAGES: usize = 6;

/// Why a plan's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelPlanError {
    /// No `;` between the midgame and the endgame stages.
    #[error("{0:?} is not a plan (expected DEPTH@PERCENT;EMPTIES@PERCENT,…, e.g. 15@74;27@98,24@99,22@100)")]
    Shape(String),
    /// A part is not `number@percent`.
    #[error("{0:?} is not NUMBER@PERCENT")]
    Part(String),
    /// A percentage that is not a selectivity.
    #[error("{0:?} is not a selectivity (74, 88, 93, 98, 99, 99.9 or 100)")]
    Selectivity(String),
    /// A midgame depth outside 1..=60.
    #[error("midgame depth {0} is out of range (expected 1 to 60)")]
    Depth(u8),
    /// A stage's empties count above 60.
    #[error("a stage at {0} empties is out of range (expected 0 to 60)")]
    Empties(u8),
    /// No stage, or more than [`MAX_STAGES`].
    #[error("{0} endgame stages (expected 1 to {MAX_STAGES})")]
    StageCount(usize),
    /// The stages' empties go up somewhere.
    #[error("the endgame stages must go from the most empties down ({0} before {1})")]
    Order(u8, u8),
    /// The last stage is not 100 %, so the game would never be solved exactly.
    #[error("the last endgame stage must be 100 % (an exact solve), not {0}")]
    LastNotExact(Selectivity),
}

/// A level's searches for every number of empties (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LevelPlan {
    midgame_depth: u8,
    midgame: Selectivity,
    stages: [EndgameStage; MAX_STAGES],
    len: u8,
}

impl LevelPlan {
    /// A plan from its parts.
    ///
    /// # Errors
    /// [`LevelPlanError`] if the depth is not 1..=60, a stage's empties is above 60, there are no stages or more than
    /// [`MAX_STAGES`], the stages' empties go up, or the last stage is not exact.
    pub fn new(midgame_depth: u8, midgame: Selectivity, stages: &[EndgameStage]) -> Result<LevelPlan, LevelPlanError> {
        if !(1..=60).contains(&midgame_depth) {
            return Err(LevelPlanError::Depth(midgame_depth));
        }
        if stages.is_empty() || stages.len() > MAX_STAGES {
            return Err(LevelPlanError::StageCount(stages.len()));
        }
        if let Some(stage) = stages.iter().find(|stage| stage.empties > 60) {
            return Err(LevelPlanError::Empties(stage.empties));
        }
        if let Some(pair) = stages.windows(2).find(|pair| pair[1].empties > pair[0].empties) {
            return Err(LevelPlanError::Order(pair[0].empties, pair[1].empties));
        }
        let last = stages[stages.len() - 1].selectivity;
        if !last.is_exact() {
            return Err(LevelPlanError::LastNotExact(last));
        }
        Ok(LevelPlan::from_checked(midgame_depth, midgame, stages))
    }

    /// The plan of parts already checked: 1..=[`MAX_STAGES`] stages.
    fn from_checked(midgame_depth: u8, midgame: Selectivity, stages: &[EndgameStage]) -> LevelPlan {
        let mut table = [stages[0]; MAX_STAGES];
        table[..stages.len()].copy_from_slice(stages);
        LevelPlan { midgame_depth, midgame, stages: table, len: stages.len() as u8 }
    }

    /// The midgame search depth in plies.
    #[must_use]
    pub const fn midgame_depth(&self) -> u8 {
        self.midgame_depth
    }

    /// The midgame selectivity.
    #[must_use]
    pub const fn midgame_selectivity(&self) -> Selectivity {
        self.midgame
    }

    /// The endgame stages, from the most empties down; the last one is exact.
    #[must_use]
    pub fn stages(&self) -> &[EndgameStage] {
        &self.stages[..usize::from(self.len)]
    }

    /// The search for a position with `empties` empty squares, chosen as [`Level::plan`] chooses.
    #[must_use]
    pub fn plan(&self, empties: u8) -> SearchPlan {
        plan_of(self.midgame_depth, self.midgame, self.stages(), empties)
    }
}

impl From<Level> for LevelPlan {
    fn from(level: Level) -> LevelPlan {
        // Every level has 1 to 5 stages (the table's tests check it).
        LevelPlan::from_checked(level.midgame_depth(), level.midgame_selectivity(), level.stages())
    }
}

/// Writes the text form, e.g. `15@74;27@98,24@99,22@100`.
impl fmt::Display for LevelPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{};", self.midgame_depth, self.midgame.percent())?;
        for (i, stage) in self.stages().iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, "{comma}{}@{}", stage.empties, stage.selectivity.percent())?;
        }
        Ok(())
    }
}

/// Parses the text form (spaces around the parts are allowed).
impl FromStr for LevelPlan {
    type Err = LevelPlanError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (midgame, endgame) = text.split_once(';').ok_or_else(|| LevelPlanError::Shape(text.to_owned()))?;
        let (depth, selectivity) = number_at_percent(midgame)?;
        let stages = endgame
            .split(',')
            .map(|part| number_at_percent(part).map(|(empties, selectivity)| EndgameStage { empties, selectivity }))
            .collect::<Result<Vec<_>, _>>()?;
        LevelPlan::new(depth, selectivity, &stages)
    }
}

/// `N@P` with N a number up to 255 and P one of the selectivities' percentages.
fn number_at_percent(part: &str) -> Result<(u8, Selectivity), LevelPlanError> {
    let part = part.trim();
    let (number, percent) = part.split_once('@').ok_or_else(|| LevelPlanError::Part(part.to_owned()))?;
    let number: u8 = number.trim().parse().map_err(|_| LevelPlanError::Part(part.to_owned()))?;
    let percent = percent.trim().trim_end_matches('%');
    let selectivity = Selectivity::ALL
        .into_iter()
        .find(|s| percent.parse::<f64>().is_ok_and(|p| p == s.percent()))
        .ok_or_else(|| LevelPlanError::Selectivity(percent.to_owned()))?;
    Ok((number, selectivity))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use super::*;

    #[test]
    fn every_level_converts_to_a_plan_that_chooses_as_it_does_and_reads_back() {
        for level in Level::all() {
            let plan = LevelPlan::from(level);
            for empties in 0..=60 {
                assert_eq!(plan.plan(empties), level.plan(empties), "level {level} at {empties} empties");
            }
            // Level 37's empty 98 % stage is kept, so the text form reads back to the same plan.
            assert_eq!(plan.to_string().parse::<LevelPlan>().unwrap(), plan, "level {level}");
        }
    }

    #[test]
    fn a_changed_plan_moves_the_stages() {
        let plan: LevelPlan = " 17 @ 74% ; 24@98, 22@99.9 ,20@100 ".parse().unwrap();
        assert_eq!(plan.to_string(), "17@74;24@98,22@99.9,20@100");
        assert_eq!(plan.plan(25), SearchPlan::Midgame { depth: 17, selectivity: Selectivity::P74 });
        assert_eq!(plan.plan(24), SearchPlan::Endgame { selectivity: Selectivity::P98 });
        assert_eq!(plan.plan(21), SearchPlan::Endgame { selectivity: Selectivity::P99_9 });
        assert_eq!(plan.plan(20), SearchPlan::Endgame { selectivity: Selectivity::Exact });
        assert_eq!(plan.plan(0), SearchPlan::Endgame { selectivity: Selectivity::Exact });
    }

    #[test]
    fn bad_plans_are_refused_with_what_is_wrong() {
        let refused = |text: &str| text.parse::<LevelPlan>().unwrap_err();
        assert_eq!(refused("15@74"), LevelPlanError::Shape("15@74".into()));
        assert_eq!(refused("15;27@100"), LevelPlanError::Part("15".into()));
        assert_eq!(refused("x@74;27@100"), LevelPlanError::Part("x@74".into()));
        assert_eq!(refused("15@75;27@100"), LevelPlanError::Selectivity("75".into()));
        assert_eq!(refused("0@74;27@100"), LevelPlanError::Depth(0));
        assert_eq!(refused("61@74;27@100"), LevelPlanError::Depth(61));
        assert_eq!(refused("15@74;61@100"), LevelPlanError::Empties(61));
        assert_eq!(refused("15@74;20@98,22@100"), LevelPlanError::Order(20, 22));
        assert_eq!(refused("15@74;27@98,24@99"), LevelPlanError::LastNotExact(Selectivity::P99));
        assert_eq!(refused("15@74;9@100,8@100,7@100,6@100,5@100,4@100,3@100"), LevelPlanError::StageCount(7));
        assert_eq!(refused("15@74;"), LevelPlanError::Part(String::new()));
        assert!(refused("15@74").to_string().contains("15@74;27@98"));
    }
}
