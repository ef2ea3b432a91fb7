"""LowCardBot: clearly stronger than RandomBot, and legal under every house rule."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import palace as p
from tabletop_rules.bots import RandomBot
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.protocol import Bot
from tabletop_rules.simulate import play_game

from .helpers import play, position


class CheckedBot:
    """Wraps a bot and fails the test the moment it picks a move that is not legal."""

    def __init__(self, bot: Bot[p.View, p.Move]) -> None:
        self.bot = bot
        self.moves = 0

    def choose(self, view: p.View) -> p.Move:
        assert view.current_player == view.seat
        move = self.bot.choose(view)
        assert move in view.legal_moves, f"{move!r} is not legal in {view!r}"
        self.moves += 1
        return move


def test_low_card_bot_beats_random_bot_clearly() -> None:
    """Over 1,000 seeded two-player games of ``Config()``, the bot taking seat 0 and
    seat 1 in turn (game ``i``: seed ``i``, LowCardBot in seat ``i % 2``, the RandomBot
    seeded with ``i``).

    Measured when this test was written: LowCardBot won 986 games (494 from seat 0, 492
    from seat 1), lost 14, and no game reached ``max_turns`` without a winner; a game
    took 138.5 passings of the turn on average. The thresholds, 95% of the games and 470
    from each seat, leave room for retuning the bot while still demanding a clear win.
    The 1,000 games take about 7 s.
    """
    wins = {0: 0, 1: 0}
    losses = no_winner = 0
    for seed in range(1000):
        seat = seed % 2
        bots: list[Bot[p.View, p.Move]] = [RandomBot(p.RULES, seed=seed)] * 2
        bots[seat] = p.LowCardBot()
        game = play_game(p.RULES, bots, p.Config(), seed=seed)
        if not game.winners:
            no_winner += 1
        elif game.winners == {seat}:
            wins[seat] += 1
        else:
            losses += 1
    assert wins[0] + wins[1] + losses + no_winner == 1000
    assert wins[0] + wins[1] >= 950, (wins, losses, no_winner)
    assert min(wins.values()) >= 470, f"the bot wins from either seat: {wins}"


def test_low_card_bot_is_deterministic() -> None:
    assert repr(p.LowCardBot()) == "LowCardBot(burn_at=10, three_at=6)"
    bots = [p.LowCardBot(), p.LowCardBot()]
    first = play_game(p.RULES, bots, p.Config(), seed=17)
    again = play_game(p.RULES, [p.LowCardBot(), p.LowCardBot()], p.Config(), seed=17)
    assert first == again


def test_low_card_bot_refuses_a_state_it_must_not_see() -> None:
    with pytest.raises(TypeError, match=r"a bot chooses from a view, view\(state, seat\)"):
        p.LowCardBot().choose(p.new_game(seed=1))  # type: ignore[arg-type]


def test_low_card_bot_refuses_the_view_of_a_seat_not_on_turn() -> None:
    state = p.new_game(seed=1)
    with pytest.raises(IllegalMoveError, match="another seat is to move"):
        p.LowCardBot().choose(p.view(state, 1 - p.current_player(state)))  # type: ignore[operator]
    with pytest.raises(IllegalMoveError, match="another seat is to move"):
        p.LowCardBot().choose(p.view(state, None))


def test_low_card_bot_refuses_a_finished_game() -> None:
    final = play_game(p.RULES, [p.LowCardBot(), p.LowCardBot()], seed=3).final
    assert p.is_over(final)
    with pytest.raises(IllegalMoveError, match="over"):
        p.LowCardBot().choose(p.view(final, 0))


def choice(state: p.State) -> p.Move:
    return p.LowCardBot().choose(p.view(state, state.seat))


def test_low_card_bot_plays_every_card_of_its_lowest_natural_rank() -> None:
    state = position(hands=["2C 10D 3H 7S 7H 9C 5D", "4D"], pile="6S")
    assert choice(state) == play("7H 7S")


def test_low_card_bot_keeps_bonus_cards_and_takes_the_pile_only_when_it_must() -> None:
    config = p.Config(voluntary_pickup=True)
    assert choice(position(config, hands=["2C KD", "4D"], pile="6S")) == play("KD")
    assert choice(position(config, hands=["2C 5D", "4D"], pile="6S")) == play("2C")
    assert choice(position(config, hands=["5D 4C", "4D"], pile="6S")) == p.TakePile()


def test_low_card_bot_burns_a_big_pile_and_forces_a_3_on_a_middling_one() -> None:
    big = "4S 5S 6S 7S 8S 9S JS QS KS AS"
    assert choice(position(hands=["2C 3C 10C 5D", "4D"], pile=big)) == play("10C")
    assert choice(position(hands=["2C 3C 10C 5D", "4D"], pile="4S 5S 6S 7S 8S AS")) == play("3C")
    assert choice(position(hands=["2C 3C 10C 5D", "4D"], pile="AS")) == play("2C")


def test_low_card_bot_takes_an_extra_play_but_spends_no_bonus_card_on_it() -> None:
    state = position(hands=["7C 7D 7H 7S 2C 9D 5D", "4D"], pile="6S")
    assert choice(state) == play("7C 7D 7H 7S")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert after.pending == "extra"
    assert choice(after) == play("9D")  # a natural set: it takes the extra play
    state = position(hands=["7C 7D 7H 7S 2C 5D", "4D"], pile="6S")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert choice(after) == p.EndTurn()  # only the 2 would go: it keeps it


def test_low_card_bot_swaps_its_best_cards_face_up_then_declares_ready() -> None:
    state = p.new_game(seed=3)  # seat 0: hand 3C 10C KS, face up 5C 4D QH
    seen = []
    while state.phase == "swap" and state.seat == 0:
        move = choice(state)
        seen.append(p.format_move(move))
        state = p.apply(state, move)
    assert seen == ["swap 10C 4D", "swap 3C 5C", "swap KS QH", "ready"]


HOUSE_RULES = [
    p.Config(),
    p.Config.pagat(),
    p.Config(face_up_play="from_table"),
    p.Config(must_beat="higher", quad="burn"),
    p.Config(voluntary_pickup=True, first_player="seat0"),
    p.Config(players=3, decks=2, play_until="last"),
    p.Config(players=4, decks=4, hand_size=9, quad="extra_play"),
    p.Config(
        players=5,
        decks=3,
        quad="burn",
        face_up_play="from_table",
        voluntary_pickup=True,
        play_until="last",
    ),
]


@pytest.mark.parametrize(
    "config", HOUSE_RULES, ids=lambda config: f"{config.players}p{config.decks}d"
)
@pytest.mark.parametrize("seed", [1, 2])
def test_low_card_bot_plays_legal_moves_under_house_rules(config: p.Config, seed: int) -> None:
    bots = [CheckedBot(p.LowCardBot()) for _ in range(config.players)]
    bots[-1] = CheckedBot(RandomBot(p.RULES, seed=seed))
    game = play_game(p.RULES, bots, config, seed=seed)
    assert p.is_over(game.final)
    assert bots[0].moves >= 5


@st.composite
def configs(draw: st.DrawFn) -> p.Config:
    decks = draw(st.integers(1, 4))
    hand_size = draw(st.integers(1, 9))
    players = draw(st.integers(2, min(5, 52 * decks // (6 + hand_size))))
    return p.Config(
        players=players,
        decks=decks,
        hand_size=hand_size,
        must_beat=draw(st.sampled_from(["equal_or_higher", "higher"])),
        quad=draw(st.sampled_from(["extra_play", "burn"])),
        face_up_play=draw(st.sampled_from(["take_into_hand", "from_table"])),
        voluntary_pickup=draw(st.booleans()),
        first_player=draw(st.sampled_from(["lowest_card", "seat0"])),
        play_until=draw(st.sampled_from(["first_out", "last"])),
        max_turns=draw(st.integers(1, 400)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=configs(),
    seed=st.integers(0, 2**64 - 1),
    burn_at=st.integers(0, 20),
    three_at=st.integers(0, 20),
)
def test_low_card_bot_plays_legal_moves_under_random_house_rules(
    config: p.Config, seed: int, burn_at: int, three_at: int
) -> None:
    bots = [CheckedBot(p.LowCardBot(burn_at, three_at)) for _ in range(config.players)]
    game = play_game(p.RULES, bots, config, seed=seed)
    assert p.is_over(game.final)
    assert sum(bot.moves for bot in bots) == len(game.moves)
