#!/usr/bin/env bash
# Run the test suite (the package's doctests included); sets up first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] || bash scripts/setup.sh
# src/belote/_dds.py (the solver's reference search, compiled from _dds_c.c as
# belote._dds_c) has no doctests.
.venv/bin/python -m pytest -q -n 2 --doctest-modules --ignore=src/belote/_dds.py \
    src/belote tests "$@"
