#!/usr/bin/env bash
# Compile the solver's search in C (src/belote/_dds_c.c, the port of the reference
# search src/belote/_dds.py) into the extension module belote._dds_c next to it;
# `belote.solver` then runs it (same values and node counts, many times faster).
# Optional: without it everything runs in pure Python.  Needs a C compiler (cc, or
# $CC) and the Python headers; `bash scripts/build_solver.sh --clean` removes the build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
# The build, and an older build of _dds.py by mypyc if one is left.
rm -f src/belote/_dds*.so src/belote/_dds*.pyd
rm -rf src/build
if [ "${1:-}" = "--clean" ]; then
    echo "removed the compiled solver"
    exit 0
fi
INCLUDE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
SUFFIX=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
OUT="src/belote/_dds_c$SUFFIX"
# Built to a temporary name and moved in place, so that a running process never
# loads a half-written file.
"${CC:-cc}" -O3 -fPIC -shared -std=c99 -Wall -Wextra -fno-strict-aliasing \
    -I"$INCLUDE" src/belote/_dds_c.c -o "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
PYTHONPATH=src "$PY" -c "from belote import solver; assert solver.engine_name() == 'compiled', 'not loaded'; print('compiled solver:', solver._compiled_module.__file__)"
