"""Rewrite the golden pins of tests/golden/ (tests/test_golden.py) and print what changed.

Run it deliberately, from the repository root, once a change of behaviour is wanted:

    .venv/bin/python scripts/update_golden.py            # every pin, corpus kept
    .venv/bin/python scripts/update_golden.py cli.json   # only these files
    .venv/bin/python scripts/update_golden.py --corpus   # also rebuild the inputs
                                                         # (corpus.json, the rooms' moves)
    .venv/bin/python scripts/update_golden.py --check    # print the changes, write nothing

A refactoring that should not change behaviour (issue 11) must print "unchanged" for
every file: any change printed here is a change of behaviour to justify.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests import test_golden as golden  # noqa: E402


def _report(name: str, old: object, new: object) -> int:
    """Print the differences of one file; how many cases changed."""
    if old is None:
        print(f"{name}: new file")
        return 1
    if not isinstance(old, dict) or not isinstance(new, dict):
        same = old == new
        print(f"{name}: {'unchanged' if same else 'changed'}")
        return 0 if same else 1
    problems = golden.compare(name, old, new)
    if not problems:
        print(f"{name}: unchanged ({len(new)} cases)")
        return 0
    print(f"{name}: {len(problems)} case(s) changed of {len(new)}")
    for line in problems:
        print(f"  {line}")
    return len(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help=f"pins to rewrite (of {golden.FILES})")
    parser.add_argument("--corpus", action="store_true",
                        help="rebuild corpus.json (the CLI inputs) from the seeded games, "
                             "and choose the rooms' moves (rooms.json) again from their seeds")
    parser.add_argument("--check", action="store_true", help="write nothing")
    args = parser.parse_args(argv)
    names = args.files or [f for f in golden.FILES if f != "corpus.json"]
    if args.corpus and "corpus.json" not in names:
        names = ["corpus.json", *names]
    unknown = [n for n in names if n not in golden.FILES]
    if unknown:
        parser.error(f"unknown golden file(s): {', '.join(unknown)}")
    golden.GOLDEN.mkdir(parents=True, exist_ok=True)
    changed = 0
    for name in names:
        path = golden.GOLDEN / name
        old = golden.load(name) if path.exists() else None
        if name == "corpus.json":
            new = golden.build_corpus()
        elif args.corpus and name in golden.REBUILD:
            new = golden.REBUILD[name]()
        else:
            new = golden.COMPUTE[name]()
        if name == "corpus.json":
            same = old == new
            print(f"corpus.json: {'unchanged' if same else 'rebuilt'}")
            changed += not same
        else:
            changed += _report(name, old, new)
        if not args.check:
            path.write_text(golden.dump(new, name), encoding="utf-8")
            if name == "corpus.json" and old != new and "cli.json" not in names:
                print("  (the corpus changed: rewrite cli.json too)")
    print(f"{changed} change(s){' (nothing written)' if args.check else ''}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
