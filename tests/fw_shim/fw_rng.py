# The roller's os.urandom in the tests, in CPython and in MicroPython alike (their `random` modules differ, this
# does not): xorshift32 from a seed, so the same presses roll the same faces in both interpreters.
_state = [2463534242]


def seed(n):
    _state[0] = ((n * 2654435761) + 1) & 0xFFFFFFFF or 1


def urandom(n):
    out = bytearray(n)
    x = _state[0]
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    _state[0] = x
    return bytes(out)
