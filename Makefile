# Every target works from a fresh clone: the first one that needs Python builds .venv.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: venv test demo play bench lint clean card screens flash diagrams lock

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# About half of the suite's time is waiting (daemons and web companions as processes, pty
# round trips, a real Chromium): six workers overlap the waits, even on two busy cores (two
# cores each kept busy by a loop: 148-181 s over four runs with six, 187-203 s with four,
# 155 s with eight but unbalanced and more CPU; unloaded: 114 s with six, 127 s with four).
# A module's tests stay on one worker, so its fixtures (one browser page) are made once.
# Bytecode is kept even where the environment says not to (container images often set
# PYTHONDONTWRITEBYTECODE=1): else every worker rewrites and compiles all test modules again
# (12 s of CPU each, 6 s with the cache) and every daemon, web companion and demo the tests
# start compiles the program again (a quarter of a second each, a few hundred times).
# --no-loadscope-reorder: the longest modules go first (tests/conftest.py, FIRST), not last.
TEST_WORKERS ?= 6
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

demo: $(STAMP)
	rm -rf demo-out
	$(VENV)/bin/setup-companion demo --fast --seed 1 --frames demo-out/frames --journal demo-out/journal.jsonl

# The simulated table and the web companion on this machine, until Ctrl-C (docs/web.md).
# Every `make play` starts a fresh simulated table in PLAY_DIR; `make play RESUME=1` goes on
# with the last one (its game, its settings, its games played).
PLAY_HOST ?= 127.0.0.1
PLAY_PORT ?= 8080
PLAY_DIR  ?= .play
play: $(STAMP)
	@if [ -z "$(RESUME)" ]; then rm -rf $(PLAY_DIR); fi
	@mkdir -p -m 700 $(PLAY_DIR)
	@$(VENV)/bin/setup-companion run --sim --state-dir $(PLAY_DIR) --log-level WARNING & daemon=$$!; \
	$(VENV)/bin/setup-companion web --sim --state-dir $(PLAY_DIR) --host $(PLAY_HOST) \
		--port $(PLAY_PORT) --log-level WARNING & web=$$!; \
	trap 'kill $$web $$daemon 2>/dev/null; wait' INT TERM EXIT; \
	echo "the simulated table: open http://$(PLAY_HOST):$(PLAY_PORT)/sim (Ctrl-C stops it)"; \
	wait $$daemon $$web

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

# `make flash`: the hub's firmware onto a Pico with MicroPython (docs/firmware.md), with
# mpremote from the project's own venv (pip outside a venv is refused on Bookworm). First
# micropython-lib's usb-device package, with which main.py names the hub "SETUP reader hub" on
# USB (the udev rule looks for that name): mpremote fetches it, so this needs a network. main.py
# goes last: from then on the Pico starts the hub at power-up. Then wait for its HELLO.
# `resume`: no soft reset before copying, which would drop a running hub's USB port (and its
# name) under mpremote's feet. Once `make install` has put the udev rule in, the hub's port is
# the service user's alone: mpremote and the check then run through sudo (pip never does).
HUB_PORT ?= $(firstword $(wildcard /dev/setup-hub /dev/ttyACM0) /dev/ttyACM0)
HUB_RULE  = $(wildcard /etc/udev/rules.d/99-setup-hub.rules)
# With the rule in, the check waits on /dev/setup-hub: the proof that the hub's USB name is right.
HELLO_PORT ?= $(if $(HUB_RULE),/dev/setup-hub,$(HUB_PORT))
MY_UID   ?= $(shell id -u)
AS_HUB   ?= $(if $(HUB_RULE),$(if $(filter 0,$(MY_UID)),,sudo ))
FIRMWARE  = $(filter-out %/main.py,$(sort $(wildcard hardware/firmware/*.py)))
MPREMOTE  = $(AS_HUB)$(VENV)/bin/mpremote connect $(HUB_PORT) resume

# Only the program and mpremote (not the test tools): on a Pi Zero this is what a maker needs.
$(VENV)/.flash:
	[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[flash]'
	touch $@

flash: $(VENV)/.flash
	$(MPREMOTE) mip install usb-device
	$(MPREMOTE) cp $(FIRMWARE) :
	$(MPREMOTE) cp hardware/firmware/main.py :main.py
	$(MPREMOTE) reset
	$(AS_HUB)$(PY) -m hardware.hub.hello $(HELLO_PORT)

# `make diagrams`: docs/diagrams/*.png drawn again from docs/diagrams/wiring.toml (draw.py);
# tests/docs fails until they are drawn again after the wiring changes.
$(VENV)/.diagrams: $(STAMP)
	$(PY) -m pip install --quiet -e '.[diagrams]'
	touch $@

diagrams: $(VENV)/.diagrams
	$(PY) docs/diagrams/draw.py docs/diagrams

# requirements.lock: what `make install` puts on the Pi, every file's hash included, for every
# platform (the Pi is aarch64, this machine need not be); refresh it after changing the
# dependencies in pyproject.toml, and commit it.
lock: $(STAMP)
	$(PY) -m pip install --quiet "uv>=0.5"
	printf 'setuptools>=64\nwheel\n' | $(VENV)/bin/uv pip compile --quiet --universal \
		--python-version 3.11 --generate-hashes pyproject.toml - -o requirements.lock

# `make install` / `make uninstall` on Raspberry Pi OS live with the unit they install.
-include systemd/install.mk
