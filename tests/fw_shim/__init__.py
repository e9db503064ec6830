"""Run the roller's firmware (firmware_docs/roller/main.py) unchanged for the tests, in either interpreter.

``mpy/`` runs it in MicroPython's own interpreter (the WebAssembly port, under Node.js; ``npm ci --prefix
tests/fw_shim/mpy``); ``machine``, ``micropython`` and ``utime`` here stand in for MicroPython's modules under
CPython. :mod:`run` puts either on a pty (the USB serial link) driven by control lines, :mod:`run_script` and
``mpy/run_script.mjs`` run a script against the imported firmware; :mod:`harness` drives them from a test.
"""
