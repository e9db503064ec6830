# `machine` inside MicroPython's WebAssembly interpreter, which has none: just the Pin the roller firmware uses.
# Levels live in fw_board, where the Node runner sets the button and counts the LED's blinks.
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
        if v is None:
            if self.mode == Pin.OUT:
                return board.outputs.get(self.id, 0)
            return board.inputs.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        level = 1 if v else 0
        if level and not board.outputs.get(self.id, 0):
            board.rising[self.id] = board.rising.get(self.id, 0) + 1
        board.outputs[self.id] = level

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
