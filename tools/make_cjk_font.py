"""Builds ``assets/fonts/chinese.ttf``: the Chinese glyphs the app falls back to on a machine with none.

    pip install fonttools
    apt-get download fonts-wqy-microhei && dpkg-deb -x fonts-wqy-microhei_*.deb wqy
    python -m tools.make_cjk_font wqy/usr/share/fonts/truetype/wqy/wqy-microhei.ttc

A fresh Linux machine (a lecture-hall PC, a container, CI) often has no font with Chinese glyphs: the Chinese
window and the English→Chinese model's output were then rows of empty boxes, and every layout measured
against those boxes. ``explorer/ui/chinese_font.py`` registers this file when, and only when, no installed
font covers Simplified Chinese.

Why WenQuanYi Micro Hei: it is the smallest complete sans-serif Chinese font in Debian (5 MB for 49,531
glyphs, against 20+ MB for Noto Sans CJK), its glyphs are the Droid Sans Fallback shapes Android shipped for
years, and it is Apache-2.0 (assets/fonts/LICENSE). Kept: GB 2312 (its 6,763 hanzi are every character of
ordinary Simplified Chinese text), CJK punctuation and full-width forms, and every character of the window's
Chinese translation and of the built-in English→Chinese model's vocabulary: 1.3 MB instead of 5. A developer
script: the wheel carries its output, never fontTools.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "fonts" / "chinese.ttf"
BLOCKS = ((0x3000, 0x303F), (0xFF00, 0xFFEF), (0x2010, 0x2027))  # CJK punctuation, full-width forms, dashes


def gb2312() -> set[str]:
    """All of GB 2312 as EUC-CN bytes: its symbols, pinyin, kana and Greek (rows 1–9) and its 6,763 hanzi
    (rows 16–87). fontconfig, through which Qt learns what a font serves, counts a font as Simplified
    Chinese only if it has every character of its zh-cn list, which takes from rows 1–9 too."""
    chars = set()
    for row in range(0xA1, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes((row, cell)).decode("gb2312"))
            except UnicodeDecodeError:  # the table's unused cells
                pass
    return chars


def app_characters() -> set[str]:
    """Every non-ASCII character the window's Chinese translation and the en-zh vocabulary can show."""
    import sentencepiece as spm
    chars = set()
    catalogue = ET.parse(ROOT / "assets" / "i18n" / "attention_explorer_zh_CN.ts")
    for node in catalogue.iter("translation"):
        chars.update(node.text or "")
    for path in sorted((ROOT / "assets" / "models").glob("*/spm.model")):
        sp = spm.SentencePieceProcessor(model_file=str(path))
        for i in range(sp.get_piece_size()):
            chars.update(sp.id_to_piece(i))
    return {c for c in chars if ord(c) > 0x7F}


def main(argv: list[str] | None = None) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ttc", type=Path, help="wqy-microhei.ttc from Debian's fonts-wqy-microhei")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    font = TTCollection(str(args.ttc)).fonts[0]  # face 0: the proportional Micro Hei, not the Mono
    wanted = gb2312() | app_characters()
    wanted |= {chr(c) for lo, hi in BLOCKS for c in range(lo, hi + 1)}
    cmap = font.getBestCmap()
    missing = sorted(c for c in wanted if ord(c) not in cmap and "\u4e00" <= c <= "\u9fff")
    options = subset.Options()
    options.layout_features = ["*"]  # vertical forms and the like stay as the font drew them
    options.name_IDs = ["*"]  # its copyright and licence records travel with it
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in wanted if ord(c) in cmap))
    subsetter.subset(font)
    # fontTools guesses the code pages again from what is left and calls these glyphs Traditional (Big5);
    # Qt reads the bits as the writing systems the font serves, so they say what the cut holds: GB 2312.
    font["OS/2"].ulCodePageRange1, font["OS/2"].ulCodePageRange2 = 1 << 18, 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(args.out))
    print(f"{args.out}: {len(font.getGlyphOrder())} glyphs, {args.out.stat().st_size / 1e6:.2f} MB"
          + (f"; not in the font: {''.join(missing)}" if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
