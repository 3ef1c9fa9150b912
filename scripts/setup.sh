#!/usr/bin/env bash
# One command from a fresh clone on Debian with Node and npm: install the
# Rust toolchain for the bundled WebAssembly tools and Bun if missing, the
# dependencies, build dist/moat, then start it with any arguments given.
#   bash scripts/setup.sh                 # build and start
#   bash scripts/setup.sh -p "task"       # build and run one task
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-packages.sh
ensure_packages "${BUILD_PACKAGES[@]}" "${SANDBOX_PACKAGES[@]}"
source scripts/ensure-bun.sh
bun run build >&2
exec ./dist/moat "$@"
