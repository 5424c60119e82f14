#!/usr/bin/env bash
# Set up everything belote needs on a fresh Debian machine: the virtual environment
# with the package and its tools, and Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
# The package's bytecode: an editable install leaves src/ uncompiled, and where
# PYTHONDONTWRITEBYTECODE is set Python would compile it again at every `belote` start.
.venv/bin/python -m compileall -q src/belote >/dev/null
# Debian packages: chromium, which the browser tests drive through Playwright (never a
# downloaded browser), and a C compiler for the optional compiled solver.
PACKAGES=""
[ -x /usr/bin/chromium ] || PACKAGES="$PACKAGES chromium"
command -v cc >/dev/null 2>&1 || PACKAGES="$PACKAGES gcc libc6-dev"
if [ -n "$PACKAGES" ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $PACKAGES >/dev/null
fi
# The solver's search in C (src/belote/_dds_c.c): same answers, many times faster.  Optional:
# without it the pure-Python search runs (BELOTE_SOLVER=pure chooses it even when built).
BUILT=$(ls src/belote/_dds_c.cpython-*.so 2>/dev/null | head -n 1 || true)
if [ -n "$BUILT" ] && [ -z "$(find src/belote/_dds_c.c -newer "$BUILT")" ]; then
    echo "compiled solver: up to date ($BUILT)"
elif ! bash scripts/build_solver.sh; then
    echo "warning: the compiled solver did not build; the pure-Python solver runs instead" >&2
fi
