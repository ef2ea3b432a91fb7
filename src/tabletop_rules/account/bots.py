"""The account game's bots: each lands a roll where it is worth most (:doc:`/bots`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cached_property, lru_cache

from .._messages import short_repr
from ..kit import legal_moves_of
from ..protocol import Seat, get_ruleset
from ..rng import Rng
from ..search import SearchBot
from .cards import END, ZERO, Card
from .moves import ROLL, SIDES, Advance, Buy, Move, Place
from .state import State, View
from .view import pack_contents, view

__all__ = [
    "DECISIVE",
    "AccountSearchBot",
    "BestCardBot",
    "PlannerBot",
    "plan",
    "plan_value",
    "worth_lead_value",
]

DECISIVE = 1e12
"""What an End worth playing for is worth (minus it: one to avoid): more than any account
can change by."""


_Line = tuple[tuple[int, float], ...]  # each column that holds a card, with its standing


class _Table:
    """What :class:`BestCardBot` reads off one view: the line and each card's worth (the
    *standing* of a card to land on later, End counting as nothing).
    """

    def __init__(self, view: View) -> None:
        self.view = view
        seat = view.seat
        assert seat is not None, "a view with legal moves belongs to a seat"
        self.seat: Seat = seat
        self.account = view.accounts[seat]
        self.own = view.markers[seat]
        self.rival = max((a for who, a in enumerate(view.accounts) if who != seat), default=0)
        # what B may charge, by cost: the pack's cards (each as likely first), else the pile's
        costs = Counter(card.cost for card in pack_contents(view) if card.valued)
        self._costs = costs or Counter(card.cost for card in view.discard if card.valued)
        self.line: _Line = tuple(
            (column, self.standing(cards[0])) for column, cards in enumerate(view.field) if cards
        )
        self.ring = tuple(column for column, _worth in self.line)

    @cached_property
    def _prospects(self) -> dict[int, float]:
        """Each column's prospect on the line as it lies (a plan does without)."""
        return {column: self.prospect(column, self.line) for column in self.ring}

    def floor(self, account: float) -> float:
        return max(account, 0) if self.view.config.floor_at_zero else account

    def worth(self, card: Card, account: int) -> float:
        if card is END:
            return self.end_worth(account)
        if card is ZERO:
            return self.floor(0) - account
        if card.kind == "B":
            total = self._costs.total()
            if not total:
                return 0.0
            after = sum(self.floor(account - cost) * n for cost, n in self._costs.items())
            return after / total - account
        return self.floor(account + card.points) - account

    def standing(self, card: Card) -> float:
        return 0.0 if card is END else self.worth(card, self.account)

    def end_worth(self, account: int) -> float:
        view = self.view
        if view.ending or view.config.players == 1:
            return 0.0
        if view.config.end == "immediate":
            sure = account > self.rival
        else:
            sure = all(account > reach for reach in self._reaches())
        return DECISIVE if sure else -DECISIVE

    def _reaches(self) -> list[int]:
        """The most each other seat can hold once the round is over."""
        view = self.view
        config = view.config
        bottom = [view.field[column][0] for column in self.ring]
        best_points = max(card.points for card in bottom)
        zero = ZERO in bottom
        reaches = []
        for who, account in enumerate(view.accounts):
            if who < self.seat:
                reaches.append(account)
            elif who > self.seat:
                if view.phase == "setup":
                    markers = config.starting_markers if config.placement_scores else 0
                else:
                    markers = len(view.markers[who])
                best = max(best_points, -account if zero else 0, 0)
                reaches.append(account + markers * best)
        return reaches

    def prospect(self, column: int, line: _Line) -> float:
        """The prospect of ``column`` on ``line``."""
        at = next(i for i, (c, _worth) in enumerate(line) if c == column)
        size = len(line)
        total = 0.0
        best = -DECISIVE
        for steps in range(1, SIDES + 1):
            best = max(best, line[(at - steps) % size][1], line[(at + steps) % size][1])
            total += best
        return total / SIDES

    def steps(self, move: Advance) -> tuple[int, int]:
        """The places on the ring ``move``'s marker starts from and lands on."""
        start = self.ring.index(self.own[move.marker])
        sign = -1 if move.direction == "left" else 1
        return start, (start + sign * move.steps) % len(self.ring)

    def advancing(self, move: Advance) -> float:
        start, landed = (self.ring[place] for place in self.steps(move))
        worth = self.worth(self.view.field[landed][0], self.account)
        shared = sum(owned.count(start) for owned in self.view.markers) > 1
        if landed == start or not self.view.config.collapse or shared:
            return worth + self._prospects[landed]
        beneath = self.view.field[start][1:2]
        line = tuple(
            (column, self.standing(beneath[0]) if column == start else standing)
            for column, standing in self.line
            if column != start or beneath
        )
        return worth + self.prospect(landed, line)

    def future(self, column: int) -> float:
        """What a marker on ``column`` may add later."""
        return self._prospects[column]

    def bought(self, column: int) -> float:
        """What a marker bought onto ``column`` may add later: each round left, a roll."""
        view = self.view
        rounds_left = 1 if view.ending else view.config.max_rounds - view.rounds
        return rounds_left * sum(self._prospects.values()) / len(self._prospects)

    def placing(self, column: int, cost: int) -> float:
        """What a marker placed on ``column`` after paying ``cost`` is worth."""
        view = self.view
        scores = view.config.placement_scores or view.phase == "play"
        now = self.worth(view.field[column][0], self.account - cost) if scores else 0.0
        return now + self.future(column)

    def buys(self, column: int) -> bool:
        cost = self.view.config.marker_cost
        paid = self.account - cost
        now = self.worth(self.view.field[column][0], paid)
        if self.account > self.rival >= paid + now:
            return False
        return now + self.bought(column) > cost


class _LandingBot:
    """Plays the advance its view's ``_table`` values most, else the best place for a
    marker, buying one only when the table says so.
    """

    _table: type[_Table]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def choose(self, view: View) -> Move:
        """The move for the view's seat, which must be on turn."""
        moves: tuple[Move, ...] = legal_moves_of(view)  # the seat must be on turn
        if len(moves) == 1:
            return moves[0]
        table = self._table(view)
        advances = [move for move in moves if isinstance(move, Advance)]
        if advances:
            return max(advances, key=table.advancing)
        places = [move for move in moves if isinstance(move, Place | Buy)]  # Place, or Buy
        cost = view.config.marker_cost if view.phase == "play" else 0
        best = max(places, key=lambda move: table.placing(move.column, cost))
        return best if type(best) is Place or table.buys(best.column) else ROLL


class BestCardBot(_LandingBot):
    """Lands each roll on the card worth most to its account, with an eye on the next
    roll; ends the game only to win. The same view always gives the same move.
    """

    _table = _Table


_EXACT_TURNS = 64  # a plan's turns worked out exactly; each turn beyond adds what the last did
_NOWHERE = float("-inf")  # an End's standing in a plan: the game would stop there


@lru_cache(maxsize=64)
def _reach(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``[at][steps - 1]``: the places ``steps`` left and right of ``at`` on a ring."""
    sides = range(1, SIDES + 1)
    return tuple(tuple(((at - s) % size, (at + s) % size) for s in sides) for at in range(size))


@lru_cache(maxsize=4096)
def plan(standings: tuple[float, ...], turns: int) -> tuple[tuple[float, ...], ...]:
    """:class:`PlannerBot`'s plan, ``[t][i]``: what a marker at place ``i`` of a ring whose
    cards stand at ``standings`` (an End: ``-inf``) expects to add in ``t`` more turns
    (``t`` from 0 to ``turns``), each roll landed where the card and the turns after it
    are worth most. Beyond 64 turns each turn adds what the 64th did.

    >>> [round(value, 2) for value in plan((10.0, -1.0), 1)[1]]  # from the 10, a 1 lands on the -1
    [8.17, 10.0]
    """
    size = len(standings)
    reach = _reach(size)
    rows = [(0.0,) * size]
    for _ in range(min(turns, _EXACT_TURNS)):
        landing = [standing + rest for standing, rest in zip(standings, rows[-1], strict=True)]
        row = []
        for places in reach:
            best, total = _NOWHERE, 0.0
            for left, right in places:
                best = max(best, landing[left], landing[right])
                total += best if best != _NOWHERE else 0.0  # only End in reach: it stops
            row.append(total / SIDES)
        rows.append(tuple(row))
    if turns > _EXACT_TURNS:
        last = rows[-1]
        step = [now - before for now, before in zip(last, rows[-2], strict=True)]
        rows.extend(
            tuple(value + extra * gain for value, gain in zip(last, step, strict=True))
            for extra in range(1, turns - _EXACT_TURNS + 1)
        )
    return tuple(rows)


class _Plan(_Table):
    """:class:`_Table`'s worths, and each place's plan for the turns the seat has left."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        field = view.field
        standings = tuple(
            _NOWHERE if field[column][0] is END else standing for column, standing in self.line
        )
        self.turns = 1 if view.ending else max(1, view.config.max_rounds - view.rounds)
        self.plan = plan(standings, self.turns)

    def advancing(self, move: Advance) -> float:
        start, landed = self.steps(move)
        worth = self.worth(self.view.field[self.ring[landed]][0], self.account)
        return worth + self.plan[self.turns - 1][landed] - self.plan[self.turns][start]

    def future(self, column: int) -> float:
        return self.plan[self.turns][self.ring.index(column)]

    bought = future


class PlannerBot(_LandingBot):
    """Lands each roll where the card and the rest of the game are worth most, by
    :func:`~tabletop_rules.account.bots.plan` (the field as it lies, the account as it
    stands); buys a marker when its plan beats the price and ends the game only to win, as
    :class:`BestCardBot` does.
    The same view always gives the same move (among equals, the first listed).
    """

    _table = _Plan


def _turns_left(state: State, seat: Seat, marker: int) -> int:
    """How many more times ``seat``'s ``marker`` moves if the game runs to its end."""
    config = state.config
    if state.phase == "over" or (state.phase == "setup" and state.ending):
        return 0  # an End placed in setup under finish_round ends the game after setup
    if state.phase == "setup":
        return config.max_rounds
    after = seat > state.seat or (seat == state.seat and marker not in state.moved)
    if state.ending:
        return int(after)
    return config.max_rounds - state.rounds - (0 if after else 1)


def plan_value(state: State) -> tuple[float, ...]:
    """As :func:`worth_lead_value`, with each seat's worth its account plus what
    :func:`plan` expects its markers to add in their turns left: a search that stops early
    still sees the rest of the game.
    """
    if type(state) is not State:
        raise TypeError(f"plan_value reads an account State, got {short_repr(state)}")
    worth = []
    for seat, (account, owned) in enumerate(zip(state.accounts, state.markers, strict=True)):
        expected = float(account)
        if owned:
            table = _Plan(view(state, seat))
            ring = table.ring
            for marker, column in enumerate(owned):
                expected += table.plan[_turns_left(state, seat, marker)][ring.index(column)]
        worth.append(expected)
    return _lead_rewards(state, worth)


_PLANNER = PlannerBot()


def _planner_move(state: State, moves: tuple[Move, ...], rng: Rng) -> tuple[Move, Rng]:
    """:class:`PlannerBot`'s move on a guessed state: the search's model of the others."""
    if len(moves) == 1:
        return moves[0], rng
    return _PLANNER.choose(view(state, state.seat)), rng


def worth_lead_value(state: State) -> tuple[float, ...]:
    """Each seat's reward where the search's rollouts stop: one half plus its lead in
    *worth* (its account, and ``marker_cost`` a marker beyond the starting ones) over the
    best other seat, as a share of twice the best card's points (25 at least) per marker
    and round left, clipped to [0, 1]: it saturates only where a lead is out of reach.
    """
    if type(state) is not State:
        raise TypeError(f"worth_lead_value reads an account State, got {short_repr(state)}")
    config = state.config
    worth = [
        account + config.marker_cost * (len(markers) - config.starting_markers)
        for account, markers in zip(state.accounts, state.markers, strict=True)
    ]
    return _lead_rewards(state, worth)


def _lead_rewards(state: State, worth: Sequence[float]) -> tuple[float, ...]:
    """:func:`worth_lead_value`'s rewards for each seat's ``worth`` (one half for one seat)."""
    if len(worth) == 1:
        return (0.5,)
    best = max((abs(cards[0].points) for cards in state.field if cards), default=0)
    markers = max(1, max(len(owned) for owned in state.markers))
    swing = 2.0 * max(best, 25) * markers * (state.config.max_rounds - state.rounds + 1)
    rewards = []
    for seat, mine in enumerate(worth):
        rival = max(other for who, other in enumerate(worth) if who != seat)
        rewards.append(min(1.0, max(0.0, 0.5 + (mine - rival) / swing)))
    return tuple(rewards)


class AccountSearchBot(SearchBot[Move]):
    """``RULES.bots["search"]``: a :class:`~tabletop_rules.search.SearchBot` over 16
    guesses of the pack and the dice, :class:`PlannerBot` the model of the others, each
    position scored by :func:`~tabletop_rules.account.bots.plan_value` without rollout.
    PlannerBot's move stands unless another's mean reward on the same guesses is 0.2
    better: the plan weighs every roll exactly, where 16 guesses only sample it.
    """

    def __init__(self, seed: int = 0, iterations: int = 100) -> None:
        super().__init__(
            get_ruleset("account"),
            seed,
            iterations=iterations,
            exploration=1.0,
            others=_planner_move,
            value=plan_value,
            rollout_moves=0,
            guesses=16,
            paired=True,
            choice="mean",
            baseline=_PLANNER.choose,
            margin=0.2,
            name="AccountSearchBot",
        )
