"""The game kit: what :func:`tabletop_rules.kit.build` derives from a declaration and a
kernel, how a game replaces a derived member, and the entry guards.

The game here is take-away: a pile of counters, each turn takes one or two, and who takes
the last wins. No chance, no hidden information; Pig (``tests/test_pig.py``) covers the
chance points.
"""

from __future__ import annotations

from typing import Any, NoReturn

import attrs
import pytest

from tabletop_rules import kit
from tabletop_rules.errors import (
    ConfigError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    TabletopError,
)
from tabletop_rules.protocol import GameRules, Ruleset

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


def current_player(state: State) -> int | None:
    return None if state.pile == 0 else state.turns % state.config.players


def legal_moves(state: State) -> tuple[Take, ...]:
    return MOVES.moves[: min(state.pile, 2)]


def transition(state: State, move: Take, events: list[Any] | None) -> State:
    if events is not None:
        events.append(Took(state.turns % state.config.players, move.count))
    return attrs.evolve(state, pile=state.pile - move.count, turns=state.turns + 1, last=move)


def score(state: State) -> tuple[int, ...]:
    winner = (state.turns - 1) % state.config.players
    return tuple(int(state.pile == 0 and seat == winner) for seat in range(state.config.players))


def view(state: State, seat: int | None) -> View:
    to_move = current_player(state)
    moves = legal_moves(state) if seat == to_move else ()
    return View(state.config, seat, state.pile, state.turns, state.last, to_move, moves)


def determinize(seen: View, rng: kit.Rng) -> State:
    return State(seen.config, rng.next_u64()[0], seen.pile, seen.turns, seen.last)


def check_state(state: State, fail: kit.Fail) -> None:
    if not 0 <= state.pile <= state.config.pile:
        fail(f"pile must be 0 to {state.config.pile}, got {state.pile!r}")
    if state.turns > state.config.pile - state.pile:
        fail("each turn takes at least one counter")


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
RULES = kit.build(DECLARATION, KERNEL)


def test_a_game_declares_itself_once_and_the_shell_derives_the_rest() -> None:
    """Issue 17, point 1: a declaration and a kernel make a whole ``GameRules``."""
    assert type(RULES) is GameRules
    assert isinstance(RULES, Ruleset)
    assert (RULES.name, RULES.title, RULES.format_version) == ("take-away", "Take-away", 1)
    assert RULES.hidden_information is False
    assert RULES.deal_type is None
    state = RULES.new_game(seed=4)
    assert RULES.new_game.__module__ == __name__, "a pickled ruleset names the game's module"
    assert RULES.players(RULES.config_of(state)) == 2
    assert RULES.seed_of(state) == 4
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
    assert state.pile == 5, "the state given never changes"


def test_a_view_handed_to_apply_is_a_type_error_saying_what_to_pass() -> None:
    seen = RULES.view(RULES.new_game(seed=0), 0)
    with pytest.raises(TypeError, match=r"got a View: .*pass the State, or determinize"):
        RULES.apply(seen, Take(1))
    for rule in (RULES.legal_moves, RULES.score, RULES.current_player, RULES.is_over):
        with pytest.raises(TypeError, match="expected a take away State"):
            rule("state")
    with pytest.raises(TypeError, match="expected a take away State"):
        RULES.canonical(None, Take(1))


def test_a_bug_in_a_rule_surfaces_as_itself_not_as_not_a_state() -> None:
    def broken(state: State, move: Take, events: list[Any] | None) -> State:
        return attrs.evolve(state, pile=state.pile // 0)

    rules = kit.build(DECLARATION, attrs.evolve(KERNEL, transition=broken))
    with pytest.raises(ZeroDivisionError):
        rules.apply(rules.new_game(seed=0), Take(1))
    crashing = kit.build(DECLARATION, attrs.evolve(KERNEL, score=lambda state: (1 // 0,)))
    with pytest.raises(ZeroDivisionError):
        crashing.score(crashing.new_game(seed=0))


def test_a_state_changed_around_its_checks_gets_its_broken_invariant_from_check_state() -> None:
    # Outside the contract of the rules (they run unwrapped), caught by check_state.
    state = RULES.new_game(seed=0)
    object.__setattr__(state, "pile", "many")
    with pytest.raises(InvalidStateError, match="invalid take away state: malformed field"):
        RULES.check_state(state)
    with pytest.raises(InvalidStateError, match="pile must be 0 to 5"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), pile=9))
    with pytest.raises(InvalidStateError, match="config must be a take away Config"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), config="rules"))
    with pytest.raises(InvalidStateError, match="seed must be a whole number"):
        RULES.check_state(attrs.evolve(RULES.new_game(seed=0), seed=-1))


def test_an_illegal_move_names_the_rule_or_the_legal_moves() -> None:
    state = RULES.new_game(Config(pile=1), seed=0)
    with pytest.raises(
        IllegalMoveError, match=r"'take 2' is not legal now; the legal moves are: take 1"
    ):
        RULES.apply(state, Take(2))
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.apply(state, Take(3))
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.apply(state, "take 1")
    over = RULES.apply(state, Take(1))
    with pytest.raises(IllegalMoveError, match="the game is over: 'take 1' is not a move"):
        RULES.apply(over, Take(1))
    named = kit.build(
        DECLARATION, attrs.evolve(KERNEL, why_illegal=lambda state, move: "only one counter left")
    )
    with pytest.raises(IllegalMoveError, match=r"^only one counter left$"):
        named.apply(state, Take(2))
    with pytest.raises(IllegalMoveError, match=r"^only one counter left$"):
        named.parse_move(state, "take 2")


def test_a_derived_member_is_replaced_in_one_keyword() -> None:
    def fast_is_over(state: State) -> bool:
        return state.pile == 0

    rules = kit.build(DECLARATION, KERNEL, is_over=fast_is_over)  # e.g. measured: a hot loop
    assert rules.is_over is fast_is_over
    assert "is_over" in kit.derived()
    with pytest.raises(TypeError, match="derives no member named aply"):
        kit.build(DECLARATION, KERNEL, aply=fast_is_over)
    with pytest.raises(TypeError, match="passes its own codec members"):
        kit.build(DECLARATION, attrs.evolve(KERNEL, moves=None))
    overridden = kit.build(DECLARATION, KERNEL, legal_moves=lambda state: MOVES.moves[:1])
    state = overridden.new_game(seed=0)
    with pytest.raises(IllegalMoveError, match="the legal moves are: take 1"):
        overridden.apply(state, Take(2)), "the shell's apply uses the replaced legal_moves"


def test_parse_move_reads_the_notation_of_a_legal_move() -> None:
    state = RULES.new_game(seed=0)
    assert RULES.parse_move(state, "  TAKE   2 ") is MOVES.moves[1]
    assert RULES.parse_move(RULES.view(state, 0), "take 1") is MOVES.moves[0]
    with pytest.raises(NotationError, match="'take 7' names no take away move"):
        RULES.parse_move(state, "take 7")
    with pytest.raises(IllegalMoveError):
        RULES.parse_move(RULES.view(state, 1), "take 1")  # seat 1 is not on turn
    with pytest.raises(TypeError):
        RULES.parse_move(state, 12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        RULES.parse_move("state", "take 1")


def test_new_game_guards_config_deal_and_seed() -> None:
    with pytest.raises(ConfigError, match="expected a take away Config"):
        RULES.new_game("rules")
    with pytest.raises(ConfigError, match="no deck to deal"):
        RULES.new_game(deal=(1, 2))
    assert type(RULES.new_game().seed) is int, "seed=None draws a fresh seed and keeps it"
    with pytest.raises(TabletopError):
        RULES.new_game(seed=-5)


def test_check_view_refuses_a_view_that_does_not_follow_from_its_state() -> None:
    seen = RULES.view(RULES.new_game(seed=0), 0)
    RULES.check_view(seen)
    with pytest.raises(InvalidStateError, match="legal_moves do"):
        RULES.check_view(attrs.evolve(seen, legal_moves=()))
    with pytest.raises(InvalidStateError, match="invalid take away view"):
        RULES.check_view(attrs.evolve(seen, pile=99))
    with pytest.raises(InvalidStateError):
        RULES.determinize(attrs.evolve(seen, pile=99), kit.Rng(1))
    with pytest.raises(TypeError):
        RULES.determinize(seen, 7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        RULES.view(RULES.new_game(seed=0), 2)


def test_the_kit_exports_what_a_game_author_needs() -> None:
    for name in kit.__all__:
        assert getattr(kit, name) is not None, name
    for helper in ("replacer", "maker", "whole", "flag", "check_whole", "top_seats", "Rng"):
        assert helper in kit.__all__
    with pytest.raises(ValueError, match="players must be"):
        kit.Declaration(name="x", title="X", players=(3, 2))


def test_a_move_with_a_field_no_move_holds_is_refused_as_no_move() -> None:
    """A move class without validators builds ``Take(count=[])``; it is no move."""
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.apply(RULES.new_game(seed=0), Take([]))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        RULES.format_move(Take("1"))  # type: ignore[arg-type]


def test_a_declaration_and_its_kernel_agree_on_chance() -> None:
    with pytest.raises(TypeError, match="chance_type exactly when"):
        kit.build(attrs.evolve(DECLARATION, chance_mode="explicit"), KERNEL)
    with pytest.raises(TypeError, match=r"takes a kit\.Declaration and a kit\.Kernel"):
        kit.build(KERNEL, DECLARATION)  # type: ignore[arg-type]


def test_a_kernels_read_move_gives_the_derived_parse_move_its_spellings() -> None:
    def read_move(text: Any) -> Take:
        if not isinstance(text, str) or not text.strip().isdigit():
            raise NotationError(f"a count, not {text!r}")
        return Take(int(text))

    rules = kit.build(DECLARATION, attrs.evolve(KERNEL, read_move=read_move))
    state = rules.new_game(seed=0)
    assert rules.parse_move(state, " 2 ") is MOVES.moves[1]
    assert rules.parse_move(rules.view(state, 0), "1") is MOVES.moves[0]
    with pytest.raises(NotationError, match="a count, not 12"):
        rules.parse_move(state, 12)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.parse_move(state, "7")  # no state allows it
    with pytest.raises(IllegalMoveError):
        rules.parse_move(rules.view(state, 1), "1")  # seat 1 is not on turn


def test_messages_name_a_game_whose_noun_starts_with_a_vowel_with_an() -> None:
    rules = kit.build(attrs.evolve(DECLARATION, name="odd-take"), KERNEL)
    with pytest.raises(TypeError, match="expected an odd take State, got 'state'"):
        rules.legal_moves("state")
    with pytest.raises(TypeError, match="not an odd take move"):
        rules.format_move("take 1")
    with pytest.raises(ConfigError, match="expected an odd take Config"):
        rules.new_game("rules")


def test_check_view_refuses_what_is_no_view_as_an_invalid_view() -> None:
    with pytest.raises(InvalidStateError, match="expected a take away View, got"):
        RULES.check_view(RULES.new_game(seed=0))


def test_parse_move_reads_with_the_games_own_reader_when_it_has_one() -> None:
    def read_move(text: str) -> Take:
        if type(text) is not str or not text.startswith("t"):
            raise NotationError(f"no move: {text!r}")
        return Take(int(text[1:]))

    rules = kit.build(DECLARATION, attrs.evolve(KERNEL, read_move=read_move))
    state = rules.new_game(seed=0)
    assert rules.parse_move(state, "t2") is MOVES.moves[1]
    assert rules.parse_move(rules.view(state, 0), "t1") is MOVES.moves[0]
    with pytest.raises(NotationError, match="no move: 12"):
        rules.parse_move(state, 12)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="'take 2' is not legal now"):
        rules.parse_move(rules.new_game(Config(pile=1), seed=0), "t2")
    with pytest.raises(IllegalMoveError):
        rules.parse_move(rules.view(state, 1), "t1")  # seat 1 is not on turn


def test_a_transition_that_checks_its_own_moves_spares_apply_the_listing() -> None:
    listed: list[State] = []

    def counted(state: State) -> tuple[Take, ...]:
        listed.append(state)
        return legal_moves(state)

    def checking(state: State, move: Take, events: list[Any] | None) -> State:
        if move.count > state.pile:
            raise IllegalMoveError(f"only {state.pile} left")
        return transition(state, move, events)

    kernel = attrs.evolve(KERNEL, legal_moves=counted, transition=checking, transition_checks=True)
    rules = kit.build(DECLARATION, kernel)
    state = rules.new_game(Config(pile=1), seed=0)
    assert rules.apply(state, Take(1)).pile == 0
    assert listed == [], "apply hands the table's instance to the transition"
    with pytest.raises(IllegalMoveError, match=r"^only 1 left$"):
        rules.apply(state, Take(2))
    with pytest.raises(IllegalMoveError, match=r"^only 1 left$"):
        rules.canonical(state, Take(2))  # the transition's refusal is why_illegal
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.apply(state, Take(3))
    codec = dict.fromkeys(
        ("num_actions", "encode", "decode", "legal_mask", "chance_offset", "action_text"), len
    )
    with pytest.raises(TypeError, match="has a move table"):
        kit.build(DECLARATION, attrs.evolve(kernel, moves=None), **codec)


def test_the_deck_is_guarded_like_every_member_taking_a_config() -> None:
    rules = kit.build(DECLARATION, attrs.evolve(KERNEL, deck=lambda config: (1,) * config.pile))
    assert rules.deck(Config(pile=3)) == (1, 1, 1)
    with pytest.raises(ConfigError, match="expected a take away Config"):
        rules.deck("rules")


def test_a_kernel_whose_transition_checks_every_move_gets_each_move_through_own_move() -> None:
    """Equivalent moves (palace's suits): ``own_move`` maps what the caller gives, the
    transition names the rule, and the kernel's ``canonical`` maps to the listed class.
    """

    def checked(state: State, move: Take, events: list[Any] | None) -> State:
        if move.count > state.pile:
            raise IllegalMoveError(f"only {state.pile} counters are left")
        return transition(state, move, events)

    def own_move(move: object) -> Take:
        if type(move) is not Take or type(move.count) is not int or move.count < 1:
            raise IllegalMoveError(f"{move!r} is not a take away move")
        return MOVES.known(move) if move.count <= 2 else move

    def canonical(state: State, move: Take) -> Take:
        checked(state, own_move(move), None)
        return legal_moves(state)[min(move.count, 2) - 1]

    rules = kit.build(
        DECLARATION,
        attrs.evolve(KERNEL, transition=checked, own_move=own_move, canonical=canonical),
        num_actions=RULES.num_actions,
        encode=RULES.encode,
        decode=RULES.decode,
        legal_mask=RULES.legal_mask,
        chance_offset=RULES.chance_offset,
        action_text=RULES.action_text,
    )
    state = rules.new_game(seed=0)
    assert rules.apply(state, Take(3)).pile == 2, "not listed, but the transition allows it"
    assert rules.apply(state, Take(2)).last is MOVES.moves[1]
    with pytest.raises(IllegalMoveError, match="only 5 counters are left"):
        rules.apply(state, Take(6))
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.apply_with_events(state, Take(0))
    assert rules.canonical(state, Take(3)) is MOVES.moves[1]
    with pytest.raises(TypeError, match="expected a take away State"):
        rules.canonical(rules.view(state, 0), Take(1))


def test_a_codec_numbers_classes_of_moves_by_the_kernels_action_key() -> None:
    """Palace's plays: a number stands for a class of moves (here: one, two, or three and
    more), the table holds the move standing for each, and a config uses some numbers.
    """
    takes = tuple(Take(count) for count in range(1, 6))
    classes = kit.MoveTable[Take]("take away", (Take,), takes[:3])

    def action_key(move: object) -> Take:
        if type(move) is not Take or type(move.count) is not int or move.count < 1:
            raise IllegalMoveError(f"{move!r} is not a take away move")
        return classes.moves[min(move.count, 3) - 1]

    kernel = attrs.evolve(
        KERNEL,
        moves=classes,
        legal_moves=lambda state: takes[: state.pile],
        action_key=action_key,
        num_actions=lambda config: min(config.pile, 3),
        action_text=lambda move: f"take {move.count}" + ("+" if move.count == 3 else ""),
    )
    rules = kit.build(DECLARATION, kernel)
    state = rules.new_game(Config(pile=5), seed=0)
    assert [rules.encode(move) for move in takes] == [0, 1, 2, 2, 2]
    assert rules.decode(state, 2) is takes[2], "the first listed move of the class"
    assert rules.legal_mask(state) == (True, True, True)
    assert rules.legal_mask(rules.new_game(Config(pile=1), seed=0)) == (True,)
    assert rules.num_actions(Config(pile=2)) == rules.chance_offset(Config(pile=2)) == 2
    assert rules.action_text(Config(), 2) == "take 3+"
    with pytest.raises(IllegalMoveError, match=r"outside the action space 0\.\.1"):
        rules.action_text(Config(pile=2), 2)
    with pytest.raises(IllegalMoveError, match=r"action 1 \('take 2'\) is not legal"):
        rules.decode(State(Config(pile=3), 0, 1), 1)
    with pytest.raises(IllegalMoveError, match="is not a take away move"):
        rules.encode(Take(0))


def test_unseen_cards_are_the_deck_less_what_a_view_shows_once_the_counts_add_up() -> None:
    def fail(why: str) -> NoReturn:
        raise InvalidStateError(why)

    assert kit.unseen_cards((3, 1, 2, 2), (2,), 3, fail) == [1, 2, 3]
    with pytest.raises(InvalidStateError, match=r"more often than the deck holds them: \['2'\]"):
        kit.unseen_cards((1, 2), (2, 2), 0, fail)
    with pytest.raises(InvalidStateError, match="1 cards shown and 2 hidden, but 2 decks hold 2"):
        kit.unseen_cards((1, 2), (2,), 2, fail, holds="2 decks hold")
