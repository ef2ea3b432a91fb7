"""Palace's batched kernel: :class:`PalaceEngine` deals, plays a step and writes its
record as compiled loops over thousands of games a call (the ``batch`` extra), each the
game :func:`tabletop_rules.palace.new_game` deals from the same seed and
:func:`~tabletop_rules.palace.apply` plays from the same moves.

Every house rule of :class:`~tabletop_rules.palace.Config` is taken. A card is its place
in :data:`~tabletop_rules.palace.cards.DECK`; the legal actions are each game's list.

>>> import numpy as np
>>> from tabletop_rules import batch, palace
>>> engine = batch.engine("palace", palace.Config(), size=2)
>>> games = engine.reset(np.array([7, 8], dtype=np.uint64))
>>> engine.state(games, 0) == palace.new_game(palace.Config(), seed=7)
True
>>> games = engine.step(games, np.array([0, 0]))  # each seat 0 is ready (action 0)
>>> games = engine.step(games, np.array([0, 0]))  # and each seat 1: play starts
>>> games.current_player.tolist()
[0, 0]
>>> [engine.rules.action_text(engine.config, int(a)) for a in np.flatnonzero(games.legal_mask[0])]
['play 5', 'play Q', 'play K']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, get_args

import numpy as np
from numpy.typing import NDArray

from ..batch.compiled import jit
from ..batch.compiled.rng import shuffle
from ..batch.frame import NOBODY, Actions, Engine, Flags, Games, Seeds
from .cards import BONUS_RANKS, DECK
from .cards import RANKS as RANK_LIST
from .cards import SUITS as SUIT_LIST
from .config import ROW, Config
from .moves import BLIND, END_TURN, MOVE_TABLE, PLAY_BASE, READY, SWAP_BASE, TAKE_PILE
from .rules import ALLOWED, EXTRA_PLAY_MOST
from .state import MAX_SWAPS, PENDINGS, Phase, State

__all__ = ["PalaceEngine"]

Array = NDArray[Any]

KINDS = len(DECK)
"""Distinct cards (52): a card's number is its place in ``DECK``."""
RANKS = len(RANK_LIST)
SUITS = len(SUIT_LIST)

PHASES: tuple[Phase, ...] = get_args(Phase)
SWAP, PLAY, OVER = (PHASES.index(name) for name in ("swap", "play", "over"))
"""The phases, numbered as ``state.Phase`` lists them."""
NONE, TAKE, EXTRA, REPLAY = (PENDINGS.index(name) for name in ("none", "take", "extra", "replay"))
"""What the seat on turn owes, numbered as ``state.Pending`` lists it."""

READY_ACTION, TAKE_ACTION, END_ACTION, BLIND_ACTION = map(
    MOVE_TABLE.moves.index, (READY, TAKE_PILE, END_TURN, BLIND[0])
)
"""The action numbers of ``ready``, ``take``, ``end`` and ``blind 0`` (the other slots follow)."""

_CARD_NUMBERS = np.arange(KINDS, dtype=np.int8)
_NATURAL = np.array([rank not in BONUS_RANKS for rank in RANK_LIST])
"""Per rank (2 first), whether it is a natural card."""


class _State(NamedTuple):
    """A batch's ``data`` arrays by name (as :func:`_layout` lays them out)."""

    seed: Array
    deal: Array
    hands: Array
    known: Array
    hand_size: Array
    face_up: Array
    face_down: Array
    stock_from: Array
    pile: Array
    pile_size: Array
    pile_counts: Array
    top: Array
    top_run: Array
    burned: Array
    burned_size: Array
    phase: Array
    seat: Array
    turns: Array
    swaps: Array
    pending: Array
    places: Array


class _Record(NamedTuple):
    """The rest of a ``Games``: what a step shows of each game."""

    listed: Array  # each game's legal actions ascending, one game's after another's
    counts: Array  # (size,) how many each game has
    player: Array
    scores: Array
    over: Array


class _Numbers(NamedTuple):
    """The config's house rules, as the compiled code reads them (the rules' own numbers
    it reads as globals: numba's cache is kept to the sources it was compiled from).
    """

    players: int
    hand_size: int
    cards: int
    quad_burns: int
    from_table: int
    voluntary: int
    lowest_first: int
    until_last: int
    max_turns: int
    num_actions: int


_FIXED = frozenset({"seed", "deal"})
"""The arrays a step never writes: the new ``Games`` shares the old one's."""


class PalaceEngine(Engine):
    """Palace under one :class:`~tabletop_rules.palace.Config`, ``size`` games a call.

    ``Games.data`` holds, per game: ``seed``; ``deal`` (top card first); ``hands`` and
    ``known`` (``(players, 52)`` counts of each card) and ``hand_size``; ``face_up`` and
    ``face_down`` (card numbers, -1 for none); ``stock_from`` (the stock is
    ``deal[stock_from:]``); ``pile`` and ``burned`` (bottom first, -1 padded) with their
    sizes; ``pile_counts``; ``top`` (the top rank, 0 for none) and ``top_run``; ``phase``,
    ``seat``, ``turns``, ``swaps`` and ``pending`` as the state's; ``places`` (from 1).
    """

    game = "palace"
    config: Config

    def _prepare(self) -> None:
        config = self.config
        self.cards = config.cards
        self.dealt = config.players * (2 * ROW + config.hand_size)
        # [top rank (0: an empty pile), rank - 2]: may the rank go on the top card
        strict = config.must_beat == "higher"
        self.allowed = np.array([row[2:] for row in ALLOWED[strict]], dtype=bool)
        self._numbers = _Numbers(
            players=config.players,
            hand_size=config.hand_size,
            cards=config.cards,
            quad_burns=int(config.quad == "burn"),
            from_table=int(config.face_up_play == "from_table"),
            voluntary=int(config.voluntary_pickup),
            lowest_first=int(config.first_player == "lowest_card"),
            until_last=int(config.play_until == "last"),
            max_turns=config.max_turns,
            num_actions=self.num_actions,
        )
        # ``allowed`` with a row below where no rank goes: the row of a seat owing the take
        self._goes = np.vstack([self.allowed, np.zeros_like(self.allowed[:1])])
        self._layout = _layout(config)
        # the most actions legal at once: ready and a swap of each hand card for each
        # face-up card, or in play the actions before the swaps and every play
        self._most = max(1 + KINDS * ROW, SWAP_BASE + self.num_actions - PLAY_BASE)
        self._idle = np.zeros(self.size, dtype=bool)
        self._everyone = np.ones(self.size, dtype=bool)
        self._no_actions = np.zeros(self.size, dtype=np.int64)
        card, cards, players = (-1, KINDS - 1), config.cards, config.players
        self._ranges = {
            "face_up": card,
            "face_down": card,
            "stock_from": (self.dealt, cards),
            "pile_size": (0, cards),
            "top": (0, self.allowed.shape[0] - 1),
            "burned_size": (0, cards),
            "phase": (0, len(PHASES) - 1),
            "seat": (0, players - 1),
            "pending": (0, len(PENDINGS) - 1),
            "places": (0, players),
        }

    def _check_record(self, games: Games) -> None:
        """The arrays the step and record index by within their ranges, and ``over`` as the
        phase says; what the compiled loop indexes by beyond these it bounds as it goes.
        """
        self._check_ranges(games, self._ranges)
        self._refuse(games, games.over != (games.data["phase"] == OVER), "over is not its phase's")

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        return self._advanced(None, self._no_actions, self._idle, seeds, self._everyone)

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Only the games ``where`` are dealt; the others' rows are copied as they are."""
        return self._advanced(games.data, self._no_actions, self._idle, seeds, where)

    def _stepped(
        self, games: Games, actions: Actions, playing: Flags, seeds: Seeds | None
    ) -> Games:
        """One compiled call plays, deals the games then over (with ``seeds``) and records."""
        return self._advanced(games.data, actions, playing, seeds)

    def _advanced(
        self,
        old: Mapping[str, Array] | None,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64] | None,
        where: NDArray[np.bool_] | None = None,
    ) -> Games:
        """The record after ``old`` (``None``: a new batch) plays ``actions`` where
        ``playing`` and, with ``seeds``, deals the games ``where`` (``None``: those then
        over), in copies of its arrays (a step that deals none shares the ``_FIXED``).
        """
        size = self.size
        data = {
            name: np.empty((size, *shape), dtype=dtype)
            if old is None
            else old[name]
            if seeds is None and name in _FIXED
            else old[name].copy()
            for name, (shape, dtype) in self._layout.items()
        }
        record = _Record(
            listed=np.empty((size + 1) * self._most + 1, dtype=np.int16),  # room to read past
            counts=np.empty(size, dtype=np.int64),
            player=np.empty(size, dtype=np.int64),
            scores=np.empty((size, self.players), dtype=np.int64),
            over=np.empty(size, dtype=bool),
        )
        legal_actions = _advance(
            _State(**data),
            actions,
            playing,
            seeds,
            where,
            self._numbers,
            self._goes,
            _NATURAL,
            record,
        )
        return Games._made(
            current_player=record.player,
            legal_actions=legal_actions,
            num_actions=self.num_actions,
            scores=record.scores,
            over=record.over,
            data=data,
        )

    # --- what the rules read -------------------------------------------------------

    def _winners(self, games: Games) -> NDArray[np.bool_]:
        """The first to finish, once the game is over."""
        won: NDArray[np.bool_] = (games.data["places"] == 1) & games.over[:, None]
        return won

    def _observe(self, games: Games) -> NDArray[np.float32]:
        """Each game's view for its seat to move (a spectator's once over), feature by
        feature in the order ``palace.observation.encode_view`` writes them.
        """
        config, n, players = self.config, self.size, self.config.players
        data = games.data
        over = games.over
        rows = np.arange(n)[:, None]
        seat = data["seat"].astype(np.int64)
        viewer = np.where(over, 0, seat)
        order = (viewer[:, None] + np.arange(players)) % players
        seats = np.arange(players)
        hands = data["hands"][rows, order]
        top = data["top"].astype(np.int64)
        burned = data["burned"].astype(np.int64) + 1 + (KINDS + 1) * np.arange(n)[:, None]
        burned_counts = np.bincount(burned.ravel(), minlength=n * (KINDS + 1))
        parts: list[Array] = [
            over[:, None],
            (seat[:, None] == seats) & ~over[:, None],
            data["phase"][:, None] == np.arange(len(PHASES)),
            data["pending"][:, None] == np.arange(len(PENDINGS)),
            (seat - viewer)[:, None] % players == seats,
            data["swaps"][:, None],
            data["turns"][:, None],
            hands[:, 0] * ~over[:, None],
            (data["face_up"][rows, order][..., None] == _CARD_NUMBERS).sum(axis=-2).reshape(n, -1),
            (data["face_down"][rows, order] >= 0).reshape(n, -1),
            data["known"][rows, order].reshape(n, -1),
            data["hand_size"][rows, order],
            data["places"][rows, order],
            data["pile_counts"],
            data["pile_size"][:, None],
            top[:, None] - 2 == np.arange(RANKS),
            data["top_run"][:, None],
            burned_counts.reshape(n, KINDS + 1)[:, 1:],
            data["burned_size"][:, None],
            (config.cards - data["stock_from"].astype(np.int64))[:, None],
        ]
        return np.concatenate([part.astype(np.float32) for part in parts], axis=1)

    def _state(self, games: Games, i: int) -> State:
        """Game ``i`` as the rules' ``State``, field by field."""
        game = {name: value[i] for name, value in games.data.items()}

        def held(counts: Array) -> tuple[Any, ...]:
            return tuple(DECK[card] for card in np.repeat(np.arange(KINDS), counts).tolist())

        def laid(cards: Array) -> tuple[Any, ...]:
            return tuple(DECK[card] for card in cards.tolist())

        def row(slots: Array) -> tuple[Any, ...]:
            return tuple(DECK[card] if card >= 0 else None for card in slots.tolist())

        places = game["places"].tolist()
        return State(
            config=self.config,
            seed=int(game["seed"]),
            hands=tuple(map(held, game["hands"])),
            known=tuple(map(held, game["known"])),
            face_up=tuple(map(row, game["face_up"])),
            face_down=tuple(map(row, game["face_down"])),
            stock=laid(game["deal"][int(game["stock_from"]) :]),
            pile=laid(game["pile"][: int(game["pile_size"])]),
            burned=laid(game["burned"][: int(game["burned_size"])]),
            phase=PHASES[int(game["phase"])],
            seat=int(game["seat"]),
            turns=int(game["turns"]),
            swaps=int(game["swaps"]),
            pending=PENDINGS[int(game["pending"])],
            finished=tuple(sorted((s for s, p in enumerate(places) if p), key=places.__getitem__)),
            deal=None,
        )


def _layout(config: Config) -> dict[str, tuple[tuple[int, ...], np.dtype[Any]]]:
    """Each array of a game's row: its shape (past the batch axis) and dtype."""
    players, cards = config.players, config.cards
    i8, i16 = np.dtype(np.int8), np.dtype(np.int16)
    return {
        "seed": ((), np.dtype(np.uint64)),
        "deal": ((cards,), i8),
        "hands": ((players, KINDS), i8),
        "known": ((players, KINDS), i8),
        "hand_size": ((players,), i16),
        "face_up": ((players, ROW), i8),
        "face_down": ((players, ROW), i8),
        "stock_from": ((), i16),
        "pile": ((cards,), i8),
        "pile_size": ((), i16),
        "pile_counts": ((KINDS,), i8),
        "top": ((), i8),
        "top_run": ((), i8),
        "burned": ((cards,), i8),
        "burned_size": ((), i16),
        "phase": ((), i8),
        "seat": ((), i8),
        "turns": ((), np.dtype(np.int32)),
        "swaps": ((), i8),
        "pending": ((), i8),
        "places": ((players,), i8),
    }


# --- compiled: one call a batch; ``g`` is a game, ``s`` its seat on turn -----------------


@jit
def _advance(
    state: _State,
    actions: Array,
    playing: Array,
    seeds: Array | None,
    where: Array | None,
    n: _Numbers,
    allowed: Array,
    natural: Array,
    record: _Record,
) -> Array:
    """Each game ``playing`` moves; with ``seeds``, the games ``where`` (``None``: those
    then over) are dealt; then the record is written, the lists returned by :func:`_packed`.
    """
    _play(actions, playing, n, allowed, natural, state)
    if seeds is not None:
        _deal(seeds, where, n, state)
    _record(n, allowed, state, record)
    return _packed(record.listed, record.counts)


@jit
def _deal(seeds: Array, where: Array | None, n: _Numbers, state: _State) -> None:
    """Each game ``where`` (``None``: each game over) dealt from its seed, as ``new_game``
    deals.
    """
    players, held, row = n.players, n.hand_size, ROW
    hands, face_up, face_down = state.hands, state.face_up, state.face_down
    for g in range(seeds.shape[0]):
        if where is None:
            if state.phase[g] != OVER:
                continue
        elif not where[g]:
            continue
        state.seed[g] = seeds[g]
        cards = state.deal[g]
        for k in range(cards.shape[0]):  # the decks in order, each card its number
            cards[k] = k % KINDS
        shuffle(seeds[g], cards)
        hands[g] = 0
        state.known[g] = 0
        for p in range(players):  # a card at a time in seat order: face down, face up, hand
            for slot in range(row):
                face_down[g, p, slot] = cards[slot * players + p]
                face_up[g, p, slot] = cards[(row + slot) * players + p]
            for k in range(held):
                hands[g, p, cards[(2 * row + k) * players + p]] += 1
            state.hand_size[g, p] = held
            state.places[g, p] = 0
        state.stock_from[g] = players * (2 * row + held)
        state.pile[g] = -1
        state.pile_size[g] = 0
        state.pile_counts[g] = 0
        state.top[g] = 0
        state.top_run[g] = 0
        state.burned[g] = -1
        state.burned_size[g] = 0
        state.phase[g] = SWAP
        state.seat[g] = 0
        state.turns[g] = 0
        state.swaps[g] = 0
        state.pending[g] = NONE


@jit
def _packed(listed: Array, counts: Array) -> Array:
    """The lists ``listed`` holds one after another (``counts[g]`` actions of game ``g``,
    then room for the widest list), each then -1, as wide as the longest (at least 1: a
    list is read by rank even where there is none).
    """
    size = counts.shape[0]
    width = 1
    for g in range(size):
        width = max(width, counts[g])
    packed = np.empty((size, width), dtype=np.int16)
    at = 0
    for g in range(size):  # the row whole, a select in each place: one loop LLVM vectorizes
        c, source, target = counts[g], listed[at : at + width], packed[g]
        for k in range(width):
            target[k] = source[k] if k < c else -1
        at += c
    return packed


@jit
def _play(
    actions: Array, playing: Array, n: _Numbers, allowed: Array, natural: Array, state: _State
) -> None:
    """Each game ``playing``'s seat on turn makes its move (legal), with all its effects:
    a burn, the refill, face-up cards into the hand, finishing, a replay, an extra play or
    the turn passing.
    """
    hands, known, hand_size, face_up = state.hands, state.known, state.hand_size, state.face_up
    face_down, stock_from = state.face_down, state.stock_from
    pile, pile_size = state.pile, state.pile_size
    pile_counts, top, top_run, phase = state.pile_counts, state.top, state.top_run, state.phase
    seat, turns, swaps, pending = state.seat, state.turns, state.swaps, state.pending
    burned, burned_size, places, deal = state.burned, state.burned_size, state.places, state.deal
    kinds, ranks, suits, row = KINDS, RANKS, SUITS, ROW
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action, s = actions[g], seat[g]
        if phase[g] == SWAP:
            if action >= PLAY_BASE:  # a move no list of the record's own allows
                raise IndexError("a play in the swap phase")
            if action >= SWAP_BASE:  # a hand card for a face-up card
                hand_card, up_card = (action - SWAP_BASE) // kinds, (action - SWAP_BASE) % kinds
                hands[g, s, hand_card] -= 1
                hands[g, s, up_card] += 1
                known[g, s, hand_card] = max(known[g, s, hand_card] - 1, 0)
                known[g, s, up_card] += 1
                for slot in range(row):
                    if face_up[g, s, slot] == up_card:  # the first equal card
                        face_up[g, s, slot] = hand_card
                        break
                swaps[g] += 1
            else:  # ready
                swaps[g] = 0
                if s + 1 < n.players:
                    seat[g] = s + 1
                else:
                    phase[g] = PLAY
                    seat[g] = _first_player(g, n, natural, hands)
            continue
        at = pile_size[g]  # the cards laid go on the pile in card order
        if action >= PLAY_BASE:
            rank, count = (action - PLAY_BASE) % ranks, (action - PLAY_BASE) // ranks + 1
            if hand_size[g, s] > 0:  # from the hand, the lowest suits first
                left = count
                for card in range(suits * rank, suits * rank + suits):
                    taken = min(left, hands[g, s, card])
                    hands[g, s, card] -= taken
                    known[g, s, card] = max(known[g, s, card] - taken, 0)
                    if at + taken > pile.shape[1]:  # more cards than the deck: no game's
                        raise IndexError("a play beyond the pile's room")
                    for _ in range(taken):
                        pile[g, at] = card
                        at += 1
                    left -= taken
                hand_size[g, s] -= count
            else:  # from the face-up row: the lowest cards, of equal ones the lowest slot
                for _ in range(count):
                    lowest = -1
                    for slot in range(row):
                        card = face_up[g, s, slot]
                        of_rank = card >= 0 and card // suits == rank
                        if of_rank and (lowest < 0 or card < face_up[g, s, lowest]):
                            lowest = slot
                    if lowest < 0 or at >= pile.shape[1]:  # a play no list of its own allows
                        raise IndexError("a face-up play of cards not on the table")
                    pile[g, at] = face_up[g, s, lowest]
                    at += 1
                    face_up[g, s, lowest] = -1
        elif action >= BLIND_ACTION:
            slot = action - BLIND_ACTION
            if slot >= row or face_down[g, s, slot] < 0:  # a move no list of the record's
                raise IndexError("a blind play of a face-down slot that is empty")
            card = face_down[g, s, slot]
            face_down[g, s, slot] = -1
            rank, count = card // suits, 1
            if allowed[top[g], rank]:
                if at >= pile.shape[1]:
                    raise IndexError("a play beyond the pile's room")
                pile[g, at] = card
                at += 1
            else:  # it goes into the hand with the pile
                hands[g, s, card] += 1
                known[g, s, card] += 1
                hand_size[g, s] += 1
                action = TAKE_ACTION
        if action == TAKE_ACTION:
            _take_pile(g, s, hands, known, hand_size, pile, pile_size, pile_counts, top, top_run)
        if action in (TAKE_ACTION, END_ACTION):
            _pass_turn(g, n, phase, seat, turns, pending, places, top)
            continue
        # the cards laid take effect
        size = at
        for k in range(pile_size[g], size):
            pile_counts[g, pile[g, k]] += 1
        run = (top_run[g] if top[g] == rank + 2 else 0) + count
        burn = rank + 2 == 10 or (n.quad_burns != 0 and run >= 4)
        if burn and burned_size[g] + size > burned.shape[1]:
            raise IndexError("a burn beyond the room of the burned cards")
        if burn:  # the whole pile leaves the game, bottom first
            for k in range(size):
                burned[g, burned_size[g] + k] = pile[g, k]
                pile[g, k] = -1
            burned_size[g] += size
            pile_counts[g] = 0
            pile_size[g] = 0
            top[g] = 0
            top_run[g] = 0
        else:
            pile_size[g] = size
            top[g] = rank + 2
            top_run[g] = run
        draw = min(max(n.hand_size - hand_size[g, s], 0), n.cards - stock_from[g])
        for k in range(stock_from[g], stock_from[g] + draw):  # the refill from the stock
            if not 0 <= deal[g, k] < kinds:
                raise IndexError("a card of the deal that is no card")
            hands[g, s, deal[g, k]] += 1
        hand_size[g, s] += draw
        stock_from[g] += draw
        face = 0  # the face-up and face-down cards left
        for slot in range(row):
            face += (face_up[g, s, slot] >= 0) + (face_down[g, s, slot] >= 0)
        if hand_size[g, s] == 0 and n.from_table == 0 and stock_from[g] == n.cards:
            known[g, s] = 0  # the face-up cards go into the hand, in view of all
            for slot in range(row):
                card = face_up[g, s, slot]
                if card >= 0:
                    hands[g, s, card] += 1
                    known[g, s, card] += 1
                    hand_size[g, s] += 1
                    face_up[g, s, slot] = -1
        if hand_size[g, s] == 0 and face == 0:  # the seat finished
            place = 1
            for p in range(n.players):
                place += places[g, p] > 0
            places[g, s] = place
            if n.until_last == 0 or n.players - place <= 1:
                phase[g] = OVER
                pending[g] = NONE
            else:
                _pass_turn(g, n, phase, seat, turns, pending, places, top)
        elif burn:
            pending[g] = REPLAY
        elif n.quad_burns == 0 and count >= 4:
            pending[g] = EXTRA
        else:
            _pass_turn(g, n, phase, seat, turns, pending, places, top)


@jit(inline=True)
def _first_player(g: int, n: _Numbers, natural: Array, hands: Array) -> int:
    """Who plays first: the first seat holding the lowest natural card, or seat 0."""
    lowest, first = RANKS, 0
    if n.lowest_first:
        for p in range(n.players):
            for rank in range(lowest):
                if natural[rank] and hands[g, p, SUITS * rank : SUITS * (rank + 1)].any():
                    lowest, first = rank, p
                    break
    return first


@jit(inline=True)
def _take_pile(
    g: int, s: int, hands: Array, known: Array, hand_size: Array, pile: Array, pile_size: Array,
    pile_counts: Array, top: Array, top_run: Array,
) -> None:  # fmt: skip
    """The pile goes into the hand in view of all."""
    for card in range(pile_counts.shape[1]):
        hands[g, s, card] += pile_counts[g, card]
        known[g, s, card] += pile_counts[g, card]
        pile_counts[g, card] = 0
    hand_size[g, s] += pile_size[g]
    for k in range(pile_size[g]):
        pile[g, k] = -1
    pile_size[g] = 0
    top[g] = 0
    top_run[g] = 0


@jit(inline=True)
def _pass_turn(
    g: int, n: _Numbers, phase: Array, seat: Array, turns: Array, pending: Array,
    places: Array, top: Array,
) -> None:  # fmt: skip
    """The turn passes to the next seat still holding cards, or the turns run out; a 3 on
    top makes that seat take the pile.
    """
    turns[g] += 1
    if turns[g] >= n.max_turns:
        phase[g] = OVER
        pending[g] = NONE
        return
    following = (seat[g] + 1) % n.players
    left = n.players  # past the seats that finished (play_until "last"), at most once
    while places[g, following] > 0 and left > 0:  # round: a written record may have none
        following = (following + 1) % n.players
        left -= 1
    seat[g] = following
    pending[g] = TAKE if top[g] == 3 else NONE


@jit
def _record(n: _Numbers, allowed: Array, state: _State, record: _Record) -> None:
    """Each game's legal actions ascending (the moves ``legal_moves`` lists), one game's
    after another's in ``record.listed``, and its seat to move, scores and end.
    """
    hands, hand_size = state.hands, state.hand_size
    face_up, face_down, top, phase = state.face_up, state.face_down, state.top, state.phase
    seat, pending, places = state.seat, state.pending, state.places
    listed, legal_counts, scores, over = record.listed, record.counts, record.scores, record.over
    players, kinds, ranks, row = n.players, KINDS, RANKS, ROW
    counts = (n.num_actions - PLAY_BASE) // ranks  # the most cards a play lays
    # a rank's four suits as one word: the word times 0x01010101 has its count in the top byte
    by_rank = hands.view(np.uint32)
    held_of = np.empty(ranks, dtype=np.int64)  # per rank, how many of it the seat may lay
    ups = np.empty(row, dtype=np.int64)  # the face-up cards, distinct, ascending
    at = 0
    for g in range(over.shape[0]):
        for p in range(players):
            scores[g, p] = players - places[g, p] if places[g, p] > 0 else 0
        first = at
        over[g] = phase[g] == OVER
        if over[g]:
            record.player[g] = NOBODY
            legal_counts[g] = 0
            continue
        s = seat[g]
        record.player[g] = s
        if phase[g] == SWAP:
            listed[at] = READY_ACTION
            at += 1
            if state.swaps[g] < MAX_SWAPS:  # each hand card for each other face-up card
                distinct = 0
                for slot in range(row):
                    up = face_up[g, s, slot]
                    place = distinct
                    while place > 0 and ups[place - 1] > up:
                        place -= 1
                    if place > 0 and ups[place - 1] == up:
                        continue  # an equal card (more than one deck): one action
                    for k in range(distinct, place, -1):
                        ups[k] = ups[k - 1]
                    ups[place] = up
                    distinct += 1
                for card in range(kinds):
                    if hands[g, s, card] > 0:
                        for k in range(distinct):
                            if ups[k] != card:
                                listed[at] = SWAP_BASE + kinds * card + ups[k]
                                at += 1
            legal_counts[g] = at - first
            continue
        owed = pending[g]
        in_hand = hand_size[g, s] > 0
        on_table = False  # cards to play from the face-up row (from_table, the hand empty)
        if n.from_table != 0 and not in_hand:
            for slot in range(row):
                on_table |= face_up[g, s, slot] >= 0
        # how many of each rank the seat holds where it plays from (the hand, or the row)
        if in_hand:
            words = by_rank[g, s]  # a row's view: a loop over it from 0 LLVM vectorizes
            for rank in range(ranks):
                held_of[rank] = (int(words[rank]) * 0x01010101 >> 24) & 0xFF
        else:
            held_of[:] = 0
            if on_table:
                for slot in range(row):
                    up = face_up[g, s, slot]
                    if up >= 0:
                        held_of[up // SUITS] += 1
        # then how many it may lay, branch-free: whether a rank may go on the top card is
        # as likely as not, and a branch on it was mispredicted half the time
        goes = allowed[top[g] if owed != TAKE else -1]  # the last row, all False: none goes
        cap = min(EXTRA_PLAY_MOST, counts) if owed == EXTRA else counts
        most = 0  # the most cards of one rank the seat may lay
        for rank in range(ranks):
            held = min(held_of[rank], cap) * goes[rank]
            held_of[rank] = held
            most = max(most, held)
        can_play = most > 0
        holding = in_hand or on_table
        if owed == TAKE or (
            owed == NONE
            and state.pile_size[g] > 0
            and ((holding and not can_play) or n.voluntary != 0)
        ):
            listed[at] = TAKE_ACTION
            at += 1
        if owed == EXTRA:
            listed[at] = END_ACTION
            at += 1
        if not holding and owed != TAKE and owed != EXTRA:
            for slot in range(row):
                if face_down[g, s, slot] >= 0:
                    listed[at] = BLIND_ACTION + slot
                    at += 1
        for count in range(most):  # a play's number: its count, then its rank
            for rank in range(ranks):  # written always, kept if held (branch-free)
                listed[at] = PLAY_BASE + ranks * count + rank
                at += held_of[rank] > count
        legal_counts[g] = at - first
