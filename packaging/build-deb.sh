#!/usr/bin/env bash
# Packs a built bundle (packaging/build-bundle.sh) as a Debian package, offline, without root:
#   /opt/deid-desktop/                          the bundle, read-only (root-owned)
#   /usr/bin/deid-desktop -> /opt/deid-desktop/deid-desktop
#   /usr/share/applications/deid-desktop.desktop, the icon under /usr/share/icons/hicolor
# No maintainer scripts: dpkg's own triggers refresh the menu and icon caches, and nothing
# here ever touches a home folder, so `apt remove` leaves every user's workspaces and keys.
# Usage: packaging/build-deb.sh APP_DIR OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
APP=$1
OUT=$2
VERSION=$(sed -n 's/^version *= *"\(.*\)"/\1/p' pyproject.toml | head -1)
ARCH=$(dpkg --print-architecture)
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/deid-deb.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
chmod 0755 "$ROOT"  # the archive's "./": mktemp makes it private

mkdir -p "$ROOT/DEBIAN" "$ROOT/opt" "$ROOT/usr/bin" "$ROOT/usr/share/applications" \
         "$ROOT/usr/share/icons/hicolor/scalable/apps" "$ROOT/usr/share/icons/hicolor/256x256/apps"
cp -a "$APP" "$ROOT/opt/deid-desktop"
ln -s /opt/deid-desktop/deid-desktop "$ROOT/usr/bin/deid-desktop"
install -m 0644 packaging/deid-desktop.desktop "$ROOT/usr/share/applications/deid-desktop.desktop"
install -m 0644 packaging/deid-desktop.svg "$ROOT/usr/share/icons/hicolor/scalable/apps/deid-desktop.svg"
install -m 0644 packaging/deid-desktop.png "$ROOT/usr/share/icons/hicolor/256x256/apps/deid-desktop.png"

# The libraries Qt's xcb platform plugin loads from the system (packaging/install-sysdeps.sh);
# Tesseract only reads scanned pages, so it is recommended rather than required.
cat > "$ROOT/DEBIAN/control" <<CONTROL
Package: deid-desktop
Version: $VERSION
Architecture: $ARCH
Maintainer: deid-desktop maintainers <deid-desktop@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)
Depends: libc6 (>= 2.31), libegl1, libgl1, libglib2.0-0, libfontconfig1, libfreetype6, libxkbcommon0, libdbus-1-3, libx11-xcb1, libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, libxcb-randr0, libxcb-render-util0, libxcb-shape0, libxcb-xfixes0, libxcb-xkb1, libxkbcommon-x11-0, fonts-dejavu-core
Recommends: tesseract-ocr, tesseract-ocr-eng
Section: science
Priority: optional
Description: human-in-the-loop de-identification of clinical documents
 Finds protected health information in clinic notes (.txt), PDFs and Word letters,
 lets a reviewer accept or correct each finding, and exports de-identified copies
 with consistent surrogates. Runs offline; no Python is needed on the machine.
CONTROL

DEB="$OUT/deid-desktop_${VERSION}_${ARCH}.deb"
# xz at level 1: nearly the size of the default level 6 in a fraction of the time (the
# weights and shared libraries compress poorly whatever the level).
dpkg-deb --root-owner-group -Zxz -z1 --build "$ROOT" "$DEB" >/dev/null
echo "build-deb: $DEB $(du -h "$DEB" | cut -f1)"
