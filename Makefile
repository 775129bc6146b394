# Two commands on a fresh machine: `make run` and `make test`. Everything else is optional.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run test test-all model model-if-missing install sysdeps samples bench peers screenshots bundle clean

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip setuptools wheel
	# torch first, from the constraints file, so nothing pulls a CUDA build (see README, GPU).
	$(BIN)/pip install -q -c constraints.txt torch
	$(BIN)/pip install -q -c constraints.txt -e '.[test,spark]'
	touch $(STAMP)

sysdeps:
	@bash packaging/install-sysdeps.sh

install: sysdeps $(STAMP)

# Build the default ensemble's transformer members (synthetic corpus → fine-tune MiniLM).
model: install
	$(BIN)/deid-desktop build-model

model-if-missing: install
	$(BIN)/deid-desktop build-model --if-missing

# The window opens at once on the rules; missing default models build in a background
# process (a few minutes) and the window switches to them when they are saved.
run: install
	$(BIN)/deid-desktop gui --open resources/samples --build-models

test: install
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider

samples: install
	$(BIN)/python resources/samples/make_samples.py

bench: install
	$(BIN)/python benchmarks/rules_throughput.py

# The peer tools benchmarks/throughput.py times beside ours (Philter, Presidio, scrubadub), in
# their own environment, .venv-peers; optional: nothing else needs them.
PEERS := .venv-peers/.installed

$(PEERS): benchmarks/peers/requirements.txt benchmarks/peers/requirements-philter.txt benchmarks/peers/setup.sh benchmarks/peers/nltk_tagger.py
	bash benchmarks/peers/setup.sh

peers: $(PEERS)

screenshots: install
	bash packaging/install-sysdeps.sh --with-xvfb
	$(BIN)/python benchmarks/screenshots.py

# The third way, for end users: a one-folder app (no Python needed) with the default models,
# and a Debian package of it, both under dist/ (packaging/README.md).
$(VENV)/.bundle-tools: $(STAMP)
	$(BIN)/pip install -q -c constraints.txt -e '.[bundle]'
	touch $@

bundle: model-if-missing $(VENV)/.bundle-tools
	PY=$(BIN)/python bash packaging/build-bundle.sh

clean:
	rm -rf $(VENV) .venv-peers build *.egg-info .pytest_cache
