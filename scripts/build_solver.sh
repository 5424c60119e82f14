#!/usr/bin/env bash
# Compile the solver's search in C (src/belote/_dds_c.c, the port of the reference
# search src/belote/_dds.py) into the extension module belote._dds_c next to it;
# `belote.solver` then runs it (same values and node counts, many times faster).
# Optional: without it everything runs in pure Python.  Needs a C compiler (cc, or
# $CC) and the Python headers; `bash scripts/build_solver.sh --clean` removes the build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
# An older build of _dds.py by mypyc, if one is left (belote._dds must be the source).
rm -f src/belote/_dds.*.so src/belote/_dds__mypyc*.so src/belote/_dds.*.pyd
rm -rf src/build
if [ "${1:-}" = "--clean" ]; then
    rm -f src/belote/_dds_c*.so src/belote/_dds_c*.pyd
    echo "removed the compiled solver"
    exit 0
fi
INCLUDE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
SUFFIX=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
OUT="src/belote/_dds_c$SUFFIX"
# Built to a temporary name and moved in place (replacing the previous build at
# once), so that a process starting meanwhile never loads a half-written file.
# A build that fails removes the previous one, which would be out of date.
if ! "${CC:-cc}" -O3 -fPIC -shared -std=c99 -Wall -Wextra -fno-strict-aliasing \
    -I"$INCLUDE" src/belote/_dds_c.c -o "$OUT.tmp"; then
    rm -f "$OUT" "$OUT.tmp"
    echo "the compiled solver did not build" >&2
    exit 1
fi
mv "$OUT.tmp" "$OUT"
PYTHONPATH=src "$PY" -c "from belote import solver; e = solver.solver_engine('auto'); assert e.compiled, 'not loaded'; print('compiled solver:', e.module.__file__)"
