#!/usr/bin/env bash
# Run the test suite (doctests of the package included); fails when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest -q -n 2 --doctest-modules src/belote tests "$@"
