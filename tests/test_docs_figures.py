"""The docs show every figure (issue 37, item 4): each PNG under figures/ is on the gallery
page and on its paper's page, beside the paper's number, with a link to its CSV; the
generated sections are up to date; every quoted file path of the guide is a link."""

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import figure_gallery  # noqa: E402
import link_paths  # noqa: E402


def test_gallery_and_paper_sections_are_up_to_date():
    stale = [p for p, text in figure_gallery.outputs().items()
             if p.read_text(encoding="utf-8") != text]
    assert stale == [], "run `python scripts/figure_gallery.py`"


def test_every_png_is_shown_with_its_table():
    gallery = (REPO / "docs" / "gallery.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"!\[[^\]]*\]\(\.\./figures/([^)]+\.png)\)", gallery))
    pngs = {p.relative_to(REPO / "figures").as_posix()
            for p in (REPO / "figures").rglob("*.png")}
    assert shown == pngs
    for folder, (page, _) in figure_gallery.FOLDERS.items():
        if page is None:
            continue
        text = (REPO / "docs" / "papers" / f"{page}.md").read_text(encoding="utf-8")
        mine = {p for p in pngs if p.startswith(folder + "/")}
        assert mine <= set(re.findall(r"\.\./\.\./figures/([^)]+\.png)", text)), page
    for target in re.findall(r"\]\(\.\./figures/([^)]+)\)", gallery):
        assert (REPO / "figures" / target).is_file(), target
    assert all(c in gallery for c in ("Figure 2", "Table 5", "Figure 4"))


def test_every_quoted_path_of_the_guide_is_a_link():
    pages = [REPO / "docs" / "overview.md", REPO / "docs" / "gallery.md",
             *sorted((REPO / "docs" / "guide").glob("*.md"))]
    for page in pages:
        _, n = link_paths.link(page, page.read_text(encoding="utf-8"))
        assert n == 0, f"{page.name}: run `python scripts/link_paths.py {page}`"
