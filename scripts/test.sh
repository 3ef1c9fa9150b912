#!/usr/bin/env bash
# The whole test suite from a fresh clone on Debian with Node and npm: install
# the system packages and Bun if missing, the dependencies, type-check, build
# dist/moat (the end-to-end tests run it), test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-packages.sh
ensure_packages "${TEST_PACKAGES[@]}"
# Tests make commits in temporary repositories. Without a git identity, this
# run gets a global config that includes the user's own and adds one; the
# user's files are left alone, and a repository's own identity still wins.
if ! git config user.email >/dev/null 2>&1; then
  gitconfig="$(mktemp)"
  printf '[include]\n\tpath = %s\n[user]\n\tname = moat test\n\temail = test@moat.invalid\n' "${GIT_CONFIG_GLOBAL:-$HOME/.gitconfig}" > "$gitconfig"
  export GIT_CONFIG_GLOBAL="$gitconfig"
fi
source scripts/ensure-bun.sh
bun run typecheck
bun run lint
bun run build
# --timeout: Bun 1.4.5 reads no timeout from bunfig.toml, and the preload's setDefaultTimeout reaches only the first test file.
bun test --timeout 30000 "$@"
