# Sourced by setup.sh and test.sh: puts Bun on PATH (from npm when missing)
# and installs the locked dependencies.
if ! command -v bun >/dev/null 2>&1; then
  echo "moat: installing Bun with npm" >&2
  npm install -g bun@1.4.5 >/dev/null 2>&1 || { echo "moat: 'npm install -g bun' failed; install Bun and retry" >&2; exit 1; }
  hash -r
fi
bun install --frozen-lockfile >/dev/null
