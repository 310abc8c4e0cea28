//! The training and match tools, kept apart from the rules, the search and the AI they use: engine-against-engine
//! games, labelling and training the evaluation, fitting the Multi-ProbCut model, and the `bench` node count. The core
//! modules never import this one.

pub mod arena;
pub mod bench;
pub mod label;
pub mod label_checkpoint;
pub mod level_profile;
pub mod mpc_fit;
pub mod net;
pub mod parity_lean;
pub mod sparring;
pub mod train;
