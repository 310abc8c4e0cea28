#!/usr/bin/env bash
# Builds the Debian package of Shirokuro: the manual's HTML (mdBook, both languages), the two programs (`shirokuro` and
# `shirokuro-cli`) and the .deb (cargo-deb, from [package.metadata.deb] in Cargo.toml). Installs nothing.
#
#   packaging/build-deb.sh [PROFILE]
#
# PROFILE (or the variable SHIROKURO_DEB_PROFILE) is the Cargo profile to build with: `release` by default (fat LTO,
# one code-generation unit: the fastest programs, the slowest build), or `package-check` (the dev settings without
# debug information, the engine optimised: what CI uses to check the package; it builds in about 5 minutes on 2 cores).
# Extra cargo-deb options can go in SHIROKURO_DEB_FLAGS (e.g. `--fast`). The build folder is Cargo's (CARGO_TARGET_DIR
# is honoured); the .deb is written to its debian/ folder, and its path is printed last.
# docs/packaging.md describes the package.
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${1:-${SHIROKURO_DEB_PROFILE:-release}}"
case "$profile" in
  dev | debug | test | bench)
    echo "build-deb.sh: profile '$profile' is not for packages (cargo-deb refuses dev); use release or package-check" >&2
    exit 2
    ;;
esac

missing=()
cargo deb --version >/dev/null 2>&1 || missing+=(cargo-deb)
command -v mdbook >/dev/null 2>&1 || missing+=(mdbook)
if ((${#missing[@]})); then
  echo "build-deb.sh: ${missing[*]} not found. Install with" >&2
  echo "  cargo install --locked ${missing[*]}" >&2
  echo "(CI pins the versions it installs: see the package step in .ci/run.)" >&2
  exit 1
fi

# Cargo's build folder, wherever CARGO_TARGET_DIR or a Cargo configuration puts it.
target_dir="$(cargo metadata --format-version 1 --no-deps --locked | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
if [ -z "$target_dir" ]; then
  echo "build-deb.sh: could not read the build folder from cargo metadata" >&2
  exit 1
fi
profile_dir="$target_dir/$profile"

started=$SECONDS
echo "== manual (mdBook $(mdbook --version | sed 's/^mdbook //'))"
# Written beside the programs, where Cargo.toml's assets (target/release/manual/...) point for any profile; a fresh
# folder each time so that no page from an earlier build is packaged. The path is absolute: mdBook 0.5.4 reads a
# relative --dest-dir from the working folder (older versions from the book's folder).
for lang in en ja; do
  rm -rf "$profile_dir/manual/$lang"
  mdbook build "book/$lang" --dest-dir "$profile_dir/manual/$lang"
done

echo "== programs (profile $profile)"
# cargo-deb alone builds only the root package's binaries; shirokuro-cli belongs to shirokuro-engine.
cargo build --locked --profile "$profile" -p shirokuro -p shirokuro-engine --bin shirokuro --bin shirokuro-cli
built=$SECONDS

echo "== package"
# shellcheck disable=SC2086 # SHIROKURO_DEB_FLAGS is a list of options
deb="$(cargo deb --no-build --locked --profile "$profile" -p shirokuro ${SHIROKURO_DEB_FLAGS:-} | tail -n 1)"
if [ ! -f "$deb" ]; then
  echo "build-deb.sh: cargo-deb did not report a package file (last line: '$deb')" >&2
  exit 1
fi
echo "built in $((built - started)) s, packaged in $((SECONDS - built)) s"
echo "size: $(stat -c %s "$deb") bytes ($(du -h "$deb" | cut -f1))"
echo "$deb"
