//! Settings ▸ Evaluation: which shipped evaluation the AI searches with, and how a worker builds it: eval-2's
//! pattern tables alone, or with the shipped network's correction and the Multi-ProbCut model fitted to it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde::{Deserialize, Serialize};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::eval::weights::{self, WeightsError};
use shirokuro_engine::search::mpc::MpcModel;

/// The evaluation the AI's moves, hints, analysis, review and book learning search with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evaluation {
    /// The pattern tables plus the network: the strongest (56–59 % of the games against the patterns alone at levels
    /// 5 and 8, 54 % at level 15 against the previous network, which won 56 % there; docs/benchmarks.md), about
    /// twice the time a move at low levels.
    #[default]
    Network,
    /// The pattern tables alone (the AI of earlier versions): the fastest.
    Patterns,
}

impl Evaluation {
    /// Both, in menu order.
    pub const ALL: [Evaluation; 2] = [Evaluation::Network, Evaluation::Patterns];

    /// The network file this evaluation adds to the pattern weights (`None`: the patterns alone), in the resources'
    /// `eval/` folder `eval_dir`.
    #[must_use]
    pub fn network_file(self, eval_dir: &Path) -> Option<PathBuf> {
        match self {
            Evaluation::Network => Some(eval_dir.join(weights::SHIPPED_NETWORK_FILE)),
            Evaluation::Patterns => None,
        }
    }
}

/// `patterns` with the network file `network` added, or `patterns` themselves without one.
///
/// # Errors
/// The network file cannot be read or is not a network ([`WeightsError::Network`], naming it).
pub fn weights_with(patterns: &Arc<Weights>, network: Option<&Path>) -> Result<Arc<Weights>, WeightsError> {
    match network {
        None => Ok(Arc::clone(patterns)),
        Some(file) => Ok(Arc::new(weights::with_network(Weights::clone(patterns), file)?)),
    }
}

/// Which files a set of weights was read from: the pattern weights, and the network added to them.
type Files = (PathBuf, Option<PathBuf>);

/// The weights read so far that some worker still holds, by the files they came from: the engine worker and the book
/// worker search with one copy of the same network (about 54 MB of rows for shirokuro-net-5) instead of one each.
static SHARED: Mutex<Vec<(Files, Weak<Weights>)>> = Mutex::new(Vec::new());

/// The weights read from `files` that a worker holds now, or `build`'s, kept for the others while someone holds them.
/// The other workers wait while they are read (on their own threads), so a file is read once.
fn shared(files: Files, build: impl FnOnce() -> Result<Weights, WeightsError>) -> Result<Arc<Weights>, WeightsError> {
    // Nothing panics while the list is held; were one to, the list is still whole.
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    shared.retain(|(_, weights)| weights.strong_count() > 0);
    if let Some(weights) = shared.iter().find(|(read, _)| *read == files).and_then(|(_, weights)| weights.upgrade()) {
        return Ok(weights);
    }
    let weights = Arc::new(build()?);
    shared.push((files, Arc::downgrade(&weights)));
    Ok(weights)
}

/// The pattern weights and the weights a worker searches with now (the patterns with the network asked for last):
/// the engine worker and the book worker each keep one; weights read from the same files are shared between them.
#[derive(Debug)]
pub struct WeightsCache {
    patterns: Arc<Weights>,
    /// The file the patterns were read from (`None`: not from a file, and then nothing is shared).
    file: Option<PathBuf>,
    /// The weights last asked for, and the network file they were asked with.
    current: Option<(Arc<Weights>, Option<PathBuf>)>,
}

impl WeightsCache {
    /// A cache over the pattern weights in `file` (shared with any other worker that holds them).
    ///
    /// # Errors
    /// The file cannot be read or is not a weights file.
    pub fn open(file: &Path) -> Result<Self, WeightsError> {
        let patterns = shared((file.to_path_buf(), None), || weights::load(file))?;
        Ok(Self { patterns, file: Some(file.to_path_buf()), current: None })
    }

    /// A cache over the pattern weights `patterns`, read from no file (nothing is shared).
    #[must_use]
    pub fn new(patterns: Weights) -> Self {
        Self { patterns: Arc::new(patterns), file: None, current: None }
    }

    /// The patterns with `network` added (see [`weights_with`]): the ones last asked for when the file is the same,
    /// else those another worker holds, else built now.
    ///
    /// # Errors
    /// The network file cannot be read ([`WeightsError::Network`]); nothing is remembered, so the next call tries again.
    pub fn get(&mut self, network: Option<&Path>) -> Result<Arc<Weights>, WeightsError> {
        if let Some(weights) = self.cached(network) {
            return Ok(weights);
        }
        // The weights asked for before are let go first, so that they are freed if no one else holds them.
        self.current = None;
        let weights = match (&self.file, network) {
            (Some(file), Some(network)) => shared((file.clone(), Some(network.to_path_buf())), || {
                weights::with_network(Weights::clone(&self.patterns), network)
            })?,
            _ => weights_with(&self.patterns, network)?,
        };
        self.current = Some((Arc::clone(&weights), network.map(Path::to_path_buf)));
        Ok(weights)
    }

    /// As [`WeightsCache::get`], but a network file that cannot be read gives the patterns alone, remembered for that
    /// file, with the error the first time only (so a caller reports it once).
    pub fn get_or_patterns(&mut self, network: Option<&Path>) -> (Arc<Weights>, Option<WeightsError>) {
        match self.get(network) {
            Ok(weights) => (weights, None),
            Err(error) => {
                self.current = Some((Arc::clone(&self.patterns), network.map(Path::to_path_buf)));
                (Arc::clone(&self.patterns), Some(error))
            }
        }
    }

    fn cached(&self, network: Option<&Path>) -> Option<Arc<Weights>> {
        let (weights, with) = self.current.as_ref()?;
        (with.as_deref() == network).then(|| Arc::clone(weights))
    }
}

/// The Multi-ProbCut model to search `weights` with, when it is not the engine's default (the one fitted to the
/// patterns alone): the shipped network's, for weights with a network (the app loads no other).
#[must_use]
pub fn mpc_model(weights: &Weights) -> Option<MpcModel> {
    weights.net.is_some().then(MpcModel::bundled_network)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_setting_adds_the_shipped_network_and_its_model() {
        let eval_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval");
        let patterns = Arc::new(weights::load(&eval_dir.join(weights::SHIPPED_FILE)).unwrap());
        let plain = weights_with(&patterns, Evaluation::Patterns.network_file(&eval_dir).as_deref()).unwrap();
        assert!(Arc::ptr_eq(&plain, &patterns), "the patterns alone are shared, not copied");
        assert_eq!(mpc_model(&plain), None);
        let network = Evaluation::Network.network_file(&eval_dir).unwrap();
        let strong = weights_with(&patterns, Some(&network)).unwrap();
        assert!(strong.net.is_some());
        assert_eq!(mpc_model(&strong), Some(MpcModel::bundled_network()));
        let missing = eval_dir.join("no-such.net");
        assert!(
            matches!(weights_with(&patterns, Some(&missing)), Err(WeightsError::Network { path, .. }) if path == missing)
        );
    }

    #[test]
    fn the_cache_builds_once_a_file_and_remembers_a_bad_one_only_when_asked() {
        let eval_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval");
        let mut cache = WeightsCache::new(weights::load(&eval_dir.join(weights::SHIPPED_FILE)).unwrap());
        let network = Evaluation::Network.network_file(&eval_dir).unwrap();
        let first = cache.get(Some(&network)).unwrap();
        assert!(first.net.is_some());
        assert!(Arc::ptr_eq(&first, &cache.get(Some(&network)).unwrap()), "the same file is read once");
        let plain = cache.get(None).unwrap();
        assert!(plain.net.is_none());
        let again = cache.get(Some(&network)).unwrap();
        assert!(!Arc::ptr_eq(&first, &again), "only the last asked-for weights are kept");

        let missing = eval_dir.join("no-such.net");
        assert!(cache.get(Some(&missing)).is_err());
        assert!(cache.get(Some(&missing)).is_err(), "a failed file is tried again");
        let (fallback, error) = cache.get_or_patterns(Some(&missing));
        assert!(fallback.net.is_none());
        assert!(matches!(error, Some(WeightsError::Network { path, .. }) if path == missing));
        let (fallback_again, error) = cache.get_or_patterns(Some(&missing));
        assert!(Arc::ptr_eq(&fallback, &fallback_again) && error.is_none(), "the failure is reported once");
        assert!(Arc::ptr_eq(&plain, &fallback), "the fallback is the patterns themselves");
    }

    #[test]
    fn workers_share_the_weights_of_the_same_files_while_one_holds_them() {
        // Copies under a path of this test's own, so that no other test holds weights read from them.
        let eval_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval");
        let dir = std::env::temp_dir().join(format!("shirokuro-shared-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (file, network) = (dir.join(weights::SHIPPED_FILE), dir.join(weights::SHIPPED_NETWORK_FILE));
        let _bytes = std::fs::copy(eval_dir.join(weights::SHIPPED_FILE), &file).unwrap();
        let _bytes = std::fs::copy(eval_dir.join(weights::SHIPPED_NETWORK_FILE), &network).unwrap();

        let mut engine = WeightsCache::open(&file).unwrap();
        let mut book = WeightsCache::open(&file).unwrap();
        assert!(Arc::ptr_eq(&engine.patterns, &book.patterns), "the patterns are read once");
        let strong = engine.get(Some(&network)).unwrap();
        assert!(strong.net.is_some());
        assert!(Arc::ptr_eq(&strong, &book.get(Some(&network)).unwrap()), "the network is read once for both");
        let held = Arc::downgrade(&strong);
        drop(strong);
        assert!(Arc::ptr_eq(&engine.get(None).unwrap(), &engine.patterns));
        assert!(held.upgrade().is_some(), "the book worker still holds the network");
        let _patterns = book.get(None).unwrap();
        assert!(held.upgrade().is_none(), "the network is freed once no worker holds it");
        let again = engine.get(Some(&network)).unwrap();
        assert!(again.net.is_some(), "and read again when asked for");

        let mut alone = WeightsCache::new(weights::load(&file).unwrap());
        assert!(!Arc::ptr_eq(&alone.get(Some(&network)).unwrap(), &again), "weights from no file share nothing");
        let missing = dir.join("no-such.net");
        assert!(matches!(engine.get(Some(&missing)), Err(WeightsError::Network { path, .. }) if path == missing));
        assert!(WeightsCache::open(&missing).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_setting_reads_and_writes_as_a_word() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Holder {
            evaluation: Evaluation,
        }
        for evaluation in Evaluation::ALL {
            let text = toml::to_string(&Holder { evaluation }).unwrap();
            assert_eq!(toml::from_str::<Holder>(&text).unwrap(), Holder { evaluation });
        }
        assert_eq!(
            toml::to_string(&Holder { evaluation: Evaluation::Patterns }).unwrap().trim(),
            "evaluation = \"patterns\""
        );
    }
}
