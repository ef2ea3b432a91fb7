"""Pig's rules: its values (house rules, moves, events, state, view), a bot, and the game
itself, a :class:`~tabletop_rules.game.Game` whose methods are its kernel."""

from __future__ import annotations

from types import MappingProxyType

import attrs

from tabletop_rules import kit
from tabletop_rules.game import Game

MAX_PLAYERS = 8


@attrs.frozen
class Config:
    """Pig's house rules (every one on the rules page)."""

    players: int = attrs.field(default=2, validator=kit.whole(2, MAX_PLAYERS))
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


@attrs.frozen
class View:
    """What a seat knows: everything but the generator (which would predict the die)."""

    config: Config
    seat: int | None
    scores: tuple[int, ...]
    turn_total: int
    turns_played: int
    rolling: bool
    current_player: int | None
    legal_moves: tuple[Move, ...]


class HoldAt20:
    """Rolls until its turn total is 20, then holds: the classic simple strategy."""

    def choose(self, seen: View) -> Move:
        moves = kit.legal_moves_of(seen)
        return HOLD if HOLD in moves and seen.turn_total >= 20 else moves[0]


class Pig(Game[Config, State, Move, View, Event]):
    """Pig, the dice game: roll or hold, and don't roll a 1."""

    name = "pig"
    title = "Pig"
    seats = (2, MAX_PLAYERS)
    chance_mode = "explicit"
    config_type, state_type, view_type = Config, State, View
    move_types, event_types, chance_type = (Roll, Hold, Die), (Rolled, Busted, Banked), Die
    move_table = MOVES
    own_bots = MappingProxyType({"hold20": kit.Unseeded(HoldAt20)})

    def start(self, config: Config, seed: int, deal: None) -> State:
        """A new game: every score 0, seat 0 to roll."""
        return State(config, seed, kit.Rng.from_seed(seed), (0,) * config.players)

    def current_player(self, state: State) -> int | None:
        """The seat to move, CHANCE while the die is in the air, None once over."""
        if type(state) is not State:
            self.refuse(state)
        if _over(state):
            return None
        return kit.CHANCE if state.rolling else state.turns_played % state.config.players

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """Roll, and hold once the turn has a total; the six faces at a chance point."""
        if type(state) is not State:
            self.refuse(state)
        if _over(state):
            return ()
        if state.rolling:
            return DIES
        return (ROLL, HOLD) if state.turn_total else (ROLL,)

    def score(self, state: State) -> tuple[int, ...]:
        """The banked scores."""
        if type(state) is not State:
            self.refuse(state)
        return state.scores

    def transition(self, state: State, move: Move, events: list[Event] | None) -> State:
        """The state after ``move``, its events appended to ``events``; a move that is not
        legal is refused, naming the rule.
        """
        if move not in self.legal_moves(state):
            raise kit.IllegalMoveError(_why_illegal(state, move))
        events = [] if events is None else events
        if type(move) is Roll and state.config.auto_chance:
            value, rng = state.rng.below(6)
            return _land(replace(state, rng=rng), value + 1, events)
        if type(move) is Roll:
            return replace(state, rolling=True)
        if type(move) is Die:
            return _land(replace(state, rolling=False), move.value, events)
        return _bank(state, events)

    def view(self, state: State, seat: int | None) -> View:
        """``seat``'s view of ``state``; its legal moves only while it is on turn."""
        to_move = self.current_player(state)
        kit.check_seat(seat, state.config.players)
        moves = self.legal_moves(state) if seat is not None and seat == to_move else ()
        return View(
            state.config, seat, state.scores, state.turn_total, state.turns_played,
            state.rolling, to_move, moves,
        )  # fmt: skip

    def redeal(self, seen: View, rng: kit.Rng) -> State:
        """The view's table with a fresh seed from ``rng``: nothing else is hidden."""
        seed, _ = rng.next_u64()
        return State(
            seen.config, seed, kit.Rng.from_seed(seed), seen.scores, seen.turn_total,
            seen.turns_played, seen.rolling,
        )  # fmt: skip

    def format_move(self, move: Move) -> str:
        """``roll``, ``hold``, ``die 4``."""
        kit.check_type(move, self.move_types)
        return f"die {move.value}" if type(move) is Die else type(move).__name__.lower()

    def encode_view(self, seen: View, features: kit.Features) -> None:
        """The viewer, each score from the viewer on, the turn total, the die, the round."""
        players, top = seen.config.players, seen.config.target + 5
        kit.viewer_features(features, seen.seat, players)
        order = kit.seats_from(seen.seat, players)
        for relative, seat in enumerate(order):
            features.scalar(f"score[P{relative}]", seen.scores[seat], 0, top)
        features.scalar("turn_total", seen.turn_total, 0, top)
        features.flag("rolling", seen.rolling)
        to_move = order.index(seen.current_player) if seen.current_player in order else None
        features.one_hot("to_move[P", [str(seat) for seat in range(players)], to_move)
        features.scalar("round", seen.turns_played // players, 0, seen.config.max_rounds)

    def check_invariants(self, state: State, fail: kit.Fail) -> None:
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

    def max_moves(self, config: Config) -> int:
        """Each turn: at most one roll per 2 points to the target, a bust or a hold."""
        kit.check_type(config, (Config,), kit.ConfigError)
        per_roll = 1 if config.auto_chance else 2
        return config.max_rounds * config.players * ((config.target // 2 + 2) * per_roll + 1)

    def display(self, game: State | View) -> str:
        """One line: the scores, who is to move, the turn total."""
        seen = self.view(game, None) if type(game) is State else self.expect(game, (View,))
        scores = "  ".join(f"S{seat} {points}" for seat, points in enumerate(seen.scores))
        mover = "the die" if seen.current_player == kit.CHANCE else f"S{seen.current_player}"
        now = "game over" if seen.current_player is None else f"{mover} to move"
        return f"Pig to {seen.config.target}: {scores}; {now}, turn total {seen.turn_total}"


def _over(state: State) -> bool:
    config = state.config
    return (
        max(state.scores) >= config.target
        or state.turns_played == config.max_rounds * config.players
    )


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


def _why_illegal(state: State, move: Move) -> str:
    """The rule that forbids ``move`` in ``state``."""
    if _over(state):
        return "the game is over"
    if state.rolling:
        return "the die is in the air: the next move is its outcome, 'die 1' to 'die 6'"
    if type(move) is Die:
        return "a die's outcome is a chance outcome, legal only while the die is in the air"
    return "hold banks the turn total: roll at least once first"
