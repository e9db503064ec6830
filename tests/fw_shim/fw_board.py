"""The shimmed board's state: pin levels the test sets, and what the firmware drove (shared by the shims)."""
from __future__ import annotations

import threading

lock = threading.Lock()
#: input levels set by the test (pin id -> 0/1); unset inputs read their pull level
inputs: dict[object, int] = {}
#: output levels the firmware set
outputs: dict[object, int] = {}
#: how often each output went from 0 to 1
rising_edges: dict[object, int] = {}
