"""Make every file path quoted in the docs a link (issue 37: "every path a link").

A path in backticks outside code blocks and headings, such as `` `figures/bouckaert2003/x.csv` `` or
`` `studies/ulas2012_real.toml` ``, that names a file of the repository becomes a link
relative to the page: a download link for files outside ``docs/`` that Sphinx would not
build (Markdown reports, CSV, TOML, Python), an ordinary link otherwise. Folders, globs
and paths that do not exist are left as they are. Run on pages after editing them:

    python scripts/link_paths.py docs/guide/*.md         # rewrite in place
    python scripts/link_paths.py --check docs/guide/*.md # exit 1 if a path is not a link
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_PATH = re.compile(r"(?<![\[\w<])`((?:figures|studies|scripts|benchmarks|calibsim|tests|"
                   r"notebooks|docs)/[^`*{}\s]+)`(?![\]>])")


def _target(page: Path, path: str) -> str | None:
    """The link to ``path`` from ``page`` (None: leave the text as it is)."""
    file = ROOT / path
    if not file.is_file():
        return None
    rel = os.path.relpath(file, page.parent).replace(os.sep, "/")
    if DOCS in file.parents and file.suffix in (".md", ".ipynb"):
        return f"[`{path}`]({rel})"                 # a page of the site
    if file.suffix in (".md", ".toml", ".py", ".txt", ".bif", ".json"):
        return f"{{download}}`{path} <{rel}>`"      # a file to fetch (Markdown: as text)
    return f"[`{path}`]({rel})"                     # CSV, PNG: MyST makes a download


def link(page: Path, text: str) -> tuple[str, int]:
    """``text`` with its quoted paths linked; returns (text, number of paths linked)."""
    out, n, fence = [], 0, False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence or line.lstrip().startswith(("```", "~~~", "#")):
            out.append(line)             # code, and headings (a link breaks the page's TOC)
            continue

        def sub(m):
            nonlocal n
            new = _target(page, m.group(1))
            if new is None:
                return m.group(0)
            n += 1
            return new
        out.append(_PATH.sub(sub, line))
    return "".join(out), n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="+", type=Path)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    for page in args.pages:
        page = page.resolve()
        text = page.read_text(encoding="utf-8")
        new, n = link(page, text)
        if n:
            bad += n
            if args.check:
                print(f"{page.relative_to(ROOT)}: {n} path(s) not linked")
            else:
                page.write_text(new, encoding="utf-8")
                print(f"{page.relative_to(ROOT)}: linked {n} path(s)")
    return 1 if (args.check and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
