"""The conformance suite as a pytest test class driven by hypothesis."""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .._hypothesis import FUZZ_PROFILE
from ..protocol import Ruleset
from ..records import GameRecord
from ..rng import SEED_BITS, Rng
from ..serialize import dumps
from ..simulate import derived_seed, play_game
from .checks import (
    Playout,
    check_action_texts,
    check_chance,
    check_chance_offset,
    check_codec,
    check_deck,
    check_entry_points_refuse_odd_arguments,
    check_errors_hide_secrets,
    check_events_hide_secrets,
    check_illegal_moves_rejected,
    check_json_round_trip,
    check_notation_round_trip,
    check_observation,
    check_pickle_round_trip,
    check_playout,
    check_turn_functions,
    check_view_hides_secrets,
    random_playout,
)
from .fuzz import (
    check_apply_total,
    check_loads_total,
    check_record_total,
    mutated_json,
    odd_moves,
)

__all__ = ["FUZZ_PROFILE", "ConformanceSuite"]

_seeds = st.integers(0, (1 << SEED_BITS) - 1)
# Every game's subclass runs these same test functions, so hypothesis sees one function
# called from several classes (differing_executors). That is safe here: an example saved
# by one game's run and replayed for another is just one more random game.
_suite_settings = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
)
# The fuzz tests take their number of examples from the profile in force when the test
# module is imported: the default profile's 100 in every run, FUZZ_PROFILE's in the long one.
_fuzz_settings = settings(deadline=None, suppress_health_check=list(HealthCheck))


class ConformanceSuite:
    """Subclass with ``ruleset`` and ``configs`` set; pytest collects the tests below.

    The ``test_fuzz_*`` tests feed every loader mutated JSON and ``apply`` odd objects
    (:mod:`tabletop_rules.testing.fuzz`), ``fuzz_cases_per_example`` of them for each
    hypothesis example; they take their number of examples from the hypothesis profile
    in force, so ``--hypothesis-profile=tabletop-fuzz`` makes the long run.

    ``deals(config)``, overridden by a game with a deck, gives a strategy of deck orders;
    half the games then start from a drawn deal instead of the seed's shuffle.

    ``arbitrary_moves``, a strategy of the game's moves legal or not, makes the
    illegal-move check try them too (``arbitrary_moves_per_state`` in each state checked);
    without it, only moves seen somewhere in the same game are tried. ``states_per_game``
    bounds how many states of each playout get the expensive per-state checks (spread
    evenly over the game, the last state always included).
    """

    ruleset: ClassVar[Ruleset[Any, Any, Any]]
    configs: ClassVar[st.SearchStrategy[Any]]
    arbitrary_moves: ClassVar[st.SearchStrategy[Any] | None] = None
    states_per_game: ClassVar[int] = 40
    arbitrary_moves_per_state: ClassVar[int] = 10
    fuzz_cases_per_example: ClassVar[int] = 10

    def deals(self, config: Any) -> st.SearchStrategy[Any] | None:
        """For a game with a deck, a strategy of deck orders for ``config``; ``None``
        (the default) when its games start only from the seed's shuffle.
        """
        return None

    def _playout(self, data: st.DataObject) -> Playout:
        config = data.draw(self.configs, label="config")
        seed = data.draw(_seeds, label="seed")
        chooser = data.draw(_seeds, label="chooser_seed")
        deal = None
        deals = self.deals(config)
        if deals is not None and data.draw(st.booleans(), label="dealt"):
            deal = data.draw(deals, label="deal")
        return random_playout(self.ruleset, config, seed, chooser, deal)

    def _sample(self, playout: Playout) -> list[tuple[int, Any]]:
        states = playout.states
        step = max(1, len(states) // self.states_per_game)
        picked = list(range(0, len(states), step))
        if picked[-1] != len(states) - 1:
            picked.append(len(states) - 1)
        return [(index, states[index]) for index in picked]

    @_suite_settings
    @given(data=st.data())
    def test_random_playouts_end_and_replay(self, data: st.DataObject) -> None:
        """Random games end within max_moves, name winners and replay exactly."""
        playout = self._playout(data)
        rules = self.ruleset
        assert rules.is_over(playout.final)
        seats = frozenset(range(rules.players(rules.config_of(playout.final))))
        assert rules.winners(playout.final) <= seats, "the winners are seats (or none)"
        check_playout(rules, playout)

    @_suite_settings
    @given(data=st.data())
    def test_turn_functions_agree(self, data: st.DataObject) -> None:
        """current_player, legal_moves, is_over, winners, score and chance agree."""
        for state in self._playout(data).states:
            check_turn_functions(self.ruleset, state)
            check_chance(self.ruleset, state)

    @_suite_settings
    @given(data=st.data())
    def test_legal_moves_apply_and_others_are_rejected(self, data: st.DataObject) -> None:
        """Legal moves apply; moves seen elsewhere in the game are rejected."""
        playout = self._playout(data)
        seen = list(dict.fromkeys(playout.moves))
        arbitrary = self.arbitrary_moves
        for _index, state in self._sample(playout):
            drawn = []
            if arbitrary is not None:
                drawn = [data.draw(arbitrary) for _ in range(self.arbitrary_moves_per_state)]
            candidates = list(dict.fromkeys([*seen, *drawn]))
            check_illegal_moves_rejected(self.ruleset, state, candidates)
            rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
            check_errors_hide_secrets(self.ruleset, state, candidates, rng)

    @_suite_settings
    @given(data=st.data())
    def test_json_notation_and_codec_round_trip(self, data: st.DataObject) -> None:
        """States, moves, events and views survive JSON, pickling, notation and codec."""
        playout = self._playout(data)
        for index, state in self._sample(playout):
            events: tuple[Any, ...] = ()
            if index:
                previous, move = playout.states[index - 1], playout.moves[index - 1]
                events = self.ruleset.apply_with_events(previous, move)[1]
            check_json_round_trip(self.ruleset, state, events)
            check_pickle_round_trip(self.ruleset, state)
            check_notation_round_trip(self.ruleset, state)
            check_codec(self.ruleset, state)

    @_suite_settings
    @given(data=st.data())
    def test_observations_and_action_numbers(self, data: st.DataObject) -> None:
        """Observations fit the spec and come from the view alone; chance outcomes are
        numbered from ``chance_offset``, player moves below; every action number has a
        text, and a legal move's text parses back to it.
        """
        playout = self._playout(data)
        rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
        check_action_texts(self.ruleset, self.ruleset.config_of(playout.final))
        for _index, state in self._sample(playout):
            check_observation(self.ruleset, state, rng)
            check_chance_offset(self.ruleset, state)

    @_suite_settings
    @given(data=st.data())
    def test_views_hide_secrets(self, data: st.DataObject) -> None:
        """Each seat sees a state re-dealt from its view as it saw the real one, and the
        events of a move as in a state re-dealt from the mover's view; views carry neither
        the RNG nor the seed.
        """
        rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
        for _index, state in self._sample(self._playout(data)):
            check_view_hides_secrets(self.ruleset, state, rng)
            check_events_hide_secrets(self.ruleset, state, rng)

    @_suite_settings
    @given(data=st.data())
    def test_named_bots_pickle_and_play_whole_games(self, data: st.DataObject) -> None:
        """Every bot of ``ruleset.bots`` (``"random"`` among them) pickles, as a simulation
        sends it to worker processes, and plays a whole game in every seat with legal moves.
        """
        rules = self.ruleset
        config = data.draw(self.configs, label="config")
        seed = data.draw(_seeds, label="seed")
        assert "random" in rules.bots
        for name, factory in rules.bots.items():
            travelled = pickle.loads(pickle.dumps(factory))
            bots = [travelled(derived_seed(seed, seat)) for seat in range(rules.players(config))]
            game = play_game(rules, bots, config, seed=seed)
            assert rules.is_over(game.final), f"bot {name!r} did not finish the game"

    def _state_in(self, data: st.DataObject) -> tuple[Playout, int]:
        playout = self._playout(data)
        return playout, data.draw(st.integers(0, len(playout.states) - 1), label="state")

    @_fuzz_settings
    @given(data=st.data())
    def test_fuzz_loaders_refuse_or_accept_only_valid_values(self, data: st.DataObject) -> None:
        """Mutated JSON of states, configs, views, moves and events loads into a value
        that passes the game's checks or raises a TabletopError.
        """
        rules = self.ruleset
        playout, index = self._state_in(data)
        state = playout.states[index]
        documents = [dumps(state), dumps(rules.config_of(state))]
        documents += [dumps(rules.view(state, seat)) for seat in (None, 0)]
        documents += [dumps(move) for move in rules.legal_moves(state)[:5]]
        if index:
            before, move = playout.states[index - 1], playout.moves[index - 1]
            documents += [dumps(event) for event in rules.apply_with_events(before, move)[1]]
        for _ in range(self.fuzz_cases_per_example):
            source = data.draw(st.sampled_from(documents), label="document")
            check_loads_total(rules, data.draw(mutated_json(source), label="mutated"))

    @_fuzz_settings
    @given(data=st.data())
    def test_fuzz_records_refuse_or_replay(self, data: st.DataObject) -> None:
        """Mutated game records are refused with a TabletopError or replay into valid
        states.
        """
        playout, index = self._state_in(data)
        record = GameRecord.start(self.ruleset, playout.states[0])
        for move in playout.moves[:index]:
            record = record.play(move)
        text = record.to_json()
        for _ in range(self.fuzz_cases_per_example):
            check_record_total(self.ruleset, data.draw(mutated_json(text), label="mutated"))

    @_fuzz_settings
    @given(data=st.data())
    def test_fuzz_apply_refuses_odd_objects(self, data: st.DataObject) -> None:
        """``apply`` given moves built around their validators, or no moves at all, returns a
        valid state or raises IllegalMoveError with the state unchanged.
        """
        playout, index = self._state_in(data)
        state = playout.states[index]
        moves = [*self.ruleset.legal_moves(state), *playout.moves]
        for _ in range(self.fuzz_cases_per_example):
            check_apply_total(self.ruleset, state, data.draw(odd_moves(moves), label="odd"))

    @_suite_settings
    @given(data=st.data())
    def test_entry_points_refuse_odd_arguments(self, data: st.DataObject) -> None:
        """Every entry point handed what is not its argument raises TypeError or the
        library's own error, never another.
        """
        playout, index = self._state_in(data)
        check_entry_points_refuse_odd_arguments(self.ruleset, playout.states[index])

    @_suite_settings
    @given(data=st.data())
    def test_any_order_of_the_deck_is_a_deal(self, data: st.DataObject) -> None:
        """The game names its deck (none without a ``deal_type``), and every order of it
        deals a game.
        """
        config = data.draw(self.configs, label="config")
        check_deck(self.ruleset, config, Rng.from_seed(data.draw(_seeds, label="seed")))
