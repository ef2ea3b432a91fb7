"""One game in play, with its history: the convenient face of the immutable states.

A :class:`Match` keeps the states, moves and events of a game, so a front end or a
notebook plays typed moves, undoes them and saves the game without bookkeeping of its own.

>>> from tabletop_rules import Match
>>> from tabletop_rules import dice_poker as dp
>>> match = Match(dp.RULES, dp.Config(stages=1), seed=7)
>>> match.play("roll")
(Rolled(seat=0, throw=1, kept=(), thrown=(1, 2, 2, 3, 3), dice=(1, 2, 2, 3, 3)),)
>>> match.play("write threes")[0]
Wrote(seat=0, stage=0, box=Box.THREES, points=-3)
>>> match.score, match
((-3, 0), <Match dice-poker seed=7: 2 moves, seat 1 to move>)
>>> match.play("write chance")
Traceback (most recent call last):
  ...
tabletop_rules.errors.IllegalMoveError: a box is written after a throw; ...
>>> match.undo()
Write(box=Box.THREES)
>>> match.record.moves
('roll',)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Generic, overload

import attrs

from ._seats import check_on_turn
from .errors import IllegalMoveError
from .game import CHANCE, ConfigT, EventT, MoveT, Seat, StateT, ViewT
from .protocol import Ruleset, check_ruleset
from .records import GameRecord, replay_steps, rules_and_record
from .rng import Rng

__all__ = ["REDEALS", "Match"]

REDEALS: Final = 32
"""How many times :meth:`Match.take_back` re-deals what a seat cannot see to find out
whether a move showed it something it could not foresee (a card turned face up)."""


class Match(Generic[ConfigT, StateT, MoveT, ViewT, EventT]):
    """A game from its start to where it stands, played move by move.

    Args:
        rules: The game's ruleset, e.g. ``palace.RULES``.
        config: Its house rules; ``None`` for the game's defaults.
        seed: The game's seed; ``None`` draws a fresh one, kept in the state.
        deal: A deck order to deal from, top card first, for a game with a deck.

    What an entry point refuses raises the :class:`~tabletop_rules.errors.TabletopError`
    that says why, the match left as it was.

    """

    __slots__ = ("_events", "_moves", "_reveals", "_rules", "_states")

    def __init__(
        self,
        rules: Ruleset[ConfigT, StateT, MoveT, ViewT, EventT],
        config: ConfigT | None = None,
        *,
        seed: int | None = None,
        deal: Sequence[Any] | None = None,
    ) -> None:
        check_ruleset(rules)
        self._start(rules, rules.new_game(config, seed=seed, deal=deal))

    def _start(self, rules: Ruleset[ConfigT, StateT, MoveT, ViewT, EventT], state: StateT) -> None:
        """Begin the match at ``state``, a new game of ``rules``."""
        self._rules = rules
        self._states: list[StateT] = [state]
        self._moves: list[MoveT] = []
        self._events: list[tuple[EventT, ...]] = []
        self._reveals: list[dict[Seat, str | None]] = []

    @overload
    @classmethod
    def from_record(
        cls, rules: Ruleset[ConfigT, StateT, MoveT, ViewT, EventT], record: GameRecord, /
    ) -> Match[ConfigT, StateT, MoveT, ViewT, EventT]: ...

    @overload
    @classmethod
    def from_record(cls, record: GameRecord, /) -> Match[Any, Any, Any]: ...

    @overload
    @classmethod
    def from_record(
        cls, record: GameRecord, rules: Ruleset[ConfigT, StateT, MoveT, ViewT, EventT], /
    ) -> Match[ConfigT, StateT, MoveT, ViewT, EventT]: ...

    @classmethod
    def from_record(
        cls,
        rules: Ruleset[Any, Any, Any] | GameRecord,
        record: GameRecord | Ruleset[Any, Any, Any] | None = None,
        /,
    ) -> Match[Any, Any, Any]:
        """The match a record describes, every move replayed and checked:
        ``Match.from_record(rules, record)`` (a typed match, the record checked to be of
        that game), or ``Match.from_record(record)``. ``InvalidStateError`` names the first
        move that cannot be played; the older ``(record, rules)`` warns ``DeprecationWarning``.
        """
        ruleset, checked = rules_and_record("Match.from_record", rules, record)
        steps = replay_steps(checked, rules=ruleset)
        _none, start, _no_events = next(steps)  # the new game, the record checked
        match: Match[Any, Any, Any] = cls.__new__(cls)
        match._start(checked.ruleset if ruleset is None else ruleset, start)
        for move, state, events in steps:
            match._push(state, move, events)
        return match

    @property
    def rules(self) -> Ruleset[ConfigT, StateT, MoveT, ViewT, EventT]:
        """The game's ruleset."""
        return self._rules

    @property
    def state(self) -> StateT:
        """Where the game stands."""
        return self._states[-1]

    @property
    def config(self) -> ConfigT:
        """The house rules."""
        return self._rules.config_of(self._states[0])

    @property
    def seed(self) -> int:
        """The game's seed."""
        return self._rules.seed_of(self._states[0])

    @property
    def history(self) -> tuple[StateT, ...]:
        """Every state so far, the new game first and :attr:`state` last."""
        return tuple(self._states)

    @property
    def moves(self) -> tuple[MoveT, ...]:
        """Every move played so far, chance outcomes included."""
        return tuple(self._moves)

    @property
    def events(self) -> tuple[EventT, ...]:
        """Every event so far, nothing hidden (:meth:`events_for` gives a seat's)."""
        return tuple(event for events in self._events for event in events)

    @property
    def move_events(self) -> tuple[tuple[EventT, ...], ...]:
        """The events of each move, in the order of :attr:`moves`, nothing hidden.

        >>> from tabletop_rules import dice_poker
        >>> match = Match(dice_poker.RULES, seed=1)
        >>> events = match.play("roll")
        >>> match.move_events[-1] == events
        True
        """
        return tuple(self._events)

    def events_for(self, seat: Seat | None) -> tuple[EventT, ...]:
        """Every event so far as ``seat`` may see it (``None``: a spectator)."""
        redact = self._rules.redact
        return tuple(redact(event, seat) for events in self._events for event in events)

    @property
    def current_player(self) -> Seat | None:
        """The seat to move, :data:`~tabletop_rules.game.CHANCE` at a chance point, or ``None``."""
        return self._rules.current_player(self._states[-1])

    @property
    def legal_moves(self) -> tuple[MoveT, ...]:
        """The moves open now: the player's, or the outcomes at a chance point."""
        return self._rules.legal_moves(self._states[-1])

    def view(self, seat: Seat | None = None) -> ViewT:
        """What ``seat`` may know of the game now (``None``: a spectator)."""
        return self._rules.view(self._states[-1], seat)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._rules.is_over(self._states[-1])

    @property
    def winners(self) -> frozenset[Seat]:
        """The winning seats; empty until the game is over."""
        return self._rules.winners(self._states[-1])

    @property
    def score(self) -> tuple[int, ...]:
        """Each seat's score now."""
        return self._rules.score(self._states[-1])

    def parse(self, text: str) -> MoveT:
        """The move that ``text``, in the game's notation, names now; the rule's error if
        it is not legal. Nothing is played.
        """
        return self._rules.parse_move(self._states[-1], text)

    def play(self, move: MoveT | str, *, seat: Seat | None = None) -> tuple[EventT, ...]:
        """Play ``move``, a move or its notation text, and return its events; a move
        equivalent to a listed one is played as the listed one, so that :attr:`record`
        replays to the same states. A server passes the ``seat`` that sent the move: one
        not on turn is refused before the move is read.

        Raises :class:`~tabletop_rules.errors.NotationError` for text that names no move
        and :class:`~tabletop_rules.errors.IllegalMoveError` (naming the rule) for a move
        the rules forbid now; the match is then unchanged.
        """
        rules, state = self._rules, self._states[-1]
        if seat is not None:
            check_on_turn(seat, rules.current_player(state))
        move = (
            rules.parse_move(state, move) if isinstance(move, str) else rules.canonical(state, move)
        )
        after, events = rules.apply_with_events(state, move)
        self._push(after, move, events)
        return events

    def undo(self) -> MoveT:
        """Take back the last move (a chance outcome counts) and return it;
        ``IllegalMoveError`` at the start. For analysis and tests: the next roll gives the
        same dice, so play against others uses :meth:`take_back`.
        """
        if not self._moves:
            raise IllegalMoveError("there is no move to undo: the game is at its start")
        self._states.pop()
        self._events.pop()
        self._reveals.pop()
        return self._moves.pop()

    def undo_turn(self, seat: Seat) -> tuple[MoveT, ...]:
        """Take back moves until ``seat`` is to move again and return them, the last first (for
        analysis, as :meth:`undo`); ``IllegalMoveError`` if ``seat`` has made no move.
        """
        return tuple(self.undo() for _ in range(len(self._moves) - self._last_turn(seat)))

    def take_back(self, seat: Seat) -> tuple[MoveT, ...]:
        """The fair undo, for play against others: :meth:`undo_turn` for ``seat``, refused
        when a move it would take back *revealed* something hidden (a chance outcome, a
        draw from the generator, an event some seat does not see, or what re-dealing the
        unseen :data:`REDEALS` times shows otherwise; :ref:`fair-undo` gives the rules).
        Returns the moves taken back, the last first.

        >>> from tabletop_rules import dice_poker as dp
        >>> match = Match(dp.RULES, dp.Config(stages=1, stage_orders="announce"), seed=7)
        >>> events = match.play("roll"), match.play("announce pair")
        >>> match.take_back(0)
        (Announce(box=Box.PAIR),)
        >>> match.take_back(0)
        Traceback (most recent call last):
          ...
        tabletop_rules.errors.IllegalMoveError: seat 0 cannot take back move 1 (P0 roll): ...

        ``IllegalMoveError`` says why it refuses, or that ``seat`` has made no move yet.
        """
        return tuple(self.undo() for _ in range(len(self._moves) - self._fair_turn(seat)))

    def can_take_back(self, seat: Seat) -> bool:
        """Whether :meth:`take_back` would take back moves for ``seat`` now (an undo button)."""
        try:
            self._fair_turn(seat)
        except IllegalMoveError:
            return False
        return True

    def verify_take_back(self, seat: Seat) -> None:
        """Raise the ``IllegalMoveError`` :meth:`take_back` would raise for ``seat`` now."""
        self._fair_turn(seat)

    def _fair_turn(self, seat: Seat) -> int:
        """The index of ``seat``'s last move, once no move since revealed anything."""
        turn = self._last_turn(seat)
        for index in range(turn, len(self._moves)):
            known = self._reveals[index]  # each move judged once for each seat
            if seat not in known:
                known[seat] = self._judge(index, seat)
            if known[seat] is not None:
                player = self._rules.current_player(self._states[index])
                raise IllegalMoveError(
                    f"seat {seat} cannot take back move {index + 1} "
                    f"({'chance' if player == CHANCE else f'P{player}'} "
                    f"{self._rules.format_move(self._moves[index])}): it {known[seat]}, and a "
                    "fair take-back never crosses a move that showed what was hidden"
                )
        return turn

    def _last_turn(self, seat: Seat) -> int:
        """The index of ``seat``'s last move; :class:`IllegalMoveError` if it has none."""
        for index in range(len(self._moves) - 1, -1, -1):
            if self._rules.current_player(self._states[index]) == seat:
                return index
        raise IllegalMoveError(f"seat {seat} has made no move to take back")

    def _judge(self, index: int, taker: Seat) -> str | None:
        """Why move ``index`` showed ``taker`` something hidden, else ``None``."""
        rules = self._rules
        before, after = self._states[index], self._states[index + 1]
        move, events = self._moves[index], self._events[index]
        mover = rules.current_player(before)
        if mover is None or mover == CHANCE:
            return "was a chance outcome"
        if _generators(before) != _generators(after):
            return "drew from the game's generator (dice, a shuffle)"
        seats = range(rules.players(rules.config_of(before)))
        if any(rules.redact(event, seat) != event for event in events for seat in seats):
            return "showed a seat cards that the others do not see"
        # What a move shows one seat alone, its events show that seat alone (above); what
        # it shows all, the seat taking back sees too: re-deal what it cannot see.
        seen, foreseen = rules.view(before, taker), rules.view(after, taker)
        for redeal in range(REDEALS):
            sample = rules.determinize(seen, Rng.from_seed(redeal))
            try:
                played = rules.apply(sample, move)
            except IllegalMoveError:
                if taker == mover:
                    return "could be played only because of what its seat could not see"
                return f"showed seat {taker} cards of P{mover}'s it could not see"
            if rules.view(played, taker) != foreseen:
                return f"showed seat {taker} what it could not foresee"
        return None

    @property
    def record(self) -> GameRecord:
        """The game so far as a :class:`~tabletop_rules.records.GameRecord` (to save)."""
        rules, start = self._rules, self._states[0]
        moves = tuple(map(rules.format_move, self._moves))
        return GameRecord(
            rules.name, rules.config_of(start), rules.seed_of(start), moves, rules.deal_of(start)
        )

    def __repr__(self) -> str:
        player = self.current_player
        where = {None: "over", CHANCE: "chance to move"}.get(player, f"seat {player} to move")
        played = len(self._moves)
        moves = f"{played} move" if played == 1 else f"{played} moves"
        return f"<Match {self._rules.name} seed={self.seed}: {moves}, {where}>"

    def _push(self, state: StateT, move: MoveT, events: tuple[EventT, ...]) -> None:
        """Add a move, the state after it and its events to the history."""
        self._states.append(state)
        self._moves.append(move)
        self._events.append(events)
        self._reveals.append({})


def _generators(state: object) -> tuple[Rng, ...]:
    """The random generators in ``state``'s fields: a move that changes them drew."""
    kind = type(state)
    if not attrs.has(kind):
        return ()
    return tuple(
        value
        for field in attrs.fields(kind)
        if isinstance(value := getattr(state, field.name), Rng)
    )
