"""The conformance suite as a pytest test class driven by hypothesis."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from .._hypothesis import FUZZ_PROFILE
from ..match import Match
from ..protocol import CHANCE, Ruleset
from ..rng import SEED_BITS, Rng, derived_seed
from ..serialize import dumps
from ..simulate import play_game
from . import checks, fuzz
from .checks import Playout

__all__ = ["FUZZ_PROFILE", "ConformanceSuite"]

_seeds = st.integers(0, (1 << SEED_BITS) - 1)
# Every game's subclass runs these test functions (differing_executors): an example saved
# by one game's run and replayed for another is just one more random game.
_suite_settings = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
)
# The fuzz tests take their number of examples from the profile in force at import:
# the default profile's 100 in every run, FUZZ_PROFILE's in the long one.
_fuzz_settings = settings(deadline=None, suppress_health_check=list(HealthCheck))


def _examples(
    config: settings, **changes: Any
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Run the decorated test under ``config`` and ``changes``, drawing ``data`` from hypothesis."""
    return lambda test: settings(config, **changes)(given(data=st.data())(test))


class ConformanceSuite:
    """Subclass with ``ruleset`` and ``configs`` set; pytest collects the tests below.

    The ``test_fuzz_*`` tests try ``fuzz_cases_per_example`` cases per hypothesis example,
    and as many examples as the profile in force (``--hypothesis-profile=tabletop-fuzz``
    for the long run). ``arbitrary_moves``, a strategy of the game's moves legal or not,
    adds ``arbitrary_moves_per_state`` of them to the moves of the same game that the
    illegal-move check tries. ``states_per_game`` bounds the states of each playout, spread
    evenly and the last included, that get the expensive per-state checks;
    ``table_states_per_game`` how many of those the tables' leak check takes.
    """

    ruleset: ClassVar[Ruleset[Any, Any, Any]]
    configs: ClassVar[st.SearchStrategy[Any]]
    arbitrary_moves: ClassVar[st.SearchStrategy[Any] | None] = None
    states_per_game: ClassVar[int] = 40
    table_states_per_game: ClassVar[int] = 10
    arbitrary_moves_per_state: ClassVar[int] = 10
    fuzz_cases_per_example: ClassVar[int] = 10

    def deals(self, config: Any) -> st.SearchStrategy[Any] | None:
        """For a game with a deck, a strategy of deck orders for ``config``, from which half
        the games start; ``None`` (the default) when they start from the seed's shuffle.
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
        return checks.random_playout(self.ruleset, config, seed, chooser, deal)

    def _sample(self, playout: Playout) -> list[tuple[int, Any]]:
        states, last = playout.states, len(playout.states) - 1
        step = max(1, len(states) // self.states_per_game)
        return [(index, states[index]) for index in (*range(0, last, step), last)]

    @_examples(_suite_settings)
    def test_random_playouts_end_and_replay(self, data: st.DataObject) -> None:
        """Random games end within max_moves, name winners and replay exactly."""
        playout = self._playout(data)
        rules = self.ruleset
        assert rules.is_over(playout.final)
        seats = frozenset(range(rules.players(rules.config_of(playout.final))))
        assert rules.winners(playout.final) <= seats, "the winners are seats (or none)"
        checks.check_playout(rules, playout)

    @_examples(_suite_settings)
    def test_turn_functions_agree(self, data: st.DataObject) -> None:
        """current_player, legal_moves, is_over, winners, score and chance agree."""
        for state in self._playout(data).states:
            checks.check_turn_functions(self.ruleset, state)
            checks.check_chance(self.ruleset, state)

    @_examples(_suite_settings)
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
            checks.check_illegal_moves_rejected(self.ruleset, state, candidates)
            rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
            checks.check_errors_hide_secrets(self.ruleset, state, candidates, rng)

    @_examples(_suite_settings)
    def test_json_notation_and_codec_round_trip(self, data: st.DataObject) -> None:
        """States, moves, events and views survive JSON, pickling, notation and codec."""
        playout = self._playout(data)
        for index, state in self._sample(playout):
            events: tuple[Any, ...] = ()
            if index:
                previous, move = playout.states[index - 1], playout.moves[index - 1]
                events = self.ruleset.apply_with_events(previous, move)[1]
            checks.check_json_round_trip(self.ruleset, state, events)
            checks.check_pickle_round_trip(self.ruleset, state)
            checks.check_notation_round_trip(self.ruleset, state)
            checks.check_codec(self.ruleset, state)

    @_examples(_suite_settings)
    def test_observations_and_action_numbers(self, data: st.DataObject) -> None:
        """Observations fit the spec from the view alone; action numbers and texts agree."""
        playout = self._playout(data)
        rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
        checks.check_action_texts(self.ruleset, self.ruleset.config_of(playout.final))
        for _index, state in self._sample(playout):
            checks.check_observation(self.ruleset, state, rng)
            checks.check_chance_offset(self.ruleset, state)

    @_examples(_suite_settings)
    def test_views_hide_secrets(self, data: st.DataObject) -> None:
        """Each seat sees a state, and a move's events, as in one re-dealt from a view."""
        rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
        for _index, state in self._sample(self._playout(data)):
            checks.check_view_hides_secrets(self.ruleset, state, rng)
            checks.check_events_hide_secrets(self.ruleset, state, rng)

    @_examples(_suite_settings)
    def test_tables_hide_secrets(self, data: st.DataObject) -> None:
        """Each seat's and a spectator's table (:func:`~tabletop_rules.table.seat_table`) is
        the same in a state re-dealt from its view, and its log names no unseen card.
        """
        playout = self._playout(data)
        rules = self.ruleset
        rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
        match = Match.from_record(rules, playout.record(rules))
        sample = self._sample(playout)
        step = max(1, len(sample) // self.table_states_per_game)
        for index, _state in reversed(sample[::step]):
            while len(match.moves) > index:
                match.undo()
            checks.check_tables_hide_secrets(rules, match, rng.advanced(index))

    @_examples(_suite_settings)
    def test_events_are_told_in_words_that_hide_secrets(self, data: st.DataObject) -> None:
        """Every event is told to every seat in one line naming no card hidden from it."""
        playout = self._playout(data)
        for before, move in zip(playout.states, playout.moves, strict=False):
            checks.check_events_described(self.ruleset, before, move)

    def _bots_play_whole_games(self, data: st.DataObject, slow: bool) -> None:
        """Each bot in ``slow_bots`` (or not) pickles, as for a worker, and plays a game."""
        rules = self.ruleset
        config = data.draw(self.configs, label="config")
        seed = data.draw(_seeds, label="seed")
        for name, factory in rules.bots.items():
            if (name in self.slow_bots) != slow:
                continue
            travelled = pickle.loads(pickle.dumps(factory))
            bots = [travelled(derived_seed(seed, seat)) for seat in range(rules.players(config))]
            game = play_game(rules, bots, config, seed=seed)
            assert rules.is_over(game.final), f"bot {name!r} did not finish the game"

    @_examples(_suite_settings)
    def test_named_bots_pickle_and_play_whole_games(self, data: st.DataObject) -> None:
        """Every bot of ``ruleset.bots`` (``"random"`` among them, ``slow_bots`` aside)
        pickles and plays a whole game in every seat.
        """
        assert "random" in self.ruleset.bots
        self._bots_play_whole_games(data, slow=False)

    slow_bots: ClassVar[frozenset[str]] = frozenset({"coach", "search"})
    """Bots that spend tens of milliseconds on a move (dice poker's coach, the search
    bots): the slow-tier test below plays their whole games."""

    @pytest.mark.slow
    @_examples(_suite_settings, max_examples=2)
    def test_slow_bots_pickle_and_play_whole_games(self, data: st.DataObject) -> None:
        """Every bot of ``slow_bots`` the game has pickles and plays a whole game."""
        self._bots_play_whole_games(data, slow=True)

    bot_states_per_game: ClassVar[int] = 1

    @_examples(_suite_settings, max_examples=5)  # a search bot thinks for each of its moves
    def test_every_bot_sees_views_only(self, data: st.DataObject) -> None:
        """Every bot moves alike in ``bot_states_per_game`` states and their re-deals."""
        playout = self._playout(data)
        rules = self.ruleset
        turns = [
            state
            for state in playout.states
            if rules.current_player(state) not in (None, CHANCE)
            and len(rules.legal_moves(state)) > 1
        ]
        if not turns:
            return
        for _ in range(self.bot_states_per_game):
            state = turns[data.draw(st.integers(0, len(turns) - 1), label="state")]
            seed = data.draw(_seeds, label="bot_seed")
            rng = Rng.from_seed(data.draw(_seeds, label="determinize_seed"))
            checks.check_bots_see_views_only(rules, state, seed, rng)

    def _state_in(self, data: st.DataObject) -> tuple[Playout, int]:
        playout = self._playout(data)
        return playout, data.draw(st.integers(0, len(playout.states) - 1), label="state")

    @_examples(_fuzz_settings)
    def test_fuzz_loaders_refuse_or_accept_only_valid_values(self, data: st.DataObject) -> None:
        """Mutated JSON of states, configs, views, moves and events loads valid or raises."""
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
            fuzz.check_loads_total(rules, data.draw(fuzz.mutated_json(source), label="mutated"))

    @_examples(_fuzz_settings)
    def test_fuzz_records_refuse_or_replay(self, data: st.DataObject) -> None:
        """Mutated game records are refused with a TabletopError or replay validly."""
        playout, index = self._state_in(data)
        text = playout.record(self.ruleset, index).to_json()
        for _ in range(self.fuzz_cases_per_example):
            fuzz.check_record_total(
                self.ruleset, data.draw(fuzz.mutated_json(text), label="mutated")
            )

    @_examples(_fuzz_settings)
    def test_fuzz_apply_refuses_odd_objects(self, data: st.DataObject) -> None:
        """``apply`` of an odd object gives a valid state or raises IllegalMoveError."""
        self._fuzz_odd_moves(data, fuzz.check_apply_total)

    def _fuzz_odd_moves(self, data: st.DataObject, check: Callable[..., None]) -> None:
        """``check(ruleset, state, move)`` of odd moves in a state of a random game."""
        playout, index = self._state_in(data)
        state = playout.states[index]
        moves = [*self.ruleset.legal_moves(state), *playout.moves]
        for _ in range(self.fuzz_cases_per_example):
            check(self.ruleset, state, data.draw(fuzz.odd_moves(moves), label="odd"))

    @_examples(_suite_settings)
    def test_entry_points_refuse_odd_arguments(self, data: st.DataObject) -> None:
        """Every entry point raises TypeError or a TabletopError for what is no argument."""
        playout, index = self._state_in(data)
        checks.check_entry_points_refuse_odd_arguments(self.ruleset, playout.states[index])

    @_examples(_suite_settings)
    def test_a_view_of_a_seat_not_at_the_table_is_refused(self, data: st.DataObject) -> None:
        """``view`` of a seat not at the table raises a TabletopError, of a non-int TypeError."""
        playout, index = self._state_in(data)
        checks.check_view_refuses_seats_not_at_the_table(self.ruleset, playout.states[index])

    @_examples(_fuzz_settings)
    def test_fuzz_format_move_refuses_odd_moves(self, data: st.DataObject) -> None:
        """``format_move``, ``encode`` and ``canonical`` of odd objects agree or refuse."""
        self._fuzz_odd_moves(data, fuzz.check_move_functions_total)

    @_examples(_suite_settings)
    def test_take_back_is_fair(self, data: st.DataObject) -> None:
        """The fair take-back at a random point of a random game is fair for every seat."""
        playout, index = self._state_in(data)
        checks.check_fair_take_back(self.ruleset, playout, index)

    @_examples(_fuzz_settings)
    def test_fuzz_moves_with_repeated_items_are_refused_or_read_back(
        self, data: st.DataObject
    ) -> None:
        """Move documents with an array item repeated are refused or load into sound moves."""
        rules = self.ruleset
        playout, index = self._state_in(data)
        state = playout.states[index]
        moves = [*rules.legal_moves(state)[:5], *playout.moves[max(0, index - 5) : index + 5]]
        documents = [dumps(move) for move in moves]
        for _ in range(self.fuzz_cases_per_example if documents else 0):
            source = data.draw(st.sampled_from(documents), label="document")
            text = data.draw(fuzz.repeated_items(source), label="repeated")
            fuzz.check_move_loads_back(rules, state, text)

    # a timing is not shrunk
    @_examples(_suite_settings, max_examples=1, phases=[Phase.explicit, Phase.generate])
    def test_loading_time_is_linear_in_the_document_size(self, data: st.DataObject) -> None:
        """Every loader reads the hardest texts, alone and in a state or record, in linear time."""
        playout, index = self._state_in(data)
        documents = [dumps(playout.states[index]), playout.record(self.ruleset, index).to_json()]
        fuzz.check_loading_is_linear(self.ruleset, documents)

    # ``worst_config`` (``worst_deal``, if it needs a deck order): the game's costliest
    # allowed config. ``numbers_pushed`` numbers of a state's JSON are pushed to the
    # loader's limits, then ``moves_after_loading`` moves played from each.

    worst_config: ClassVar[Any] = None
    worst_deal: ClassVar[Any] = None
    worst_config_ratio: ClassVar[float] = 40.0
    numbers_pushed: ClassVar[int] = 3
    moves_after_loading: ClassVar[int] = 40

    @_examples(_suite_settings)
    def test_play_from_any_loadable_state_writes_states_that_load(
        self, data: st.DataObject
    ) -> None:
        """Play from a state, or one pushed to the loader's limits, writes states that load."""
        playout, index = self._state_in(data)
        state = playout.states[index]
        rng = Rng.from_seed(data.draw(_seeds, label="chooser_seed"))
        pushed = data.draw(
            st.lists(
                st.tuples(st.sampled_from(checks.number_paths(state)), st.sampled_from((1, -1))),
                min_size=1,
                max_size=self.numbers_pushed,
                unique=True,
            ),
            label="pushed",
        )
        limits = [checks.pushed_to_the_limit(state, path, sign) for path, sign in pushed]
        for start in [state, *(limit for limit in limits if limit is not None)]:
            checks.check_play_from_loaded_round_trips(
                self.ruleset, start, rng, self.moves_after_loading
            )

    def test_worst_config_moves_cost_about_a_default_move(self) -> None:
        """A move under ``worst_config`` costs at most ``worst_config_ratio`` default moves."""
        if self.worst_config is None:
            pytest.skip(f"{self.ruleset.name} names no worst_config")
        checks.check_worst_config_move_cost(
            self.ruleset, self.worst_config, self.worst_deal, bound=self.worst_config_ratio
        )

    @_examples(_suite_settings)
    def test_any_order_of_the_deck_is_a_deal(self, data: st.DataObject) -> None:
        """The game names its deck (none without a ``deal_type``); every order deals a game."""
        config = data.draw(self.configs, label="config")
        checks.check_deck(self.ruleset, config, Rng.from_seed(data.draw(_seeds, label="seed")))

    @_examples(_suite_settings)
    def test_chance_probabilities_cannot_be_changed_through_what_they_return(
        self, data: st.DataObject
    ) -> None:
        """Clearing or filling a returned chance_probabilities changes no later call."""
        for _index, state in self._sample(self._playout(data)):
            checks.check_chance_probabilities_are_not_shared(self.ruleset, state)

    def test_the_game_is_found_by_its_own_name(self) -> None:
        """``get_ruleset(ruleset.name)`` is the ruleset, and no built-in game has the name."""
        checks.check_found_by_its_name(self.ruleset)

    def test_seats_are_the_players_a_config_takes(self) -> None:
        """The fewest seats are a valid config's players; fewer, or more than the most, are not."""
        checks.check_seats_are_the_configs(self.ruleset)

    @_examples(_suite_settings)
    def test_entry_points_check_the_state_type_first(self, data: st.DataObject) -> None:
        """Every entry point raises ``TypeError`` for a lookalike of a state, before reading it."""
        for _index, state in self._sample(self._playout(data)):
            checks.check_entry_points_check_the_state_type_first(self.ruleset, state)
