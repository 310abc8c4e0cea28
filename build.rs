//! Build information for Help ▸ About and `shirokuro --version`: the git commit the app was built from
//! (`SHIROKURO_COMMIT`, "unknown" outside a git checkout) and the target it was built for (`SHIROKURO_TARGET`).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).filter(|hash| !hash.is_empty());
    let commit = commit.unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=SHIROKURO_COMMIT={commit}");
    println!("cargo:rustc-env=SHIROKURO_TARGET={}", std::env::var("TARGET").unwrap_or_default());
    // A new commit or a checkout changes HEAD, the branch it points at, or the packed references; only files that
    // exist are watched (cargo reruns the script on every build for a missing one).
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let watched = ["HEAD", "packed-refs"].into_iter().map(str::to_owned).chain(branch);
    for file in watched.filter_map(|name| git(&["rev-parse", "--git-path", &name])) {
        if std::path::Path::new(&file).exists() {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
