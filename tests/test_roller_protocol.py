"""Roller wire protocol v1: framing, CRC, every message type both ways, every rejected kind, and a fuzzed decoder."""
from __future__ import annotations

import binascii
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.roller.protocol import (MAX_LINE, REJECT_KINDS, Ack, Beat, Decoder, Err, Hello, HelloQuery, Message,
                                ProtocolError, Req, Roll, crc, decode_line, encode, frame)


def test_crc_is_ccitt_false() -> None:
    assert crc(b"123456789") == 0x29B1  # the catalogue check value of CRC-16/CCITT-FALSE
    assert crc(b"ROLL,12,d12,7") == binascii.crc_hqx(b"ROLL,12,d12,7", 0xFFFF)


def test_frame_layout() -> None:
    line = encode(Roll(12, "d12", (7,)))
    assert line == b"$ROLL,12,d12,7*%04X\n" % binascii.crc_hqx(b"ROLL,12,d12,7", 0xFFFF)
    assert encode(HelloQuery()) == b"$HELLO?*%04X\n" % crc(b"HELLO?")
    assert encode(Ack(65535)).startswith(b"$ACK,65535*")


dice = st.sampled_from(["d6", "d12"])
text = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="$*,="),
               min_size=1, max_size=12)


@st.composite
def rolls(draw: st.DrawFn) -> Roll:
    die = draw(dice)
    values = draw(st.lists(st.integers(1, 6 if die == "d6" else 12), min_size=1, max_size=8))
    return Roll(draw(st.integers(0, 65535)), die, tuple(values))


messages = st.one_of(
    rolls(),
    st.builds(Hello, st.integers(1, 99), text, text, st.lists(dice, min_size=1, max_size=2).map(tuple)),
    st.builds(Beat, st.integers(0, 10**9)),
    st.builds(Err, text, st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E,
                                                        exclude_characters="$*"), max_size=40)),
    st.builds(Ack, st.integers(0, 65535)),
    st.builds(Req, dice, st.integers(1, 8)),
    st.just(HelloQuery()),
)


@given(messages)
def test_round_trip(msg: Message) -> None:
    line = encode(msg)
    assert line.endswith(b"\n") and len(line) - 1 <= MAX_LINE
    assert decode_line(line[:-1]) == msg
    assert decode_line(line[:-1] + b"\r") == msg  # a trailing CR is tolerated
    assert Decoder().feed(line) == [msg]


@pytest.mark.parametrize("msg", [Roll(0, "d6", (7,)), Roll(70000, "d6", (1,)), Roll(1, "d6", ()),
                                 Roll(1, "d6", (1,) * 9), Req("d6", 0), Req("d20", 1), Ack(-1)])
def test_encode_refuses_invalid_messages(msg: Message) -> None:
    with pytest.raises(ValueError):
        encode(msg)


def test_frame_refuses_bodies_that_cannot_be_framed() -> None:
    for body in ("A*B", "$X", "caf\u00e9", "tab\there", "X" * 100):
        with pytest.raises(ValueError):
            frame(body)


def _kind(line: bytes) -> str:
    with pytest.raises(ProtocolError) as e:
        decode_line(line)
    return e.value.kind


def _framed(body: bytes) -> bytes:
    return b"$" + body + b"*%04X" % crc(body)


@pytest.mark.parametrize("line,kind", [
    (b"hello", "framing"),
    (b"$ROLL,1,d6,3", "framing"),  # no CRC
    (b"$ROLL,1,d6,3*12G4", "framing"),
    (b"ROLL,1,d6,3*1234", "framing"),  # no '$'
    (_framed(b"ROLL,1,d6,3")[:-1] + b"0" if not _framed(b"ROLL,1,d6,3").endswith(b"0")
     else _framed(b"ROLL,1,d6,3")[:-1] + b"1", "bad_crc"),
    (_framed(b"SPIN,1"), "unknown_type"),
    (_framed(b"roll,1,d6,3"), "unknown_type"),  # types are case-sensitive
    (_framed(b""), "malformed"),  # an empty body
    (_framed(b"ROLL,1,d6"), "malformed"),  # no values
    (_framed(b"ROLL,x,d6,3"), "malformed"),
    (_framed(b"ROLL,-1,d6,3"), "malformed"),
    (_framed(b"ROLL,1,d6,3.0"), "malformed"),
    (_framed(b"ROLL,1,coin,3"), "malformed"),
    (_framed(b"ROLL,1,d6,"), "malformed"),
    (_framed(b"ROLL,65536,d6,3"), "out_of_range"),
    (_framed(b"ROLL,1,d6,0"), "out_of_range"),
    (_framed(b"ROLL,1,d6,7"), "out_of_range"),
    (_framed(b"ROLL,1,d12,13"), "out_of_range"),
    (_framed(b"ROLL,1,d20,3"), "out_of_range"),
    (_framed(b"ROLL,1,d6,1,1,1,1,1,1,1,1,1"), "out_of_range"),  # nine dice
    (_framed(b"BEAT"), "malformed"),
    (_framed(b"BEAT,soon"), "malformed"),
    (_framed(b"HELLO,1,fw"), "malformed"),
    (_framed(b"HELLO,0,fw,1.0,d6"), "out_of_range"),
    (_framed(b"HELLO,1,fw,1.0,"), "malformed"),
    (_framed(b"ERR,,text"), "malformed"),
    (_framed(b"ACK,70000"), "out_of_range"),
    (_framed(b"REQ,d6,9"), "out_of_range"),
    (_framed(b"REQ,d6"), "malformed"),
    (_framed(b"ROLL,1,d6,\x013"), "malformed"),
    (b"$" + b"A" * (MAX_LINE + 1) + b"*0000", "overlong"),
])
def test_each_rejected_kind(line: bytes, kind: str) -> None:
    assert kind in REJECT_KINDS
    assert _kind(line) == kind


def test_newer_fields_are_ignored() -> None:
    """A version-2 sender may append key=value fields (and HELLO/BEAT/ACK/REQ extra positional ones)."""
    assert decode_line(_framed(b"ROLL,5,d6,3,4,t=1234")) == Roll(5, "d6", (3, 4))
    assert decode_line(_framed(b"HELLO,2,fw,2.0,d6+d12+d20,serial=ab12")) == Hello(2, "fw", "2.0",
                                                                                   ("d6", "d12", "d20"))
    assert decode_line(_framed(b"BEAT,17,42")) == Beat(17)
    assert decode_line(_framed(b"HELLO?,2")) == HelloQuery()
    assert decode_line(_framed(b"ERR,LOWBAT,battery low, 3.1 V")) == Err("LOWBAT", "battery low, 3.1 V")


def test_intact_but_invalid_rolls_are_listed_for_an_ack() -> None:
    d = Decoder()
    assert d.feed(frame("ROLL,5,d6,7") + frame("ROLL,6,d20,3") + frame("ROLL,x,d6,1") + frame("ROLL,8")) == []
    assert list(d.unacceptable) == [5, 6, 8]  # "x" has no seq to acknowledge
    assert d.feed(b"$ROLL,4,d6,3*0000\n") == [] and list(d.unacceptable) == [5, 6, 8]  # bad CRC: never ACKed


def test_lowercase_crc_is_accepted() -> None:
    line = _framed(b"BEAT,3")
    assert decode_line(line[:-4] + line[-4:].lower()) == Beat(3)


def test_direction_filter() -> None:
    """A host only takes roller messages: an echoed ACK is counted as an unknown type, not obeyed."""
    d = Decoder(frozenset({"HELLO", "ROLL", "BEAT", "ERR"}))
    assert d.feed(encode(Ack(3)) + encode(Beat(1))) == [Beat(1)]
    assert d.rejected["unknown_type"] == 1


def test_decoder_is_bounded_and_recovers() -> None:
    d = Decoder()
    assert d.feed(b"$" + b"X" * 100_000) == []
    assert d.pending == 0  # the overlong line is dropped, not buffered
    assert d.feed(b"\n" + encode(Beat(9))) == [Beat(9)]
    assert d.rejected["overlong"] == 1
    assert d.feed(b"junk without end" * 10_000) == []
    assert d.pending == 0
    assert d.feed(encode(Beat(10))) == [Beat(10)]  # the '$' resynchronises, no line end needed
    assert d.rejected["framing"] == 1


def test_a_dollar_starts_a_new_frame() -> None:
    d = Decoder()
    assert d.feed(b"$ROLL,1,d6" + encode(Roll(2, "d6", (4,)))) == [Roll(2, "d6", (4,))]
    assert d.rejected["framing"] == 1


def test_a_96_byte_line_is_accepted_and_97_is_not() -> None:
    def line_of(n: int) -> bytes:
        body = b"ERR,X," + b"a" * (n - 6 - 6)
        return _framed(body)

    assert len(line_of(96)) == 96 and len(line_of(97)) == 97
    d = Decoder()
    assert len(d.feed(line_of(96) + b"\r\n")) == 1
    assert d.feed(line_of(97) + b"\n") == []
    assert d.rejected["overlong"] == 1


# --- fuzz: valid frames hidden in noise --------------------------------------------------------------------------

NASTY = [b"$", b"*", b"\n", b"\r", b"\r\n", b",", b"$ROLL,", b"*FFFF\n", b"$ROLL,3,d6,9*", b"\x00\xff",
         b"$" + b"Z" * 120, _framed(b"ROLL,9,d6,7") + b"\n", _framed(b"SPIN") + b"\n", b"ROLL,1,d6,1*0000\n"]
noise = st.lists(st.one_of(st.binary(max_size=60), st.sampled_from(NASTY)), max_size=4).map(b"".join)


@st.composite
def noisy_stream(draw: st.DrawFn) -> tuple[list[bytes], list[Roll]]:
    """Noise and valid ROLL frames interleaved, cut into random chunks."""
    frames = draw(st.lists(rolls(), max_size=8))
    data = b""
    for r in frames:
        data += draw(noise) + encode(r)
    data += draw(noise)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=10)))
    chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
    return chunks, frames


@settings(max_examples=300)
@given(noisy_stream())
def test_fuzzed_stream_yields_every_frame_once(case: tuple[list[bytes], list[Roll]]) -> None:
    chunks, frames = case
    d = Decoder(frozenset({"HELLO", "ROLL", "BEAT", "ERR"}))
    got: list[Message] = []
    for chunk in chunks:
        got += d.feed(chunk)
        assert d.pending <= MAX_LINE + 1
    got += d.feed(b"\n")
    assert got == frames


@given(st.binary(max_size=2000))
def test_no_exception_on_any_bytes(data: bytes) -> None:
    d = Decoder()
    for i in range(0, len(data), 7):
        d.feed(data[i:i + 7])
    assert d.pending <= MAX_LINE + 1


def test_the_spec_examples_are_valid_frames() -> None:
    """Every frame quoted in firmware_docs/roller-protocol.md decodes (its CRCs are right)."""
    spec = (Path(__file__).resolve().parent.parent / "firmware_docs" / "roller-protocol.md").read_text()
    quoted = [q for q in re.findall(r"\$[A-Z?][^\s*$]*\*[0-9A-F]{4}", spec) if q != "$BODY*CCCC"]
    assert len(quoted) >= 10
    for line in quoted:
        decode_line(line.encode())
    assert "96 bytes" in spec and "300 ms" in spec and "crc_hqx(body, 0xFFFF)" in spec
