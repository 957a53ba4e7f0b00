# Every target works from a fresh clone: the first one that needs Python builds .venv.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: venv test demo bench lint clean card screens

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

demo: $(STAMP)
	rm -rf demo-out
	$(VENV)/bin/setup-companion demo --fast --seed 1 --frames demo-out/frames --journal demo-out/journal.jsonl

bench: $(STAMP)
	$(PY) -m benchmarks $(BENCH)

# the printable quick-reference card (one page, four languages) and the screens' PNGs
card: $(STAMP)
	$(PY) -m companion.show.card docs/quick-reference.pdf

screens: $(STAMP)
	$(PY) -m companion.show.screens --out docs/screens --scale 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

# `make install` / `make uninstall` on Raspberry Pi OS live with the unit they install.
-include systemd/install.mk
