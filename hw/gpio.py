"""Choosing the gpiozero pin factory, once, at start-up.

Nothing here runs at import. gpiozero picks a default factory on first use, and its first choice, lgpio, creates its
notification FIFOs (``.lgd-nfy*``) in the current directory when imported. :func:`make_pin_factory` points lgpio at
a runtime directory (``LG_WD``) before importing it, and the device classes in :mod:`hw` take the factory injected
(``pin_factory=``); tests pass gpiozero's ``MockFactory``.
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
from typing import Any

from companion.errors import HardwareError

log = logging.getLogger(__name__)

FACTORIES = ("auto", "lgpio", "rpigpio", "native", "mock")
from hw.faults import GPIO_BUSY, NO_GPIO

_default: Any = None


def lgpio_workdir() -> str:
    """Where lgpio may put its FIFOs: ``$LG_WD`` if set, else ``$XDG_RUNTIME_DIR``, else the temp directory."""
    for candidate in (os.environ.get("LG_WD"), os.environ.get("XDG_RUNTIME_DIR")):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK):
            return candidate
    return tempfile.gettempdir()


def make_pin_factory(name: str = "auto") -> Any:
    """A new gpiozero pin factory: ``"lgpio"``, ``"rpigpio"``, ``"native"``, ``"mock"``, or ``"auto"`` (the first of
    lgpio, rpigpio, native that works). Raises :class:`HardwareError` with one line when none can be used."""
    if name not in FACTORIES:
        raise HardwareError(f"unknown GPIO pin factory {name!r}: use one of {', '.join(FACTORIES)}")
    if name == "mock":
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        return MockFactory()
    order = ("lgpio", "rpigpio", "native") if name == "auto" else (name,)
    problems = []
    for kind in order:
        try:
            return _build(kind)
        except Exception as e:  # each library fails in its own way (ImportError, OSError, RuntimeError...)
            log.debug("pin factory %s: %r", kind, e)
            problems.append(f"{kind}: {e}")
    raise HardwareError(NO_GPIO.format(detail="; ".join(problems)))


def _build(kind: str) -> Any:
    if kind == "lgpio":
        os.environ["LG_WD"] = lgpio_workdir()  # read by lgpio when it is imported, just below
        from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]

        return LGPIOFactory()
    if kind == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory  # type: ignore[import-untyped]

        return RPiGPIOFactory()
    from gpiozero.pins.native import NativeFactory  # type: ignore[import-untyped]

    return NativeFactory()


def pin_errors() -> tuple[type[BaseException], ...]:
    """What claiming a pin can raise: gpiozero's errors, and the backend's own (lgpio's ``error`` for "GPIO busy",
    RPi.GPIO's RuntimeError, the native factory's OSError). lgpio is only looked at when it is already loaded."""
    from gpiozero import GPIOZeroError

    errors: list[type[BaseException]] = [GPIOZeroError, OSError, RuntimeError]
    lgpio = sys.modules.get("lgpio")
    backend = getattr(lgpio, "error", None)
    if isinstance(backend, type) and issubclass(backend, BaseException):
        errors.append(backend)
    return tuple(errors)


def pin_error(where: str, e: BaseException) -> HardwareError:
    """One line for a pin that could not be claimed. ``where`` is the config key and its pin (``[buttons] back =
    19``); a busy pin (held by a dtoverlay or another program) gets :data:`hw.faults.GPIO_BUSY`."""
    if "busy" in str(e).lower():
        return HardwareError(GPIO_BUSY.format(where=where))
    return HardwareError(f"{where}: {e}")


def default_pin_factory() -> Any:
    """The process's factory, made on first call with ``make_pin_factory("auto")`` and reused after.

    It also becomes gpiozero's ``Device.pin_factory``, so gpiozero's own exit hook releases the pins.
    """
    global _default
    if _default is None:
        from gpiozero import Device  # type: ignore[import-untyped]

        _default = make_pin_factory("auto")
        Device.pin_factory = _default
    return _default


__all__ = ["FACTORIES", "NO_GPIO", "default_pin_factory", "lgpio_workdir", "make_pin_factory", "pin_error",
           "pin_errors"]
