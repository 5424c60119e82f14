#!/usr/bin/env bash
# The web app's catalogues (Babel): extract the texts of the templates, the Python code
# and the scripts into locale/*.pot, bring the fr and en .po files up to date with them
# and compile the .mo files the server reads (committed; tests/web/test_i18n.py checks
# they match the .po files and that every text has its French).
#   bash scripts/i18n.sh            extract, update, compile
#   bash scripts/i18n.sh compile    compile only (after editing a .po file)
set -euo pipefail
cd "$(dirname "$0")/../src/belote/web"
PYBABEL="$(cd ../../.. && pwd)/.venv/bin/pybabel"
if [ "${1:-}" != "compile" ]; then
    for domain in messages js; do
        "$PYBABEL" -q extract -F "locale/babel-$domain.cfg" -k N_ --no-wrap --sort-by-file \
            --omit-header -o "locale/$domain.pot" .
        for lang in fr en; do
            if [ -f "locale/$lang/LC_MESSAGES/$domain.po" ]; then
                "$PYBABEL" -q update -D "$domain" -i "locale/$domain.pot" -d locale -l "$lang" \
                    --no-wrap --ignore-obsolete --no-fuzzy-matching \
                    --ignore-pot-creation-date
            else
                "$PYBABEL" -q init -D "$domain" -i "locale/$domain.pot" -d locale -l "$lang" \
                    --no-wrap
            fi
        done
    done
fi
for domain in messages js; do
    "$PYBABEL" -q compile -D "$domain" -d locale --use-fuzzy
done
