#!/usr/bin/env bash
# Regenerates the raster icons from packaging/icons/shirokuro.svg:
#   packaging/icons/hicolor/<N>x<N>/apps/shirokuro.png  (N = 16 22 24 32 48 64 128 256 512; freedesktop icon theme)
#   packaging/icons/shirokuro.ico                        (Windows; 16, 24, 32, 48, 64, 128 and 256 px)
#   packaging/icons/shirokuro.icns                       (macOS; 16, 32, 48, 128, 256 and 512 px)
# The generated files are checked in; run this after editing the SVG. Needs (Debian packages):
#   rsvg-convert (librsvg2-bin), icotool (icoutils), png2icns (icnsutils).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
icons="$here/icons"
svg="$icons/shirokuro.svg"

png_sizes=(16 22 24 32 48 64 128 256 512)
ico_sizes=(16 24 32 48 64 128 256)
icns_sizes=(16 32 48 128 256 512)

missing=()
need() {
    # need TOOL DEBIAN-PACKAGE
    if ! command -v "$1" >/dev/null 2>&1; then
        missing+=("$1 (Debian package: $2)")
    fi
}
need rsvg-convert librsvg2-bin
need icotool icoutils
need png2icns icnsutils
if ((${#missing[@]} > 0)); then
    echo "make-icons.sh: missing tools:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "Install them with: sudo apt-get install librsvg2-bin icoutils icnsutils" >&2
    exit 1
fi

if [[ ! -f "$svg" ]]; then
    echo "make-icons.sh: $svg not found" >&2
    exit 1
fi

png_of() { echo "$icons/hicolor/${1}x${1}/apps/shirokuro.png"; }

for size in "${png_sizes[@]}"; do
    out=$(png_of "$size")
    mkdir -p "$(dirname -- "$out")"
    rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio --format png --output "$out" "$svg"
    echo "wrote ${out#"$here/"}"
done

# Windows: small sizes as bitmaps, 256 px as an embedded PNG (what Windows Vista and later expect).
ico_args=()
for size in "${ico_sizes[@]}"; do
    if ((size >= 256)); then
        ico_args+=(--raw="$(png_of "$size")")
    else
        ico_args+=("$(png_of "$size")")
    fi
done
icotool --create --output="$icons/shirokuro.ico" "${ico_args[@]}"
echo "wrote icons/shirokuro.ico"

icns_args=()
for size in "${icns_sizes[@]}"; do
    icns_args+=("$(png_of "$size")")
done
png2icns "$icons/shirokuro.icns" "${icns_args[@]}" >/dev/null
echo "wrote icons/shirokuro.icns"
