#!/usr/bin/env bash
# Installs what the optional sanitizer and fuzzing builds need beyond
# scripts/install-deps.sh: clang-22's compiler-rt (libclang_rt.asan,
# .ubsan_standalone and .fuzzer), from Debian's libclang-rt-22-dev. Not needed
# by the default build or `make test`. A no-op when already installed.
set -euo pipefail

packages=(libclang-rt-22-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-fuzz-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-fuzz-deps: run as root (missing: ${missing[*]})" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
