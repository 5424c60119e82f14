"""The documentation in docs/ stands on its own (issue 12): the rules (docs/rules.md) and
the JSON faces (docs/json.md) are in the repository, their links resolve, and the
package and tests point there rather than to files outside the repository.

The option table of docs/rules.md is checked against the code in
tests/test_cards_options.py.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DOC_FILES = ("rules.md", "json.md", "architecture.md", "results/README.md",
             *sorted(f"results/{p.name}" for p in (DOCS / "results").glob("tournament-*.md")),
             "results/bidding.md")

# What points outside the repository: the specification files kept beside it.
OUTSIDE = re.compile(r"RULES\.md|CONTRACT\.md|\.\./shared|shared/(?:RULES|CONTRACT)")

# Files that still name the outside files, each owned by work in progress elsewhere
# (issue 12); remove a line once its file points to docs/.  A file not listed here
# that names them fails the test.
PENDING: frozenset[str] = frozenset({
    "src/belote/_dds.py", "src/belote/_dds_c.c", "src/belote/solver.py",
    "src/belote/bots/arena.py", "src/belote/bots/base.py", "src/belote/bots/bid_sampling.py",
    "src/belote/bots/heuristic.py", "src/belote/bots/pimc.py",
    "src/belote/bots/random_bot.py", "src/belote/bots/sampling.py",
    "tests/test_solver_engines.py",
    # checks that help texts do NOT name them: it must spell the names
    "tests/test_cli_errors.py", "tests/test_docs.py",
})
SCANNED = ("*.py", "*.c", "*.html", "*.js", "*.css", "*.txt", "*.toml", "*.sh")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}


@pytest.mark.parametrize("name", DOC_FILES)
def test_docs_point_nowhere_outside(name: str) -> None:
    """docs/ never sends the reader outside the repository."""
    text = (DOCS / name).read_text(encoding="utf-8")
    assert not OUTSIDE.search(text), OUTSIDE.search(text)
    assert "seeds/" not in text


@pytest.mark.parametrize("name", DOC_FILES)
def test_doc_links_resolve(name: str) -> None:
    """Every relative link of the docs names a file of the repository, and every
    anchor a heading of that file."""
    path = DOCS / name
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    broken: list[str] = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        missing_anchor = bool(anchor) and linked.suffix == ".md" and (
            not linked.exists() or anchor not in anchors(linked))
        if not linked.exists() or missing_anchor:
            broken.append(target)
    assert not broken, broken


def test_rules_keep_the_section_numbers() -> None:
    """docs/rules.md keeps the numbering §0 to §14 with its subsections, in order
    (the code, the tests and the error messages quote them)."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    tops = [int(n) for n in re.findall(r"^## §(\d+) ", text, re.M)]
    assert tops == list(range(15))
    expected_subsections = {
        0: 2, 1: 2, 2: 5, 3: 5, 4: 9, 5: 5, 6: 4, 7: 8, 8: 6, 9: 4, 11: 4, 12: 2, 13: 2,
        14: 3,
    }
    for top, count in expected_subsections.items():
        subs = re.findall(rf"^### §{top}\.(\d+) ", text, re.M)
        assert [int(s) for s in subs] == list(range(1, count + 1)), (top, subs)
    assert re.findall(r"^#### §6\.3([a-d]) ", text, re.M) == ["a", "b", "c", "d"]


def test_json_doc_covers_every_json_command() -> None:
    """docs/json.md has a section for each command with a JSON face."""
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## `(belote [a-z ]+)`", text, re.M))
    for command in ("score hand", "score game", "sheet", "replay", "solve", "rotation",
                    "rules", "simulate", "tournament", "analyze"):
        assert f"belote {command}" in headings, command


def test_package_and_tests_point_to_docs() -> None:
    """The package, the tests, the benchmarks and the scripts name docs/rules.md and
    docs/json.md, not files outside the repository (PENDING: work in progress)."""
    found: list[str] = []
    for top in ("src/belote", "tests", "benchmarks", "scripts"):
        base = ROOT / top
        if not base.exists():
            continue
        for pattern in SCANNED:
            for path in base.rglob(pattern):
                rel = path.relative_to(ROOT).as_posix()
                if "__pycache__" in rel or rel in PENDING:
                    continue
                if OUTSIDE.search(path.read_text(encoding="utf-8", errors="replace")):
                    found.append(rel)
    assert not found, found


def test_results_are_indexed() -> None:
    """Every measured result kept in docs/results/ is listed, by a link, on its index
    page (written by scripts/results_index.py), and nothing else lies loose in docs/."""
    results = DOCS / "results"
    index = (results / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)\s#]+)\)", index))
    missing = sorted(p.name for p in results.iterdir()
                     if p.name != "README.md" and p.name not in linked)
    assert not missing, f"not in docs/results/README.md (run scripts/results_index.py): {missing}"
    loose = sorted(p.name for p in DOCS.iterdir()
                   if p.is_file() and p.suffix in (".json", ".png"))
    assert not loose, f"results belong in docs/results/: {loose}"


def _section(text: str, heading: str) -> str:
    """The text of one section of a document, from its heading to the next."""
    start = text.index(heading)
    end = text.find("\n### ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def test_founding_guide_81_points_is_tie_rule_fail() -> None:
    """§8.2: the founding guide fails the takers at 81 or fewer, so at 81 each it is
    `tie_rule` = `fail`, not the default litige; the engine agrees."""
    from belote.scoring import score_hand_json

    made = _section((DOCS / "rules.md").read_text(encoding="utf-8"), "### §8.2 Made")
    assert "81 or fewer" in made and "`tie_rule` = `fail`" in made
    assert "is this rule when nobody declares anything" not in made
    tie = {"taker": "NS", "trick_points": {"NS": 81}}
    assert score_hand_json(tie)["outcome"] == "litige"
    assert score_hand_json({**tie, "options": {"tie_rule": "fail"}})["outcome"] == "failed"
