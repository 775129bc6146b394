#!/usr/bin/env bash
# The peer tools that benchmarks/throughput.py times beside deid-desktop, in environments of
# their own under .venv-peers/ so the product's .venv never sees them:
#   .venv-peers/philter  Python 3.10, philter-ucsf (requirements-philter.txt): Philter's
#                        patterns put inline regex flags mid-pattern, an error since Python 3.11
#   .venv-peers/py311    Python 3.11, presidio-analyzer and scrubadub (requirements.txt):
#                        Presidio needs 3.11 or later
# Everything comes from PyPI at the pinned versions, except NLTK's part-of-speech tagger, which
# Philter needs and PyPI does not carry: NLTK_TAGGER_ZIP=/path/averaged_perceptron_tagger.zip
# (from the nltk/nltk_data collection; nltk_tagger.py checks it is that file) make peers.
# Without it Philter is not installed, and the benchmark's Philter row says so.
#
# No English spaCy pipeline is on PyPI (spaCy's authors publish them as release wheels
# elsewhere), so Presidio is timed with its pattern recognisers only. Where an official wheel
# is at hand, SPACY_MODEL_WHEEL=/path/en_core_web_lg-3.8.0-py3-none-any.whl make peers
# installs it and Presidio is then timed with its spaCy NER as well.
#
# PHILTER_PY and PEERS_PY name other interpreters (default: python3.10 and python3.11, or
# pyenv's). A missing Python 3.10 leaves Philter out and says so; the rest is still built.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DEST="$ROOT/.venv-peers"

# python3.X on the PATH, or pyenv's build of it when the PATH has none
find_python() {
    local want="$1"
    if "python$want" -c "" 2>/dev/null; then
        echo "python$want"
        return
    fi
    if command -v pyenv >/dev/null; then
        local p
        for p in "$(pyenv root)/versions/$want".*/bin/"python$want"; do
            if [ -x "$p" ]; then
                echo "$p"
                return
            fi
        done
    fi
}

make_venv() {  # interpreter, folder, requirements file
    "$1" -m venv "$2"
    "$2/bin/pip" install -q --upgrade pip
    "$2/bin/pip" install -q -r "$3"
}

mkdir -p "$DEST"

PY311="${PEERS_PY:-$(find_python 3.11)}"
if [ -z "$PY311" ]; then
    echo "Python 3.11 not found (set PEERS_PY): Presidio and scrubadub not installed" >&2
else
    make_venv "$PY311" "$DEST/py311" "$HERE/requirements.txt"
    if [ -n "${SPACY_MODEL_WHEEL:-}" ]; then
        "$DEST/py311/bin/pip" install -q --no-deps "$SPACY_MODEL_WHEEL"
    fi
fi

PY310="${PHILTER_PY:-$(find_python 3.10)}"
if [ -z "$PY310" ]; then
    echo "Python 3.10 not found (set PHILTER_PY): Philter not installed" >&2
elif [ ! -f "${NLTK_TAGGER_ZIP:-}" ]; then
    echo "NLTK's tagger not given (set NLTK_TAGGER_ZIP, see above): Philter not installed" >&2
else
    make_venv "$PY310" "$DEST/philter" "$HERE/requirements-philter.txt"
    "$DEST/philter/bin/python" "$HERE/nltk_tagger.py" "$DEST/philter/nltk_data"
fi

touch "$DEST/.installed"
echo "peer tools installed under $DEST"
