# Two commands do all set-up on a fresh machine with Python >= 3.10:
#   make demo   builds the bundled NeurIPS 2026 abstracts, prints queries, writes kg-demo.html
#   make test   runs the test suite
#   make docs   builds the documentation site into site/ (offline; warnings are errors)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install install-accurate demo test docs train train-accurate clean

# The venv, then the embedded server's JVM class cache (docs/stores.md): recorded now, not beside the first servers.
$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --config-settings editable_mode=compat -e ".[test]"
	$(BIN)/python kg/store/arcadedb_process.py --jvm-cache
	touch $@

install: $(BIN)/.installed

# The accurate recogniser needs nothing more than install (ONNX Runtime and tokenizers are in it); kept for old instructions.
install-accurate: install
	$(BIN)/python -m pip install --quiet --config-settings editable_mode=compat -e ".[test,accurate]"

demo: install
	$(BIN)/kg demo --db kg-data -o kg-demo.html

test: install
	$(BIN)/python -m pytest -q

# The site of docs/ (mkdocs.yml): the CLI reference and query packs are generated from the code.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

# Retrains the packaged SciERC recogniser (kg/extract/models/scierc_ner) from SciERC's training split.
# SciERC's processed JSON: http://nlp.cs.washington.edu/sciIE/ (sciERC_processed.tar.gz)
SCIERC_TRAIN ?= ../shared/data/scierc/train.json
train: install
	$(BIN)/kg train --data $(SCIERC_TRAIN)

# Fine-tunes the accurate recogniser again (at most 50 minutes) and exports it to kg/extract/models/accurate;
# torch 2.13.0 first, as its CPU build (0.75 GB, not several GB of CUDA).
train-accurate: install
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet --config-settings editable_mode=compat -e ".[test,train-accurate]"
	$(BIN)/kg train --model accurate --data $(SCIERC_TRAIN)

clean:
	rm -rf kg-data kg-demo.html .pytest_cache site
