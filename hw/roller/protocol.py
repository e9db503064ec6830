"""The dice roller wire protocol, version 1 (firmware_docs/roller-protocol.md).

A frame is one ASCII line ``$BODY*CCCC\\n``: ``CCCC`` is CRC-16/CCITT-FALSE of BODY's bytes
(``binascii.crc_hqx(body, 0xFFFF)``) as four hex digits. BODY is comma-separated; its first field is the
message type. This module is pure: it encodes typed messages and decodes byte streams, and never does I/O.

:class:`Decoder` is the streaming half. It takes whatever bytes arrive, in any chunking, keeps at most one line
(:data:`MAX_LINE` bytes) buffered, resynchronises on every ``$``, returns the messages it could parse and counts
each rejected line by kind (:data:`REJECT_KINDS`). It never raises.
"""
from __future__ import annotations

import binascii
from collections import Counter, deque
from dataclasses import dataclass
from typing import Iterable, Union

PROTOCOL_VERSION = 1
#: a line (``$`` to the last CRC digit, without ``\r\n``) longer than this is discarded
MAX_LINE = 96
MAX_SEQ = 65535
MAX_DICE = 8
#: the dice version 1 knows, with their sides
SIDES: dict[str, int] = {"d6": 6, "d12": 12}

#: how a rejected line is counted
REJECT_KINDS: tuple[str, ...] = ("framing", "overlong", "bad_crc", "unknown_type", "malformed", "out_of_range")

# timing, in seconds (the spec's "Timing" section)
ACK_TIMEOUT = 0.3
MAX_RESENDS = 5
BEAT_INTERVAL = 1.0
OFFLINE_AFTER = 3.0


class ProtocolError(ValueError):
    """A line that is not a valid frame. ``kind`` is one of :data:`REJECT_KINDS`."""

    def __init__(self, kind: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        #: for a ROLL whose CRC and seq were good but whose content was not: the host still ACKs it
        self.seq = seq


def crc(body: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    return binascii.crc_hqx(body, 0xFFFF)


def frame(body: str) -> bytes:
    """``body`` wrapped as a wire line ``$BODY*CCCC\\n``. Raises ValueError for a body that cannot be sent."""
    raw = body.encode("ascii")
    if any(b < 0x20 or b > 0x7E or b in (0x24, 0x2A) for b in raw):
        raise ValueError(f"frame body must be printable ASCII without '$' or '*': {body!r}")
    line = b"$" + raw + b"*%04X" % crc(raw)
    if len(line) > MAX_LINE:
        raise ValueError(f"frame longer than {MAX_LINE} bytes: {body!r}")
    return line + b"\n"


# --- messages -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """Roller → host, at boot and in reply to ``HELLO?``. Starts a new session of seqs."""

    version: int
    firmware: str
    firmware_version: str
    dice: tuple[str, ...]

    def body(self) -> str:
        return f"HELLO,{self.version},{self.firmware},{self.firmware_version},{'+'.join(self.dice)}"


@dataclass(frozen=True)
class HelloQuery:
    """Host → roller: say HELLO."""

    def body(self) -> str:
        return "HELLO?"


@dataclass(frozen=True)
class Roll:
    """Roller → host: ``values`` of ``die`` rolled; ``seq`` 0..65535 wrapping."""

    seq: int
    die: str
    values: tuple[int, ...]

    def body(self) -> str:
        return f"ROLL,{self.seq},{self.die}," + ",".join(str(v) for v in self.values)


@dataclass(frozen=True)
class Beat:
    """Roller → host, every second."""

    uptime: int

    def body(self) -> str:
        return f"BEAT,{self.uptime}"


@dataclass(frozen=True)
class Err:
    """Roller → host: something went wrong on the roller. ``text`` may contain commas."""

    code: str
    text: str

    def body(self) -> str:
        return f"ERR,{self.code},{self.text}"


@dataclass(frozen=True)
class Ack:
    """Host → roller: the ROLL with this seq arrived."""

    seq: int

    def body(self) -> str:
        return f"ACK,{self.seq}"


@dataclass(frozen=True)
class Req:
    """Host → roller: please roll ``count`` dice of ``die``."""

    die: str
    count: int

    def body(self) -> str:
        return f"REQ,{self.die},{self.count}"


Message = Union[Hello, HelloQuery, Roll, Beat, Err, Ack, Req]

#: types a host accepts; a roller accepts :data:`HOST_TYPES`
ROLLER_TYPES = frozenset({"HELLO", "ROLL", "BEAT", "ERR"})
HOST_TYPES = frozenset({"HELLO?", "ACK", "REQ"})
ALL_TYPES = ROLLER_TYPES | HOST_TYPES


def encode(msg: Message) -> bytes:
    """The wire line for ``msg``. Raises ValueError if the message is out of range (nothing invalid is sent)."""
    line = frame(msg.body())
    parsed = parse_body(msg.body())  # the same checks a receiver makes
    if parsed != msg:
        raise ValueError(f"message does not survive a round trip: {msg!r}")
    return line


# --- parsing --------------------------------------------------------------------------------------------------


def _positional(fields: list[str]) -> list[str]:
    """Fields before the first extension field (``key=value``), which a version 1 receiver ignores."""
    for i, f in enumerate(fields):
        if "=" in f:
            return fields[:i]
    return fields


def _uint(text: str, what: str, hi: int | None = None, lo: int = 0) -> int:
    if not text.isdigit() or not text.isascii() or len(text) > 10:
        raise ProtocolError("malformed", f"{what} is not a decimal number: {text!r}")
    value = int(text)
    if value < lo or (hi is not None and value > hi):
        raise ProtocolError("out_of_range", f"{what} {value} is outside {lo}..{hi}")
    return value


def _die(text: str) -> str:
    if text in SIDES:
        return text
    if len(text) >= 2 and text[0] == "d" and text[1:].isdigit():
        raise ProtocolError("out_of_range", f"die {text!r} is not d6 or d12")
    raise ProtocolError("malformed", f"die {text!r} is not d6 or d12")


def _need(fields: list[str], n: int, kind: str) -> None:
    if len(fields) < n:
        raise ProtocolError("malformed", f"{kind} needs {n - 1} fields, got {len(fields) - 1}")


def parse_body(body: str) -> Message:
    """The message in a BODY (CRC already checked). Raises :class:`ProtocolError`."""
    if not body or any(not (" " <= ch <= "~") for ch in body):
        raise ProtocolError("malformed", f"body is empty or not printable ASCII: {body!r}")
    fields = body.split(",")
    kind = fields[0]
    if kind == "ERR":
        # the text is the rest of the body, commas included
        _need(fields, 3, kind)
        if not fields[1]:
            raise ProtocolError("malformed", "ERR has an empty code")
        return Err(fields[1], ",".join(fields[2:]))
    pos = _positional(fields)
    if kind == "ROLL":
        seq = _uint(pos[1], "seq", MAX_SEQ) if len(pos) > 1 else None
        try:
            _need(pos, 4, kind)
            die = _die(pos[2])
            raw = pos[3:]
            if len(raw) > MAX_DICE:
                raise ProtocolError("out_of_range", f"ROLL carries {len(raw)} values, at most {MAX_DICE}")
            values = tuple(_uint(v, f"{die} value", SIDES[die], 1) for v in raw)
        except ProtocolError as e:
            e.seq = seq
            raise
        if seq is None:
            raise ProtocolError("malformed", "ROLL has no seq")
        return Roll(seq, die, values)
    if kind == "BEAT":
        _need(pos, 2, kind)
        return Beat(_uint(pos[1], "uptime"))
    if kind == "HELLO":
        _need(pos, 5, kind)
        version = _uint(pos[1], "protocol version", lo=1)
        if not pos[2] or not pos[3]:
            raise ProtocolError("malformed", "HELLO has an empty firmware name or version")
        dice = tuple(d for d in pos[4].split("+") if d)
        if not dice:
            raise ProtocolError("malformed", "HELLO lists no dice")
        return Hello(version, pos[2], pos[3], dice)
    if kind == "HELLO?":
        return HelloQuery()
    if kind == "ACK":
        _need(pos, 2, kind)
        return Ack(_uint(pos[1], "seq", MAX_SEQ))
    if kind == "REQ":
        _need(pos, 3, kind)
        return Req(_die(pos[1]), _uint(pos[2], "count", MAX_DICE, 1))
    raise ProtocolError("unknown_type", f"unknown message type {kind[:16]!r}")


def _is_hex4(b: bytes) -> bool:
    return len(b) == 4 and all(c in b"0123456789ABCDEFabcdef" for c in b)


def decode_line(line: bytes, accept: frozenset[str] = ALL_TYPES) -> Message:
    """One line (without ``\\n``; a trailing ``\\r`` is tolerated) as a message. Raises :class:`ProtocolError`."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError("overlong", f"line of {len(line)} bytes, at most {MAX_LINE}")
    if len(line) < 6 or line[:1] != b"$" or line[-5:-4] != b"*" or not _is_hex4(line[-4:]):
        raise ProtocolError("framing", f"not a $BODY*CCCC frame: {line[:24]!r}")
    body = line[1:-5]
    if b"$" in body or b"*" in body:
        raise ProtocolError("framing", f"'$' or '*' inside a frame body: {line[:24]!r}")
    if crc(body) != int(line[-4:], 16):
        raise ProtocolError("bad_crc", f"CRC {line[-4:].decode('ascii')} does not match {crc(body):04X}")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError("malformed", "frame body is not ASCII") from None
    msg = parse_body(text)
    if text.split(",")[0] not in accept:
        raise ProtocolError("unknown_type", f"{text.split(',')[0]} is not expected in this direction")
    return msg


class Decoder:
    """Turns a byte stream into messages. Bounded (one line), resynchronising, and never raising.

    Every ``$`` starts a new frame (``$`` cannot occur inside one), so noise before a frame on the same line
    does not hide it; bytes that belong to no frame are counted as one ``framing`` rejection per run.
    """

    def __init__(self, accept: frozenset[str] = ALL_TYPES) -> None:
        self.accept = accept
        self.rejected: Counter[str] = Counter({k: 0 for k in REJECT_KINDS})
        self.accepted_frames = 0
        self.last_error = ""
        self._buf = bytearray()
        self._junk = False  # bytes outside any frame since the last line end / '$'
        self._overlong = False  # the current frame passed MAX_LINE; drop until its end
        #: seqs of ROLL frames that arrived intact (good CRC) but were rejected: acknowledge, never accept
        self.unacceptable: deque[int] = deque(maxlen=16)

    def _reject(self, kind: str, why: str) -> None:
        self.rejected[kind] += 1
        self.last_error = why

    def _flush_junk(self) -> None:
        if self._junk:
            self._reject("framing", "bytes outside a frame")
            self._junk = False

    def _end_frame(self, out: list[Message]) -> None:
        """The current frame ended (at a line end, or cut short by a new ``$``)."""
        if self._overlong:
            self._reject("overlong", f"line longer than {MAX_LINE} bytes")
        elif self._buf:
            try:
                out.append(decode_line(bytes(self._buf), self.accept))
                self.accepted_frames += 1
            except ProtocolError as e:
                self._reject(e.kind, str(e))
                if e.seq is not None:
                    self.unacceptable.append(e.seq)
            except Exception as e:  # pragma: no cover - decode_line raises only ProtocolError; stay alive anyway
                self._reject("malformed", repr(e))
        self._buf.clear()
        self._overlong = False

    def feed(self, data: bytes | bytearray | Iterable[int]) -> list[Message]:
        """The messages completed by ``data``."""
        out: list[Message] = []
        for b in bytes(data):
            if b == 0x24:  # '$': a new frame, whatever came before
                if self._buf or self._overlong:
                    self._end_frame(out)
                self._flush_junk()
                self._buf.append(b)
            elif b == 0x0A:  # '\n'
                if self._buf or self._overlong:
                    self._end_frame(out)
                self._flush_junk()
            elif self._buf:
                if len(self._buf) > MAX_LINE:  # room for MAX_LINE bytes plus a trailing '\r'
                    self._buf.clear()
                    self._overlong = True
                else:
                    self._buf.append(b)
            elif not self._overlong and b not in (0x0D, 0x20, 0x09):  # stray whitespace between frames is fine
                self._junk = True
        return out

    def reset(self) -> None:
        """Forget a half-received line (the port closed); the counts stay."""
        self._buf.clear()
        self._junk = False
        self._overlong = False

    @property
    def pending(self) -> int:
        """Bytes buffered for an unfinished frame (never more than MAX_LINE + 1)."""
        return len(self._buf)


__all__ = ["PROTOCOL_VERSION", "MAX_LINE", "MAX_SEQ", "MAX_DICE", "SIDES", "REJECT_KINDS", "ProtocolError",
           "crc", "frame", "encode", "decode_line", "parse_body", "Decoder", "Message", "Hello", "HelloQuery",
           "Roll", "Beat", "Err", "Ack", "Req", "ROLLER_TYPES", "HOST_TYPES", "ALL_TYPES", "ACK_TIMEOUT",
           "MAX_RESENDS", "BEAT_INTERVAL", "OFFLINE_AFTER"]
