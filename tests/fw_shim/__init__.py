"""Run the MicroPython reference firmware (firmware_docs/roller/main.py) unchanged on the host.

``machine``, ``micropython`` and ``utime`` here stand in for MicroPython's modules; :mod:`tests.fw_shim.run`
starts the firmware in a subprocess with stdio over a pty (the USB serial link) and takes control lines
(press, release, unplug, replug, corrupt) on its real stdin. :class:`tests.fw_shim.harness.Firmware` drives it.
"""
