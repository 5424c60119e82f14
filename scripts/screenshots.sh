#!/usr/bin/env bash
# The README's pictures of the table (docs/screenshots/table-*.png): each table size
# (four players; three with the kitty; two with the stock and in découverte) on a phone
# (390x844) and on a phone on its side (844x390), in French, photographed by the
# browser test that plays a whole deal on each screen (tests/web/test_table_sizes.py)
# at the first of our turns with cards on the felt.  Needs Debian's chromium.
#   bash scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
tests=()
for table in 4 3-kitty 2-stock 2-decouverte; do
    for screen in 390x844 844x390; do
        tests+=("tests/web/test_table_sizes.py::test_a_whole_deal_fits_the_screen[$table-$screen]")
    done
done
BELOTE_SCREENSHOTS=docs/screenshots PYTHONPATH="$PWD/src" "$PYTHON" -m pytest -q -p no:xdist "${tests[@]}"
ls -l docs/screenshots/table-*.png
