#!/usr/bin/env python3
"""Makes the two Chinese UI fonts from Noto Sans CJK (SIL Open Font License 1.1, no reserved font name).

Usage: python3 resources/fonts/subset_chinese.py [--common] NotoSansCJK-Regular.ttc

The collection comes from Debian's `fonts-noto-cjk` package (`apt-get download fonts-noto-cjk`, then
`dpkg-deb -x`; the file is usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc) and the subsetter from PyPI's
`fonttools`. Each font keeps, from the collection's face for its region (SC for Simplified, TC for Traditional):

- every character of the language's `locales/<code>.toml` (the whole file, so any string added later is covered once
  this is run again; tests/i18n.rs fails when a string uses a character the font lacks);
- printable ASCII, Latin-1 and the common punctuation, so paths, numbers and names in Latin script render alike.

With `--common` it also keeps the characters people most often type in names and memos (GB 2312's 6,763 hanzi for
Simplified, Big5's 5,401 level-1 hanzi for Traditional): 2.8 and 3.0 MB instead of about 0.2 MB each. The shipped
fonts are made without it, to keep the repository and the packages small; text typed in other characters is drawn
from M PLUS 1 (which has the 6,355 kanji of JIS X 0208) or the system's fonts.

The family names stay "Noto Sans CJK SC" / "Noto Sans CJK TC" (the licence allows a subset under the same name, as
Noto reserves none). The output goes beside this script.
"""

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = Path(__file__).resolve().parent
LOCALES = HERE.parent.parent / "locales"

# Face index in NotoSansCJK-Regular.ttc, locale file, output file, common-hanzi set.
FACES = [
    (2, "zh-Hans.toml", "NotoSansCJKsc-Subset.otf", "gb2312"),
    (3, "zh-Hant.toml", "NotoSansCJKtc-Subset.otf", "big5"),
]


def gb2312_hanzi():
    """GB 2312's hanzi: rows 16-87."""
    out = set()
    for high in range(0xB0, 0xF8):
        for low in range(0xA1, 0xFF):
            try:
                out.add(bytes([high, low]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return out


def big5_level1_hanzi():
    """Big5's frequent hanzi: lead bytes A4-C6."""
    out = set()
    for high in range(0xA4, 0xC7):
        for low in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            try:
                out.add(bytes([high, low]).decode("big5"))
            except UnicodeDecodeError:
                pass
    return out


def base_characters():
    """ASCII, Latin-1, general and CJK punctuation, full-width forms."""
    ranges = [(0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x2027), (0x2030, 0x203A), (0x3000, 0x303F), (0xFF01, 0xFF5E)]
    return {chr(c) for start, end in ranges for c in range(start, end + 1)}


def main():
    args = sys.argv[1:]
    common_hanzi = "--common" in args
    args = [a for a in args if a != "--common"]
    if len(args) != 1:
        sys.exit(__doc__)
    collection = TTCollection(args[0])
    for index, locale, output, common in FACES:
        font = collection.fonts[index]
        text = (LOCALES / locale).read_text(encoding="utf-8")
        # The languages' names, as the Language menu shows them.
        characters = set(text) | set("简体中文繁體中文日本語") | base_characters()
        if common_hanzi:
            characters |= gb2312_hanzi() if common == "gb2312" else big5_level1_hanzi()
        characters = {c for c in characters if c.isprintable() or c == " "}
        cmap = font.getBestCmap()
        missing = sorted(c for c in set(text) if c.isprintable() and ord(c) not in cmap)
        if missing:
            sys.exit(f"{locale}: the face lacks {''.join(missing)}")
        options = subset.Options()
        # The default features (kerning, ligatures, locale forms); no vertical forms, no hinting (the UI draws
        # anti-aliased outlines at any size).
        options.hinting = False
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.drop_tables += ["DSIG"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(ord(c) for c in characters if ord(c) in cmap))
        subsetter.subset(font)
        font.save(HERE / output)
        print(f"{output}: {len(characters)} characters, {(HERE / output).stat().st_size} bytes")


if __name__ == "__main__":
    main()
