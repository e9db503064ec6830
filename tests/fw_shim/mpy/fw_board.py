# Pin levels inside MicroPython's interpreter, for the `machine` stand-in (../machine.py) and the Node runner: inputs
# the test sets (pin id -> 0/1; unset inputs read their pull level), outputs the firmware drives, and each output's
# rising edges (the LED's blinks). One thread runs here, so the lock is a stand-in too.
inputs = {}
outputs = {}
rising_edges = {}


class _Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


lock = _Lock()
