"""The :class:`~tabletop_rules.game.Game` base class: what a game inherits from its facts
and its kernel, how it replaces an inherited member, and the entry guards.

The game here is take-away, written as Pig is: a pile of counters, each turn takes one or
two, and who takes the last wins. No chance, no hidden information; Pig
(``tests/test_pig.py``) covers the chance points.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NoReturn

import attrs
import pytest

from tabletop_rules import kit
from tabletop_rules.errors import (
    ConfigError,
    GamePluginError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
)
from tabletop_rules.game import (
    CHANCE,
    ChanceMode,
    Game,
    event_fields,
    exported,
    exported_functions,
    exported_names,
    share_bot,
    use_registry,
)
from tabletop_rules.protocol import Ruleset, get_ruleset


@attrs.frozen
class Config:
    players: int = attrs.field(default=2, validator=kit.whole(2, 3))
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
    last: Take | None = None


@attrs.frozen
class View:
    config: Config
    seat: int | None
    pile: int
    turns: int
    last: Take | None
    current_player: int | None
    legal_moves: tuple[Take, ...]


MOVES = kit.MoveTable[Take]("take away", (Take,), (Take(1), Take(2)))


class TakeAway(Game[Config, State, Take, View, Took]):
    """Take-away: each turn takes one or two counters; who takes the last wins."""

    name = "take-away"
    title = "Take-away"
    seats = (2, 3)
    chance_mode: ChanceMode = "deterministic"
    config_type, state_type, view_type = Config, State, View
    move_types, event_types = (Take,), (Took,)
    move_table = MOVES
    most = 2
    """The most counters a turn takes."""

    def start(self, config: Config, seed: int, deal: None) -> State:
        return State(config, seed, config.pile)

    def legal_moves(self, state: State) -> tuple[Take, ...]:
        if type(state) is not State:
            self.refuse(state)
        return MOVES.moves[: min(state.pile, 2)]

    def current_player(self, state: State) -> int | None:
        if type(state) is not State:
            self.refuse(state)
        return None if state.pile == 0 else state.turns % state.config.players

    def transition(self, state: State, move: Take, events: list[Took] | None) -> State:
        if state.pile == 0:
            raise IllegalMoveError(f"the game is over: '{self.format_move(move)}' is not a move")
        if move.count > self.most:
            raise IllegalMoveError(f"a turn takes at most {self.most} counters")
        if move.count > state.pile:
            raise IllegalMoveError(f"only {state.pile} counters are left")
        if events is not None:
            events.append(Took(state.turns % state.config.players, move.count))
        return attrs.evolve(state, pile=state.pile - move.count, turns=state.turns + 1, last=move)

    def score(self, state: State) -> tuple[int, ...]:
        if type(state) is not State:
            self.refuse(state)
        winner = (state.turns - 1) % state.config.players
        return tuple(
            int(state.pile == 0 and seat == winner) for seat in range(state.config.players)
        )

    def view(self, state: State, seat: int | None) -> View:
        to_move = self.current_player(state)
        kit.check_seat(seat, state.config.players)
        moves = self.legal_moves(state) if seat is not None and seat == to_move else ()
        return View(state.config, seat, state.pile, state.turns, state.last, to_move, moves)

    def redeal(self, seen: View, rng: kit.Rng) -> State:
        return State(seen.config, rng.next_u64()[0], seen.pile, seen.turns, seen.last)

    def format_move(self, move: Take) -> str:
        self.expect(move, self.move_types)
        if type(move.count) is not int:
            raise TypeError(f"not {self.a_noun} move: {move!r}")
        return f"take {move.count}"

    def encode_view(self, seen: View, features: kit.Features) -> None:
        kit.viewer_features(features, seen.seat, seen.config.players)
        features.scalar("pile", seen.pile, 0, seen.config.pile)

    def check_invariants(self, state: State, fail: kit.Fail) -> None:
        if not 0 <= state.pile <= state.config.pile:
            fail(f"pile must be 0 to {state.config.pile}, got {state.pile!r}")
        if state.turns > state.config.pile - state.pile:
            fail("each turn takes at least one counter")

    def max_moves(self, config: Config) -> int:
        return self.expect(config, (Config,), ConfigError).pile  # type: ignore[no-any-return]


RULES = TakeAway()


def test_a_game_states_its_facts_and_kernel_and_inherits_the_rest() -> None:
    """Issue 33, point 1: a subclass's facts and kernel make a whole game."""
    assert isinstance(RULES, Game)
    assert isinstance(RULES, Ruleset), "Ruleset stays as an alias of Game for a release"
    assert repr(RULES) == "<TakeAway 'take-away'>"
    assert (RULES.name, RULES.title, RULES.format_version) == ("take-away", "Take-away", 1)
    assert (RULES.noun, RULES.a_noun) == ("take away", "a take away")
    assert RULES.hidden_information is False
    assert RULES.deal_type is None
    state = RULES.new_game(seed=4)
    assert RULES.players(RULES.config_of(state)) == 2
    assert RULES.seed_of(state) == 4
    assert RULES.deal_of(state) is None
    assert not RULES.is_over(state)
    assert RULES.winners(state) == frozenset()
    assert RULES.chance_probabilities(state) == {}
    assert RULES.num_actions(Config()) == 2
    assert RULES.chance_offset(Config()) == 2, "no chance outcomes: they start at the end"
    for move in RULES.legal_moves(state):
        assert RULES.decode(state, RULES.encode(move)) is move
    assert RULES.action_text(Config(), 1) == "take 2"
    assert RULES.legal_mask(RULES.new_game(Config(pile=1), seed=0)) == (True, False)
    for text in ("take 1", "take 2", "take 2"):
        state = RULES.apply(state, RULES.parse_move(state, text))
    assert RULES.is_over(state)
    assert RULES.winners(state) == frozenset({0})
    assert RULES.observe(RULES.view(state, 0)) == (0.0, 1.0, 0.0, 0.0)
    assert RULES.observation_spec(Config()).names == (
        "viewer[spectator]",
        "viewer[S0]",
        "viewer[S1]",
        "pile",
    )
    assert RULES.redact(Took(0, 1), 1) == Took(0, 1)
    assert RULES.display(state) == repr(state)
    assert RULES.rules_summary(Config()) == RULES.notation_summary(Config()) == ()
    assert RULES.hint(RULES.view(state, 0)) == ()
    assert sorted(RULES.bots) == ["random"]


def test_apply_keeps_the_listed_instance_of_an_equal_move() -> None:
    state = RULES.new_game(seed=0)
    mine = Take(2)
    after, events = RULES.apply_with_events(state, mine)
    assert after.last is MOVES.moves[1]
    assert after.last is not mine
    assert events == (Took(0, 2),)
    assert RULES.canonical(state, mine) is MOVES.moves[1]
    assert RULES.apply(state, mine) == after
    assert RULES.apply(state, mine).last is MOVES.moves[1]
    assert state.pile == 5, "the state given never changes"


def test_apply_hands_the_transition_the_tables_move_without_listing_the_legal_moves() -> None:
    """Issue 33, point 2: one legality path, the transition's; no listing on the way."""
    listed: list[State] = []
    handed: list[Take] = []

    class Counted(TakeAway):
        def legal_moves(self, state: State) -> tuple[Take, ...]:
            listed.append(state)
            return super().legal_moves(state)

        def transition(self, state: State, move: Take, events: list[Took] | None) -> State:
            handed.append(move)
            return super().transition(state, move, events)

    rules = Counted()
    state = rules.new_game(seed=0)
    rules.apply(state, Take(1))
    rules.apply_with_events(state, Take(2))
    assert listed == []
    assert handed[0] is MOVES.moves[0]
    assert handed[1] is MOVES.moves[1]


def test_a_view_handed_to_apply_is_a_type_error_saying_what_to_pass() -> None:
    seen = RULES.view(RULES.new_game(seed=0), 0)
    for member in (RULES.apply, RULES.apply_with_events, RULES.canonical):
        with pytest.raises(TypeError, match=r"got a View: .*pass the State, or determinize"):
            member(seen, Take(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"got a View: .*pass the State"):
        RULES.decode(seen, 0)  # type: ignore[arg-type]
    members: tuple[Any, ...] = (RULES.legal_mask, RULES.legal_moves, RULES.is_over, RULES.winners)
    for rule in members:
        with pytest.raises(TypeError, match=r"got a View: .*pass the State"):
            rule(seen)
    members = (RULES.legal_moves, RULES.score, RULES.current_player, RULES.is_over)
    for rule in members:
        with pytest.raises(TypeError, match="expected a take away State, got 'state'"):
            rule("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a take away State"):
        RULES.canonical(None, Take(1))  # type: ignore[arg-type]


def test_a_bug_in_a_rule_surfaces_as_itself_not_as_not_a_state() -> None:
    class BrokenTransition(TakeAway):
        def transition(self, state: State, move: Take, events: list[Took] | None) -> State:
            return attrs.evolve(state, pile=state.pile // 0)

    class BrokenScore(TakeAway):
        def score(self, state: State) -> tuple[int, ...]:
            return (1 // 0,)

    broken = BrokenTransition()
    with pytest.raises(ZeroDivisionError):
        broken.apply(broken.new_game(seed=0), Take(1))
    with pytest.raises(ZeroDivisionError):
        broken.apply_with_events(broken.new_game(seed=0), Take(1))
    crashing = BrokenScore()
    over = crashing.new_game(Config(pile=1), seed=0)
    with pytest.raises(ZeroDivisionError):
        crashing.score(over)
    with pytest.raises(ZeroDivisionError):
        crashing.winners(crashing.apply(over, Take(1)))


def test_check_state_gives_the_broken_invariant_of_a_state_changed_around_its_checks() -> None:
    # Outside the contract of the rules (they run unwrapped), caught by check_state.
    state = RULES.new_game(seed=0)
    RULES.check_state(state)
    object.__setattr__(state, "pile", "many")
    with pytest.raises(InvalidStateError, match="invalid take away state: malformed field"):
        RULES.check_state(state)
    with pytest.raises(InvalidStateError, match="pile must be 0 to 5"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), pile=9))
    with pytest.raises(InvalidStateError, match="config must be a take away Config"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), config="rules"))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="seed must be a whole number"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), seed=-1))
    with pytest.raises(TypeError, match="expected a take away State"):
        RULES.check_state(RULES.view(RULES.new_game(seed=0), 0))  # type: ignore[arg-type]


def test_an_illegal_move_names_the_rule() -> None:
    state = RULES.new_game(Config(pile=1), seed=0)
    for refuse in (RULES.apply, RULES.apply_with_events, RULES.canonical):
        with pytest.raises(IllegalMoveError, match=r"^only 1 counters are left$"):
            refuse(state, Take(2))
    with pytest.raises(IllegalMoveError, match=r"^only 1 counters are left$"):
        RULES.parse_move(state, "take 2")
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.apply(state, Take(3))  # no state allows it
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.apply(state, "take 1")  # type: ignore[arg-type]
    over = RULES.apply(state, Take(1))
    with pytest.raises(IllegalMoveError, match="the game is over: 'take 1' is not a move"):
        RULES.apply(over, Take(1))


def test_a_move_with_a_field_no_move_holds_is_refused_as_no_move() -> None:
    """A move class without validators builds ``Take(count=[])``; it is no move."""
    state = RULES.new_game(seed=0)
    for refuse in (RULES.apply, RULES.apply_with_events, RULES.canonical):
        with pytest.raises(IllegalMoveError, match="is not a take away move"):
            refuse(state, Take([]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a take away move"):
        RULES.format_move(Take("1"))  # type: ignore[arg-type]


def test_encode_refuses_a_move_with_a_field_no_move_holds_as_no_move() -> None:
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.encode(Take([]))  # type: ignore[arg-type]


def test_parse_move_reads_the_notation_of_a_legal_move() -> None:
    state = RULES.new_game(seed=0)
    assert RULES.parse_move(state, "  TAKE   2 ") is MOVES.moves[1]
    assert RULES.parse_move(RULES.view(state, 0), "take 1") is MOVES.moves[0]
    assert RULES.read_move("take 2") is MOVES.moves[1], "whatever the state"
    with pytest.raises(NotationError, match="'take 7' names no take away move"):
        RULES.parse_move(state, "take 7")
    with pytest.raises(IllegalMoveError, match="seat 1 has no move now"):
        RULES.parse_move(RULES.view(state, 1), "take 1")
    one = RULES.new_game(Config(pile=1), seed=0)
    with pytest.raises(IllegalMoveError, match=r"^only 1 counters are left$"):
        RULES.parse_move(RULES.view(one, 0), "take 2")  # read in the state dealt from the view
    with pytest.raises(TypeError, match="move text is a str, got 12"):
        RULES.parse_move(state, 12)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_move needs a take away State or View"):
        RULES.parse_move("state", "take 1")  # type: ignore[arg-type]


class ReadsT(TakeAway):
    """Take-away whose moves are typed ``t1``, ``t2``."""

    def read_move(self, text: str) -> Take:
        if type(text) is not str or not text.startswith("t") or not text[1:].isdigit():
            raise NotationError(f"no move: {text!r}")
        return Take(int(text[1:]))


def test_parse_move_reads_with_the_games_own_read_move_when_it_overrides_it() -> None:
    rules = ReadsT()
    state = rules.new_game(seed=0)
    assert rules.parse_move(state, "t2") is MOVES.moves[1]
    assert rules.parse_move(rules.view(state, 0), "t1") is MOVES.moves[0]
    with pytest.raises(NotationError, match="no move: 'take 1'"):
        rules.parse_move(state, "take 1")
    with pytest.raises(NotationError, match="no move: 12"):
        rules.parse_move(state, 12)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.parse_move(state, "t7")  # no state allows it
    with pytest.raises(IllegalMoveError, match=r"^only 1 counters are left$"):
        rules.parse_move(rules.new_game(Config(pile=1), seed=0), "t2")
    with pytest.raises(IllegalMoveError, match="seat 1 has no move now"):
        rules.parse_move(rules.view(state, 1), "t1")


class Capitals(TakeAway):
    """Take-away whose notation is written with a capital: ``Take 1``."""

    def format_move(self, move: Take) -> str:
        return super().format_move(move).capitalize()


def test_the_default_read_move_reads_back_every_format_move() -> None:
    rules = Capitals()
    for move in MOVES.moves:
        assert rules.read_move(rules.format_move(move)) is move


def test_new_game_guards_config_deal_and_seed() -> None:
    with pytest.raises(ConfigError, match="expected a take away Config"):
        RULES.new_game("rules")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="expected a take away Config"):
        RULES.new_game(kit.Rng(1))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no deck to deal: deal must be None"):
        RULES.new_game(deal=(1, 2))
    assert type(RULES.new_game().seed) is int, "seed=None draws a fresh seed and keeps it"
    assert RULES.new_game(seed=3) == RULES.new_game(Config(), seed=3)
    for seed in (-5, 1 << 64, 2.0, "1"):
        with pytest.raises(ConfigError, match="seed must be an integer"):
            RULES.new_game(seed=seed)  # type: ignore[arg-type]


def test_check_view_refuses_a_view_that_does_not_follow_from_its_state() -> None:
    seen = RULES.view(RULES.new_game(seed=0), 0)
    RULES.check_view(seen)
    RULES.check_view(RULES.view(RULES.new_game(seed=0), None))
    with pytest.raises(InvalidStateError, match="legal_moves do"):
        RULES.check_view(attrs.evolve(seen, legal_moves=()))
    with pytest.raises(InvalidStateError, match="invalid take away view"):
        RULES.check_view(attrs.evolve(seen, pile=99))
    with pytest.raises(InvalidStateError, match="invalid take away view"):
        RULES.determinize(attrs.evolve(seen, pile=99), kit.Rng(1))
    with pytest.raises(InvalidStateError, match="invalid take away view"):
        RULES.determinize_each(attrs.evolve(seen, pile=99), ())
    with pytest.raises(TypeError, match="expected a take away Rng, got 7"):
        RULES.determinize(seen, 7)  # type: ignore[arg-type]
    dealt = RULES.determinize_each(seen, (kit.Rng(1), kit.Rng(2)))
    assert [RULES.view(state, 0) for state in dealt] == [seen, seen]


def test_check_view_refuses_what_is_no_view_as_an_invalid_view() -> None:
    with pytest.raises(InvalidStateError, match="expected a take away View, got"):
        RULES.check_view(RULES.new_game(seed=0))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="expected a take away View, got None"):
        RULES.check_view(None)  # type: ignore[arg-type]


class OddTake(TakeAway):
    name = "odd-take"
    move_table = kit.MoveTable[Take]("odd take", (Take,), MOVES.moves)


def test_messages_name_a_game_whose_noun_starts_with_a_vowel_with_an() -> None:
    rules = OddTake()
    assert rules.a_noun == "an odd take"
    with pytest.raises(TypeError, match="expected an odd take State, got 'state'"):
        rules.legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected an odd take Take"):
        rules.format_move("take 1")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="expected an odd take Config"):
        rules.new_game("rules")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="is not an odd take move"):
        rules.apply(rules.new_game(seed=0), Take([]))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="invalid odd take state"):
        rules.check_state(attrs.evolve(rules.new_game(seed=0), pile=9))


def test_apply_refuses_what_is_no_move_naming_a_vowel_game_with_an() -> None:
    rules = OddTake()
    with pytest.raises(IllegalMoveError, match="'take 1' is not an odd take move"):
        rules.apply(rules.new_game(seed=0), "take 1")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("member", "more"),
    [
        ("deck", ()),
        ("num_actions", ()),
        ("chance_offset", ()),
        ("action_text", (0,)),
        ("observation_spec", ()),
        ("players", ()),
        ("rules_summary", ()),
        ("notation_summary", ()),
        ("max_moves", ()),
    ],
)
def test_the_deck_is_guarded_like_every_member_taking_a_config(
    member: str, more: tuple[Any, ...]
) -> None:
    getattr(RULES, member)(Config(), *more)
    with pytest.raises(ConfigError, match="expected a take away Config, got 'rules'"):
        getattr(RULES, member)("rules", *more)


def test_a_games_deck_is_its_own_and_new_game_hands_the_deal_to_start() -> None:
    class Counters(TakeAway):
        deal_type = int

        def deck(self, config: Config) -> tuple[Any, ...]:
            super().deck(config)
            return tuple(range(config.pile))

        def start(self, config: Config, seed: int, deal: tuple[int, ...] | None) -> State:
            return State(config, seed, config.pile if deal is None else len(deal))

    rules = Counters()
    assert RULES.deck(Config(pile=3)) == ()
    assert rules.deck(Config(pile=3)) == (0, 1, 2)
    assert rules.new_game(Config(pile=5), seed=0, deal=(1, 2)).pile == 2
    with pytest.raises(ConfigError, match="expected a take away Config"):
        rules.deck("rules")  # type: ignore[arg-type]


TAKES = tuple(Take(count) for count in range(1, 6))
CLASSES = kit.MoveTable[Take]("take away", (Take,), TAKES[:3])


class ByClass(TakeAway):
    """Take-away taking up to five, whose codec numbers classes of moves, as palace's
    plays: one, two, or three and more; a config uses some of the numbers.
    """

    move_table = CLASSES
    most = 5

    def legal_moves(self, state: State) -> tuple[Take, ...]:
        if type(state) is not State:
            self.refuse(state)
        return TAKES[: state.pile][::-1]  # the largest first: a class's first is no table move

    def known_move(self, move: object) -> Take:
        if type(move) is not Take or type(move.count) is not int or move.count < 1:
            raise IllegalMoveError(f"{move!r} is not a take away move")
        return TAKES[move.count - 1] if move.count <= len(TAKES) else move

    def action_key(self, move: object) -> Take:
        return CLASSES.moves[min(self.known_move(move).count, 3) - 1]

    def num_actions(self, config: Config) -> int:
        return min(super().num_actions(config), config.pile)

    def action_notation(self, move: Take) -> str:
        return self.format_move(move) + ("+" if move.count == 3 else "")


def test_a_codec_numbers_classes_of_moves_by_the_games_action_key() -> None:
    rules = ByClass()
    state = rules.new_game(Config(pile=5), seed=0)
    assert [rules.encode(move) for move in TAKES] == [0, 1, 2, 2, 2]
    assert rules.decode(state, 2) is TAKES[4], "the first listed move of the class"
    assert rules.decode(state, 0) is TAKES[0]
    assert rules.legal_mask(state) == (True, True, True)
    assert rules.legal_mask(rules.new_game(Config(pile=1), seed=0)) == (True,)
    assert rules.num_actions(Config(pile=2)) == rules.chance_offset(Config(pile=2)) == 2
    assert rules.action_text(Config(), 2) == "take 3+"
    assert rules.apply(state, Take(4)).last is TAKES[3]
    with pytest.raises(IllegalMoveError, match=r"outside the action space 0\.\.1"):
        rules.action_text(Config(pile=2), 2)
    with pytest.raises(IllegalMoveError, match=r"action 1 \('take 2'\) is not legal"):
        rules.decode(State(Config(pile=3), 0, 1), 1)
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.encode(Take(0))


def test_a_codec_refuses_a_move_that_has_no_action_number() -> None:
    with pytest.raises(IllegalMoveError, match="'take 3' has no action number"):
        RULES.encode(Take(3))
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.encode("take 1")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="an action is a whole number"):
        RULES.decode(RULES.new_game(seed=0), True)


def test_describe_tells_an_event_by_its_fields_unless_the_game_gives_its_sentence() -> None:
    class Told(TakeAway):
        def event_text(self, event: Took, seat: int | None) -> str:
            return f"{'You' if seat == event.seat else 'They'} took {event.count}"

    assert RULES.describe(Took(0, 2), 1) == event_fields(Took(0, 2)) == "Took: seat 0, count 2"
    assert Told().describe(Took(0, 2), 0) == "You took 2"
    with pytest.raises(TypeError, match="expected a take away Took, got 'took'"):
        RULES.describe("took", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a seat is a whole number"):
        RULES.describe(Took(0, 2), True)


def test_the_exported_functions_are_the_marked_members_of_game() -> None:
    names = exported_functions()
    assert names == tuple(sorted(names))
    assert {"apply", "legal_moves", "new_game", "parse_move", "encode", "describe"} <= set(names)
    for own_part in ("start", "transition", "redeal", "encode_view", "check_invariants"):
        assert own_part not in names, "a game's part behind a guard is not a function of it"
    for name in names:
        assert callable(getattr(RULES, name)), name
    assert exported_names() == (
        "CHANCE",
        "RULES",
        "Config",
        "State",
        "View",
        "Move",
        "Event",
        *names,
    )

    def marked() -> None:
        """A member every game package would export."""

    assert exported(marked) is marked, "marking leaves the function as it is"


KERNEL = (
    "start", "legal_moves", "transition", "score", "current_player", "view", "redeal",
    "format_move", "encode_view", "check_invariants", "max_moves",
)  # fmt: skip


def test_a_game_missing_a_kernel_method_cannot_be_made() -> None:
    assert Game.__abstractmethods__ == frozenset(KERNEL)
    for missing in KERNEL:
        members = {name: member for name, member in vars(TakeAway).items() if name != missing}
        partial: Any = type("Partial", (Game,), members)
        with pytest.raises(TypeError, match=f"abstract .*{missing}"):
            partial()


def made(**facts: Any) -> Game[Any, Any, Any]:
    """A take-away game with ``facts`` in place of its own."""
    kind: Any = type("Variant", (TakeAway,), facts)
    return kind()  # type: ignore[no-any-return]


def test_the_seats_and_the_chance_facts_are_checked_when_a_game_is_made() -> None:
    assert made(seats=(1, 1)).seats == (1, 1)
    for seats in ((3, 2), (0, 2), (True, 2), (2.0, 3)):
        with pytest.raises(TypeError, match=r"seats must be \(fewest, most\)"):
            made(seats=seats)
    with pytest.raises(TypeError, match="chance_mode must be deterministic or explicit"):
        made(chance_mode="sometimes")
    with pytest.raises(TypeError, match="chance_type exactly when its chance mode is explicit"):
        made(chance_mode="explicit")
    with pytest.raises(TypeError, match="chance_type exactly when its chance mode is explicit"):
        made(chance_type=Take)

    @attrs.frozen
    class Blind:
        seat: int | None

    with pytest.raises(TypeError, match="Blind needs fields current_player, legal_moves"):
        made(view_type=Blind)


@pytest.mark.parametrize("seats", [(2, 3, 4), 5])
def test_seats_that_are_no_pair_are_refused_naming_seats(seats: object) -> None:
    with pytest.raises(TypeError, match=r"seats must be \(fewest, most\)"):
        made(seats=seats)


def test_chance_probabilities_are_equally_likely_outcomes_unless_the_game_says() -> None:
    flips = (Took(0, 0), Took(0, 1))

    class Flipping(TakeAway):
        """A coin, flipped after each move, decides whether the take counts."""

        chance_mode = "explicit"
        chance_type = Took

        def current_player(self, state: State) -> int | None:
            return CHANCE if state.turns % 2 else super().current_player(state)

        def legal_moves(self, state: State) -> tuple[Any, ...]:
            return flips if state.turns % 2 else super().legal_moves(state)

    rules = Flipping()
    chances: Mapping[Any, Fraction] = rules.chance_probabilities(State(Config(), 0, 4, turns=1))
    assert dict(chances) == dict.fromkeys(flips, Fraction(1, 2))
    with pytest.raises(TypeError):
        chances[flips[0]] = 1  # type: ignore[index]
    assert rules.chance_probabilities(State(Config(), 0, 4, turns=2)) == {}


def test_chance_probabilities_refuses_what_is_no_state() -> None:
    with pytest.raises(TypeError, match="expected a take away State"):
        RULES.chance_probabilities("state")  # type: ignore[arg-type]


def test_only_a_registered_game_is_pickled_as_its_name() -> None:
    with pytest.raises(pickle.PicklingError, match="only a registered game can be pickled"):
        pickle.dumps(RULES)


def test_unseen_cards_are_the_deck_less_what_a_view_shows_once_the_counts_add_up() -> None:
    def fail(why: str) -> NoReturn:
        raise InvalidStateError(why)

    assert kit.unseen_cards((3, 1, 2, 2), (2,), 3, fail) == [1, 2, 3]
    with pytest.raises(InvalidStateError, match=r"more often than the deck holds them: \['2'\]"):
        kit.unseen_cards((1, 2), (2, 2), 0, fail)
    with pytest.raises(InvalidStateError, match="1 cards shown and 2 hidden, but 2 decks hold 2"):
        kit.unseen_cards((1, 2), (2,), 2, fail, holds="2 decks hold")


def test_a_shared_bot_has_a_bots_name_and_stays_its_first_makers() -> None:
    from tabletop_rules.bots import RandomBot

    share_bot("random", RandomBot)  # the same maker again: nothing changes
    with pytest.raises(GamePluginError, match="'random' is shared already"):
        share_bot("random", lambda game, seed: RandomBot(game, seed))
    for name in ("person", "Random", "", "two words", "x" * 41):
        with pytest.raises(ConfigError, match="a bot's name is lowercase letters"):
            share_bot(name, RandomBot)
    with pytest.raises(TypeError, match="made by a function"):
        share_bot("other", "RandomBot")  # type: ignore[arg-type]
    assert "other" not in get_ruleset("palace").bots


def test_the_registry_games_pickle_through_is_given_once() -> None:
    with pytest.raises(GamePluginError, match="registry, given already"):
        use_registry(lambda name: None, lambda name, module: get_ruleset(name))
    with pytest.raises(TypeError, match="a registry is two functions"):
        use_registry(None, None)  # type: ignore[arg-type]
    rules = get_ruleset("palace")
    assert pickle.loads(pickle.dumps(rules)) is rules  # the registry given stands
