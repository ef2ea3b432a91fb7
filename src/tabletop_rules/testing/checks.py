"""The conformance checks, as plain functions of a ruleset and a game.

Each raises :class:`AssertionError` with what went wrong;
:class:`~tabletop_rules.testing.ConformanceSuite` runs them under hypothesis, any test may too.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import pickle
import time
import types
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial, reduce
from types import ModuleType
from typing import Any

import attrs

from ..errors import ConfigError, IllegalMoveError, TabletopError
from ..game import exported_names
from ..match import Match
from ..protocol import BUILT_IN_GAMES, CHANCE, get_ruleset
from ..records import GameRecord, replay
from ..rng import Rng, sample_outcome
from ..serialize import dumps, loads, to_data
from ..table import seat_table, state_table
from .fuzz import Rules, expect_refusal, json_node, json_paths, json_replaced, outcome_of

__all__ = [
    "ODD_ARGUMENTS",
    "Playout",
    "check_action_texts",
    "check_bots_see_views_only",
    "check_chance",
    "check_chance_offset",
    "check_chance_probabilities_are_not_shared",
    "check_codec",
    "check_deck",
    "check_entry_points_check_the_state_type_first",
    "check_entry_points_refuse_odd_arguments",
    "check_errors_hide_secrets",
    "check_events_described",
    "check_events_hide_secrets",
    "check_fair_take_back",
    "check_found_by_its_name",
    "check_game_exports",
    "check_illegal_moves_rejected",
    "check_json_round_trip",
    "check_notation_round_trip",
    "check_observation",
    "check_pickle_round_trip",
    "check_play_from_loaded_round_trips",
    "check_playout",
    "check_seats_are_the_configs",
    "check_tables_hide_secrets",
    "check_turn_functions",
    "check_view_hides_secrets",
    "check_view_refuses_seats_not_at_the_table",
    "check_worst_config_move_cost",
    "json_texts",
    "move_cost",
    "number_paths",
    "pushed_to_the_limit",
    "random_playout",
]


@attrs.frozen
class Playout:
    """A played game: every state from the first, and the move that left each."""

    states: tuple[Any, ...]
    moves: tuple[Any, ...]

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]

    def record(self, rules: Rules, end: int | None = None) -> GameRecord:
        """The record of the first ``end`` moves (all by default)."""
        return reduce(GameRecord.play, self.moves[:end], GameRecord.start(rules, self.states[0]))


def random_playout(
    rules: Rules, config: Any, seed: int, chooser_seed: int, deal: Any = None
) -> Playout:
    """Play random legal moves (chance outcomes by their probabilities) from ``seed``, or a
    game with a deck from ``deal``, until the game ends; fails past its ``max_moves``.
    """
    state = rules.new_game(config, seed=seed, deal=deal)
    chooser = Rng.from_seed(chooser_seed)
    states: list[Any] = [state]
    moves: list[Any] = []
    bound = rules.max_moves(config)
    while not rules.is_over(state):
        assert len(moves) < bound, f"{rules.name}: game not over after max_moves={bound} moves"
        legal = rules.legal_moves(state)
        assert legal, f"{rules.name}: a state that is not over has no legal move"
        if rules.current_player(state) == CHANCE:
            move, chooser = sample_outcome(rules.chance_probabilities(state), chooser)
        else:
            index, chooser = chooser.below(len(legal))
            move = legal[index]
        state = rules.apply(state, move)
        states.append(state)
        moves.append(move)
    return Playout(tuple(states), tuple(moves))


def check_playout(rules: Rules, playout: Playout) -> None:
    """The same seed and moves give equal states, as does the record's replay; ``apply``
    changes no argument and agrees with ``apply_with_events``.
    """
    first = playout.states[0]
    config, seed, deal = rules.config_of(first), rules.seed_of(first), rules.deal_of(first)
    again = rules.new_game(config, seed=seed, deal=deal)
    assert again == first, "new_game with the same config, seed and deal differs"
    for before, move, after in zip(
        playout.states[:-1], playout.moves, playout.states[1:], strict=True
    ):
        snapshot = to_data(before)
        assert rules.apply(before, move) == after, f"apply({move!r}) is not deterministic"
        with_events, events = rules.apply_with_events(before, move)
        assert with_events == after, f"apply_with_events({move!r}) differs from apply"
        assert isinstance(events, tuple)
        assert to_data(before) == snapshot, f"apply({move!r}) changed its argument"
    record = playout.record(rules).to_json()
    assert replay(GameRecord.from_json(record)) == playout.final, "record replay differs"


def check_turn_functions(rules: Rules, state: Any) -> None:
    """``current_player``, ``legal_moves``, ``is_over``, ``winners`` and ``score`` agree."""
    over = rules.is_over(state)
    player = rules.current_player(state)
    legal = rules.legal_moves(state)
    players = rules.players(rules.config_of(state))
    assert len(rules.score(state)) == players, "score has one entry per seat"
    if over:
        assert player is None, "a finished game has no player to move"
        assert legal == (), "a finished game has no legal move"
        assert rules.winners(state) <= frozenset(range(players)), "winners are seats"
    else:
        assert player is not None, "an unfinished game has a player to move"
        assert player == CHANCE or 0 <= player < players, f"bad current player {player!r}"
        assert legal, "an unfinished game has a legal move"
        assert len(set(legal)) == len(legal), "legal_moves lists each move once"
        assert rules.winners(state) == frozenset(), "no winners before the end"
    assert isinstance(legal, tuple)


def check_chance(rules: Rules, state: Any) -> None:
    """At a chance point, exact probabilities of the legal moves sum to 1; elsewhere none."""
    probabilities = rules.chance_probabilities(state)
    if rules.current_player(state) != CHANCE:
        assert not probabilities, "chance probabilities away from a chance point"
        return
    assert set(probabilities) == set(rules.legal_moves(state)), "outcomes != legal moves"
    assert all(isinstance(p, Fraction) and p > 0 for p in probabilities.values())
    assert sum(probabilities.values()) == 1, "chance probabilities do not sum to 1"


def _refusal(rules: Rules, state: Any, move: Any) -> str | None:
    """The message of the ``IllegalMoveError`` of ``apply(state, move)``; ``None`` if none."""
    refused = outcome_of(f"apply({move!r})", partial(rules.apply, state, move), (IllegalMoveError,))
    return str(refused) if isinstance(refused, IllegalMoveError) else None


def check_illegal_moves_rejected(rules: Rules, state: Any, candidates: Sequence[Any]) -> None:
    """Legal moves are their own canonical moves and apply, as do candidates ``canonical``
    maps to them; any other raises ``IllegalMoveError`` from both, changing no state.
    """
    legal = set(rules.legal_moves(state))
    snapshot = to_data(state)
    for move in legal:
        rules.apply(state, move)
        assert rules.canonical(state, move) == move, f"canonical({move!r}) is not itself"
    for move in candidates:
        what = f"canonical({move!r})"
        listed = outcome_of(what, partial(rules.canonical, state, move), (IllegalMoveError,))
        if not isinstance(listed, IllegalMoveError):
            assert listed in legal, f"canonical({move!r}) = {listed!r} is not a listed move"
            rules.apply(state, move)  # a move equivalent to a listed one is played as made
            continue
        message = _refusal(rules, state, move)
        assert message is not None, f"{move!r} has no listed equivalent but apply accepted it"
        assert message, "an IllegalMoveError must say which rule forbids the move"
    assert to_data(state) == snapshot, "a rejected move changed the state"


def check_json_round_trip(rules: Rules, state: Any, events: Sequence[Any] = ()) -> None:
    """State, config, legal moves, events and views survive JSON unchanged."""
    values = (state, rules.config_of(state), *rules.legal_moves(state), *events)
    for value in (*values, *_views(rules, state)):
        assert loads(dumps(value)) == value, f"JSON round trip of {value!r:.200}"


def check_pickle_round_trip(rules: Rules, state: Any) -> None:
    """States, configs and views pickle (as a process pool sends them) and come back equal;
    a state comes back valid and plays on as before (interned cards come back as the
    package's own instances).
    """
    for value in (state, rules.config_of(state), *_views(rules, state)):
        assert pickle.loads(pickle.dumps(value)) == value, f"pickle round trip of {value!r:.200}"
    again = pickle.loads(pickle.dumps(state))
    rules.check_state(again)
    legal = rules.legal_moves(state)
    assert rules.legal_moves(again) == legal, "an unpickled state lists other moves"
    if legal and rules.current_player(state) != CHANCE:
        assert rules.apply(again, legal[0]) == rules.apply(state, legal[0]), (
            "an unpickled state plays on differently"
        )


def check_notation_round_trip(rules: Rules, state: Any) -> None:
    """Each legal move's text parses back to the move."""
    for move in rules.legal_moves(state):
        text = rules.format_move(move)
        assert rules.parse_move(state, text) == move, f"{text!r} does not parse to {move!r}"


_ILLEGAL_DECODES = 64
"""How many of a state's illegal action numbers :func:`check_codec` decodes, spread evenly
over them, both ends included (every one where there are no more): each decode lists the
legal moves again, and palace has thousands of numbers a state.
"""


def check_codec(rules: Rules, state: Any) -> None:
    """Action numbers decode to the legal moves, the mask marks exactly those, and an
    illegal number is refused (64 of them a state, spread evenly over them).
    """
    size = rules.num_actions(rules.config_of(state))
    mask = rules.legal_mask(state)
    legal = rules.legal_moves(state)
    assert len(mask) == size, "legal_mask has num_actions entries"
    numbers = [rules.encode(move) for move in legal]
    assert all(0 <= n < size for n in numbers), "action numbers within num_actions"
    assert len(set(numbers)) == len(numbers), "distinct moves, distinct numbers"
    assert sorted(numbers) == [n for n in range(size) if mask[n]], "mask marks the legal moves"
    for move, number in zip(legal, numbers, strict=True):
        assert rules.decode(state, number) == move, f"decode(encode({move!r}))"
    illegal = [number for number in range(size) if not mask[number]]
    step = max(1, -(-len(illegal) // _ILLEGAL_DECODES))
    for number in {*illegal[::step], *illegal[-1:]}:
        expect_refusal(
            f"decode of illegal {number}", partial(rules.decode, state, number), TabletopError
        )


def _seats(rules: Rules, state: Any) -> tuple[int | None, ...]:
    """Every seat of ``state``'s game, and ``None`` for a spectator."""
    return (None, *range(rules.players(rules.config_of(state))))


def _views(rules: Rules, state: Any) -> list[Any]:
    """The view of every seat of ``state``'s game and a spectator's."""
    return [rules.view(state, seat) for seat in _seats(rules, state)]


_NO_SEED = Rng.from_seed(0)

ODD_ARGUMENTS: tuple[object, ...] = (
    None,
    7,
    -1,
    "text",
    b"bytes",
    (),
    (1, 2),
    [],
    {},
    object(),
    1.5,
)
"""What :func:`check_entry_points_refuse_odd_arguments` hands every entry point, beside the
game's own values of another kind: none is a config, state, view, move or event."""


def _rule_functions(rules: Rules, move: Any) -> dict[str, Callable[[Any], object]]:
    """The ruleset's functions of a state by name, given ``move`` where they take one."""
    return {
        "legal_moves": rules.legal_moves,
        "chance_probabilities": rules.chance_probabilities,
        "apply": lambda odd: rules.apply(odd, move),
        "apply_with_events": lambda odd: rules.apply_with_events(odd, move),
        "canonical": lambda odd: rules.canonical(odd, move),
        "score": rules.score,
        "current_player": rules.current_player,
        "is_over": rules.is_over,
        "winners": rules.winners,
        "view": lambda odd: rules.view(odd, 0),
        "spectator view": lambda odd: rules.view(odd, None),
    }


def check_entry_points_refuse_odd_arguments(rules: Rules, state: Any) -> None:
    """Every entry point handed what is not its argument (``None``, a number, text, a
    container, the game's config for a state, its state for a config or view) raises
    ``TypeError`` or a :class:`~tabletop_rules.errors.TabletopError`, never another
    exception from deep inside. ``state`` is any state of the game.
    """
    config = rules.config_of(state)
    view = rules.view(state, None)
    move = next(iter(rules.legal_moves(state)), None)
    takes_config: dict[str, Callable[[Any], object]] = {
        "players": rules.players,
        "max_moves": rules.max_moves,
        "num_actions": rules.num_actions,
        "chance_offset": rules.chance_offset,
        "observation_spec": rules.observation_spec,
        "deck": rules.deck,
        "action_text": lambda odd: rules.action_text(odd, 0),
        "new_game": lambda odd: rules.new_game(odd, seed=1),
    }
    takes_state: dict[str, Callable[[Any], object]] = {
        **_rule_functions(rules, move),
        "legal_mask": rules.legal_mask,
        "decode": lambda odd: rules.decode(odd, 0),
        "config_of": rules.config_of,
        "seed_of": rules.seed_of,
        "deal_of": rules.deal_of,
        "check_state": rules.check_state,
    }
    takes_view: dict[str, Callable[[Any], object]] = {
        "observe": rules.observe,
        "determinize": lambda odd: rules.determinize(odd, _NO_SEED),
        "determinize_each": lambda odd: rules.determinize_each(odd, (_NO_SEED,)),
        "determinize_each (none)": lambda odd: rules.determinize_each(odd, ()),
        "check_view": rules.check_view,
        "display": rules.display,
        "parse_move": lambda odd: rules.parse_move(odd, "x"),
    }
    takes_move: dict[str, Callable[[Any], object]] = {
        "format_move": rules.format_move,
        "encode": rules.encode,
        "apply (move)": lambda odd: rules.apply(state, odd),
        "canonical (move)": lambda odd: rules.canonical(state, odd),
        "redact": lambda odd: rules.redact(odd, None),
    }
    groups = (
        (takes_config, (state, view)),
        (takes_state, (config,)),
        (takes_view, (config,)),
        (takes_move, (config, state)),
    )
    for functions, own_odd in groups:
        for name, function in functions.items():
            for odd in (*ODD_ARGUMENTS, *own_odd):
                what = f"{rules.name}: {name}({odd!r:.60})"
                outcome_of(what, partial(function, odd), (TypeError, TabletopError))


class _IntSeat(int):
    """An ``int`` subclass, which a seat must not be (its comparisons could say anything)."""


def check_view_refuses_seats_not_at_the_table(rules: Rules, state: Any) -> None:
    """``view(state, seat)`` raises a :class:`~tabletop_rules.errors.TabletopError` for an
    int seat not at the table (below 0, or the number of seats and up) and ``TypeError`` for
    a seat that is no exact ``int`` (a bool, a float, text, an int subclass): never a view,
    never another exception. ``state`` is any state of the game.
    """
    players = rules.players(rules.config_of(state))
    cases: list[tuple[Any, type[Exception]]] = [
        *((seat, TabletopError) for seat in (players, players + 1, -1, -players - 1, 2**70)),
        *((seat, TypeError) for seat in (True, False, 0.0, 1.5, "0", _IntSeat(0))),
    ]
    for seat, expected in cases:
        what = f"{rules.name}: view(state, {seat!r}) at a table of {players}"
        expect_refusal(what, partial(rules.view, state, seat), expected)


def check_view_hides_secrets(rules: Rules, state: Any, rng: Rng = _NO_SEED) -> None:
    """Every seat (and a spectator) sees a valid state re-dealt from its view,
    ``determinize(view(state, seat), rng)``, exactly as before in value, ``repr``, JSON and
    ``display``, as ``determinize_each`` deals it too; a state is drawn as a spectator sees
    it; no view carries the generator or the seed.
    """
    for number, seat in enumerate(_seats(rules, state)):
        view = rules.view(state, seat)
        names = {field.name for field in attrs.fields(type(view))}
        assert not names & {"rng", "seed"}, "a view must not carry the RNG or the seed"
        resampled = rules.determinize(view, rng.advanced(number))
        rules.check_state(resampled)
        again = rules.view(resampled, seat)
        assert again == view, f"seat {seat} sees a re-dealt state differently"
        assert repr(again) == repr(view), f"seat {seat}'s view repr shows what it hides"
        assert dumps(again) == dumps(view), f"seat {seat}'s view JSON shows what it hides"
        drawn = rules.display(view)
        assert rules.display(again) == drawn, f"seat {seat}'s drawn table shows what it hides"
        if seat is None:
            assert rules.display(state) == drawn, "a state is drawn as a spectator sees it"
        other = rng.advanced(number + 1000)
        dealt = rules.determinize_each(view, (rng.advanced(number), other))
        assert dealt == (resampled, rules.determinize(view, other)), (
            f"determinize_each deals seat {seat}'s view otherwise than determinize"
        )


def check_bots_see_views_only(rules: Rules, state: Any, seed: int, rng: Rng = _NO_SEED) -> None:
    """Every bot of ``rules.bots``, made from ``seed``, picks the same move in ``state`` as
    in one re-dealt from the mover's view (where the mover has a choice): bots see views.
    """
    player = rules.current_player(state)
    if player is None or player == CHANCE or len(rules.legal_moves(state)) < 2:
        return
    seen = rules.view(state, player)
    other = rules.determinize(seen, rng)
    assert rules.view(other, player) == seen, "a re-dealt state shows its seat the same view"
    for name, factory in rules.bots.items():
        real = factory(seed).choose(rules.view(state, player))
        guessed = factory(seed).choose(rules.view(other, player))
        assert real == guessed, (
            f"bot {name!r} chose {real!r} in a game and {guessed!r} in one that differs only "
            f"in what seat {player} cannot see"
        )


def check_errors_hide_secrets(
    rules: Rules, state: Any, candidates: Sequence[Any], rng: Rng = _NO_SEED
) -> None:
    """An illegal move's error is the same in a state re-dealt from the mover's view."""
    player = rules.current_player(state)
    if player is None or player == CHANCE:
        return
    resampled = rules.determinize(rules.view(state, player), rng)
    for move in candidates:
        message = _refusal(rules, state, move)
        if message is None:
            continue
        there = _refusal(rules, resampled, move)
        assert there is not None, f"{move!r} is refused or not depending on hidden information"
        assert there == message, (
            f"the error for {move!r} depends on what seat {player} cannot see: "
            f"{message!r} here, {there!r} in a re-dealt state"
        )


def check_events_hide_secrets(rules: Rules, state: Any, rng: Rng = _NO_SEED) -> None:
    """In a game with hidden information, the events of each legal move tell every other
    seat (and a spectator) no more than its view after the move: where that view is the
    same after the move in a state re-dealt from the mover's view, so are the redacted
    events (a drawn card reaches its drawer only).
    """
    mover = rules.current_player(state)
    if not rules.hidden_information or mover is None or mover == CHANCE:
        return
    resampled = rules.determinize(rules.view(state, mover), rng)
    for move in rules.legal_moves(state):
        after, events = rules.apply_with_events(state, move)
        after_again, again = rules.apply_with_events(resampled, move)
        for seat in _seats(rules, state):
            if seat == mover or rules.view(after, seat) != rules.view(after_again, seat):
                continue
            seen = [dumps(rules.redact(event, seat)) for event in events]
            seen_again = [dumps(rules.redact(event, seat)) for event in again]
            assert seen == seen_again, (
                f"seat {seat} learns from the events of {move!r} what it cannot see: "
                f"{seen} here, {seen_again} in a state re-dealt from seat {mover}'s view"
            )


def check_tables_hide_secrets(
    rules: Rules, match: Match[Any, Any, Any], rng: Rng = _NO_SEED
) -> None:
    """The table of every seat and a spectator where ``match`` stands
    (:func:`~tabletop_rules.table.seat_table`) is the same built from a state re-dealt from
    the seat's view, with the last move's events; and its log names no card the seat did
    not see (the last move's notation is that of every move the seat cannot tell from it).
    """
    state, moves = match.state, match.moves
    last = match.move_events[-1] if moves else ()
    for number, seat in enumerate(_seats(rules, state)):
        table = seat_table(match, seat, since=len(moves))
        resampled = rules.determinize(rules.view(state, seat), rng.advanced(number))
        again = state_table(rules, resampled, seat, events=last, version=len(moves))
        differs = [
            field.name
            for field in attrs.fields(type(table))
            if getattr(table, field.name) != getattr(again, field.name)
        ]
        assert not differs, (
            f"{rules.name}: seat {seat}'s table shows in {', '.join(differs)} what its view "
            "hides: a state re-dealt from that view gives another"
        )
        if moves:
            _check_move_text_hides_secrets(rules, match, seat, rng.advanced(number + 1000))


def _check_move_text_hides_secrets(
    rules: Rules, match: Match[Any, Any, Any], seat: int | None, rng: Rng
) -> None:
    """The notation of ``match``'s last move, as ``seat``'s log shows it, is that of every
    move ``seat`` cannot tell from it in a state re-dealt from its view before the move.
    """
    before, after = match.history[-2], match.state
    move, events = match.moves[-1], match.move_events[-1]
    mover = rules.current_player(before)
    if mover == seat:
        return
    text = rules.format_move(move)
    seen_after = rules.view(after, seat)
    told = [rules.describe(event, seat) for event in events]
    resampled = rules.determinize(rules.view(before, seat), rng)
    for other in rules.legal_moves(resampled):
        there, other_events = rules.apply_with_events(resampled, other)
        if rules.view(there, seat) != seen_after:
            continue
        if [rules.describe(event, seat) for event in other_events] != told:
            continue
        other_text = rules.format_move(other)
        assert other_text == text, (
            f"{rules.name}: seat {seat}'s log names the move {text!r}, which it cannot tell "
            f"from {other_text!r} in a state re-dealt from its view: the notation shows "
            "what the seat did not see"
        )


_AROUND_A_WORD = "()[]{},.:;!?\"'"
"""What may stand around a word of a sentence: ``(5 cards)``, ``7H,``."""


def json_texts(value: Any) -> set[str]:
    """Every string of ``value``'s JSON data (not the keys): cards travel as their text, so
    a leak check compares these sets.

    >>> sorted(json_texts({"hand": ["7H", "QS"], "seat": 0}))
    ['7H', 'QS']
    """
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return set().union(*map(json_texts, value))
    return {value} if isinstance(value, str) else set()


def check_events_described(rules: Rules, state: Any, move: Any) -> None:
    """Every event of ``move`` in ``state`` is told to every seat and a spectator in one
    line (``describe``) that says what the event as ``redact`` leaves it says, and whose
    words include no text of the states' JSON before and after (cards travel as text,
    ``"10H"``) that neither of the seat's views shows. Dice travel as numbers, which
    sentences use for counts too, so a hidden die would be held to its ``redact`` alone.
    """
    after, events = rules.apply_with_events(state, move)
    every = json_texts(to_data(state)) | json_texts(to_data(after))
    for seat in _seats(rules, state):
        views = (rules.view(state, seat), rules.view(after, seat))
        hidden = every - json_texts([to_data(view) for view in views])
        for event in events:
            text = rules.describe(event, seat)
            told = f"{rules.name}: describe({event!r}, {seat}) is {text!r}, not a sentence"
            assert type(text) is str, told
            assert text.strip(), told
            assert "\n" not in text, f"{rules.name}: the sentence of {event!r} is not one line"
            redacted = rules.describe(rules.redact(event, seat), seat)
            assert text == redacted, (
                f"{rules.name}: seat {seat} reads {text!r} of {event!r}, but {redacted!r} of "
                f"the event redacted for it"
            )
            named = sorted({word.strip(_AROUND_A_WORD) for word in text.split()} & hidden)
            assert not named, (
                f"{rules.name}: seat {seat} reads {text!r}, which names {named}: its views "
                f"before and after {move!r} do not show them"
            )


def check_chance_offset(rules: Rules, state: Any) -> None:
    """Chance outcomes are numbered from ``chance_offset`` (in the action space), moves below."""
    config = rules.config_of(state)
    offset = rules.chance_offset(config)
    size = rules.num_actions(config)
    assert type(offset) is int, f"chance_offset is {offset!r}, not an int"
    assert 0 <= offset <= size, f"chance_offset {offset} is outside 0..{size}"
    chance = rules.current_player(state) == CHANCE
    for move in rules.legal_moves(state):
        number = rules.encode(move)
        if chance:
            assert offset <= number < size, f"chance outcome {move!r} is numbered {number}"
        else:
            assert number < offset, f"player move {move!r} is numbered {number} >= {offset}"


_BAD_ACTIONS: tuple[Any, ...] = (-1, 1.0, True, "0", None)


def check_action_texts(rules: Rules, config: Any) -> None:
    """``action_text`` gives text for every action number of ``config`` and raises the
    library's error for anything else (a number outside the space, a non-integer).
    """
    size = rules.num_actions(config)
    for number in range(size):
        text = rules.action_text(config, number)
        assert isinstance(text, str), f"action_text of {number} is {text!r}"
        assert text, f"action_text of {number} is empty"
    for bad in (*_BAD_ACTIONS, size):
        expect_refusal(
            f"action_text({bad!r})", partial(rules.action_text, config, bad), TabletopError
        )


def check_observation(rules: Rules, state: Any, rng: Rng = _NO_SEED) -> None:
    """Every seat's (and a spectator's) observation has the spec's length of floats within
    its bounds, the same numbers again and for a state re-dealt from the view (they come
    from the view alone). A legal move's ``action_text`` parses back to it (as
    :meth:`~tabletop_rules.game.Game.canonical` lists it).
    """
    config = rules.config_of(state)
    spec = rules.observation_spec(config)
    assert spec == rules.observation_spec(config), "the spec is fixed for a config"
    assert spec.size == len(spec.names) == len(spec.low) == len(spec.high)
    assert len(set(spec.names)) == spec.size, "observation names are unique"
    for number, seat in enumerate(_seats(rules, state)):
        view = rules.view(state, seat)
        observed = rules.observe(view)
        assert type(observed) is tuple, f"seat {seat}'s observation is not a tuple"
        assert len(observed) == spec.size, (
            f"seat {seat}'s observation has {len(observed)} values, the spec {spec.size}"
        )
        for name, low, value, high in zip(spec.names, spec.low, observed, spec.high, strict=True):
            assert type(value) is float, f"{name} is {value!r}, not a float"
            assert low <= value <= high, f"{name} = {value} outside [{low}, {high}]"
        assert rules.observe(view) == observed, "observing twice gives the same numbers"
        resampled = rules.determinize(view, rng.advanced(number))
        assert rules.observe(rules.view(resampled, seat)) == observed, (
            f"seat {seat}'s observation changes when what it cannot see is re-dealt"
        )
    for move in rules.legal_moves(state):
        text = rules.action_text(config, rules.encode(move))
        parsed = rules.parse_move(state, text)
        assert rules.canonical(state, parsed) == rules.canonical(state, move), (
            f"action_text {text!r} of {move!r} parses to {parsed!r}"
        )


def check_fair_take_back(rules: Rules, playout: Playout, end: int) -> None:
    """The fair take-back (:meth:`~tabletop_rules.match.Match.take_back`) after the
    playout's first ``end`` moves, for every seat: it acts where ``can_take_back`` says so,
    else raises ``IllegalMoveError`` leaving the match as it was; it never crosses a chance
    outcome, and takes back the seat's last move and every move since, which play again
    to the same states. A game whose re-deals or redactions leak fails it.
    """
    match = Match.from_record(rules, playout.record(rules, end))
    history, moves = match.history, match.moves
    current_player = rules.current_player
    for seat in range(rules.players(rules.config_of(history[0]))):
        turns = [index for index in range(end) if current_player(history[index]) == seat]
        if not match.can_take_back(seat):
            what = f"take_back({seat}) where can_take_back says no"
            expect_refusal(what, partial(match.take_back, seat), IllegalMoveError)
            assert match.history == history, "a refused take-back changed the match"
            continue
        assert turns, f"seat {seat} has no move, yet can_take_back({seat}) is true"
        assert all(current_player(history[index]) != CHANCE for index in range(turns[-1], end)), (
            f"take_back({seat}) would cross a chance outcome"
        )
        taken = match.take_back(seat)
        assert taken == moves[turns[-1] :][::-1], f"take_back({seat}) took back {taken}"
        for move in reversed(taken):
            match.play(move)
        assert match.history == history, "the moves taken back did not play again the same"


_STEP_LIMIT = 1 << 70
"""Beyond every number a loader takes (JSON integers have at most 20 digits)."""


def number_paths(state: Any) -> list[tuple[Any, ...]]:
    """The paths (keys and indexes) to the whole numbers, not bools, of ``dumps(state)``."""
    data = json.loads(dumps(state))
    return [path for path in json_paths(data) if type(json_node(data, path)) is int]


def pushed_to_the_limit(state: Any, path: tuple[Any, ...], sign: int) -> Any:
    """``state`` with its number at ``path`` (:func:`number_paths`) pushed as far up (``sign=1``)
    or down (``-1``) as the loader takes, by doubling then halving; ``None`` if none loads.
    """
    data = json.loads(dumps(state))
    number = json_node(data, path)

    def load(step: int) -> Any:
        try:
            return loads(json.dumps(json_replaced(data, path, number + sign * step)))
        except TabletopError:
            return None

    found, good, bad = None, 0, 1
    while bad < _STEP_LIMIT and (pushed := load(bad)) is not None:
        found, good, bad = pushed, bad, bad * 2
    while bad - good > 1:
        middle = (good + bad) // 2
        if (pushed := load(middle)) is None:
            bad = middle
        else:
            found, good = pushed, middle
    return found


def check_play_from_loaded_round_trips(rules: Rules, state: Any, rng: Rng, moves: int) -> None:
    """Every state of up to ``moves`` random legal moves from ``state``, which a loader
    took, ``state`` first, dumps and loads back equal: the library never writes a state
    it cannot read.
    """
    for number in range(moves + 1):
        again = outcome_of(f"{rules.name}: loading", partial(loads, dumps(state)))
        assert not isinstance(again, TabletopError), (
            f"{rules.name}: the state {number} moves on from a loaded state does not load: {again}"
        )
        assert again == state, f"{rules.name}: the state {number} moves on loads back unequal"
        legal = rules.legal_moves(state)
        if not legal:
            return
        index, rng = rng.below(len(legal))
        state = rules.apply(state, legal[index])


def move_cost(
    rules: Rules, config: Any, deal: Any, seed: int, moves: int, clock: Callable[[], float]
) -> float:
    """Seconds per random legal move under ``config``, new games from ``seed`` on included."""
    chooser = Rng.from_seed(seed)
    start = clock()
    state = rules.new_game(config, seed=seed, deal=deal)
    for number in range(moves):
        if rules.is_over(state):
            state = rules.new_game(config, seed=seed + number, deal=deal)
        legal = rules.legal_moves(state)
        index, chooser = chooser.below(len(legal))
        state = rules.apply(state, legal[index])
    return (clock() - start) / moves


def check_worst_config_move_cost(
    rules: Rules,
    worst: Any,
    deal: Any = None,
    *,
    bound: float,
    moves: int = 300,
    repeats: int = 5,
    seed: int = 0,
) -> float:
    """A move under ``worst`` (dealt ``deal``), the game's costliest allowed config, costs
    at most ``bound`` times a default move, on this thread's CPU clock: interleaved, best
    of ``repeats`` of ``moves`` moves (the default config's scaled to as long a stretch).
    Returns the ratio.
    """
    default = rules.config_type()
    clock = time.thread_time
    scale = 1
    best_worst = best_default = float("inf")
    for repeat in range(repeats):
        best_worst = min(best_worst, move_cost(rules, worst, deal, seed, moves, clock))
        best_default = min(
            best_default, move_cost(rules, default, None, seed, moves * scale, clock)
        )
        if repeat == 0:  # time about as long a stretch of default moves as of worst ones
            scale = max(1, min(100, round(best_worst / best_default)))
    ratio = best_worst / best_default
    assert ratio <= bound, (
        f"{rules.name}: a move under {worst!r} costs {ratio:.1f}x a default move, over the "
        f"bound of {bound}x"
    )
    return ratio


def check_deck(rules: Rules, config: Any, rng: Rng = _NO_SEED) -> None:
    """``deck(config)`` is fixed, ``()`` for a game without a ``deal_type``, else cards of
    that type whose every order (as is, shuffled by ``rng``) ``new_game`` deals and keeps:
    the OpenSpiel adapter deals card by card from it.
    """
    deck = rules.deck(config)
    assert type(deck) is tuple, f"deck is a tuple, got {type(deck).__name__}"
    assert rules.deck(config) == deck, "the deck is fixed for a config"
    if rules.deal_type is None:
        assert deck == (), "a game without a deal_type has no deck"
        return
    assert deck, "a game with a deal_type has a deck"
    assert all(type(card) is rules.deal_type for card in deck), "every card is a deal_type"
    for order in (deck, rng.shuffled(deck)[0]):
        state = rules.new_game(config, seed=0, deal=order)
        assert rules.deal_of(state) == order, "the state keeps the deal it was given"


def check_chance_probabilities_are_not_shared(rules: Rules, state: Any) -> None:
    """Changing a returned ``chance_probabilities`` changes no later one: no shared table."""
    given: Any = rules.chance_probabilities(state)
    before = dict(given)
    with contextlib.suppress(TypeError, AttributeError):  # read-only, as it should be
        given.clear()
    with contextlib.suppress(TypeError):
        given[object()] = Fraction(1)
    after = dict(rules.chance_probabilities(state))
    if type(given) is dict:  # a shared table would now be wrong for the rest of the run
        given.clear()
        given.update(before)
    assert after == before, "changing a returned chance_probabilities changed a later call"


def check_entry_points_check_the_state_type_first(rules: Rules, state: Any) -> None:
    """Every entry point that takes a state raises ``TypeError`` for an object with every
    field of ``state`` that is no State (a subclass's instance, another type), before any
    read or rule: no attribute read decides what counts as a state. A game whose state is
    no ``attrs`` class is not checked.
    """
    cls = type(state)
    if not attrs.has(cls):
        return
    fields = {field.name: getattr(state, field.name) for field in attrs.fields(cls)}
    subclassed: Any = object.__new__(type(f"Not{cls.__name__}", (cls,), {"__slots__": ()}))
    for name, value in fields.items():
        object.__setattr__(subclassed, name, value)
    move = next(iter(rules.legal_moves(state)), None)
    entries = _rule_functions(rules, move)
    for lookalike in (subclassed, types.SimpleNamespace(**fields)):
        for name, entry in entries.items():
            what = f"{rules.name}.{name} of a {type(lookalike).__name__}, which is no State"
            expect_refusal(what, partial(entry, lookalike), TypeError)


def check_game_exports(package: Any) -> None:
    """A game's package (``tabletop_rules.palace``) exports every name of
    :func:`~tabletop_rules.game.exported_names` and its ``RULES``' move and event classes,
    and no submodule: one API across the games.
    """
    exported = set(getattr(package, "__all__", ()))
    missing = [name for name in exported_names() if name not in exported]
    assert not missing, f"{package.__name__} does not export {missing}"
    rules = package.RULES
    for kind in (*rules.move_types, *rules.event_types):
        lacks = f"{package.__name__} does not export its class {kind.__name__}"
        assert kind.__name__ in exported, lacks
        assert getattr(package, kind.__name__, None) is kind, lacks
    modules = sorted(name for name in exported if isinstance(getattr(package, name), ModuleType))
    assert not modules, f"{package.__name__}.__all__ names the submodules {modules}"
    assert rules.display == package.display, f"{package.__name__}.RULES.display is not display"


def check_seats_are_the_configs(rules: Rules) -> None:
    """``rules.seats`` is what the default config takes as ``players``: its fewest are
    accepted, one fewer and one more than its most are refused with ``ConfigError``.
    """
    fewest, most = rules.seats
    default = rules.config_type()
    seated = rules.players(attrs.evolve(default, players=fewest))
    assert seated == fewest, f"a config of {fewest} players seats {seated}"
    for players in (fewest - 1, most + 1):
        if players < 1:
            continue
        what = f"{rules.name}: a config of {players} players, outside seats {rules.seats}"
        expect_refusal(what, partial(attrs.evolve, default, players=players), ConfigError)


def check_found_by_its_name(rules: Rules) -> None:
    """``get_ruleset(rules.name)`` is ``rules``, as a worker finds it; no built-in game's name."""
    name = rules.name
    assert type(name) is str, f"a game's name is a str, got {name!r}"
    assert name, "a game's name is not empty"
    builtin = BUILT_IN_GAMES.get(name)
    if builtin is not None:
        assert rules is importlib.import_module(builtin).RULES, (
            f"{name!r} is the name of the built-in game of {builtin}: choose another"
        )
    # UnknownGameError or GamePluginError, saying why
    found = outcome_of(f"get_ruleset({name!r})", partial(get_ruleset, name), (KeyError,))
    assert not isinstance(found, KeyError), f"get_ruleset({name!r}) fails: {found}"
    assert found is rules, (
        f"get_ruleset({name!r}) gives another ruleset: {found!r}; register this one, or "
        "declare it in the entry-point group tabletop_rules.games"
    )
