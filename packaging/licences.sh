#!/usr/bin/env bash
# Regenerates resources/licences/third-party.txt, the licences of every crate in Cargo.lock that Help ▸ Licences
# shows, with cargo-about (`cargo install --locked cargo-about --features cli`). Run it after any dependency change:
# a test (src/modal/licences.rs) fails when the list and Cargo.lock disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-about >/dev/null 2>&1; then
  echo "cargo-about is missing: cargo install --locked cargo-about --features cli" >&2
  exit 1
fi
cargo about generate --locked --config about.toml packaging/licences/third-party.hbs \
  --output-file resources/licences/third-party.txt
echo "wrote resources/licences/third-party.txt ($(grep -c '^=== ' resources/licences/third-party.txt) licence texts)"
