#!/usr/bin/env bash
# The action's first step: puts moat on PATH. Either an executable already on
# the runner (moat_path), or the release archive for the runner's platform,
# checked against the release's SHA256SUMS before it is unpacked.
set -euo pipefail

fail() {
  echo "::error title=moat install::$1"
  exit 1
}

if [ -n "${INPUT_MOAT_PATH:-}" ]; then
  [ -x "$INPUT_MOAT_PATH" ] || fail "moat_path: $INPUT_MOAT_PATH is not an executable file"
  echo "bin=$INPUT_MOAT_PATH" >>"$GITHUB_OUTPUT"
  exit 0
fi

# The version: the input, else the action's own tag (uses: owner/moat@v0.1.0).
version="${INPUT_VERSION:-}"
[ -n "$version" ] || version="${ACTION_REF:-}"
version="${version#v}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
  fail "no moat version: the action ref \"${ACTION_REF:-}\" is not a release tag; set the input version (e.g. 0.1.0)"

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
  Linux/X64) target=linux-x64 ;;
  Linux/ARM64) target=linux-arm64 ;;
  macOS/ARM64) target=darwin-arm64 ;;
  macOS/X64) target=darwin-x64 ;;
  Windows/X64) target=windows-x64 ;;
  *) fail "no moat release for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" ;;
esac
exe=moat
ext=tar.gz
if [ "$target" = windows-x64 ]; then
  exe=moat.exe
  ext=zip
fi
# The names scripts/release.ts gives: moat-<version>-<target>.<ext>, listed in SHA256SUMS.
archive="moat-${version}-${target}.${ext}"
base="${INPUT_RELEASE_URL:-}"
[ -n "$base" ] || base="https://github.com/${ACTION_REPOSITORY:-moat-agent/moat}/releases/download/v${version}"
base="${base%/}"

dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/moat-${version}-${target}"
rm -rf "$dir"
mkdir -p "$dir"
curl -fsSL --retry 3 -o "$dir/$archive" "$base/$archive" || fail "could not download $base/$archive"
curl -fsSL --retry 3 -o "$dir/SHA256SUMS" "$base/SHA256SUMS" || fail "could not download $base/SHA256SUMS"

expected="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/SHA256SUMS")"
[ -n "$expected" ] || fail "SHA256SUMS lists no $archive"
if command -v sha256sum >/dev/null; then
  actual="$(sha256sum "$dir/$archive" | awk '{ print $1 }')"
else
  actual="$(shasum -a 256 "$dir/$archive" | awk '{ print $1 }')"
fi
[ "$actual" = "$expected" ] || fail "checksum mismatch for $archive: SHA256SUMS says $expected, the download is $actual"

if [ "$ext" = zip ]; then
  unzip -q -o "$dir/$archive" "$exe" -d "$dir"
else
  tar -xzf "$dir/$archive" -C "$dir" "$exe"
fi
chmod +x "$dir/$exe"
echo "$dir" >>"$GITHUB_PATH"
echo "bin=$dir/$exe" >>"$GITHUB_OUTPUT"
echo "moat $version ($target) installed, sha256 $actual"
