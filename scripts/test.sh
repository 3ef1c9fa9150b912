#!/usr/bin/env bash
# The whole test suite from a fresh clone on Debian with Node and npm: install
# the system packages and Bun if missing, the dependencies, type-check, build
# dist/moat (the end-to-end tests run it), test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-packages.sh
ensure_packages "${TEST_PACKAGES[@]}"
# Tests make commits in temporary repositories; without a git identity, lend
# one to this run only (the user's global config is left alone).
if ! git config user.email >/dev/null 2>&1; then
  export GIT_AUTHOR_NAME="moat test" GIT_AUTHOR_EMAIL="test@moat.invalid"
  export GIT_COMMITTER_NAME="moat test" GIT_COMMITTER_EMAIL="test@moat.invalid"
fi
source scripts/ensure-bun.sh
bun run typecheck
bun run build
bun test "$@"
