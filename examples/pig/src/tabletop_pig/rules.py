"""Pig's rules: its facts, its values, and what a move does."""

from __future__ import annotations

import attrs

from tabletop_rules import kit

DECLARATION = kit.Declaration(name="pig", title="Pig", players=(2, 8), chance_mode="explicit")


@attrs.frozen
class Config:
    """Pig's house rules (every one on the rules page)."""

    players: int = attrs.field(default=2, validator=kit.whole(*DECLARATION.players))
    target: int = attrs.field(default=100, validator=kit.whole(10, 1000))
    max_rounds: int = attrs.field(default=100, validator=kit.whole(1, 1000))
    auto_chance: bool = attrs.field(default=True, validator=kit.flag())


@attrs.frozen
class Roll:
    """Throw the die (its outcome is drawn, or awaited at a chance point)."""


@attrs.frozen
class Hold:
    """Bank the turn total and pass the turn."""


@attrs.frozen
class Die:
    """The die's outcome at a chance point."""

    value: int


@attrs.frozen
class Rolled:
    seat: int
    value: int


@attrs.frozen
class Busted:
    seat: int
    lost: int


@attrs.frozen
class Banked:
    seat: int
    points: int
    score: int


Move = Roll | Hold | Die
Event = Rolled | Busted | Banked

MOVES = kit.MoveTable[Move]("pig", (Roll, Hold, Die), (Roll(), Hold(), *map(Die, range(1, 7))))
ROLL, HOLD, DIES = MOVES.moves[0], MOVES.moves[1], MOVES.moves[2:]


@attrs.frozen
class State:
    """A game of Pig: banked scores, the turn in progress, and the generator."""

    config: Config
    seed: int
    rng: kit.Rng
    scores: tuple[int, ...]
    turn_total: int = 0
    turns_played: int = 0
    rolling: bool = False  # the die is in the air, at a chance point


replace = kit.replacer(State)


def new_game(config: Config, seed: int, deal: None) -> State:
    """A new game: every score 0, seat 0 to roll."""
    return State(config, seed, kit.Rng.from_seed(seed), (0,) * config.players)


def _over(state: State) -> bool:
    config = state.config
    return (
        max(state.scores) >= config.target
        or state.turns_played == config.max_rounds * config.players
    )


def current_player(state: State) -> int | None:
    """The seat to move, CHANCE while the die is in the air, None once over."""
    if _over(state):
        return None
    return kit.CHANCE if state.rolling else state.turns_played % state.config.players


def legal_moves(state: State) -> tuple[Move, ...]:
    """Roll, and hold once the turn has a total; the six faces at a chance point."""
    if _over(state):
        return ()
    if state.rolling:
        return DIES
    return (ROLL, HOLD) if state.turn_total else (ROLL,)


def score(state: State) -> tuple[int, ...]:
    """The banked scores."""
    return state.scores


def transition(state: State, move: Move, events: list[Event] | None) -> State:
    """The state after the legal ``move``; its events go to ``events``."""
    events = [] if events is None else events
    if type(move) is Roll and state.config.auto_chance:
        value, rng = state.rng.below(6)
        return _land(replace(state, rng=rng), value + 1, events)
    if type(move) is Roll:
        return replace(state, rolling=True)
    if type(move) is Die:
        return _land(replace(state, rolling=False), move.value, events)
    return _bank(state, events)


def _land(state: State, value: int, events: list[Event]) -> State:
    seat = state.turns_played % state.config.players
    events.append(Rolled(seat, value))
    if value == 1:
        events.append(Busted(seat, state.turn_total))
        return replace(state, turn_total=0, turns_played=state.turns_played + 1)
    state = replace(state, turn_total=state.turn_total + value)
    if state.scores[seat] + state.turn_total >= state.config.target:
        return _bank(state, events, passes=False)  # the target is reached: the game is won
    return state


def _bank(state: State, events: list[Event], passes: bool = True) -> State:
    seat = state.turns_played % state.config.players
    scores = list(state.scores)
    scores[seat] += state.turn_total
    events.append(Banked(seat, state.turn_total, scores[seat]))
    turns = state.turns_played + passes
    return replace(state, scores=tuple(scores), turn_total=0, turns_played=turns)


def why_illegal(state: State, move: Move) -> str:
    """The rule that forbids ``move`` in ``state``."""
    if _over(state):
        return "the game is over"
    if state.rolling:
        return "the die is in the air: the next move is its outcome, 'die 1' to 'die 6'"
    if type(move) is Die:
        return "a die's outcome is a chance outcome, legal only while the die is in the air"
    return "hold banks the turn total: roll at least once first"


def check_state(state: State, fail: kit.Fail) -> None:
    """Pig's invariants: what some sequence of legal moves reaches."""
    config = state.config
    scores, total, turns = state.scores, state.turn_total, state.turns_played
    if type(scores) is not tuple or len(scores) != config.players:
        fail(f"scores must be a tuple of {config.players} numbers, got {scores!r}")
    for number in (*scores, total):  # each bank and turn total is a sum of 2s to 6s
        if type(number) is not int or number < 0 or number == 1:
            fail(f"a score or turn total is 0 or a sum of faces 2 to 6, got {number!r}")
    if type(turns) is not int or not 0 <= turns <= config.max_rounds * config.players:
        fail(f"turns_played must be 0 to {config.max_rounds * config.players}, got {turns!r}")
    winners = [seat for seat, points in enumerate(scores) if points >= config.target]
    if len(winners) > 1 or (winners and scores[winners[0]] >= config.target + 6):
        fail("only one seat reaches the target, by less than one face")
    if winners != [turns % config.players][: len(winners)]:
        fail("the seat that reached the target is the one whose turn it was")
    if _over(state) and (total or state.rolling):
        fail("a game over has no turn in progress")
    if not _over(state) and scores[turns % config.players] + total >= config.target:
        fail("a turn total that reaches the target ends the game")
    if type(state.rolling) is not bool or (state.rolling and config.auto_chance):
        fail("rolling is True or False, and never True with auto_chance")


def max_moves(config: Config) -> int:
    """Each turn: at most one roll per 2 points to the target, a bust or a hold."""
    per_roll = 1 if config.auto_chance else 2
    return config.max_rounds * config.players * ((config.target // 2 + 2) * per_roll + 1)
