"""The deprecated :func:`tabletop_rules.kit.build`: a game written the earlier way, a
:class:`~tabletop_rules.kit.Declaration` and a :class:`~tabletop_rules.kit.Kernel`, still
plays for one release, as a :class:`~tabletop_rules.game.Game`, with a warning saying what
to write instead. The base class itself is tested in ``tests/test_game.py``.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules import kit
from tabletop_rules.errors import ConfigError, IllegalMoveError, InvalidStateError
from tabletop_rules.game import Game
from tabletop_rules.testing import (
    check_codec,
    check_notation_round_trip,
    check_observation,
    check_turn_functions,
    random_playout,
)

DECLARATION = kit.Declaration(
    name="take-away", title="Take-away", players=(2, 3), chance_mode="deterministic"
)


@attrs.frozen
class Config:
    players: int = attrs.field(default=2, validator=kit.whole(*DECLARATION.players))
    pile: int = attrs.field(default=5, validator=kit.whole(1, 50))


@attrs.frozen
class Take:
    count: int


@attrs.frozen
class Took:
    seat: int
    count: int


@attrs.frozen
class State:
    config: Config
    seed: int
    pile: int
    turns: int = 0


@attrs.frozen
class View:
    config: Config
    seat: int | None
    pile: int
    turns: int
    current_player: int | None
    legal_moves: tuple[Take, ...]


MOVES = kit.MoveTable[Take]("take away", (Take,), (Take(1), Take(2)))


def current_player(state: State) -> int | None:
    return None if state.pile == 0 else state.turns % state.config.players


def legal_moves(state: State) -> tuple[Take, ...]:
    return MOVES.moves[: min(state.pile, 2)]


def transition(state: State, move: Take, events: list[Any] | None) -> State:
    if events is not None:
        events.append(Took(state.turns % state.config.players, move.count))
    return attrs.evolve(state, pile=state.pile - move.count, turns=state.turns + 1)


def score(state: State) -> tuple[int, ...]:
    winner = (state.turns - 1) % state.config.players
    return tuple(int(state.pile == 0 and seat == winner) for seat in range(state.config.players))


def view(state: State, seat: int | None) -> View:
    to_move = current_player(state)
    moves = legal_moves(state) if seat is not None and seat == to_move else ()
    return View(state.config, seat, state.pile, state.turns, to_move, moves)


def determinize(seen: View, rng: kit.Rng) -> State:
    return State(seen.config, rng.next_u64()[0], seen.pile, seen.turns)


def check_state(state: State, fail: kit.Fail) -> None:
    if not 0 <= state.pile <= state.config.pile:
        fail(f"pile must be 0 to {state.config.pile}, got {state.pile!r}")


def encode_view(seen: View, features: kit.Features) -> None:
    kit.viewer_features(features, seen.seat, seen.config.players)
    features.scalar("pile", seen.pile, 0, seen.config.pile)


KERNEL = kit.Kernel(
    config_type=Config,
    state_type=State,
    view_type=View,
    move_types=(Take,),
    event_types=(Took,),
    new_game=lambda config, seed, deal: State(config, seed, config.pile),
    legal_moves=legal_moves,
    transition=transition,
    score=score,
    current_player=current_player,
    view=view,
    determinize=determinize,
    format_move=lambda move: f"take {move.count}",
    encode_view=encode_view,
    check_state=check_state,
    max_moves=lambda config: config.pile,
    moves=MOVES,
)


def built() -> Game[Any, Any, Any]:
    with pytest.warns(DeprecationWarning, match="subclass of tabletop_rules.game.Game"):
        return kit.build(DECLARATION, KERNEL)


def test_build_warns_that_it_is_deprecated_naming_the_game_class() -> None:
    with pytest.warns(DeprecationWarning, match=r"kit\.build is deprecated") as warned:
        kit.build(DECLARATION, KERNEL)
    assert "tabletop_rules.game.Game" in str(warned[0].message)
    assert warned[0].filename == __file__, "the warning points at the caller"


def test_a_game_built_by_the_deprecated_kit_still_plays_a_game() -> None:
    rules = built()
    assert isinstance(rules, Game)
    assert (rules.name, rules.title, rules.seats) == ("take-away", "Take-away", (2, 3))
    state = rules.new_game(seed=4)
    state, events = rules.apply_with_events(state, rules.parse_move(state, "take 2"))
    assert events == (Took(0, 2),)
    for text in ("take 1", "take 2"):
        state = rules.apply(state, rules.parse_move(state, text))
    assert rules.is_over(state)
    assert rules.winners(state) == frozenset({0})
    assert rules.describe(Took(0, 2), 1) == "Took: seat 0, count 2"
    with pytest.raises(IllegalMoveError, match="'take 2' is not legal now"):
        rules.apply(rules.new_game(Config(pile=1), seed=0), Take(2))
    with pytest.raises(TypeError, match=r"got a View: .*pass the State"):
        rules.apply(rules.view(state, 0), Take(1))


def test_a_game_built_by_the_deprecated_kit_passes_the_conformance_checks() -> None:
    rules = built()
    playout = random_playout(rules, Config(pile=9), seed=3, chooser_seed=4)
    assert rules.is_over(playout.states[-1])
    for state in playout.states:
        rules.check_state(state)
        rules.check_view(rules.view(state, None))
        check_turn_functions(rules, state)
        check_codec(rules, state)
        check_notation_round_trip(rules, state)
        check_observation(rules, state)
    with pytest.raises(InvalidStateError, match="pile must be 0 to 5"):
        rules.check_state(attrs.evolve(rules.new_game(seed=0), pile=9))


def test_build_takes_a_declaration_and_a_kernel() -> None:
    with (
        pytest.raises(TypeError, match=r"takes a kit\.Declaration and a kit\.Kernel"),
        pytest.warns(DeprecationWarning, match="kit.build is deprecated"),
    ):
        kit.build(KERNEL, DECLARATION)  # type: ignore[arg-type]


def test_the_kit_exports_what_a_game_author_needs() -> None:
    for name in kit.__all__:
        assert getattr(kit, name) is not None, name
    for helper in ("Game", "MoveTable", "replacer", "whole", "flag", "top_seats", "Rng"):
        assert helper in kit.__all__
    assert kit.Game is Game
    with pytest.raises(ValueError, match="players must be"):
        kit.Declaration(name="x", title="X", players=(3, 2))


def test_a_kit_games_deck_and_summaries_check_the_config_and_default_to_nothing() -> None:
    rules = built()
    for member in (rules.deck, rules.rules_summary, rules.notation_summary):
        assert member(Config()) == ()
        with pytest.raises(ConfigError, match="expected a take away Config, got 'big'"):
            member("big")
    summaries = attrs.evolve(
        KERNEL,
        deck=lambda config: tuple(range(config.pile)),
        rules_summary=lambda config: (f"Take 1 or 2 of {config.pile}.",),
        notation_summary=lambda config: ("take 2: take two",),
    )
    with pytest.warns(DeprecationWarning, match="kit.build is deprecated"):
        told = kit.build(DECLARATION, summaries)
    assert told.deck(Config(pile=3)) == (0, 1, 2)
    assert told.rules_summary(Config(pile=3)) == ("Take 1 or 2 of 3.",)
    assert told.notation_summary(Config()) == ("take 2: take two",)
    with pytest.raises(ConfigError, match="expected a take away Config"):
        told.rules_summary(7)


def test_a_kit_games_hint_refuses_what_is_no_view() -> None:
    rules = built()
    assert rules.hint(rules.view(rules.new_game(seed=0), 0)) == ()
    with pytest.raises(TypeError, match="expected a take away View, got 'big'"):
        rules.hint("big")
