"""What makes a dice poker state one the rules can reach: the checks behind
:func:`~tabletop_rules.dice_poker.check_state`, which :func:`~tabletop_rules.dice_poker.check_view`
runs on the state a view deals.
"""

from __future__ import annotations

from collections import Counter

from .._messages import short_repr
from .._validation import Fail
from ..rng import SEED_BITS, Rng, is_valid_state
from .moves import BOXES_PER_STAGE, DICE_COUNT, Box
from .scoring import possible_points
from .state import Sheet, State, fewest_throws, open_mask, refuse, sheet_total, thrown_boxes

__all__: list[str] = []


def check_invariants(state: State, fail: Fail) -> None:
    """Call ``fail(why)`` unless the rules can reach ``state``: besides the fields' shapes, the
    stage orders, the fences its sheet can have banked, and a generator between the fewest
    throws made and twice the most draws past the seed's (:meth:`Rng.below
    <tabletop_rules.rng.Rng.below>` redraws with probability under ``2 ** -51.4``, so a
    state reached by play fails with probability below ``3.4e-16``). ``TypeError`` for
    what is no state or a ``fail`` that cannot be called.
    """
    if type(state) is not State:
        refuse(state)
    if not callable(fail):
        raise TypeError(f"fail must be a callable taking the reason, got {short_repr(fail)}")
    if not is_valid_state(state.seed):
        fail(f"seed must be in [0, 2**{SEED_BITS}), got {state.seed!r}")
    if not isinstance(state.rng, Rng) or not is_valid_state(state.rng.state):
        fail(f"rng must hold a state in [0, 2**{SEED_BITS}), got {state.rng!r}")
    config = state.config
    players = config.players
    if len(state.sheets) != players or len(state.fences) != players:
        fail(f"{players} players need {players} sheets and fence banks")
    boxes = config.boxes_per_player
    if not 0 <= state.turns_played <= config.turns_per_game:
        fail(f"turns_played must be 0 to {config.turns_per_game}, got {state.turns_played}")
    rounds, seat = divmod(state.turns_played, players)  # seat: the seat on turn
    possible = possible_points(config.box_scores)
    most_throws = state.throws_used
    for player, (sheet, bank) in enumerate(zip(state.sheets, state.fences, strict=True)):
        if len(sheet) != boxes:
            fail(f"seat {player}'s sheet has {len(sheet)} boxes, not {boxes}")
        filled = sum(cell is not None for cell in sheet)
        expected = rounds + (player < seat)
        if filled != expected:
            fail(
                f"seat {player} has filled {filled} boxes after {state.turns_played} turns; "
                f"one box is filled per turn, so {expected}"
            )
        for index, cell in enumerate(sheet):
            box = Box(index % BOXES_PER_STAGE)
            if cell is not None and cell not in possible[box]:
                fail(f"{box.name} cannot hold {cell!r}: no throw scores that there")
        for stage in range(config.stages):
            base = stage * BOXES_PER_STAGE
            cells = sheet[base : base + BOXES_PER_STAGE]
            stage_filled = min(max(filled - base, 0), BOXES_PER_STAGE)
            if sum(cell is not None for cell in cells) != stage_filled:
                fail(f"seat {player} filled stage {stage + 1} out of sequence")
            _check_order(config.stage_order(stage), cells, player, stage, fail)
        if not isinstance(bank, int) or bank < 0:
            fail(f"seat {player}'s fences must be a whole number >= 0, got {bank!r}")
        if config.max_fences is not None and bank > config.max_fences:
            fail(f"seat {player} has {bank} fences, over the cap max_fences={config.max_fences}")
        if not config.fences and bank:
            fail(f"seat {player} has {bank} fences but fences are off")
        thrown = thrown_boxes(sheet)
        most_banked = config.throws_per_turn * filled - thrown
        if bank > most_banked:
            fail(
                f"seat {player} has {bank} fences but its sheet allows at most {most_banked}: "
                f"{filled - thrown} poker boxes hold 0 (if scratched before throwing, each "
                f"banked {config.throws_per_turn}) and {thrown} boxes needed a throw (each "
                f"banked at most throws_per_turn - 1 = {config.throws_per_turn - 1})"
            )
        most_throws += config.throws_per_turn * filled - bank
        if len(state.open_masks) != players or state.open_masks[player] != open_mask(sheet):
            fail(f"seat {player}'s open_masks entry does not match its sheet")
        if len(state.totals) != players or state.totals[player] != sheet_total(config, sheet):
            fail(f"seat {player}'s totals entry does not match its sheet")
    _check_turn(state, fail)
    _check_generator(state, fewest_throws(state), most_throws, fail)


def _check_turn(state: State, fail: Fail) -> None:
    """The dice, the throws and the announcement of the turn in progress."""
    config = state.config
    if any(not isinstance(face, int) or not 1 <= face <= 6 for face in state.dice):
        fail(f"dice must show 1 to 6, got {state.dice}")
    if state.dice != tuple(sorted(state.dice)) or len(state.dice) not in (0, DICE_COUNT):
        fail(f"dice must be empty or five sorted faces, got {state.dice}")
    over = state.turns_played == config.turns_per_game
    if over and (state.dice or state.throws_used or state.pending_keep is not None):
        fail("the game is over but a turn is in progress")
    allowed = state.throws_allowed if not over else 0
    if not 0 <= state.throws_used <= allowed:
        fail(
            f"throws_used must be 0 to {allowed} (throws_per_turn + fences), "
            f"got {state.throws_used}"
        )
    pending = state.pending_keep
    if pending is not None:
        if config.auto_chance:
            fail("a throw awaits its dice, but auto_chance is on")
        if state.throws_used == 0 or len(pending) >= DICE_COUNT:
            fail(f"pending_keep {pending} is not what a throw can keep")
        if any(not 1 <= face <= 6 for face in pending) or pending != tuple(sorted(pending)):
            fail(f"pending_keep must be sorted faces 1 to 6, got {pending}")
        if bool(state.dice) != (state.throws_used > 1):
            fail(
                "while a throw is in the air the table shows the throw before it: no dice "
                "after throw 1, five dice after later throws"
            )
        if state.throws_used == 1 and pending:
            fail(f"pending_keep {pending}: the first throw of a turn rolls all five dice")
        if state.dice and Counter(pending) - Counter(state.dice):
            fail(f"pending_keep {pending} keeps dice that are not on the table {state.dice}")
    elif bool(state.dice) != bool(state.throws_used):
        fail("dice are on the table exactly when the turn has thrown")
    order = config.stage_order(state.stage)
    if state.announced is not None:
        if order != "announce":
            fail(f"a box was announced in {order!r} order")
        if state.cell(state.seat, state.stage, state.announced) is not None:
            fail(f"the announced box {state.announced.name} is filled already")
        if not state.dice:
            fail("a box was announced before the first throw landed")
    elif order == "announce" and state.throws_used >= 2:
        fail("in announce order a box must be announced after the first throw")


def _check_order(order: str, cells: Sheet, player: int, stage: int, fail: Fail) -> None:
    """A stage played ``down`` has a prefix of its boxes filled, one played ``up`` a suffix."""
    boxes = list(Box) if order == "down" else list(reversed(Box))
    opened = [at for at, box in enumerate(boxes) if cells[box] is None]
    early = [box for box in boxes[opened[0] :] if cells[box] is not None] if opened else []
    if order in ("down", "up") and early:
        fail(
            f"seat {player} filled {early[0].name} of stage {stage + 1} before "
            f"{boxes[opened[0]].name}, but stage {stage + 1} is played {order!r}"
        )


def _check_generator(state: State, fewest: int, most: int, fail: Fail) -> None:
    """The generator is the seed's, moved by one draw or a little more per throw made."""
    seeded = Rng.from_seed(state.seed)
    if not state.config.auto_chance:
        if state.rng != seeded:
            fail(
                f"with auto_chance off the dice are given as moves and the generator never "
                f"draws, so it must be the seed's, Rng(state={state.seed}), not {state.rng!r}"
            )
        return
    if state.turns_played == 0 and state.throws_used == 0 and state.rng != seeded:
        fail(
            f"no throw has been made yet, so the generator must be the seed's, "
            f"Rng(state={state.seed}), not {state.rng!r}"
        )
    draws = state.rng.draws_since(state.seed)
    if draws < fewest:
        fail(
            f"the generator is {draws} draws past the seed's, but the game has made at least "
            f"{fewest} throws and each throw draws at least once"
        )
    if draws > 2 * most:
        fail(
            f"the generator is {draws} draws past the seed's, more than twice the {most} "
            f"throws the game can have made (a draw is rejected with probability under 2**-51)"
        )
