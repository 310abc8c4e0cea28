//! The checks of the options every searching command shares, made where the command line is read so that a bad value
//! is refused with a message instead of hanging (100,000 threads) or aborting (a 96 GiB table).

use shirokuro_engine::search::tt::{TranspositionTable, available_memory, fitting_level};

/// The most search threads accepted: four per core (at least 4).
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get).saturating_mul(4).max(4)
}

/// A rayon pool of `threads` workers (default: one per core), and how many it has.
pub fn pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), String> {
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    Ok((pool, threads))
}

/// `--threads`: 1 up to [`max_threads`].
pub fn threads(text: &str) -> Result<usize, String> {
    let most = max_threads();
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!("{text:?}: threads are 1 to {most} on this machine (four per core)")),
    }
}

/// `--hash-level`: 10 to 30, and a table of 2^level entries must fit in half of the memory available now.
pub fn hash_level(text: &str) -> Result<u8, String> {
    let (low, high) = (TranspositionTable::MIN_LEVEL, 30);
    let level = match text.trim().parse::<u8>() {
        Ok(level) if (low..=high).contains(&level) => level,
        _ => return Err(format!("{text:?}: the hash level is {low} to {high} (a table of 2^level entries)")),
    };
    let available = available_memory();
    let fitting = fitting_level(level, available);
    if fitting < level {
        let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
        let needs = (TranspositionTable::ENTRY_BYTES as u64) << level;
        return Err(format!(
            "hash level {level} needs {:.1} GiB a table, and {:.1} GiB of memory is available: use {fitting} or less",
            gib(needs),
            gib(available.unwrap_or(0))
        ));
    }
    Ok(level)
}

/// `--selectivity`: Egaroucid's index, 0 (74 %) to 6 (100 %).
pub fn selectivity(text: &str) -> Result<shirokuro_engine::level::Selectivity, String> {
    text.trim()
        .parse::<u8>()
        .ok()
        .and_then(shirokuro_engine::level::Selectivity::from_index)
        .ok_or_else(|| format!("{text:?}: the selectivity is 0 (74 %) to 6 (100 %)"))
}

/// Parses a search plan (`match --plan-a`, `level-profile --plan`): `15@74;27@98,24@99,22@100`.
pub fn level_plan(text: &str) -> Result<shirokuro_engine::level::LevelPlan, String> {
    text.parse().map_err(|e: shirokuro_engine::level::LevelPlanError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_hash_levels_and_selectivities_out_of_range_are_refused_with_the_range() {
        assert_eq!(threads("2"), Ok(2));
        for bad in ["0", "100000", "-1", "many"] {
            let error = threads(bad).unwrap_err();
            assert!(error.contains("threads are 1 to"), "{error}");
        }
        assert_eq!(hash_level("12"), Ok(12));
        for bad in ["9", "31", "32", "255", "x"] {
            let error = hash_level(bad).unwrap_err();
            assert!(error.contains("10 to 30"), "{bad}: {error}");
        }
        assert_eq!(selectivity("2"), Ok(shirokuro_engine::level::Selectivity::P93));
        assert_eq!(selectivity(" 6"), Ok(shirokuro_engine::level::Selectivity::Exact));
        for bad in ["7", "-1", "98", ""] {
            let error = selectivity(bad).unwrap_err();
            assert!(error.contains("0 (74 %) to 6 (100 %)"), "{bad}: {error}");
        }
    }
}
