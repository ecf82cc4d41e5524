#!/usr/bin/env bash
# Installs the Debian packages klaraptor needs, when they are missing.
# Idempotent, and silent when nothing is missing. Run as root (or with sudo).
set -euo pipefail

packages=(
  cmake make ninja-build python3 g++ binutils
  clang-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-rt-19-dev
  liblapack-dev libgmp-dev libgtest-dev libsqlite3-dev
  chromium  # tests only: the HTML report in a headless browser (test/Report/screenshot.test)
  # tests only: the fitter on OpenBLAS without threads and threaded
  # (test/Fitting/openblas.test); the system's LAPACK stays as it was (below)
  libopenblas0-serial libopenblas0-pthread
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# Installing an OpenBLAS makes it the system's libblas.so.3 and
# liblapack.so.3 (Debian's alternatives, by priority): keep the choice made
# before, or the reference BLAS and LAPACK on a machine that had none (the
# figures in docs/ are measured on them; docs/fitting.md, "LAPACK").
alternative() {
  update-alternatives --query "$1-x86_64-linux-gnu" 2>/dev/null |
    awk '/^Value:/ {print $2}'
}

if [ ${#missing[@]} -gt 0 ]; then
  echo "klaraptor setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  blas_before=$(alternative libblas.so.3)
  lapack_before=$(alternative liblapack.so.3)
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  arch=/usr/lib/x86_64-linux-gnu
  for a in "libblas.so.3|${blas_before:-$arch/blas/libblas.so.3}" \
           "liblapack.so.3|${lapack_before:-$arch/lapack/liblapack.so.3}"; do
    name=${a%%|*} want=${a#*|}
    if [ -e "$want" ] && [ "$(alternative "$name")" != "$want" ]; then
      $sudo update-alternatives --set "$name-x86_64-linux-gnu" "$want" >/dev/null
    fi
  done
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "klaraptor setup: error: the CUDA toolkit is not at /usr/local/cuda (nvcc not found)" >&2
  exit 1
fi
