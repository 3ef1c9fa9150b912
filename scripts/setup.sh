#!/usr/bin/env bash
# One command from a fresh clone: install Bun if missing, install dependencies,
# build dist/moat, then start it with any arguments given.
#   bash scripts/setup.sh                 # build and start
#   bash scripts/setup.sh -p "task"       # build and run one task
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-bun.sh
bun run build >&2
exec ./dist/moat "$@"
