"""Palace is a :class:`~tabletop_rules.game.Game` subclass: its package's functions are the
members of ``RULES``, a :class:`~tabletop_rules.palace.Palace`, and each function of its own
modules that ``Palace`` binds as a member refuses what is not its argument by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import cattrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError, TabletopError
from tabletop_rules.game import Game, exported_functions
from tabletop_rules.observation import Features
from tabletop_rules.palace import events, invariants, notation, observation, rules, table
from tabletop_rules.palace.view import determinize, view
from tabletop_rules.rng import Rng
from tabletop_rules.testing.checks import ODD_ARGUMENTS

STATE = p.apply(p.new_game(seed=3), p.Ready())
SEEN = p.view(STATE, 0)
EVENT = p.Drew(1, (p.Card.parse("7H"),))


def test_rules_is_a_palace_game() -> None:
    assert type(p.RULES) is p.Palace
    assert isinstance(p.RULES, Game)
    assert (p.RULES.name, p.RULES.seats) == ("palace", (2, p.MAX_PLAYERS))


def test_each_package_function_is_the_member_of_rules_of_the_same_name() -> None:
    for name in exported_functions():
        assert getattr(p, name) == getattr(p.RULES, name), name
    assert p.RULES.new_game(seed=3) == p.new_game(p.Config(), seed=3)
    assert p.chance_probabilities(p.new_game(seed=3)) == {}


def test_palace_binds_its_own_functions_as_they_are() -> None:
    own = {
        "legal_moves": rules.legal_moves, "transition": rules.transition,
        "score": rules.score, "current_player": rules.current_player,
        "is_over": rules.is_over, "winners": rules.winners, "canonical": rules.canonical,
        "read_move_in": rules.read_move_in, "max_moves": rules.max_moves,
        "view": view, "redeal": determinize, "redact": events.redact,
        "check_invariants": invariants.check_invariants,
        "encode_view": observation.encode_view, "format_move": notation.format_move,
        "read_move": notation.read_move, "json_hooks": notation.json_hooks,
        "action_notation": notation.action_text, "event_text": table.event_text,
    }  # fmt: skip
    for name, function in own.items():
        assert getattr(p.RULES, name) == function, name


def test_known_move_hands_every_move_to_transition_the_one_legality_path() -> None:
    for odd in ("end", 7, None, p.TakePile()):
        assert p.RULES.known_move(odd) is odd
    with pytest.raises(IllegalMoveError, match="'end' is not a palace move"):
        p.apply(STATE, "end")  # type: ignore[arg-type]


def _fail(why: str) -> NoReturn:
    raise AssertionError(why)


BOUND: dict[str, Callable[[Any], object]] = {
    "legal_moves": p.RULES.legal_moves,
    "score": p.RULES.score,
    "current_player": p.RULES.current_player,
    "is_over": p.RULES.is_over,
    "winners": p.RULES.winners,
    "canonical (state)": lambda odd: p.RULES.canonical(odd, p.TakePile()),
    "canonical (move)": lambda odd: p.RULES.canonical(STATE, odd),
    "read_move_in (state)": lambda odd: p.RULES.read_move_in(odd, "take"),
    "read_move_in (text)": lambda odd: p.RULES.read_move_in(STATE, odd),
    "max_moves": p.RULES.max_moves,
    "view (state)": lambda odd: p.RULES.view(odd, 0),
    "view (seat)": lambda odd: p.RULES.view(STATE, odd),
    "redeal (view)": lambda odd: p.RULES.redeal(odd, Rng.from_seed(1)),
    "redeal (rng)": lambda odd: p.RULES.redeal(SEEN, odd),
    "redact (event)": lambda odd: p.RULES.redact(odd, 0),
    "redact (seat)": lambda odd: p.RULES.redact(EVENT, odd),
    "check_invariants (state)": lambda odd: p.RULES.check_invariants(odd, _fail),
    "check_invariants (fail)": lambda odd: p.RULES.check_invariants(STATE, odd),
    "encode_view (view)": lambda odd: p.RULES.encode_view(odd, Features()),
    "encode_view (features)": lambda odd: p.RULES.encode_view(SEEN, odd),
    "format_move": p.RULES.format_move,
    "read_move": p.RULES.read_move,
    "json_hooks": p.RULES.json_hooks,
    "action_key": p.RULES.action_key,
    "action_notation": p.RULES.action_notation,
    "event_text (event)": lambda odd: p.RULES.event_text(odd, 0),
    "event_text (seat)": lambda odd: p.RULES.event_text(EVENT, odd),
}
ODD = (*ODD_ARGUMENTS, p.Config(), STATE, SEEN, p.TakePile(), EVENT, True, -1)
# The odd values that are one argument's own kind, accepted where they fit.
FITS = {
    "redeal (view)": (SEEN,),
    "encode_view (view)": (SEEN,),
    "canonical (move)": (p.TakePile(),),
    "read_move_in (text)": (),
    "view (seat)": (None,),
    "max_moves": (p.Config(),),
    "redact (event)": (EVENT,),
    "redact (seat)": (None,),
    "event_text (event)": (EVENT,),
    "event_text (seat)": (None,),
    "action_key": (p.TakePile(),),
    "action_notation": (p.TakePile(),),
    "format_move": (p.TakePile(),),
}


@pytest.mark.parametrize("name", list(BOUND))
def test_each_function_palace_binds_refuses_an_argument_of_the_wrong_type(name: str) -> None:
    function = BOUND[name]
    state_or_view = name.startswith(("legal_moves", "score", "current", "is_over", "winners"))
    fits = FITS.get(name, (STATE,) if state_or_view or "(state)" in name else ())
    for odd in ODD:
        if any(type(odd) is type(fit) and odd == fit for fit in fits):
            continue
        try:
            function(odd)
        except (TypeError, TabletopError):
            continue
        except Exception as error:
            pytest.fail(f"{name}({odd!r:.50}) raised {type(error).__name__}: {error}")
        if type(odd) is int and name.endswith("(seat)") and odd >= 0:
            continue  # a seat of a number, the event's own or another's
        pytest.fail(f"{name}({odd!r:.50}) accepted what is not its argument")


def test_json_hooks_needs_a_cattrs_converter() -> None:
    with pytest.raises(TypeError, match="json_hooks needs a cattrs converter, got 7"):
        p.RULES.json_hooks(7)
    p.RULES.json_hooks(cattrs.Converter())


def test_format_move_and_action_text_of_what_is_no_move_are_type_errors() -> None:
    for function in (p.RULES.format_move, p.RULES.action_notation):
        with pytest.raises(TypeError, match="'take' is not a palace move"):
            function("take")  # type: ignore[arg-type]
