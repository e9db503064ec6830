# Sovereign Companion — the two commands are `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
# On a Raspberry Pi the venv also sees the system's lgpio (python3-lgpio), which gpiozero needs there.
VENV_FLAGS ?= $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo --system-site-packages)

.PHONY: run sim test bench venv clean pi-check pi-boot diagrams mpy-interpreter

# the runtime dependencies at the versions the Pi gets (systemd/requirements-pi.txt): the tests run on those
$(STAMP): pyproject.toml systemd/requirements-pi.txt
	@test -n "$(PYTHON)" || { echo "make: no python3.11 or python3 found; install Python 3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' -c systemd/requirements-pi.txt
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/companion run $(ARGS)

sim: $(STAMP)
	$(BIN)/companion sim $(ARGS)

# the suite on more workers than cores (pytest-xdist's -n auto; ARGS="-n 0" runs it in one process, as a plain pytest
# does); PYTHONDONTWRITEBYTECODE emptied (some environments set it): each worker and each `companion` the tests start
# reads compiled modules (__pycache__, ignored by git and the installer) instead of compiling every module again
test: $(STAMP) mpy-interpreter
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

bench: $(STAMP)
	@$(BIN)/python -m companion.bench

diagrams: $(STAMP)
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
