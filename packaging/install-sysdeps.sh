#!/usr/bin/env bash
# System libraries Qt needs to open a window (or render offscreen in tests), fonts for
# rendering text, Tesseract with its English data for reading scanned pages (offline OCR),
# and a Java runtime for the Spark table engine (deidentify-table --engine spark, its tests). Installs only what is missing; needs root (or sudo) on Debian/Ubuntu.
# Usage: packaging/install-sysdeps.sh [--with-xvfb]
set -euo pipefail
pkgs=(libegl1 libgl1 libglib2.0-0 libfontconfig1 libfreetype6 libxkbcommon0 libdbus-1-3
      libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-randr0
      libxcb-render-util0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libxkbcommon-x11-0
      fonts-dejavu-core tesseract-ocr tesseract-ocr-eng default-jre-headless)
[ "${1:-}" = "--with-xvfb" ] && pkgs+=(xvfb xauth)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-sysdeps: not a Debian-family system; install the Qt 6 runtime libraries and a font yourself." >&2
  exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-sysdeps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-sysdeps: need root to install: ${missing[*]}" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
# slim Debian images drop /usr/share/man, where the Java package's post-install links its pages
$SUDO mkdir -p /usr/share/man/man1
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
