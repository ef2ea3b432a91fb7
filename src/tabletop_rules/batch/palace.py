"""Palace's batched kernel: thousands of palace games a call over NumPy arrays, each the
game :func:`tabletop_rules.palace.new_game` deals from the same seed and
:func:`~tabletop_rules.palace.apply` plays from the same moves.

Every house rule of :class:`~tabletop_rules.palace.Config` is taken: players, decks,
hand_size, must_beat, quad, face_up_play, voluntary_pickup, first_player, play_until and
max_turns: no config ``Config`` allows is refused.

A card is its place in :data:`~tabletop_rules.palace.cards.DECK` (0 to 51: rank by rank,
suits in order); hands and known cards are counts of each card, so they are sorted as the
rules keep them; rows, the pile and the burned cards are card numbers padded with -1.

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
from typing import Any, get_args

import numpy as np
from numpy.typing import NDArray

from ..palace import Config, State
from ..palace import rules as palace_rules
from ..palace.cards import BONUS_RANKS, DECK
from ..palace.cards import RANKS as RANK_LIST
from ..palace.cards import SUITS as SUIT_LIST
from ..palace.config import ROW
from ..palace.moves import BLIND, END_TURN, MOVE_TABLE, PLAY_BASE, READY, SWAP_BASE, TAKE_PILE
from ..palace.rules import EXTRA_PLAY_MOST
from ..palace.state import MAX_SWAPS, PENDINGS, Phase
from . import rng
from .frame import NOBODY, Engine, Games

__all__ = ["PalaceEngine"]

Array = NDArray[Any]
Index = NDArray[np.intp]

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
_SUIT_NUMBERS = np.arange(SUITS)
_RANK_NUMBERS = np.arange(RANKS)
_RANK_WIDTH = 16
"""Ranks padded to 16 bytes a row in the mask's arithmetic."""
_NATURAL = np.array([rank not in BONUS_RANKS for rank in RANK_LIST])
"""Per rank (2 first), whether it is a natural card."""


def _allowed_table(strict: bool) -> NDArray[np.bool_]:
    """``[top rank (0: an empty pile), rank - 2]``: may the rank go on the top card, as
    the rules' own table says.
    """
    return np.array([row[2:] for row in palace_rules._ALLOWED[strict]], dtype=bool)


def _allowed_words(allowed: NDArray[np.bool_]) -> NDArray[np.uint64]:
    """``[top rank]``: the table's row as two 64-bit words, a byte of ones per rank that
    may go on it: a hand's rank counts masked by it in two operations.
    """
    rows = np.zeros((allowed.shape[0], _RANK_WIDTH), dtype=np.uint8)
    rows[:, :RANKS] = np.where(allowed, 0xFF, 0)
    return _words(rows)


def _card_counts(slots: Array) -> NDArray[np.int8]:
    """``(..., 52)``: how often each card lies in ``slots`` (``(..., k)``, -1 for none)."""
    counts: NDArray[np.int8] = (slots[..., None] == _CARD_NUMBERS).sum(axis=-2, dtype=np.int8)
    return counts


def _rank_counts(cards: Array) -> NDArray[np.int8]:
    """``(k, 16)``: the cards of each rank (2 first; the last three always 0, so that a
    row reads as two 64-bit words) in ``(k, 52)`` card counts. A rank's four suits are four
    bytes side by side: read as one 32-bit word, multiplying by ``0x01010101`` adds them
    into its top byte.
    """
    words = np.ascontiguousarray(cards).view(np.uint32)
    counts = np.zeros((cards.shape[0], _RANK_WIDTH), dtype=np.int8)
    counts[:, :RANKS] = (words * np.uint32(0x01010101)) >> np.uint32(24)
    return counts


def _words(counts: Array) -> NDArray[np.uint64]:
    """``(k, 16)`` bytes as ``(k, 2)`` 64-bit words: sixteen ranks tested at once."""
    words: NDArray[np.uint64] = counts.view(np.uint64)
    return words


class _Work:
    """A mutable copy of the arrays a step changes (``arrays``, named as in ``Games.data``),
    each also an attribute; the per-seat ones as views with one row per (game, seat):
    row ``game * players + seat``.
    """

    def __init__(self, data: Mapping[str, Array], players: int) -> None:
        self.arrays = {
            name: value if name in ("seed", "deal") else value.copy()
            for name, value in data.items()
        }
        self.deal = self.arrays["deal"]  # only the seed and the deal never change
        rows = data["seat"].shape[0] * players
        self.hands = self.arrays["hands"].reshape(rows, KINDS)
        self.known = self.arrays["known"].reshape(rows, KINDS)
        self.hand_size = self.arrays["hand_size"].reshape(rows)
        self.face_up = self.arrays["face_up"].reshape(rows, ROW)
        self.face_down = self.arrays["face_down"].reshape(rows, ROW)
        self.places = self.arrays["places"]
        self.place = self.places.reshape(rows)
        self.stock_from = self.arrays["stock_from"]
        self.pile = self.arrays["pile"]
        self.pile_size = self.arrays["pile_size"]
        self.pile_counts = self.arrays["pile_counts"]
        self.top = self.arrays["top"]
        self.top_run = self.arrays["top_run"]
        self.burned = self.arrays["burned"]
        self.burned_size = self.arrays["burned_size"]
        self.phase = self.arrays["phase"]
        self.seat = self.arrays["seat"]
        self.turns = self.arrays["turns"]
        self.swaps = self.arrays["swaps"]
        self.pending = self.arrays["pending"]


class PalaceEngine(Engine):
    """Palace under one :class:`~tabletop_rules.palace.Config`, ``size`` games a call.

    ``Games.data`` holds, per game: ``seed``; ``deal`` (the deck order, top card first);
    ``hands`` and ``known`` (``(players, 52)`` counts) and ``hand_size``; ``face_up`` and
    ``face_down`` (``(players, 3)``); ``stock_from`` (the stock is ``deal[stock_from:]``);
    ``pile`` and ``burned`` (bottom first) with ``pile_size`` and ``burned_size``;
    ``pile_counts``; ``top`` (the top card's rank, 0 for an empty pile) and ``top_run``
    (cards of that rank on top); ``phase``, ``seat``, ``turns``, ``swaps`` and ``pending``
    as the state's; and ``places`` (each seat's finishing place from 1, 0 while it holds
    cards).
    """

    game = "palace"
    config: Config

    def _prepare(self) -> None:
        config = self.config
        self.cards = config.cards
        self.dealt = config.players * (2 * ROW + config.hand_size)
        self.allowed = _allowed_table(config.must_beat == "higher")
        self.allowed_words = _allowed_words(self.allowed)
        self.duplicates = config.decks > 1  # equal cards: a scatter adds with np.add.at
        self.rows = np.arange(self.size)
        self.first_rows = self.rows * config.players

    def _check_record(self, games: Games) -> None:
        """The arrays whose values the step and record index by, within their ranges (the
        seat, the phase, the top card, the cards on the table, the stock's and the pile's
        places), and ``over`` as the phase says: a min and a max of small arrays. What the
        compiled loop indexes by beyond these (a card of the deal, the pile's next place,
        the seat after) it bounds as it goes.
        """
        cards, players = self.cards, self.players
        card = (-1, KINDS - 1)
        self._check_ranges(
            games,
            {
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
            },
        )
        self._refuse(games, games.over != (games.data["phase"] == OVER), "over is not its phase's")

    # --- the deal ------------------------------------------------------------------

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        return self._record(self._dealt(seeds))

    def _dealt(self, seeds: NDArray[np.uint64]) -> dict[str, Array]:
        """The arrays of new games, one a seed, as ``new_game`` deals them."""
        config, n, players = self.config, len(seeds), self.config.players
        deck = np.tile(np.tile(_CARD_NUMBERS, config.decks), (n, 1))
        deal, _after = rng.shuffled(seeds.copy(), deck)
        places = np.arange(players)
        face_down = np.stack([deal[:, slot * players + places] for slot in range(ROW)], axis=2)
        face_up = np.stack(
            [deal[:, (ROW + slot) * players + places] for slot in range(ROW)], axis=2
        )
        hand_cards = np.stack(
            [deal[:, (2 * ROW + k) * players + places] for k in range(config.hand_size)], axis=2
        )
        hands = _card_counts(hand_cards)
        data: dict[str, Array] = {
            "seed": seeds.copy(),
            "deal": deal,
            "hands": hands,
            "known": np.zeros_like(hands),
            "hand_size": np.full((n, players), config.hand_size, dtype=np.int16),
            "face_up": face_up,
            "face_down": face_down,
            "stock_from": np.full(n, self.dealt, dtype=np.int16),
            "pile": np.full((n, self.cards), -1, dtype=np.int8),
            "pile_size": np.zeros(n, dtype=np.int16),
            "pile_counts": np.zeros((n, KINDS), dtype=np.int8),
            "top": np.zeros(n, dtype=np.int8),
            "top_run": np.zeros(n, dtype=np.int8),
            "burned": np.full((n, self.cards), -1, dtype=np.int8),
            "burned_size": np.zeros(n, dtype=np.int16),
            "phase": np.full(n, SWAP, dtype=np.int8),
            "seat": np.zeros(n, dtype=np.int8),
            "turns": np.zeros(n, dtype=np.int32),
            "swaps": np.zeros(n, dtype=np.int8),
            "pending": np.full(n, NONE, dtype=np.int8),
            "places": np.zeros((n, players), dtype=np.int8),
        }
        return data

    # --- a step --------------------------------------------------------------------

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        return self._record(self._played(games, actions, playing))

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Copies of the arrays, the games ``where`` alone dealt into them; one record."""
        data = {name: value.copy() for name, value in games.data.items()}
        rows = np.flatnonzero(where)
        self._dealt_into(data, games.data, rows, self._dealt(seeds[rows]))
        return self._record(data)

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """The step, the games then over dealt into its new arrays' rows, one record."""
        data = self._played(games, actions, playing)
        rows = np.flatnonzero(data["phase"] == OVER)
        if rows.size:
            self._dealt_into(data, games.data, rows, self._dealt(seeds[rows]))
        return self._record(data)

    def _played(
        self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> dict[str, Array]:
        """The arrays after the games ``playing`` play: new ones, but for the seed and
        the deal, which a step never changes.
        """
        work = _Work(games.data, self.config.players)
        phase = games.data["phase"]
        swapping = np.flatnonzero(playing & (phase == SWAP))
        if swapping.size:
            self._swap_phase(work, swapping, actions[swapping])
        in_play = np.flatnonzero(playing & (phase == PLAY))
        if in_play.size:
            self._play(work, in_play, actions[in_play])
        return work.arrays

    def _at(self, work: _Work, g: Index) -> Index:
        """The row of each game's seat on turn in the per-seat arrays."""
        at: Index = self.first_rows[g] + work.seat[g]
        return at

    def _swap_phase(self, work: _Work, g: Index, actions: Array) -> None:
        """Swaps (a hand card for a face-up card) and ``ready``."""
        swap = actions >= SWAP_BASE
        at, number = self._at(work, g[swap]), actions[swap] - SWAP_BASE
        hand_card, up_card = number // KINDS, number % KINDS
        work.hands[at, hand_card] -= 1
        work.hands[at, up_card] += 1
        work.known[at, hand_card] = np.maximum(work.known[at, hand_card] - 1, 0)
        work.known[at, up_card] += 1
        slot = (work.face_up[at] == up_card[:, None]).argmax(axis=1)  # the first equal card
        work.face_up[at, slot] = hand_card
        work.swaps[g[swap]] += 1
        ready = g[~swap]
        work.swaps[ready] = 0
        last = work.seat[ready] + 1 >= self.config.players
        work.seat[ready[~last]] += 1
        starting = ready[last]
        work.phase[starting] = PLAY
        work.seat[starting] = self._first_player(work.arrays["hands"][starting])

    def _first_player(self, hands: Array) -> Array:
        """Who plays first once every seat holds ``hands`` (``(k, players, 52)``)."""
        if self.config.first_player == "seat0":
            return np.zeros(hands.shape[0], dtype=np.int8)
        naturals = hands.reshape(*hands.shape[:2], RANKS, SUITS).any(axis=3) & _NATURAL
        lowest = np.where(naturals.any(axis=2), naturals.argmax(axis=2), RANKS)
        seat: Array = lowest.argmin(axis=1)  # the first seat holding the lowest
        return seat

    def _play(self, work: _Work, g: Index, actions: Array) -> None:
        """A play, a blind card, taking the pile or ending the turn, in each game of ``g``."""
        passing = [g[(actions == TAKE_ACTION) | (actions == END_ACTION)]]
        takers = [g[actions == TAKE_ACTION]]
        plays = actions >= PLAY_BASE
        pg, number = g[plays], actions[plays] - PLAY_BASE
        rank_index, count = number % RANKS, number // RANKS + 1
        at = self._at(work, pg)
        hand = work.hand_size[at] > 0
        lays = [(pg[hand], rank_index[hand], count[hand])]
        laid = [self._from_hand(work, at[hand], rank_index[hand], count[hand])]
        if self.config.face_up_play == "from_table" and not hand.all():
            lays.append((pg[~hand], rank_index[~hand], count[~hand]))
            laid.append(self._from_table(work, at[~hand], rank_index[~hand], count[~hand]))
        blinds = (actions >= BLIND_ACTION) & (actions < SWAP_BASE)
        if blinds.any():
            bg, slot = g[blinds], actions[blinds] - BLIND_ACTION
            at = self._at(work, bg)
            card = work.face_down[at, slot].astype(np.intp)
            work.face_down[at, slot] = -1
            goes = self.allowed[work.top[bg], card // SUITS]
            lays.append((bg[goes], card[goes] // SUITS, np.ones(int(goes.sum()), dtype=np.intp)))
            laid.append((card[goes, None] % SUITS == _SUIT_NUMBERS).astype(np.int8))
            turned, at, card = bg[~goes], at[~goes], card[~goes]
            work.hands[at, card] += 1  # taken with the pile, below
            work.known[at, card] += 1
            work.hand_size[at] += 1
            takers.append(turned)
            passing.append(turned)
        lay_games, lay_ranks, lay_counts = (
            np.concatenate(part) for part in zip(*lays, strict=True)
        )
        if lay_games.size:
            passing.append(self._lay(work, lay_games, lay_ranks, lay_counts, np.concatenate(laid)))
        self._take_pile(work, np.concatenate(takers))
        self._pass_turn(work, np.concatenate(passing))

    @staticmethod
    def _from_hand(work: _Work, at: Index, rank_index: Array, count: Array) -> Array:
        """Take ``count`` cards of the rank from each hand, lowest suits first; ``(k, 4)``:
        the cards of each suit laid.
        """
        cells = (at * KINDS + SUITS * rank_index)[:, None] + _SUIT_NUMBERS
        hands, known = work.hands.reshape(-1), work.known.reshape(-1)
        held = hands[cells]
        before = held.cumsum(axis=1, dtype=np.int8) - held
        taken: Array = np.minimum(np.maximum(count[:, None] - before, 0), held).astype(np.int8)
        hands[cells] = held - taken
        known[cells] = np.maximum(known[cells] - taken, 0)
        work.hand_size[at] -= count.astype(np.int16)
        return taken

    @staticmethod
    def _from_table(work: _Work, at: Index, rank_index: Array, count: Array) -> Array:
        """Take ``count`` face-up cards of the rank from each row, the lowest cards first
        and, of equal ones, the lowest slot; ``(k, 4)``: the cards of each suit laid.
        """
        row = work.face_up[at].astype(np.int64)
        of_rank = (row >= 0) & (row // SUITS == rank_index[:, None])
        key = np.where(of_rank, row * ROW + np.arange(ROW), KINDS * ROW)
        order = (key[:, None, :] < key[:, :, None]).sum(axis=2)  # each slot's place
        taken = of_rank & (order < count[:, None])
        work.face_up[at] = np.where(taken, -1, row)
        suits = row[:, :, None] % SUITS == _SUIT_NUMBERS
        laid: Array = (taken[:, :, None] & suits).sum(axis=1, dtype=np.int8)
        return laid

    def _lay(self, work: _Work, g: Index, rank_index: Array, count: Array, laid: Array) -> Index:
        """The cards go on the pile with all their effects (burn, refill, face-up cards
        into the hand, finishing, a replay, an extra play); the games whose turn passes.
        """
        config = self.config
        # the cards laid, game by game in suit order: each card of the rank as often as laid
        rows = np.repeat(g, count)
        cards = np.repeat((SUITS * rank_index[:, None] + _SUIT_NUMBERS).ravel(), laid.ravel())
        size = work.pile_size[g]
        shift = np.repeat(np.cumsum(count) - count - size, count)  # a card's place in rows
        work.pile[rows, np.arange(rows.size) - shift] = cards  # ... less shift: on the pile
        self._add(work.pile_counts.reshape(-1), rows * KINDS + cards)
        size = size + count
        rank = rank_index + 2
        run = np.where(work.top[g] == rank, work.top_run[g], 0) + count
        burn = rank == 10
        if config.quad == "burn":
            burn |= run >= 4
        work.pile_size[g] = np.where(burn, 0, size)
        work.top[g] = np.where(burn, 0, rank)
        work.top_run[g] = np.where(burn, 0, run)
        if burn.any():
            self._burn(work, g[burn], size[burn])
        at = self._at(work, g)
        self._refill(work, g, at)
        empty = work.hand_size[at] == 0
        if config.face_up_play == "take_into_hand" and empty.any():
            self._face_up_into_hand(work, g[empty], at[empty])
            empty = work.hand_size[at] == 0
        out = empty
        out[empty] = (work.face_up[at[empty]].max(axis=1) < 0) & (
            work.face_down[at[empty]].max(axis=1) < 0
        )
        passing = [self._finish(work, g[out], work.seat[g[out]])]
        passes = ~out & ~burn
        if config.quad == "extra_play":
            extra = passes & (count >= 4)
            work.pending[g[extra]] = EXTRA
            passes &= ~extra
        work.pending[g[~out & burn]] = REPLAY
        passing.append(g[passes])
        return np.concatenate(passing)

    def _add(self, counts: Array, cells: Array) -> None:
        """One more card in each of ``cells`` of the flat ``counts`` (a cell twice over
        only with several decks).
        """
        if self.duplicates:
            np.add.at(counts, cells, 1)
        else:
            counts[cells] += 1

    @staticmethod
    def _burn(work: _Work, g: Index, size: Array) -> None:
        """The whole pile leaves the game, bottom first."""
        steps = np.arange(int(size.max()))
        moved = steps < size[:, None]
        rows = np.broadcast_to(g[:, None], moved.shape)[moved]
        at = work.burned_size[g][:, None] + steps
        work.burned[rows, at[moved]] = work.pile[g, : steps.size][moved]
        work.burned_size[g] += size.astype(np.int16)
        work.pile[g] = -1
        work.pile_counts[g] = 0

    def _refill(self, work: _Work, g: Index, at: Index) -> None:
        """While the stock lasts, draw up to ``hand_size`` cards in hand."""
        left = self.cards - work.stock_from[g]
        draw = np.minimum(np.maximum(self.config.hand_size - work.hand_size[at], 0), left)
        drawing = draw > 0
        if not drawing.any():
            return
        g, at, draw = g[drawing], at[drawing], draw[drawing]
        rows = np.repeat(g, draw)
        shift = np.repeat(np.cumsum(draw) - draw - work.stock_from[g], draw)
        cards = work.deal[rows, np.arange(rows.size) - shift]  # the stock's first cards
        self._add(work.hands.reshape(-1), np.repeat(at, draw) * KINDS + cards)
        work.hand_size[at] += draw
        work.stock_from[g] += draw

    def _face_up_into_hand(self, work: _Work, g: Index, at: Index) -> None:
        """With hand and stock empty, the face-up cards go into the hand, in view of all."""
        taking = work.stock_from[g] == self.cards
        at = at[taking]
        up = work.face_up[at]
        counts = _card_counts(up)
        work.hands[at] = counts
        work.known[at] = counts
        work.hand_size[at] = (up >= 0).sum(axis=1)
        work.face_up[at] = -1

    def _finish(self, work: _Work, g: Index, seat: Array) -> Index:
        """The seats have no cards left; the games whose turn passes (the others end)."""
        place = (work.places[g] > 0).sum(axis=1) + 1
        work.places[g, seat] = place
        ends = self.config.players - place <= 1
        if self.config.play_until == "first_out":
            ends[:] = True
        self._game_over(work, g[ends])
        passing: Index = g[~ends]
        return passing

    def _take_pile(self, work: _Work, g: Index) -> None:
        """The pile goes into the hand in view of all (a turned blind card is in already)."""
        if not g.size:
            return
        at = self._at(work, g)
        work.hands[at] += work.pile_counts[g]
        work.known[at] += work.pile_counts[g]
        work.hand_size[at] += work.pile_size[g]
        work.pile[g] = -1
        work.pile_size[g] = 0
        work.pile_counts[g] = 0
        work.top[g] = 0
        work.top_run[g] = 0

    def _pass_turn(self, work: _Work, g: Index) -> None:
        """The turn passes to the next seat still holding cards, or the turns run out; a 3
        on top makes that seat take the pile.
        """
        config = self.config
        turns = work.turns[g] + 1
        work.turns[g] = turns
        ending = turns >= config.max_turns
        if ending.any():
            self._game_over(work, g[ending])
            g = g[~ending]
        following = (work.seat[g] + 1) % config.players
        if config.play_until == "last":
            for _ in range(config.players - 2):  # at most players - 2 have finished
                taken = work.place[self.first_rows[g] + following] > 0
                following = np.where(taken, (following + 1) % config.players, following)
        work.seat[g] = following
        work.pending[g] = np.where(work.top[g] == 3, TAKE, NONE)

    @staticmethod
    def _game_over(work: _Work, g: Index) -> None:
        work.phase[g] = OVER
        work.pending[g] = NONE

    # --- the record ----------------------------------------------------------------

    def _record(self, data: dict[str, Array]) -> Games:
        over = data["phase"] == OVER
        places = data["places"].astype(np.int64)
        return Games._made(
            current_player=np.where(over, NOBODY, data["seat"]).astype(np.int64),
            legal_mask=self._legal_mask(data),
            scores=np.where(places > 0, self.config.players - places, 0),
            over=over,
            data=data,
        )

    def _legal_mask(self, data: dict[str, Array]) -> NDArray[np.bool_]:
        """Each game's ``legal_mask``, the moves ``legal_moves`` lists."""
        config, n = self.config, self.size
        phase, pending, top = data["phase"], data["pending"], data["top"]
        at = self.first_rows + data["seat"]
        mask = np.zeros((n, self.num_actions), dtype=bool)
        swapping = phase == SWAP
        mask[:, READY_ACTION] = swapping
        choosing = np.flatnonzero(swapping & (data["swaps"] < MAX_SWAPS))
        if choosing.size:  # a swap of each hand card for each other face-up card
            game, hand_card = np.nonzero(data["hands"].reshape(-1, KINDS)[at[choosing]])
            up = data["face_up"].reshape(-1, ROW)[at[choosing]][game].astype(np.intp)
            row = choosing[game, None]
            swaps = (row * self.num_actions + SWAP_BASE + KINDS * hand_card[:, None] + up)[
                up != hand_card[:, None]
            ]
            mask.reshape(-1)[swaps] = True
        playing = phase == PLAY
        held = _rank_counts(np.take(data["hands"].reshape(-1, KINDS), at, axis=0))
        holding = np.take(data["hand_size"].reshape(-1), at) > 0
        if config.face_up_play == "from_table":
            up = np.take(data["face_up"].reshape(-1, ROW), at, axis=0)
            on_table = np.zeros((n, _RANK_WIDTH), dtype=np.int8)
            for slot in range(ROW):
                on_table[:, :RANKS] += up[:, slot, None] // SUITS == _RANK_NUMBERS
            held = np.where(holding[:, None], held, on_table)
            holding |= up.max(axis=1) >= 0
        extra = pending == EXTRA
        if extra.any():
            held = np.where(extra[:, None], np.minimum(held, EXTRA_PLAY_MOST), held)
        laying = playing & (pending != TAKE)
        words = _words(held) & np.take(self.allowed_words, top, axis=0)
        words[~laying] = 0
        reach = words.view(np.int8)  # each rank's cards that may be laid, up to the most
        for count in range(1, SUITS * config.decks + 1):
            block = PLAY_BASE + RANKS * (count - 1)
            mask[:, block : block + RANKS] = reach[:, :RANKS] >= count
        can_play = (words[:, 0] | words[:, 1]) != 0
        pile = data["pile_size"] > 0
        mask[:, TAKE_ACTION] = playing & (
            (pending == TAKE)
            | ((pending == NONE) & pile & ((holding & ~can_play) | config.voluntary_pickup))
        )
        mask[:, END_ACTION] = extra
        blind = playing & ~holding & (pending != TAKE) & ~extra
        if blind.any():
            down = np.take(data["face_down"].reshape(-1, ROW), at, axis=0) >= 0
            mask[:, BLIND_ACTION : BLIND_ACTION + ROW] = blind[:, None] & down
        return mask

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
            _card_counts(data["face_up"][rows, order]).reshape(n, -1),
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
        finished = tuple(
            sorted((s for s in range(len(places)) if places[s]), key=places.__getitem__)
        )
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
            finished=finished,
            deal=None,
        )
