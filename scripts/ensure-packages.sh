# Sourced by setup.sh and test.sh: installs the Debian packages given as
# arguments when they are missing (apt-get, as root or through sudo).
ensure_packages() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "moat: installing ${missing[*]} with apt-get" >&2
  local sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The bundled WebAssembly tools are Rust (std only) built with Debian's toolchain.
BUILD_PACKAGES=(rustc cargo libstd-rust-dev-wasm32)
# The OS sandbox around bash, hooks and MCP servers: bubblewrap, and socat for its network relays.
SANDBOX_PACKAGES=(bubblewrap socat)
# Tests also drive real git repositories and the TUI in tmux, build C test components, and check the
# bundled tools against Python's results (python3 with the zone database in tzdata), and Read's documents
# against pdftotext (poppler-utils) and file, and string_transform against Unicode's GraphemeBreakTest.txt (unicode-data);
# the OS sandbox is tried with busybox's own applets (busybox), which no command parser recognises.
# The container image (bun run image) and its tests: mmdebstrap and buildah build it, podman with Debian's runc runs it.
IMAGE_PACKAGES=(mmdebstrap buildah podman runc uidmap)
# The GitHub Action's scripts (curl, jq; linted by shellcheck), systemd-analyze for exported units, the image tests.
# The release (scripts/release.ts) zips the Windows build (zip; unzip lists it), and its linux-arm64 build is run under
# qemu-user with the arm64 C library (libc6-arm64-cross).
TEST_PACKAGES=("${BUILD_PACKAGES[@]}" "${SANDBOX_PACKAGES[@]}" "${IMAGE_PACKAGES[@]}" curl jq shellcheck systemd git tmux clang lld wasi-libc libclang-rt-14-dev-wasm32 python3 tzdata poppler-utils file unicode-data busybox zip unzip qemu-user libc6-arm64-cross)
