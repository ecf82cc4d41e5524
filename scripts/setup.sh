#!/usr/bin/env bash
# Installs the Debian packages klaraptor needs, when they are missing.
# Idempotent, and silent when nothing is missing. Run as root (or with sudo).
set -euo pipefail

packages=(
  cmake make ninja-build python3 g++ binutils
  clang-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-rt-19-dev
  liblapack-dev libgmp-dev libgtest-dev libsqlite3-dev
  chromium  # tests only: the HTML report in a headless browser (test/Report/screenshot.test)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "klaraptor setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "klaraptor setup: error: the CUDA toolkit is not at /usr/local/cuda (nvcc not found)" >&2
  exit 1
fi
