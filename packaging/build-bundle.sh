#!/usr/bin/env bash
# Builds the one-folder bundle and its Debian package (packaging/README.md), offline:
#   dist/deid-desktop/                the app: ./deid-desktop gui | deidentify | ... (no Python needed)
#   dist/deid-desktop_<version>_<arch>.deb
# Run by `make bundle`. PY is the Python that has PyInstaller (pip install -e '.[bundle]');
# MODELS is the folder of trained default models to ship (default: $DEID_MODELS, else models/).
# BUNDLE_NO_MODELS=1 leaves the models out (the app then asks for `deid-desktop build-model`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
MODELS=${MODELS:-${DEID_MODELS:-models}}
DIST=${DIST:-dist}
WORK=${WORK:-build/pyinstaller}
APP="$DIST/deid-desktop"

"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath "$DIST" --workpath "$WORK" packaging/deid-desktop.spec

# libpython of a Python built from source looks for libraries in the build machine's folder.
for lib in "$APP"/_internal/libpython3*.so*; do
  if [ -f "$lib" ] && [ ! -L "$lib" ]; then "$PY" packaging/own_runpath.py "$lib"; fi
done

# The default models: the CURRENT version of each, without its ONNX export (that export is
# named by the model's installed path, so each machine makes its own, in the user's cache).
if [ "${BUNDLE_NO_MODELS:-0}" != 1 ]; then
  for member in minilm-balanced minilm-imbalanced; do
    src="$MODELS/$member"
    version=$(tr -d '[:space:]' < "$src/CURRENT") || { echo "build-bundle: no $src/CURRENT; run 'make model' first" >&2; exit 1; }
    dest="$APP/_internal/models/$member"
    mkdir -p "$dest"
    cp -r "$src/$version" "$dest/"
    rm -rf "$dest/$version/onnx"
    echo "$version" > "$dest/CURRENT"
  done
fi

# Read-only for everyone but the owner: the installed copy is owned by root.
chmod -R u+rwX,go+rX,go-w "$APP"
echo "build-bundle: $APP $(du -sh "$APP" | cut -f1)"

bash packaging/build-deb.sh "$APP" "$DIST"
