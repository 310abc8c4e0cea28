//! `shirokuro-cli nboard`: the engine as an NBoard engine (see `shirokuro_engine::protocol::nboard` and
//! docs/protocols.md).

use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::protocol::nboard::NboardSession;

use crate::gtp::{EngineArgs, PolicyArgs, serve_stdio};

/// Options of `nboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    policy: PolicyArgs,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let engine = Arc::new(args.engine.engine(&args.policy)?);
    serve_stdio(&mut NboardSession::new(engine, args.engine.level), "nboard")
}
