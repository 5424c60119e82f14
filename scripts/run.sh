#!/usr/bin/env bash
# Set everything up (first run only) and run `belote` with the given arguments;
# with none, the interactive score calculator.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/belote ] || bash scripts/setup.sh
if [ $# -eq 0 ]; then
    exec .venv/bin/belote score
fi
exec .venv/bin/belote "$@"
