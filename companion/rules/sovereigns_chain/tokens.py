"""The shared token supply: 13 shields, 21 modifiers, 21 suits. What is not on a card or in a pool is in the supply."""
from __future__ import annotations

from typing import Iterable, Mapping

from companion.rules.sovereigns_chain.chain import chain_tokens
from companion.rules.sovereigns_chain.model import POOL_KINDS, SUPPLY, Chain, ChainError, TokenKind

Pool = dict[str, int]


def empty_pool() -> Pool:
    return {k.value: 0 for k in POOL_KINDS}


def supply_left(chains: Iterable[Chain], pools: Iterable[Mapping[str, int]]) -> dict[TokenKind, int]:
    used = {k: 0 for k in TokenKind}
    for chain in chains:
        for k, n in chain_tokens(chain).items():
            used[k] += n
    for pool in pools:
        for k in POOL_KINDS:
            used[k] += int(pool.get(k.value, 0))
    return {k: SUPPLY[k] - used[k] for k in TokenKind}


def out_of(left: Mapping[TokenKind, int]) -> list[TokenKind]:
    """The token kinds the supply has run out of."""
    return [k for k in TokenKind if left[k] <= 0]


def take(pool: Mapping[str, int], kind: TokenKind, count: int, left: Mapping[TokenKind, int]) -> tuple[Pool, int]:
    """Take up to ``count`` tokens into a pool; a type that is out gives nothing. Returns (new pool, how many)."""
    if kind not in POOL_KINDS:
        raise ChainError("suit tokens are never held")
    got = max(0, min(count, left[kind]))
    out = dict(pool)
    out[kind.value] = out.get(kind.value, 0) + got
    return out, got


def spend(pool: Mapping[str, int], kind: TokenKind) -> Pool:
    if pool.get(kind.value, 0) <= 0:
        raise ChainError(f"no {kind.value} in that pool")
    out = dict(pool)
    out[kind.value] -= 1
    return out


def supply_line(left: Mapping[TokenKind, int]) -> str:
    """``Left: 13 shields, 21 mods`` — or ``Out of shields`` when a type has run out (suit tokens are only ever
    placed from the supply: they show here when they run out)."""
    text = f"Left: {left[TokenKind.SHIELD]} shields, {left[TokenKind.MODIFIER]} mods"
    gone = out_of(left)
    if gone:
        return "Out of " + ",".join(k.value + "s" for k in gone)
    return text
