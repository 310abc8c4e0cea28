//! `bench --midgame --net`: the midgame bench run by the shipped network's search, as a user times it.

use std::process::{Command, Output};

use shirokuro_engine::eval::weights::{SHIPPED_NETWORK_FILE, SHIPPED_NETWORK_MPC_FILE};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).output().expect("run shirokuro-cli")
}

/// The node count of a finished bench (its `Bench: N` line).
fn nodes(args: &[&str]) -> u64 {
    let output = cli(args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().find_map(|l| l.strip_prefix("Bench: ")).unwrap_or_else(|| panic!("{args:?}: {stdout}"));
    line.parse().unwrap_or_else(|e| panic!("{args:?}: {line}: {e}"))
}

#[test]
fn the_midgame_bench_searches_with_a_network_when_given_one() {
    let eval_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../resources/eval/");
    let (network, model) =
        (format!("{eval_dir}{SHIPPED_NETWORK_FILE}"), format!("{eval_dir}{SHIPPED_NETWORK_MPC_FILE}"));
    let (network, model) = (network.as_str(), model.as_str());
    let patterns = nodes(&["bench", "--midgame", "--depth", "4"]);
    let with_network = nodes(&["bench", "--midgame", "--depth", "4", "--net", network]);
    assert_ne!(with_network, patterns, "the network changes the evaluation, so the tree");
    assert_eq!(with_network, nodes(&["bench", "--midgame", "--depth", "4", "--net", network]), "the same each run");
    // The network's own model is the default with --net: naming it gives the same search.
    assert_eq!(with_network, nodes(&["bench", "--midgame", "--depth", "4", "--net", network, "--mpc", model]));
}

#[test]
fn a_network_without_a_search_bench_or_that_cannot_be_read_is_refused_by_name() {
    let output = cli(&["bench", "--net", "x.net"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--midgame"));
    let output = cli(&["bench", "--midgame", "--depth", "2", "--net", "/no/such.net"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such.net"));
}
