"""A random player: a valid answer to any prompt. Drives the contract tests and fuzzing of every game."""
from __future__ import annotations

import random
from typing import Any

from fsm.prompts import Choice, Confirm, Dice, Info, MultiSelect, Number, Prompt, Random, SecretVote


def random_answer(prompt: Prompt, rng: random.Random) -> Any:
    if isinstance(prompt, Choice):
        keys = [o.key for o in prompt.options if o.enabled]
        if prompt.back is not None and (not keys or rng.random() < 0.1):
            return prompt.back
        return rng.choice(keys)
    if isinstance(prompt, Number):
        if rng.random() < 0.5:
            return prompt.default
        return rng.randint(prompt.lo, prompt.hi)
    if isinstance(prompt, Confirm):
        return rng.random() < 0.7
    if isinstance(prompt, MultiSelect):
        keys = [o.key for o in prompt.options]
        hi = len(keys) if prompt.max_count is None else min(prompt.max_count, len(keys))
        n = rng.randint(min(prompt.min_count, hi), hi)
        picked = set(rng.sample(keys, n))
        return [k for k in keys if k in picked]
    if isinstance(prompt, SecretVote):
        return rng.choice([o.key for o in prompt.options])
    if isinstance(prompt, Dice):
        return {"values": [rng.randint(1, prompt.sides) for _ in range(prompt.count)], "source": "rng"}
    if isinstance(prompt, Info):
        return True
    if isinstance(prompt, Random):
        return rng.choice(list(prompt.keys))
    raise TypeError(f"unknown prompt {prompt!r}")
