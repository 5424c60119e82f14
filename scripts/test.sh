#!/usr/bin/env bash
# Run the test suite (the package's doctests included); sets up first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] || bash scripts/setup.sh
.venv/bin/python -m pytest -q -n 2 --doctest-modules src/belote tests "$@"
