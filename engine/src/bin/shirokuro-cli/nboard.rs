//! `shirokuro-cli nboard`: the engine as an NBoard engine (see `shirokuro_engine::protocol::nboard` and
//! docs/protocols.md).

use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::protocol::nboard::NboardSession;

use crate::gtp::{EngineArgs, serve_stdio};

/// Options of `nboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let thinker = Arc::new(args.engine.thinker()?);
    serve_stdio(&mut NboardSession::new(thinker, args.engine.level), "nboard")
}
