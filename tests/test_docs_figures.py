"""The docs name no commit: a tree is named by what it held and its date ("the tree before decision
0148", "main on 2026-11-30"), which a reader understands without the repository's history. Every
Markdown page under docs/ (benchmarks.md and benchmarks-history.md included) and README.md is
checked; the links into the two benchmark pages must name one of their headings, since the other
pages point there for their figures."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]
BENCHMARKS = ("benchmarks.md", "benchmarks-history.md")

# 7 to 40 lowercase hex digits with a letter and a digit, as a word of its own: inside a longer
# token (a UUID's groups, a sha256, a #colour, an identifier, 0x...) it is no commit.
HASH = re.compile(r"(?<![0-9A-Za-z_#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_-])")
LINK = re.compile(r"\]\((?:docs/)?((?:benchmarks|benchmarks-history)\.md)?#([^)\s]+)\)")


def hashes_in(text: str) -> list[str]:
    return HASH.findall(text)


@pytest.mark.parametrize(
    "text",
    [
        "the commit before (18f2e7d: each outcome",
        "main at 1282c34.",
        "`e9ff44e`",
        "https://github.com/o/r/commit/89ec73e",
        "git show 0123456789abcdef0123456789abcdef01234567 --stat",
    ],
)
def test_a_commit_hash_is_found(text):
    assert len(hashes_in(text)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "request id 123e4567-e89b-12d3-a456-426614174000",
        "tarball sha256 " + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "colour #a1b2c3d4 and 0x1f2e3d4c",
        "deadbeef, 1999900 more lines ignored, 33554432 bytes, abc1234x, TIEBREAK_ab12cd34ef",
        "2.5e-8 s per cell, 1.0e-3, fe12 and the run 2026-12-02-run1.json",
    ],
)
def test_no_hash_is_found_in_other_hex_looking_words(text):
    assert hashes_in(text) == []


def test_the_benchmark_pages_are_among_the_pages_checked():
    assert {page.name for page in PAGES} >= {*BENCHMARKS, "README.md"}
    assert len(PAGES) > 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_no_page_names_a_commit_hash(page):
    found = [
        f"line {number}: {word}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for word in hashes_in(line)
    ]
    assert found == [], f"{page.relative_to(ROOT)} names a commit; say what the tree held and when"


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered."""
    seen: dict[str, int] = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            continue
        slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            seen[f"{slug}-{count}"] = 1
    return set(seen)


def test_every_link_into_the_benchmark_pages_names_a_heading():
    known = {name: anchors(DOCS / name) for name in BENCHMARKS}
    broken = [
        f"{page.relative_to(ROOT)}: {target or page.name}#{anchor}"
        for page in PAGES
        for target, anchor in LINK.findall(page.read_text(encoding="utf-8"))
        if (target or page.name) in known and anchor not in known[target or page.name]
    ]
    assert broken == []
