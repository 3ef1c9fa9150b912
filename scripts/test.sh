#!/usr/bin/env bash
# The whole test suite from a fresh clone: install Bun if missing, install
# dependencies, type-check, build dist/moat (the end-to-end tests run it), test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-bun.sh
bun run typecheck
bun run build
bun test "$@"
