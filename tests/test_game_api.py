"""One API across the games: the same names with the same signatures in every game package,
one argument order for the functions that take a ruleset, one name for scores."""

from __future__ import annotations

import importlib
import inspect
import types
import warnings
from collections.abc import Callable
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from tabletop_rules import Match, account, dice_poker, palace
from tabletop_rules.bots import RandomBot
from tabletop_rules.errors import SeatError
from tabletop_rules.game import Game, exported_names
from tabletop_rules.protocol import CHANCE
from tabletop_rules.records import GameRecord, replay
from tabletop_rules.simulate import play_game
from tabletop_rules.testing.checks import (
    check_game_exports,
    check_view_refuses_seats_not_at_the_table,
)
from tabletop_rules.testing.variants import variant

GAMES = (dice_poker, palace, account)
ids = [game.__name__.rsplit(".", 1)[-1] for game in GAMES]


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_game_exports_the_shared_set(game: types.ModuleType) -> None:
    missing = [name for name in exported_names() if name not in game.__all__]
    assert not missing, f"{game.__name__} does not export {missing}"
    assert all(hasattr(game, name) for name in game.__all__)
    assert game.CHANCE == CHANCE
    assert game.RULES.display == game.display
    check_game_exports(game)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_view_of_a_seat_not_at_the_table_is_the_librarys_error_in_every_game(
    game: types.ModuleType,
) -> None:
    """Point 8 of issue 32: ``view(state, 5)`` raised a plain ``ValueError``; a seat that is
    no int raises ``TypeError``, as the conformance suite now checks for every game."""
    state = game.new_game(seed=1)
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None, got 5"):
        game.view(state, 5)
    check_view_refuses_seats_not_at_the_table(game.RULES, state)


def test_the_seat_check_fails_a_view_that_raises_a_plain_value_error() -> None:
    def view(state: Any, seat: Any) -> Any:
        if seat is not None and not 0 <= seat < 2:
            raise ValueError(f"no seat {seat}")
        return dice_poker.view(state, seat)

    rules = variant(dice_poker.RULES, view=view)
    with pytest.raises(AssertionError, match=r"view\(state, 2\) .* raised ValueError, not Tab"):
        check_view_refuses_seats_not_at_the_table(rules, dice_poker.new_game(seed=1))


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_game_exports_its_move_and_event_classes(game: types.ModuleType) -> None:
    assert game.RULES.move_types == importlib.import_module(f"{game.__name__}.moves").MOVE_TYPES
    assert game.RULES.event_types == importlib.import_module(f"{game.__name__}.events").EVENT_TYPES
    for kind in (*game.RULES.move_types, *game.RULES.event_types):
        assert kind.__name__ in game.__all__, f"{game.__name__}.{kind.__name__} not exported"
        assert getattr(game, kind.__name__) is kind


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_all_holds_no_submodule_names(game: types.ModuleType) -> None:
    modules = [name for name in game.__all__ if isinstance(getattr(game, name), types.ModuleType)]
    assert not modules, f"{game.__name__}.__all__ lists the submodules {modules}"


def _hints_for(rules: Game[Any, Any, Any], method: Callable[..., Any]) -> dict[str, Any]:
    """The type hints of a ``Game`` method as the game's class fills in the base's type
    parameters: what mypy checks a call of ``rules.method`` against."""
    filled: dict[Any, Any] = {}
    parameters = Game.__parameters__  # type: ignore[attr-defined]  # set by Generic at runtime
    for cls in type(rules).__mro__:
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is Game:
                filled = dict(zip(parameters, get_args(base), strict=True))
    return {
        name: hint[tuple(filled[parameter] for parameter in hint.__parameters__)]
        if getattr(hint, "__parameters__", ())
        else filled.get(hint, hint)
        for name, hint in get_type_hints(method).items()
    }


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_new_game_has_one_signature_and_deal_is_typed_once(game: types.ModuleType) -> None:
    signature = inspect.signature(game.new_game)
    shape = [(p.name, p.kind, p.default) for p in signature.parameters.values()]
    assert shape == [
        ("config", inspect.Parameter.POSITIONAL_OR_KEYWORD, None),
        ("seed", inspect.Parameter.KEYWORD_ONLY, None),
        ("deal", inspect.Parameter.KEYWORD_ONLY, None),
    ]
    assert game.new_game.__code__ is Game.new_game.__code__, (
        "one new_game, the base's, in every game"
    )
    hints = _hints_for(game.RULES, game.new_game.__func__)
    assert hints["seed"] == int | None
    if game.Deal is None:
        assert game.RULES.deal_type is None
    else:
        (item,) = get_args(get_args(game.Deal)[0])  # Deal is Sequence[item] | None
        assert game.RULES.deal_type in (item, *get_args(item))
    if type(game.RULES).__module__ == "tabletop_rules.kit":  # built by the old kit: untyped
        return
    assert hints["config"] == game.Config | None
    assert hints["return"] is game.State


def test_dice_poker_takes_no_deal_and_the_card_games_take_one() -> None:
    assert dice_poker.Deal is None
    assert palace.new_game(seed=1, deal=palace.RULES.deck(palace.Config())) is not None
    assert account.new_game(seed=1, deal=account.RULES.deck(account.Config())) is not None


@pytest.mark.parametrize(
    ("game", "old"),
    [(dice_poker, "sheet_table"), (palace, "table_text"), (account, "field_text")],
    ids=ids,
)
def test_old_table_names_warn_and_draw_what_display_draws(game: types.ModuleType, old: str) -> None:
    state = game.new_game(seed=3)
    with pytest.warns(DeprecationWarning, match=f"{old} (is deprecated|moved): use .*display"):
        drawn = getattr(game, old)(state)
    assert drawn == game.display(state)
    assert drawn == game.display(game.view(state, None))


def _record() -> GameRecord:
    return GameRecord.start(dice_poker.RULES, dice_poker.new_game(seed=9)).play("roll")


def test_replay_and_from_record_take_the_rules_first() -> None:
    record = _record()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = replay(dice_poker.RULES, record)
        match = Match.from_record(dice_poker.RULES, record)
    assert state == replay(record) == match.state
    assert match.rules is dice_poker.RULES


def test_rules_second_still_works_for_one_release_with_a_warning() -> None:
    record = _record()
    with pytest.warns(DeprecationWarning, match=r"replay\(record, rules\) is deprecated"):
        state = replay(record, dice_poker.RULES)
    with pytest.warns(DeprecationWarning, match=r"from_record\(record, rules\) is deprecated"):
        match = Match.from_record(record, dice_poker.RULES)
    assert state == match.state == replay(dice_poker.RULES, record)


@pytest.mark.parametrize("call", [replay, Match.from_record])
def test_a_ruleset_that_is_no_ruleset_is_a_type_error(call: Any) -> None:
    with pytest.raises(TypeError, match="expected a ruleset"):
        call("dice-poker", _record())


def test_played_game_and_match_name_the_scores_score() -> None:
    game = play_game(dice_poker.RULES, [RandomBot(dice_poker.RULES, seed=1)] * 2, seed=2)
    assert game.score == dice_poker.score(game.final)
    assert Match.from_record(dice_poker.RULES, game.record).score == game.score
    with pytest.warns(DeprecationWarning, match="PlayedGame.scores is deprecated"):
        assert game.scores == game.score


def test_check_game_exports_names_what_a_package_lacks() -> None:
    lacking = types.ModuleType("tabletop_lacking")
    lacking.__all__ = [name for name in exported_names() if name != "display"]  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"does not export \['display'\]"):
        check_game_exports(lacking)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_inherited_members_show_the_games_own_types(game: types.ModuleType) -> None:
    """``help(palace.apply)`` and the API pages show palace's State, not ``StateT``; the
    member is still the base's code, so no call costs more.
    """
    signature = inspect.signature(game.apply)
    assert signature.parameters["state"].annotation is game.State
    assert signature.return_annotation is game.State
    assert game.apply.__code__ is Game.apply.__code__
    for name in exported_names():
        member = getattr(game, name)
        if callable(member) and not isinstance(member, type):
            shown = str(inspect.signature(member))
            assert not any(v in shown for v in ("ConfigT", "StateT", "MoveT", "ViewT", "EventT")), (
                f"{game.__name__}.{name}{shown}"
            )
