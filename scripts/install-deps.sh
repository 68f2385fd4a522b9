#!/usr/bin/env bash
# Installs every system package ktflow needs on Debian 12. A no-op when they
# are all present. Run as root (or with sudo available).
set -euo pipefail

packages=(
  clang-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  cmake ninja-build ccache make python3 libgtest-dev
  # Headless, it renders the HTML reports in the tests (test/Report).
  chromium
  # GNU parallel runs `ktflow tune --shard` processes (docs/tune.md,
  # test/Tune/shards.test).
  parallel
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (missing: ${missing[*]})" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
