"""The dice coach: for the throw in front of a player, every keep's exact chance of making
each open box with the throws left (fences included) and its expected points, and the move
that plays the turn best against what each box is worth to the rest of the game.

Two dynamic programmes over the 252 throws and the throws left, iterative and looking at
most :data:`HORIZON` throws ahead: per box, its best play alone (exact chance of fitting it
and most expected points, :class:`~fractions.Fraction`); per turn, the best play for the
game, a box valued against its par (:class:`Values`) and the stage's premium, each throw by
the fence it costs (floats, estimated).

>>> from tabletop_rules.dice_poker import Roll, apply, new_game, view
>>> state = apply(new_game(seed=42), Roll())
>>> advice = coach(view(state, 0))
>>> advice.dice, advice.throws_left, advice.move
((1, 2, 3, 5, 5), 2, Roll(keep=(5, 5)))
"""

from __future__ import annotations

import math
import threading
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product, repeat
from operator import add, itemgetter, mul

import attrs

from .._messages import short_repr
from .._validation import check_type
from .._words import counted
from ..bots import legal_moves_of
from ..errors import ConfigError, IllegalMoveError
from .config import DEFAULT_BOX_SCORES, BoxScores, Config
from .moves import (
    BOXES_PER_STAGE,
    DICE_COUNT,
    MOUNTAIN,
    POKER_BOXES,
    Announce,
    Box,
    Face,
    Move,
    Roll,
    Scratch,
    Write,
    multisets,
)
from .notation import format_move
from .rules import fillable_boxes
from .scoring import ALL_THROWS, FITS, KEEPS, score_table, stage_bonus
from .state import View, open_mask

__all__ = [
    "DEFAULT_VALUES",
    "HORIZON",
    "Advice",
    "BoxChance",
    "CoachBot",
    "Fill",
    "KeepAdvice",
    "Values",
    "advice_lines",
    "box_chances",
    "coach",
    "coach_lines",
]

HORIZON = 64
"""Most throws the coach looks ahead. With more throws left, it counts the chances and
points of the best play that uses at most ``HORIZON`` of them (a lower bound, short of
the true figure by under 0.004% of the box's best score) and plans the turn as though it
ended ``HORIZON`` throws from now, banking the rest."""

# --- the dice: every multiset of 0 to 5 dice, and what one more die makes of it ------------


def _firsts(faces: tuple[Face, ...]) -> tuple[int, ...]:
    """The position of each distinct face in sorted ``faces``: where dropping a die differs."""
    return tuple(at for at, face in enumerate(faces) if at == 0 or faces[at - 1] != face)


_MULTISETS: tuple[tuple[Face, ...], ...] = (
    *multisets(range(DICE_COUNT)),
    *ALL_THROWS,  # last, in their order: a value per throw fills the list's tail
)
_ID = {faces: number for number, faces in enumerate(_MULTISETS)}
_KEPT = len(_MULTISETS) - len(ALL_THROWS)  # multisets of 0 to 4 dice, the keeps
_THROW_INDEX = {dice: index for index, dice in enumerate(ALL_THROWS)}
_PARTIAL = tuple(  # keeps of 4 dice down to none, each with the 6 multisets one die more makes
    (_ID[faces], itemgetter(*(_ID[tuple(sorted((*faces, face)))] for face in range(1, 7))))
    for faces in reversed(_MULTISETS)
    if len(faces) < DICE_COUNT
)
_DROPS = tuple(  # each multiset of 1 to 4 dice, smallest first: it and those one die fewer make
    (
        _ID[faces],
        itemgetter(_ID[faces], *(_ID[faces[:at] + faces[at + 1 :]] for at in _firsts(faces))),
    )
    for faces in _MULTISETS
    if 0 < len(faces) < DICE_COUNT
)
_THROW_DROPS = tuple(  # per throw of five, the multisets of four it holds (its longest keeps)
    itemgetter(*(_ID[dice[:at] + dice[at + 1 :]] for at in _firsts(dice)), _ID[dice[1:]])
    for dice in ALL_THROWS
)  # (a throw of five alike holds one: named twice, as one index would not give a tuple)
_FLOAT_SCALE = tuple(6.0 ** -(DICE_COUNT - len(faces)) for faces in _MULTISETS)
_INT_SCALE = tuple(6 ** len(faces) for faces in _MULTISETS)
_ROLL_ALL_ID = _ID[()]


def _sums(top: Sequence[float] | Sequence[int]) -> list[float | int]:
    """Over every multiset of dice, the sum of ``top`` (a value per throw of five) over the
    ways of throwing the missing dice: a keep of ``n`` dice sums ``6 ** (5 - n)`` throws.
    """
    values: list[float | int] = [0] * _KEPT
    values.extend(top)
    for number, children in _PARTIAL:
        values[number] = sum(children(values))
    return values


def _best_keeps(expected: Sequence[float] | Sequence[int]) -> list[float | int]:
    """Per throw of five, the most of ``expected`` (a value per multiset) over its keeps:
    each multiset's most over those it holds, built up from the smaller ones.
    """
    most = list(expected)
    for number, held in _DROPS:
        most[number] = max(held(most))
    return [max(drops(most)) for drops in _THROW_DROPS]


# --- per box, exactly: the chance of fitting it and its points, with the best play for it --


_LEVELS_LOCK = threading.Lock()
_LEVELS: dict[tuple[Box, str], list[tuple[int, ...]]] = {}
_GOALS = ("fit", "points")
_FIXED = (Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT, Box.POKER)  # BoxScores names their scores
_SWAPS = {  # per face, each throw's index once that face and the ones trade places
    face: tuple(
        _THROW_INDEX[tuple(sorted(1 if die == face else face if die == 1 else die for die in dice))]
        for dice in ALL_THROWS
    )
    for face in range(1, 7)
}


def _box_levels(box: Box, box_scores: BoxScores, goal: str, throws: int) -> tuple[int, ...]:
    """Per throw of five, ``6 ** (5 * throws)`` times the best chance (``goal == "fit"``) or
    expected points (``"points"``) in ``box`` with ``throws`` throws still to come. A
    mountain box is the ones' programme with its face for the ones (its points times the
    face), a box of fixed score its chance times the score: the rest are solved.
    """
    if box.is_mountain and box is not Box.ONES:
        ones = _box_levels(Box.ONES, box_scores, goal, throws)
        level = tuple(map(ones.__getitem__, _SWAPS[box.face]))
        return level if goal == "fit" else tuple(map(mul, level, repeat(box.face)))
    if goal == "points" and box in _FIXED:
        score: int = getattr(box_scores, str(box))
        return tuple(map(mul, _box_levels(box, box_scores, "fit", throws), repeat(score)))
    return _solved_levels(box, goal, throws)


def _solved_levels(box: Box, goal: str, throws: int) -> tuple[int, ...]:
    """:func:`_box_levels` of a box whose points count the dice alone (or of its chance),
    built a throw at a time and kept, under a lock as threads may share it.
    """
    key = (box, goal)
    with _LEVELS_LOCK:
        levels = _LEVELS.get(key)
        if levels is None:
            face = box.face if box.is_mountain else 0  # a mountain box needs three of it
            first = (
                (dice.count(face) >= 3 if face else FITS[dice] >> box & 1)
                if goal == "fit"
                else score_table()[dice][box]  # no fixed score: Yatzy's table serves all
                for dice in ALL_THROWS
            )
            levels = _LEVELS[key] = [tuple(map(int, first))]
        now = levels[0]
        constant = len(set(now)) == 1  # a box every throw fits: the dice change nothing
        while len(levels) <= throws:
            stop = tuple(map(mul, now, repeat(6 ** (DICE_COUNT * len(levels)))))
            keeps = stop if constant else _best_keeps(list(map(mul, _sums(levels[-1]), _INT_SCALE)))
            levels.append(tuple(map(max, stop, keeps)))
        return levels[throws]


@lru_cache(maxsize=1024)
def _keep_exact(box: Box, box_scores: BoxScores, goal: str, throws: int) -> tuple[int, ...]:
    """Per multiset kept, ``6 ** (5 * throws)`` times the chance or points after throwing
    the rest with ``throws - 1`` throws to follow.
    """
    sums = _sums(_box_levels(box, box_scores, goal, throws - 1))
    return tuple(map(mul, sums, _INT_SCALE))


def box_chances(
    box: Box, keep: Sequence[Face], throws: int, box_scores: BoxScores = DEFAULT_BOX_SCORES
) -> tuple[Fraction, Fraction]:
    """The exact chance that ``box`` is made and the most points it can be expected to score,
    keeping ``keep`` and throwing the other dice, with ``throws`` throws (this one included)
    played as best for that box. A mountain box is "made" by three or more of its face.
    Past :data:`~tabletop_rules.dice_poker.coach.HORIZON` throws, the figures of
    ``HORIZON`` throws: at most the true ones, and short of them by under 0.004% of the
    box's best score.

    >>> box_chances(Box.POKER, (6, 6, 6, 6), 1)
    (Fraction(1, 6), Fraction(25, 3))
    >>> round(float(box_chances(Box.POKER, (), 3)[0]), 5)  # five alike within three throws
    0.04603
    """
    check_type(box, (Box,))
    kept = tuple(sorted(keep))
    if len(kept) >= DICE_COUNT or kept not in _ID or any(type(face) is not int for face in kept):
        raise IllegalMoveError(f"a throw keeps 0 to 4 dice showing 1 to 6, not {keep!r}")
    if type(throws) is not int or throws < 1:
        raise IllegalMoveError(f"a keep needs a throw left, got throws={throws!r}")
    throws = min(throws, HORIZON)
    fit, points = (_keep_exact(box, box_scores, goal, throws)[_ID[kept]] for goal in _GOALS)
    scale = 6 ** (DICE_COUNT * throws)
    return Fraction(fit, scale), Fraction(points, scale)


# --- what a box is worth to the rest of the game -----------------------------------------


def _tuple_of(value: object, length: int) -> bool:
    return isinstance(value, tuple) and len(value) == length


@attrs.frozen
class Values:
    """What the coach counts a box and a fence worth to the rest of the game: estimates, not
    solved. The default pars are set near :data:`~tabletop_rules.dice_poker.bots.PAR`, the
    mountain's spread of counts by hand, and the fence's worth by solitaire games
    (``benchmarks/coach_values.py`` plays them, and measures the means a bot's own play
    gives each box).

    Attributes:
        poker_pars: Points each poker box (PAIR to CHANCE) brings on average.
        mountain_counts: Per mountain box, the probability of each count 0 to 5 it is
            written with.
        fence: What one banked fence (one throw in a later turn) is worth.

    """

    poker_pars: tuple[float, ...] = (9.6, 16.5, 11.6, 8.4, 16.2, 5.8, 8.0, 11.5, 22.6)
    mountain_counts: tuple[tuple[float, ...], ...] = ((0.02, 0.08, 0.25, 0.45, 0.17, 0.03),) * 6
    fence: float = 4.0

    def __attrs_post_init__(self) -> None:
        pars, counts = self.poker_pars, self.mountain_counts
        if not _tuple_of(pars, len(POKER_BOXES)):
            raise ConfigError(f"poker_pars needs a tuple of 9 pars, got {short_repr(pars)}")
        if not _tuple_of(counts, len(MOUNTAIN)) or any(
            not _tuple_of(row, DICE_COUNT + 1) for row in counts
        ):
            raise ConfigError(
                f"mountain_counts needs 6 tuples of 6 chances, got {short_repr(counts)}"
            )
        chances = [chance for row in counts for chance in row]
        for value in (*pars, *chances, self.fence):
            if type(value) not in (int, float) or not math.isfinite(value):
                raise ConfigError(f"Values holds finite numbers, got {short_repr(value)}")
        if min(chances) < 0 or any(abs(sum(row) - 1) > 1e-3 for row in counts):
            raise ConfigError("each mountain box's chances are at least 0 and sum to 1")

    def par(self, box: Box) -> float:
        """What ``box`` brings on average: a poker box its par, a mountain box its mean."""
        if box.is_poker:
            return self.poker_pars[box - Box.PAIR]
        counts = self.mountain_counts[box]
        return sum(chance * (count - 3) * box.face for count, chance in enumerate(counts))


DEFAULT_VALUES = Values()
"""The values :class:`~tabletop_rules.dice_poker.CoachBot` and
:func:`~tabletop_rules.dice_poker.coach.coach` use unless given others."""


@cache
def _mountain_spread(
    values: Values, open_mountain: frozenset[Box]
) -> tuple[tuple[int, float], ...]:
    """The distribution of the points the open mountain boxes will add, each independent."""
    spread = {0: 1.0}
    for box in sorted(open_mountain):
        step: defaultdict[int, float] = defaultdict(float)
        for (total, chance), (count, more) in product(
            spread.items(), enumerate(values.mountain_counts[box])
        ):
            if more:
                step[total + (count - 3) * box.face] += chance * more
        spread = step
    return tuple(spread.items())


@cache
def _premium_value(
    values: Values, open_mountain: frozenset[Box], total: int, premium: int, penalty: int
) -> float:
    """The expected premium (or penalty) of a stage whose written mountain sums ``total``."""
    return sum(
        chance * stage_bonus(total + more, premium, penalty)
        for more, chance in _mountain_spread(values, open_mountain)
    )


# --- one turn: the coach's dynamic programme --------------------------------------------

_Levels = tuple[tuple[list[float], list[float]], ...]


@lru_cache(maxsize=1024)
def _gains(
    config: Config, values: Values, box: Box, open_mountain: frozenset[Box], written: int
) -> tuple[float, ...]:
    """Per throw, what writing it in ``box`` gains: its points against the box's par and, for
    a mountain box, the change in the stage's expected premium.
    """
    par = values.par(box)
    if box.is_poker:
        table = score_table(config.box_scores)
        return tuple(table[dice][box] - par for dice in ALL_THROWS)
    premium, penalty = config.premium, config.penalty
    now = _premium_value(values, open_mountain, written, premium, penalty)
    rest = open_mountain - {box}
    by_count = [
        (count - 3) * box.face
        - par
        + _premium_value(values, rest, written + (count - 3) * box.face, premium, penalty)
        - now
        for count in range(DICE_COUNT + 1)
    ]
    return tuple(by_count[dice.count(box.face)] for dice in ALL_THROWS)


def _most(columns: Sequence[Sequence[float]]) -> list[float]:
    """Per throw, the most of the columns' values."""
    return list(map(max, *columns)) if len(columns) > 1 else list(columns[0])


@attrs.frozen
class _Table:
    """What the view says about the turn in front of it, as the programme needs it."""

    config: Config
    boxes: tuple[Box, ...]  # the boxes the turn may end in
    open_mountain: frozenset[Box]
    written: int  # the stage's mountain so far
    fences: tuple[float, ...]  # per throws used, to the last the plan allows
    first: int  # the throws used at the plan's first level
    announcing: bool  # in announce order, before the box is named


def _table(view: View, values: Values) -> _Table:
    """The turn in front of ``view``: ``IllegalMoveError`` when no seat is to throw."""
    check_type(view, (View,))
    seat = view.current_player
    if seat is None or seat < 0 or view.pending_keep is not None:
        raise IllegalMoveError(
            "the coach advises the seat on turn; no seat is (the game is over, or dice "
            "are in the air)"
        )
    config = view.config
    sheet = view.sheets[seat]
    base = BOXES_PER_STAGE * view.stage
    cells = sheet[base : base + BOXES_PER_STAGE]
    order = config.stage_order(view.stage)
    announced = view.announced
    fillable = fillable_boxes(order, open_mask(sheet)) if announced is None else 1 << announced
    turns_left = sum(cell is None for cell in sheet) - 1
    # the plan looks HORIZON throws ahead: the whole turn unless it allows more
    last = min(view.throws_allowed, view.throws_used + HORIZON)
    worth = values.fence * min(1.0, turns_left / 6) if config.fences else 0.0
    bank = view.fences[seat]
    return _Table(
        config=config,
        boxes=tuple(box for box in Box if fillable >> box & 1),
        open_mountain=frozenset(box for box in MOUNTAIN if cells[box] is None),
        written=sum(cell for cell in cells[: len(MOUNTAIN)] if cell is not None),
        fences=tuple(worth * config.bank_after_turn(bank, used) for used in range(last + 1)),
        first=1 if last <= HORIZON else view.throws_used,
        announcing=order == "announce" and announced is None,
    )


@lru_cache(maxsize=64)
def _plan(table: _Table, values: Values, boxes: tuple[Box, ...]) -> _Levels:
    """The programme of the turn ``table`` describes, ending in one of ``boxes``, with
    ``table.fences[u]`` the worth of the bank after ``u`` throws: per throws used (from
    ``table.first`` to the last the plan allows), each keep's expectation if one more throw
    is made (empty at the last), and per throw on the table the worth of the turn from there.
    """
    config, fences = table.config, table.fences
    stop_now = _most(
        [_gains(config, values, box, table.open_mountain, table.written) for box in boxes]
    )
    last = len(fences) - 1
    best = [value + fences[last] for value in stop_now]
    levels: list[tuple[list[float], list[float]]] = [([], best)]
    for used in range(last - 1, table.first - 1, -1):
        stop = list(map(add, stop_now, repeat(fences[used])))
        expected = list(map(mul, _sums(best), _FLOAT_SCALE))
        best = list(map(max, stop, _best_keeps(expected)))
        levels.append((expected, best))
    levels.reverse()
    return tuple(levels)


def _options(
    view: View, values: Values
) -> tuple[_Table, list[tuple[Move, float]], list[tuple[tuple[Face, ...], float]]]:
    """Every move open to the seat on turn with the coach's worth of it, in points against
    par: the fills (and announcements) first, then the keeps of a throw. While a box is to
    be announced, each has its own programme; else one serves them all.
    """
    table = _table(view, values)
    if table.announcing:
        plans = [_plan(table, values, (box,)) for box in table.boxes]
    else:
        plans = [_plan(table, values, table.boxes)]
    used, fences = view.throws_used, table.fences
    fills: list[tuple[Move, float]]
    if not view.dice:  # the first throw's expectation, or a scratch at once
        best = _sums(_most([plan[0][1] for plan in plans]))[_ROLL_ALL_ID]
        fills = [
            (Scratch(box), -values.par(box) + fences[0]) for box in table.boxes if box.is_poker
        ]
        return table, fills, [((), float(best) * _FLOAT_SCALE[_ROLL_ALL_ID])]
    index, level = _THROW_INDEX[view.dice], used - table.first
    if table.announcing:
        fills = [
            (Announce(box), plan[level][1][index])
            for box, plan in zip(table.boxes, plans, strict=True)
        ]
    else:
        fills = [
            (
                Write(box) if FITS[view.dice] >> box & 1 else Scratch(box),
                _gains(table.config, values, box, table.open_mountain, table.written)[index]
                + fences[used],
            )
            for box in table.boxes
        ]
    keeps = []
    if used < view.throws_allowed:
        keeps = [
            (keep, max(plan[level][0][_ID[keep]] for plan in plans)) for keep in KEEPS[view.dice]
        ]
    return table, fills, keeps


# --- the advice, and the bot that follows it --------------------------------------------


@attrs.frozen
class BoxChance:
    """One box's prospects after a keep, with the best play for that box alone.

    Attributes:
        box: The box.
        chance: The exact probability the turn can end with dice that make it (a mountain
            box: three or more of its face, so that it scores 0 or more).
        points: The most points it can be expected to score (a mountain box may expect
            fewer than 0; a poker box counts 0 when it is missed and scratched).

    """

    box: Box
    chance: Fraction
    points: Fraction


@attrs.frozen
class KeepAdvice:
    """A keep: the dice kept for the next throw, the coach's worth of it and each box's
    prospects.

    Attributes:
        keep: The dice kept, sorted (empty: throw all five).
        value: The coach's expected worth of the rest of the turn, played as it plays, in
            points against the boxes' pars (premium and fences counted).
        boxes: The prospects of each box the turn may end in, in sheet order.

    """

    keep: tuple[Face, ...]
    value: float
    boxes: tuple[BoxChance, ...]

    @property
    def move(self) -> Roll:
        """The throw that keeps these dice."""
        return Roll(self.keep)


@attrs.frozen
class Fill:
    """Ending the turn now (or, in announce order, naming the box): the move, the points it
    writes and the coach's worth of it, in points against par as a keep's ``value``.
    """

    move: Move
    points: int
    value: float


@attrs.frozen
class Advice:
    """The coach's advice for the turn in front of the seat on turn.

    Attributes:
        dice: The dice on the table (empty before the turn's first throw).
        throws_left: Throws the turn still allows, fences included.
        boxes: The boxes the turn may end in: open, and allowed now by the stage order.
        fills: Each write, scratch or announcement open now, best first.
        keeps: Each keep open now, best first (before the first throw: throwing all five).
        move: The move the coach plays: the best of ``fills`` and ``keeps``.
        value: The worth of that move, in points against par.

    """

    dice: tuple[Face, ...]
    throws_left: int
    boxes: tuple[Box, ...]
    fills: tuple[Fill, ...]
    keeps: tuple[KeepAdvice, ...]
    move: Move
    value: float


def _best(
    fills: list[tuple[Move, float]], keeps: list[tuple[tuple[Face, ...], float]]
) -> tuple[Move, float]:
    """The best option, a fill before a keep of equal worth."""
    return max([*fills, *((Roll(keep), value) for keep, value in keeps)], key=itemgetter(1))


def coach(view: View, values: Values = DEFAULT_VALUES) -> Advice:
    """The coach's advice for the seat on turn in ``view`` (any seat's view of it):
    ``IllegalMoveError`` when no seat is to throw.

    >>> from tabletop_rules.dice_poker import Roll, apply, new_game, view
    >>> advice = coach(view(apply(new_game(seed=42), Roll()), 0))
    >>> best = advice.keeps[0]
    >>> best.keep, [(str(made.box), round(float(made.chance), 3)) for made in best.boxes[-3:]]
    ((5, 5), [('large_straight', 0.057), ('poker', 0.029), ('chance', 1.0)])
    """
    table, fills, keeps = _options(view, values)
    move, value = _best(fills, keeps)
    throws_left = view.throws_allowed - view.throws_used
    box_scores = table.config.box_scores
    scores = score_table(box_scores)[view.dice] if view.dice else ()
    fills.sort(key=itemgetter(1), reverse=True)  # stable: options of equal worth keep their order
    keeps.sort(key=itemgetter(1), reverse=True)
    return Advice(
        dice=view.dice,
        throws_left=throws_left,
        boxes=table.boxes,
        fills=tuple(Fill(m, scores[m.box] if type(m) is Write else 0, worth) for m, worth in fills),
        keeps=tuple(
            KeepAdvice(
                keep,
                worth,
                tuple(
                    BoxChance(box, *box_chances(box, keep, throws_left, box_scores))
                    for box in table.boxes
                ),
            )
            for keep, worth in keeps
        ),
        move=move,
        value=value,
    )


_advised = lru_cache(maxsize=64)(coach)
""":func:`coach`, remembered for the last views asked: a table drawn for a seat asks the
same view for its sheet's lines and for its hints, and a server draws it for each client."""


class CoachBot:
    """Plays dice poker by the coach: each turn the move of
    :func:`~tabletop_rules.dice_poker.coach.coach` (without its exact chances, which it
    does not need), valuing boxes and fences by ``values``, a
    :class:`~tabletop_rules.dice_poker.coach.Values`.
    """

    def __init__(self, values: Values = DEFAULT_VALUES) -> None:
        check_type(values, (Values,))
        self.values = values

    def choose(self, view: View) -> Move:
        """The coach's move for the view's seat, which must be on turn."""
        legal_moves_of(view)  # refuses a state, a seat not on turn, a finished game
        _, fills, keeps = _options(view, self.values)
        return _best(fills, keeps)[0]


def _kept(keep: tuple[Face, ...]) -> str:
    return "keep " + " ".join(map(str, keep)) if keep else "throw all five"


def _percent(chance: Fraction) -> str:
    whole = chance in (0, 1) or 0.01 <= chance <= 0.99  # else a digit more: 0.5%, 99.6%
    return f"{float(chance):.{0 if whole else 1}%}"


def coach_lines(view: View, values: Values = DEFAULT_VALUES) -> dict[Box, str]:
    """For each box the turn in ``view`` may end in, a short line for a score sheet: the keep
    best for that box, its exact chance of making it and the points it can expect (see
    :func:`~tabletop_rules.dice_poker.coach.coach`; ``IllegalMoveError`` when no seat is to
    throw). Empty when no throw is left.

    >>> from tabletop_rules.dice_poker import Box, Roll, apply, new_game, view
    >>> lines = coach_lines(view(apply(new_game(seed=42), Roll()), 0))
    >>> lines[Box.SMALL_STRAIGHT], lines[Box.FIVES]
    ('keep 1 2 3 5: 31% made, 4.6 points', 'keep 5 5: 67% made, -0.4 points')
    """
    advice = _advised(view, values)
    lines: dict[Box, str] = {}
    for number, box in enumerate(advice.boxes if advice.keeps else ()):
        keep, made = max(
            ((keep.keep, keep.boxes[number]) for keep in advice.keeps),
            key=lambda option: (option[1].points, option[1].chance),
        )
        lines[box] = f"{_kept(keep)}: {_percent(made.chance)} made, {float(made.points):.1f} points"
    return lines


def advice_lines(view: View, values: Values = DEFAULT_VALUES, keeps: int = 3) -> tuple[str, ...]:
    """The coach's advice in a few lines for the terminal: its move, then the best ``keeps``
    keeps with their worth and their best boxes' chances (``IllegalMoveError`` when no seat
    is to throw).
    """
    advice = _advised(view, values)
    lines = [f"Coach ({counted(advice.throws_left, 'throw')} left): {format_move(advice.move)}."]
    for keep in advice.keeps[:keeps]:
        likely = sorted(
            keep.boxes,
            key=lambda box: (float(box.points) - values.par(box.box), box.chance),
            reverse=True,
        )[:3]
        chances = ", ".join(f"{box.box} {_percent(box.chance)}" for box in likely)
        lines.append(f"  {_kept(keep.keep)}: worth {keep.value:+.1f}; {chances}")
    lines.extend(
        f"  {format_move(fill.move)}: {fill.points} points, worth {fill.value:+.1f}"
        for fill in advice.fills[:2]
    )
    return tuple(lines)
