"""Dice poker's own JSON hooks: a state travels without its derived ``open_masks`` and
``totals``.

``State.open_masks`` and ``State.totals`` cache, for speed, what the sheets already say.
The JSON holds only the sheets, and loading recomputes the rest, so no document can make
them disagree.

>>> from tabletop_rules import dice_poker as dp
>>> from tabletop_rules.serialize import dumps, loads
>>> state = dp.new_game(seed=1)
>>> "open_masks" in dumps(state), loads(dumps(state)) == state
(False, True)
>>> "totals" in dumps(state)
False
"""

from __future__ import annotations

from typing import Any

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from .state import State, open_mask, sheet_total

__all__ = ["FORMAT_VERSION", "json_hooks"]

FORMAT_VERSION = 2
"""The version of dice poker's JSON layout: 2 since states leave out their derived fields."""


def json_hooks(converter: Any) -> None:
    """Register dice poker's hooks on the shared converter: ``State`` without
    ``open_masks`` and ``totals`` both ways.
    """
    omit = override(omit=True)
    unstructure = make_dict_unstructure_fn(State, converter, open_masks=omit, totals=omit)
    structure_base = converter.get_structure_hook(State)

    def structure(value: Any, kind: type[State]) -> State:
        if isinstance(value, dict) and not value.keys() & {"open_masks", "totals"}:
            value = {**value, "open_masks": _open_masks(value.get("sheets")), "totals": []}
            state: State = structure_base(value, kind)
            totals = tuple(sheet_total(state.config, sheet) for sheet in state.sheets)
            return attrs.evolve(state, totals=totals)
        return structure_base(value, kind)  # type: ignore[no-any-return]

    converter.register_unstructure_hook(State, unstructure)
    converter.register_structure_hook(State, structure)


def _open_masks(sheets: Any) -> list[int]:
    """Each sheet's open mask; for sheets of the wrong shape, masks that ``check_state``
    will refuse together with the sheets, naming what is wrong with them.
    """
    try:
        return [open_mask(tuple(sheet)) for sheet in sheets]
    except (TypeError, IndexError):
        return []
