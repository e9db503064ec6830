# `machine` for the roller firmware in the tests, in both interpreters (MicroPython's WebAssembly port has none, and
# CPython never had one): just the Pin the firmware uses, so plain Python that MicroPython runs too. Levels live in
# fw_board, where the test sets the button and counts the LED's blinks: fw_board.py here under CPython (a real lock:
# the runner's threads), mpy/fw_board.py in MicroPython's interpreter.
import fw_board as board


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=IN, pull=None, value=None):
        if not isinstance(id, (int, str)):
            raise TypeError("invalid pin")  # rp2's Pin refuses other ids too
        self.id = id
        self.mode = mode
        self.pull = pull
        if mode == Pin.OUT:
            self.value(0 if value is None else value)

    def value(self, v=None):
        with board.lock:
            if v is None:
                if self.mode == Pin.OUT:
                    return board.outputs.get(self.id, 0)
                return board.inputs.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
            level = 1 if v else 0
            if level and not board.outputs.get(self.id, 0):
                board.rising_edges[self.id] = board.rising_edges.get(self.id, 0) + 1
            board.outputs[self.id] = level
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def toggle(self):
        self.value(0 if self.value() else 1)

    def __call__(self, v=None):
        return self.value(v)


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x7f\x12\x34"


def freq():
    return 125000000
