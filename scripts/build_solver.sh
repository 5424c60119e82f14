#!/usr/bin/env bash
# Compile the solver's search (src/belote/_dds.py) with mypyc into a C extension
# next to it; Python then imports the extension in place of the source, and
# `belote.solver` runs it (same values and node counts, several times faster).
# Optional: without it everything runs in pure Python.  Needs a C compiler and
# the Python headers; `bash scripts/build_solver.sh --clean` removes the build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
rm -f src/belote/_dds*.so src/belote/_dds*.pyd
rm -rf src/build
if [ "${1:-}" = "--clean" ]; then
    echo "removed the compiled solver"
    exit 0
fi
cd src
"../$PY" -m mypyc belote/_dds.py >/dev/null
rm -rf build
cd ..
ls src/belote/_dds.*.so >/dev/null
"$PY" -c "from belote import solver; assert solver.engine_name() == 'compiled', 'not loaded'; print('compiled solver:', solver._compiled_module.__file__)"
