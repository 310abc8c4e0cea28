//! The evaluation options of the commands that play for a person or a GUI (`play`, `gtp`, `nboard`): the pattern
//! weights, a network added to them, and the Multi-ProbCut model the search prunes with.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::search::mpc::MpcModel;
use shirokuro_engine::think::Thinker;

/// Evaluation options.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Evaluation weights file (default: the shipped weights, built into the program).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Play with an all-zero evaluation (no weights file): the AI then only counts on search and the exact endgame.
    #[arg(long, conflicts_with_all = ["weights", "net"])]
    zero_weights: bool,
    /// A network added to the weights (`train-net --out`); `resources/eval/shirokuro-net-5.net` gives the app's
    /// default AI (Settings ▸ Evaluation ▸ Patterns + network).
    #[arg(long)]
    net: Option<PathBuf>,
    /// Multi-ProbCut model file (`mpc-fit`'s output); default: the bundled model fitted to the shipped weights, or
    /// with --net the one fitted to the shipped network.
    #[arg(long)]
    mpc: Option<PathBuf>,
}

impl EvalArgs {
    /// The weights these options ask for.
    fn weights(&self) -> Result<Weights, String> {
        let patterns = match (&self.weights, self.zero_weights) {
            (Some(path), _) => weights::load(path),
            (None, true) => Ok(Weights::zero()),
            (None, false) => weights::bundled(),
        }
        .map_err(|e| e.to_string())?;
        match &self.net {
            None => Ok(patterns),
            Some(path) => weights::with_network(patterns, path).map_err(|e| e.to_string()),
        }
    }

    /// The Multi-ProbCut model these options ask for (`None`: the engine's default, fitted to the shipped weights).
    fn mpc_model(&self) -> Result<Option<MpcModel>, String> {
        mpc_model(self.mpc.as_deref(), self.net.is_some())
    }

    /// The engine with these options' evaluation and `options`' threads and table.
    pub fn thinker(&self, options: SolveOptions) -> Result<Thinker, String> {
        let mpc = self.mpc_model()?;
        let mut thinker = Thinker::new(Arc::new(self.weights()?), options).map_err(|e| e.to_string())?;
        if let Some(model) = &mpc {
            thinker.set_mpc_model(model);
        }
        Ok(thinker)
    }
}

/// The Multi-ProbCut model file `mpc` asks for, else the one fitted to the shipped network when a network is added
/// (`with_net`), else `None` (the engine's default, fitted to the shipped weights).
pub fn mpc_model(mpc: Option<&Path>, with_net: bool) -> Result<Option<MpcModel>, String> {
    match mpc {
        Some(path) => MpcModel::load(path).map(Some).map_err(|e| format!("MPC model {}: {e}", path.display())),
        None => Ok(with_net.then(MpcModel::bundled_network)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        eval: EvalArgs,
    }

    fn parse(args: &[&str]) -> Result<EvalArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("test").chain(args.iter().copied())).map(|cli| cli.eval)
    }

    fn shipped(file: &str) -> String {
        format!("{}/../resources/eval/{file}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn the_network_comes_with_its_own_model_unless_one_is_given() {
        let plain = parse(&[]).unwrap();
        assert!(plain.weights().unwrap().net.is_none());
        assert_eq!(plain.mpc_model().unwrap(), None);

        let net = shipped(weights::SHIPPED_NETWORK_FILE);
        let with_net = parse(&["--net", &net]).unwrap();
        assert!(with_net.weights().unwrap().net.is_some());
        assert_eq!(with_net.mpc_model().unwrap(), Some(MpcModel::bundled_network()));

        let model = shipped(weights::SHIPPED_NETWORK_MPC_FILE);
        let own_model = parse(&["--net", &net, "--mpc", &model]).unwrap();
        assert_eq!(
            own_model.mpc_model().unwrap(),
            Some(MpcModel::bundled_network()),
            "the same file as the bundled one"
        );
        assert!(own_model.thinker(SolveOptions::default().with_threads(1).with_hash_level(12)).is_ok());
    }

    #[test]
    fn bad_files_and_conflicts_are_refused_with_the_file_named() {
        let error = parse(&["--net", "/no/such.net"]).unwrap().weights().unwrap_err();
        assert!(error.contains("/no/such.net"), "{error}");
        let error = parse(&["--mpc", "/no/such.txt"]).unwrap().mpc_model().unwrap_err();
        assert!(error.contains("/no/such.txt"), "{error}");
        assert!(parse(&["--zero-weights", "--net", "x.net"]).is_err());
        assert!(parse(&["--zero-weights", "--weights", "x.skw"]).is_err());
    }
}
