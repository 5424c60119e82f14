#!/usr/bin/env bash
# Run the test suite (the package's doctests included); sets up first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] || bash scripts/setup.sh
# src/belote/_dds.py has no doctests, and where it is compiled `belote._dds` is the
# extension, which pytest would take for a clash with the source file.
.venv/bin/python -m pytest -q -n 2 --doctest-modules --ignore=src/belote/_dds.py \
    src/belote tests "$@"
