//! `shirokuro-cli nboard`: the engine as an NBoard engine (see `shirokuro_engine::protocol::nboard` and
//! docs/protocols.md).

use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::protocol::nboard::NboardSession;
use shirokuro_engine::protocol::serve;

use crate::gtp::EngineArgs;

/// Options of `nboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let thinker = Arc::new(args.engine.thinker()?);
    let mut session = NboardSession::new(thinker, args.engine.level);
    serve(
        &mut session,
        std::io::BufReader::new(std::io::stdin()),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    )
    .map_err(|e| format!("nboard: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
