"""The web page (examples/web) in headless Chromium: whole games played by clicking,
checked against the library's own replay of the same seed and moves; what the page
loads; what it refuses and how it says so; the hidden cards it must never hold.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tabletop_rules import CHANCE, Match, account, get_ruleset, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.coach import coach_lines
from tabletop_rules.dice_poker.table import open_box_points
from tabletop_rules.house_rules import configured, house_rules
from tabletop_rules.palace.table import playable_ranks
from tabletop_rules.records import GameRecord

from .conftest import Visit
from .helpers import ROOT, SCREENSHOTS, leaked, web_module

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.slow  # each test loads Pyodide in a browser: about 10 s

MOST_CLICKS = 3000


def open_game(page: Page, origin: str, game: str, seed: int, speed: str = "instant") -> None:
    """Load the page for ``game`` and ``seed``; it starts that game with the defaults.
    The bots answer at once unless ``speed`` asks for the page's pace (``normal``,
    ``slow``, or ``""`` for the page's default).
    """
    pace = f"&speed={speed}" if speed else ""
    page.goto(f"{origin}/?game={game}&seed={seed}{pace}")
    page.wait_for_selector("#play:not([hidden])", timeout=90_000)


def start_from_form(page: Page, rules: dict[str, str], seats: list[str] | None = None) -> None:
    """Open the new-game form, set the given house rules (and seats), press Start."""
    if not page.is_visible("#rules"):
        page.click("#setup summary")
    for name, value in rules.items():
        field = page.locator(f"#rule-{name}")
        if field.get_attribute("type") == "checkbox":
            field.set_checked(value == "true")
        elif field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    for seat, choice in enumerate(seats or []):
        page.select_option(f"#seat-{seat}", choice)
    page.click("#start")


def table_text(page: Page) -> str:
    """The game's text display, folded under "Moves in notation" (shown or not)."""
    return page.text_content("#table") or ""


def log_length(page: Page) -> int:
    count: int = page.evaluate("document.querySelectorAll('#log li').length")
    return count


def saved_record(page: Page) -> GameRecord:
    """The record the page's Save button downloads."""
    with page.expect_download() as download:
        page.click("#save")
    path = download.value.path()
    return GameRecord.from_json(Path(path).read_text(encoding="utf-8"))


def scores_shown(page: Page) -> tuple[int, ...]:
    scores = re.findall(r"P\d+ (-?\d+)", page.inner_text("#result").split("Scores:")[1])
    return tuple(map(int, scores))


def persons_moves(match: Match[Any, Any, Any], seat: int) -> list[str]:
    """The moves of ``match`` that ``seat`` made, in notation."""
    rules = match.rules
    return [
        rules.format_move(move)
        for state, move in zip(match.history, match.moves, strict=False)
        if rules.current_player(state) == seat
    ]


def guide_lines(page: Page) -> list[str]:
    """The rules panel's lines, the rules' and then the notation's."""
    lines: list[str] = page.evaluate(
        "[...document.querySelectorAll('#guide li')].map((item) => item.textContent)"
    )
    return lines


def dom_but_the_guide(page: Page) -> str:
    """The page's whole DOM but the rules panel, whose notation examples ("play 7H 7S")
    are the house rules' and name no card of the deal: the tests check it against the
    library's lines instead.
    """
    dom: str = page.evaluate(
        """() => {
            const copy = document.documentElement.cloneNode(true);
            copy.querySelector("#guide").remove();
            return copy.outerHTML;
        }"""
    )
    return dom


CHOICES = {
    # What a player clicks next on the drawn table, in order: the first of these found.
    "palace": (
        "#board .actions button.primary[data-move]",  # Play, once cards are chosen
        "#board button.card.target[data-move]",  # a swap's second card
        "#board button.card.playable",  # choose a card to lay
        "#board .under[data-move]",  # a face-down card, played blind
        "#board button.pile[data-move]",  # take the pile
        "#board .actions button[data-move]",  # Ready, End the turn
    ),
    "dice-poker": (
        "#board[data-throws='1'] button.die:not(.kept)",  # after the first throw, keep one die
        "#board[data-throws='1'] .throw-bar button.primary[data-move]",  # and throw the rest
        "#board[data-throws='0'] .throw-bar button.primary[data-move]",  # the turn's first throw
        "#board .box-move.write",
        "#board .box-move.announce",
        "#board .box-move.scratch",
    ),
    "account": (
        "#board .cell.can-place button[data-move]",  # place, or buy, a marker
        "#board [data-move='roll']",
        "#board .cell.lit button[data-move]",  # a lit landing card
    ),
}


def click_on_table(page: Page, game: str, swapped: list[bool]) -> str | None:
    """Click the first thing ``CHOICES`` names that the table shows; the move's notation
    if the click made one (``None`` for a choice: a card or die picked). In palace's swap
    phase the person swaps once by clicking a hand card, then the face-up card lit for it.
    """
    choices = list(CHOICES[game])
    if game == "palace" and not swapped[0]:
        choices.insert(0, "#board .hand button.card:not(.playable)")
    # One look at the page finds the choice; Playwright then clicks it as a mouse would.
    found: str | None = page.evaluate(
        "(choices) => choices.find((selector) => document.querySelector(selector)) ?? null",
        choices,
    )
    if found is None:
        raise AssertionError(f"nothing to click on the table: {page.inner_text('#board')}")
    if found == choices[0] and game == "palace" and not swapped[0]:
        swapped[0] = True
    target = page.locator(found).first
    move = target.get_attribute("data-move")
    if "card" in found:  # a fanned card shows its left edge: the next one covers the rest
        width, height = target.evaluate("(card) => [card.offsetWidth, card.offsetHeight]")
        target.click(position={"x": width * 0.2, "y": height * 0.5})
    else:
        target.click()
    return move


PERSONS_TURN_OR_END = (
    "() => document.querySelector('#result').textContent !== ''"
    " || document.querySelector('#turn').textContent === 'Your move.'"
)
"""True once the person is on turn or the game is over: the bots have all moved."""


PAUSES = {"instant": 0, "normal": 700, "slow": 1600}
"""The page's pause before each bot's move at each pace, in ms (``PACES`` in app.js)."""


def wait_for_the_persons_turn(page: Page, pause: int = 0) -> None:
    """Wait while the bots move at the page's pace (at once when it is instant); a page
    whose flow stopped (the turn line stuck on a bot) fails here. With ``pause``, the
    page's clock is Playwright's (``page.clock.install()``): each bot's pause is run
    through at once, its timer firing as it would, so a slow game takes no longer.
    """
    if not pause:
        page.wait_for_function(PERSONS_TURN_OR_END, timeout=30_000)
        return
    for _ in range(MOST_CLICKS):
        if page.evaluate(PERSONS_TURN_OR_END):
            return
        page.clock.run_for(pause)
    raise AssertionError(f"the bots did not give the turn back: {page.inner_text('#turn')}")


def play_by_clicking(
    page: Page,
    game: str,
    snapshots: list[tuple[int, str]] | None = None,
    *,
    motion: bool = False,
    pause: int = 0,
) -> list[str]:
    """Play the person's moves by clicking the drawn table (never a notation button)
    until the game is over, waiting for the bots at the page's pace; the moves the clicks
    made, read off the clicked elements. With ``snapshots``, the page's whole DOM is kept
    after every click, with the number of moves its log shows. With ``motion`` the page
    animates what moves (cards travel, markers step), else the browser asks for reduced
    motion and nothing does. ``pause`` is that of ``wait_for_the_persons_turn``.
    """
    clicked: list[str] = []
    swapped = [False]
    if not motion:
        page.emulate_media(reduced_motion="reduce")  # no motion to wait for before each click
    for _ in range(MOST_CLICKS):
        wait_for_the_persons_turn(page, pause)
        if snapshots is not None:
            snapshots.append((log_length(page), dom_but_the_guide(page)))
        if page.inner_text("#result"):
            return clicked
        move = click_on_table(page, game, swapped)
        if move is not None:
            clicked.append(move)
        assert page.inner_text("#move-error") == ""
    raise AssertionError(f"no end after {MOST_CLICKS} clicks")


def board_click(page: Page, move: str) -> None:
    """Click the drawn table's element that plays ``move``."""
    page.locator(f"#board [data-move='{move}']").first.click()


def open_notation(page: Page) -> None:
    """Open the collapsed "Moves in notation" fallback."""
    if not page.is_visible("#moves"):
        page.click("#notation > summary")


SHORT = {
    "dice-poker": {"stages": "1"},
    "palace": {"max_turns": "30"},
    "account": {"max_rounds": "6"},
}
"""Short games for the click-through tests, as the house rules allow: one stage of dice
poker, 30 turns of palace, six rounds of the account game. (Each answer of the page
judges whether the person's undo would be fair, which takes palace a tenth of a second
on CPython and more in Pyodide: a whole palace game is minutes of clicking.)"""


@pytest.mark.parametrize("pace", ["instant", "normal", "slow"])
@pytest.mark.parametrize(("game", "seed"), [("dice-poker", 3), ("palace", 5), ("account", 8)])
def test_a_whole_game_played_by_clicking_the_table_is_the_librarys_game_for_its_seed(
    page: Page, origin: str, game: str, seed: int, pace: str
) -> None:
    """Issue 19, point 6: the cards, dice, boxes and field cells clicked make the moves
    the saved record holds, and the record replays to the score and table shown. Issue
    32, point 9: at every pace, with the motion on, the game goes on to its end and the
    log holds every move (the page fixture fails the test on any script error). At the
    paced speeds the page's timers run on Playwright's clock, each bot's pause run
    through at once, so the slow pace costs no more than the instant one.
    """
    open_game(page, origin, game, seed, speed=pace)
    if PAUSES[pace]:
        page.clock.install()  # the bots' pauses are run through, not waited out
    start_from_form(page, SHORT[game])
    clicked = play_by_clicking(page, game, motion=True, pause=PAUSES[pace])
    record = saved_record(page)
    match = Match.from_record(record)
    rules = get_ruleset(game)
    assert (record.game, record.seed) == (game, seed)
    assert match.is_over
    assert persons_moves(match, 0) == clicked
    assert len(clicked) > 10
    assert log_length(page) == len(match.moves)
    assert table_text(page) == rules.display(match.view(0))
    assert scores_shown(page) == match.score
    assert page.inner_text("#title") == f"{rules.title}, seed {seed}"
    won = 0 in match.winners
    assert (
        "You win" in page.inner_text("#result") or "You share" in page.inner_text("#result")
    ) == won
    assert not page.is_visible("#moves")  # the notation fallback was never opened


@pytest.mark.parametrize(("pace", "players"), [("normal", 2), ("instant", 1)])
def test_the_account_game_goes_on_after_a_one_card_marker_move(
    page: Page, origin: str, pace: str, players: int
) -> None:
    """Issue 32, point 9: the marker that moves one card steps along with the motion on,
    and the game goes on: the bot answers at the default pace, waited out as a person
    would, the turn comes back, the log shows every move (at instant pace, alone at the
    table, the log too went quiet).
    """
    open_game(page, origin, "account", 4, speed=pace)
    start_from_form(page, {"players": str(players)}, ["you", "bestcard"][:players])
    page.evaluate(  # note each animation's easing as the page asks for it
        """() => {
            window.easings = [];
            const animate = Element.prototype.animate;
            Element.prototype.animate = function (frames, options) {
                window.easings.push(options.easing);
                return animate.call(this, frames, options);
            };
        }"""
    )
    for move in ("place 0", "roll", "move 0 right 1", "roll"):
        wait_for_the_persons_turn(page)
        board_click(page, move)
    wait_for_the_persons_turn(page)
    assert "steps(2, jump-none)" in page.evaluate("window.easings")  # its two cards, stepped
    assert page.inner_text("#turn") == "Your move."
    match = Match.from_record(saved_record(page))
    assert persons_moves(match, 0) == ["place 0", "roll", "move 0 right 1", "roll"]
    assert len(match.moves) == 4 if players == 1 else len(match.moves) > 6  # the bot's too
    assert log_length(page) == len(match.moves)
    assert table_text(page) == account.display(match.view(0))


def test_an_animation_the_browser_refuses_never_stops_the_game(
    page: Page, origin: str, visit: Visit
) -> None:
    """Issue 32, point 9: motion only shows what changed. Here the browser refuses every
    animation; the page says so in the console, and the bots, the turn line and the log
    go on as without motion.
    """
    open_game(page, origin, "account", 4, speed="normal")
    page.evaluate(
        """() => {
            Element.prototype.animate = () => { throw new TypeError("no animation here"); };
        }"""
    )
    for move in ("place 0", "roll", "move 0 right 1"):
        wait_for_the_persons_turn(page)
        board_click(page, move)
    wait_for_the_persons_turn(page)
    match = Match.from_record(saved_record(page))
    assert persons_moves(match, 0) == ["place 0", "roll", "move 0 right 1"]
    assert log_length(page) == len(match.moves) > 4  # the bot's moves too
    assert table_text(page) == account.display(match.view(0))
    assert visit.console_errors
    assert all("an animation was left out" in text for text in visit.console_errors)
    visit.console_errors.clear()  # reported, as it should be: not a failure of this test


SHOTS = [
    ("palace", 2, ["#board [data-move='ready']", "#board button.card.playable"]),
    (
        "dice-poker",
        4,
        [
            "#board [data-move='roll']",
            "#board [data-move='write chance']",
            "#board [data-move='roll']",
            "#board button.die >> nth=3",
            "#board button.die >> nth=4",
        ],
    ),
    ("account", 6, ["#board .cell.can-place button >> nth=2", "#board [data-move='roll']"]),
]
"""What each screenshot shows: a few clicks into a game, with something picked or lit."""


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize(("game", "seed", "clicks"), SHOTS)
def test_a_screenshot_of_each_game_is_saved_for_the_docs(
    page: Page, origin: str, game: str, seed: int, clicks: list[str], width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_game(page, origin, game, seed)
    for selector in clicks:
        page.locator(selector).first.click()
    page.wait_for_timeout(900)  # the dice and cards come to rest
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (f"{game}.png" if width == 1280 else f"{game}-{width}.png")
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    assert path.stat().st_size > 10_000
    sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1]


def test_the_page_loads_only_its_own_files(page: Page, origin: str, visit: Visit) -> None:
    open_game(page, origin, "palace", 1)
    manifest = json.loads(page.evaluate("fetch('manifest.json').then(r => r.text())"))
    loaded = {
        url.removeprefix(f"{origin}/").split("?")[0] or "index.html" for url in visit.requests
    }
    make_site = web_module("make_site")
    assert loaded == {
        *make_site.PAGE_FILES,
        "manifest.json",
        *(f"pyodide/{name}" for name in make_site.PYODIDE_FILES),
        *(f"wheels/{name}" for name in manifest["wheels"]),
    }


def test_the_dom_never_holds_a_card_hidden_from_the_persons_seat(page: Page, origin: str) -> None:
    """Palace for three, the person at seat 1, played by clicking the drawn table: after
    every click, every card the page holds anywhere in its DOM (the drawn cards' text,
    their ``data-card`` and their spoken ``aria-label`` included) is one the person's own
    views have shown.
    """
    open_game(page, origin, "palace", 21)
    start_from_form(page, {"players": "3"}, ["lowcard", "you", "random"])
    snapshots: list[tuple[int, str]] = []
    play_by_clicking(page, "palace", snapshots)
    match = Match.from_record(saved_record(page))
    history = match.history
    assert len(snapshots) > 20
    config = match.config
    assert guide_lines(page) == [
        *palace.RULES.rules_summary(config),
        *palace.RULES.notation_summary(config),
    ]
    for moves, dom in snapshots:
        assert not leaked(dom, history[: moves + 1], 1), f"after move {moves}"
    # The log is the game's sentences for seat 1 (issue 19): they name the cards seat 1
    # saw played and drew, and never another seat's drawn card.
    log = page.inner_text("#log")
    told = [" ".join(f"{palace.describe(e, 1)}." for e in events) for events in match.move_events]
    assert [line for line in log.splitlines() if line and not re.match(r"(you|P\d): ", line)] == [
        line for line in told if line
    ]
    assert "You drew " in log
    assert re.search(r"P[02] drew \d+ cards?\b", log)
    assert not leaked(log, history, 1)


def test_a_bad_typed_move_shows_the_rules_message_and_changes_nothing(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "dice-poker", 7)
    open_notation(page)
    table, log = table_text(page), log_length(page)
    with pytest.raises(ValueError, match="written after a throw") as error:
        Match(dp.RULES, seed=7).play("write chance")
    page.fill("#move-text", "write chance")
    page.press("#move-text", "Enter")
    assert page.inner_text("#move-error") == str(error.value)
    assert (table_text(page), log_length(page)) == (table, log)
    assert page.input_value("#move-text") == "write chance"
    page.fill("#move-text", "roll")
    page.click("#typed button")
    assert page.inner_text("#move-error") == ""
    assert page.input_value("#move-text") == ""
    assert log_length(page) == log + 1


def test_a_refused_house_rule_shows_its_error_beside_the_field_and_starts_nothing(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "palace", 3)
    title, table = page.inner_text("#title"), table_text(page)
    with pytest.raises(ValueError, match="players must be") as error:
        configured(palace.Config, ["players=30"])
    start_from_form(page, {"players": "30", "max_turns": "1000"})
    assert page.inner_text("#error-players") == str(error.value)
    assert page.get_attribute("#rule-players", "aria-invalid") == "true"
    assert page.inner_text("#error-max_turns") == ""
    assert page.inner_text("#setup-error") == "a house rule is refused; nothing was started"
    assert (page.inner_text("#title"), table_text(page)) == (title, table)
    start_from_form(page, {"players": "3"}, ["you", "lowcard", "lowcard"])
    assert page.inner_text("#error-players") == ""
    assert page.inner_text("#cast") == "P0: you · P1: lowcard bot · P2: lowcard bot"


def test_the_page_opens_on_the_game_docs_web_names(page: Page, origin: str) -> None:
    """Issue 32, point 8: ``docs/web.rst`` said the page opens on dice poker; with no game
    in the address it starts the first of its games, by name: the account game.
    """
    page.goto(f"{origin}/")
    page.wait_for_selector("#play:not([hidden])", timeout=90_000)
    names = page.eval_on_selector("#game", "(select) => [...select.options].map((o) => o.value)")
    assert names == sorted(names)
    first = get_ruleset(names[0])
    assert page.inner_text("#title") == first.title
    docs = (ROOT / "docs" / "web.rst").read_text(encoding="utf-8")
    assert f"The page starts {first.title.lower()} on load" in " ".join(docs.split())


def test_changing_the_game_keeps_only_the_seat_choices_it_offers(page: Page, origin: str) -> None:
    open_game(page, origin, "dice-poker", 2)
    page.click("#setup summary")
    assert page.input_value("#seat-1") == "greedy"
    page.select_option("#game", "palace")
    assert [page.input_value(f"#seat-{seat}") for seat in (0, 1)] == ["you", "lowcard"]
    page.click("#start")
    assert page.inner_text("#cast") == "P0: you · P1: lowcard bot"


def test_a_record_that_fails_to_load_shows_the_loaders_message_and_keeps_the_game(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "dice-poker", 3)
    table = table_text(page)
    broken = Match(dp.RULES, seed=3).record.to_json().replace('"moves": []', '"moves": ["write"]')
    page.set_input_files(
        "#load", {"name": "broken.json", "mimeType": "application/json", "buffer": broken.encode()}
    )
    page.wait_for_selector("#record-error:not(:empty)")  # the file is read asynchronously
    message = page.inner_text("#record-error")
    assert message.startswith("Not loaded: move 1 ('write') cannot be played:")
    assert table_text(page) == table

    good = Match(palace.RULES, seed=9)
    good.play("ready")
    page.set_input_files(
        "#load",
        {
            "name": "palace.json",
            "mimeType": "application/json",
            "buffer": good.record.to_json().encode(),
        },
    )
    page.wait_for_selector("#record-error:empty", state="attached")
    assert page.inner_text("#title") == "Palace"
    assert page.inner_text("#log").startswith("you: ready")


def test_undo_takes_back_the_persons_last_move_and_the_bots_replies(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "account", 4)
    assert page.is_disabled("#undo")
    before = table_text(page)
    board_click(page, "place 0")
    assert table_text(page) != before
    page.click("#undo")
    assert table_text(page) == before
    assert log_length(page) == 0
    assert page.is_disabled("#undo")


def test_physical_dice_are_typed_in_for_every_throw(page: Page, origin: str) -> None:
    open_game(page, origin, "dice-poker", 5)
    start_from_form(page, {"auto_chance": "false", "stages": "1"})
    board_click(page, "roll")
    assert page.inner_text("#turn") == "Enter what the dice show."
    page.fill("#move-text", "dice 6 6 6 6 6")
    page.press("#move-text", "Enter")
    assert "dice 6 6 6 6 6" in table_text(page)
    assert page.inner_text("#turn") == "Your move."
    expected = Match(
        dp.RULES,
        dp.Config(auto_chance=False, stages=1),
        seed=5,
    )
    expected.play("roll")
    expected.play("dice 6 6 6 6 6")
    assert expected.current_player not in (None, CHANCE)
    assert table_text(page) == dp.RULES.display(expected.view(0))


@pytest.mark.parametrize(("game", "seed"), [("dice-poker", 1), ("palace", 1), ("account", 1)])
def test_the_page_fits_a_phone_screen(page: Page, origin: str, game: str, seed: int) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    open_game(page, origin, game, seed)
    page.click("#setup summary")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]


# --- issue 19: the log in words, the rules panel, the hints, the bots' pace ---------------


def test_the_log_tells_the_moves_in_the_games_sentences(page: Page, origin: str) -> None:
    open_game(page, origin, "dice-poker", 7)
    board_click(page, "roll")
    entry = page.locator("#log li").first
    assert entry.locator(".move").inner_text() == "you: roll"
    assert entry.locator(".events").inner_text() == "You threw 1 2 2 3 3 (throw 1)."
    board_click(page, "write chance")
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    match.play("write chance")
    told = [" ".join(f"{dp.describe(event, 0)}." for event in e) for e in match.move_events]
    assert page.locator("#log .events").all_inner_texts()[: len(told)] == told
    assert "Wrote" not in page.inner_text("#log")


@pytest.mark.parametrize("game", ["dice-poker", "palace", "account"])
def test_a_rules_panel_tells_the_game_in_short_and_a_screen_reader_finds_it(
    page: Page, origin: str, game: str
) -> None:
    open_game(page, origin, game, 3)
    rules = get_ruleset(game)
    config = rules.config_type()
    heading = page.get_by_role("heading", name="The rules in short")
    assert heading.is_visible()
    assert page.get_attribute("#guide", "aria-labelledby") == "guide-heading"
    assert not page.is_visible("#guide-rules")  # collapsed until asked for
    page.click("#guide-details summary")
    assert page.is_visible("#guide-rules")
    assert page.inner_text("#guide-details summary") == (
        f"{rules.title}: the rules and the notation"
    )
    assert page.locator("#guide-rules li").all_inner_texts() == list(rules.rules_summary(config))
    assert page.locator("#guide-notation li").all_inner_texts() == list(
        rules.notation_summary(config)
    )


def test_the_panel_follows_the_house_rules_of_the_game_started(page: Page, origin: str) -> None:
    open_game(page, origin, "palace", 3)
    start_from_form(page, {"quad": "burn"})
    burn = palace.RULES.rules_summary(palace.Config(quad="burn"))
    assert guide_lines(page)[: len(burn)] == list(burn)


def described_by(page: Page, move: str) -> str:
    """The text a screen reader reads as the description of ``move``'s button."""
    text: str = page.evaluate(
        """(move) => {
            const button = document.querySelector(`#moves button[data-move="${move}"]`);
            return document.getElementById(button.getAttribute("aria-describedby")).textContent;
        }""",
        move,
    )
    return text


def test_dice_poker_shows_what_each_open_box_would_score_beside_its_button(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "dice-poker", 7)
    assert page.inner_text("#hints").startswith("Hints come after a throw")
    board_click(page, "roll")
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    points = open_box_points(match.view(0))
    assert page.inner_text("#hints").startswith("With 1 2 2 3 3 the boxes you may fill now")
    assert described_by(page, "write pair") == f"scores {points[dp.Box.PAIR]}"
    assert described_by(page, "write chance") == f"scores {points[dp.Box.CHANCE]}"
    assert described_by(page, "scratch poker") == "0: the dice do not fit"
    open_notation(page)
    note = page.locator("#moves .choice", has=page.locator("[data-move='write pair']"))
    assert note.locator("small").is_visible()


def test_palace_shows_the_ranks_that_go_on_the_pile(page: Page, origin: str) -> None:
    open_game(page, origin, "palace", 3)
    board_click(page, "ready")
    page.wait_for_selector("#hints p")
    assert page.inner_text("#hints").startswith("Ranks that go on the pile now: ")
    record = saved_record(page)
    seen = Match.from_record(record).view(0)
    names = {11: "J", 12: "Q", 13: "K", 14: "A"}
    ranks = " ".join(names.get(rank, str(rank)) for rank in playable_ranks(seen))
    assert page.locator("#hints p").first.inner_text() == f"Ranks that go on the pile now: {ranks}."


def test_the_account_game_lists_the_landings_after_a_roll(page: Page, origin: str) -> None:
    open_game(page, origin, "account", 6)
    start_from_form(page, {"players": "1"}, ["you"])
    board_click(page, "place 0")
    board_click(page, "roll")
    assert page.inner_text("#hints").startswith("Rolled 2, account 1: ")
    assert described_by(page, "move 0 left 2") == "lands on -15 (column 5): account 1 → -14"
    assert page.locator("#moves .choice small").all_text_contents() == [
        "lands on P (column 6): account 1 → 101",
        "lands on -15 (column 5): account 1 → -14",
        "lands on +15 (column 1): account 1 → 16",
        "lands on +10 (column 2): account 1 → 11",
    ]


def test_the_bots_are_paced_one_move_at_a_time_by_default(page: Page, origin: str) -> None:
    """Issue 19, point 4: at the default pace each bot move shows on its own, then the
    person's turn comes; the game is the one the library plays for the seed.
    """
    open_game(page, origin, "dice-poker", 7, speed="")
    assert page.input_value("#speed") == "normal"
    page.evaluate(
        """() => {
            window.counts = [];
            const log = document.querySelector("#log");
            new MutationObserver(() => window.counts.push(log.children.length))
                .observe(log, { childList: true });
        }"""
    )
    start_from_form(page, {}, ["greedy", "you"])
    assert page.inner_text("#turn") == "To move: P0 (greedy bot)."
    assert (log_length(page), page.locator("#moves button").count()) == (0, 0)
    page.wait_for_function("document.querySelector('#turn').textContent === 'Your move.'")
    board_click(page, "roll")
    board_click(page, "write chance")
    assert page.inner_text("#turn") == "To move: P0 (greedy bot)."
    page.wait_for_function("document.querySelector('#turn').textContent === 'Your move.'")
    # Each bot's move came on its own: the log grew one entry at a time.
    counts = [count for count in page.evaluate("window.counts") if count]
    assert counts == list(range(1, len(counts) + 1))
    match = Match.from_record(saved_record(page))
    assert len(counts) == len(match.moves)
    assert persons_moves(match, 1) == ["roll", "write chance"]
    assert len(match.moves) >= 6  # two turns of P0's, each a throw or more and a box
    assert table_text(page) == dp.display(match.view(1))


def test_the_pace_is_chosen_kept_and_instant_plays_the_bots_at_once(
    page: Page, origin: str
) -> None:
    open_game(page, origin, "dice-poker", 7, speed="slow")
    assert page.input_value("#speed") == "slow"
    start_from_form(page, {}, ["greedy", "you"])
    assert page.inner_text("#turn") == "To move: P0 (greedy bot)."
    page.select_option("#speed", "instant")  # mid-way: the rest come at once
    assert page.inner_text("#turn") == "Your move."
    board_click(page, "roll")
    before = log_length(page)
    board_click(page, "write chance")
    assert page.inner_text("#turn") == "Your move."  # no pause: the bots answered at once
    assert log_length(page) >= before + 3
    page.goto(f"{origin}/?game=palace&seed=8")  # the chosen pace is kept for the next visit
    page.wait_for_selector("#play:not([hidden])", timeout=90_000)
    assert page.input_value("#speed") == "instant"


def test_reduced_motion_turns_the_flashes_off_but_keeps_the_newest_entry_marked(
    page: Page, origin: str
) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_game(page, origin, "dice-poker", 7)
    board_click(page, "roll")
    style = page.evaluate(
        """() => {
            const entry = getComputedStyle(document.querySelector("#log li.new"));
            const table = getComputedStyle(document.querySelector("#table"));
            return [entry.animationName, table.animationName, entry.backgroundColor];
        }"""
    )
    assert style[:2] == ["none", "none"]
    assert style[2] not in ("rgba(0, 0, 0, 0)", "transparent")
    assert tumbling(page) == ["none"] * 5  # the dice just thrown lie still
    page.emulate_media(reduced_motion="no-preference")
    board_click(page, "roll")
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#log li.new')).animationName")
        == "flash"
    )
    assert tumbling(page) == ["tumble"] * 5


def tumbling(page: Page) -> list[str]:
    """The animation of each die the last throw rolled."""
    names: list[str] = page.evaluate(
        "[...document.querySelectorAll('#board .die.tumble')]"
        ".map((die) => getComputedStyle(die).animationName)"
    )
    return names


def test_the_table_is_played_by_keyboard_and_read_by_a_screen_reader(
    page: Page, origin: str
) -> None:
    """Issue 19, point 5: Tab reaches the table's buttons, Enter and Space press them, a
    focus ring shows, and cards and dice have the names a screen reader reads.
    """
    open_game(page, origin, "dice-poker", 7)
    throw = page.locator("#board [data-move='roll']")
    throw.focus()
    page.keyboard.press("Enter")
    assert page.locator("#log .events").first.inner_text() == "You threw 1 2 2 3 3 (throw 1)."
    first = page.locator("#board button.die").first
    assert first.get_attribute("aria-label") == "die showing 1, not kept"
    first.focus()
    page.keyboard.press("Space")
    kept = page.locator("#board button.die").first
    assert kept.get_attribute("aria-label") == "die showing 1, kept"
    assert kept.get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement.dataset.focus") == "die-0"  # kept on redraw
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"
    for _ in range(5):  # the four other dice, then the throw button
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.move") == "roll keep 1"
    page.keyboard.press("Enter")
    assert page.locator("#log .move").nth(1).inner_text() == "you: roll keep 1"

    open_game(page, origin, "palace", 1)
    seen = palace.view(palace.new_game(seed=1), 0)
    names = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
    words = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

    def spoken(card: palace.Card) -> str:
        rank = names.get(card.rank) or words[card.rank - 2]
        return f"{rank} of {suits[card.suit]}"

    hand = page.locator("#board .hand .card").evaluate_all(
        "(cards) => cards.map((card) => card.getAttribute('aria-label'))"
    )
    assert hand == [f"{spoken(card)}, in hand" for card in seen.hand]
    backs = page.locator("#board .card.back[aria-label='face-down card']")
    assert backs.count() == 6  # three of each seat's, under the face-up rows


# --- issue 34, point 3: the page reads as a game, not a developer tool --------------------

RAW_NAME = re.compile(
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # a field or choice name: must_beat, equal_or_higher
    r"|\b[A-Z]{2,}(?:_[A-Z0-9]+)*\b"  # a constant: MAX_PLAYERS, POKER
    r"|\w\(\)"  # a call: Roll()
    r"|\b(?:None|True|False|null)\b"  # a Python or JSON value
)
"""What a person reading the house-rules form should never meet: code."""


def test_no_version_banner_only_a_small_about_line_in_the_footer(page: Page, origin: str) -> None:
    """The versions the page runs are for a bug report: a small line in the footer, not
    a banner under the heading.
    """
    open_game(page, origin, "dice-poker", 3)
    manifest = json.loads(page.evaluate("fetch('manifest.json').then(r => r.text())"))
    library = manifest["wheels"][-1].split("-")[1]
    header = page.inner_text("header")
    assert "tabletop_rules" not in header
    assert not re.search(r"\d+\.\d+", header), header
    assert not page.is_visible("#status")  # it speaks while loading, and on a failure
    about = page.inner_text("footer #about")
    assert about.startswith(f"tabletop_rules {library} · Python 3.")
    assert about.endswith(f"· Pyodide {manifest['pyodide']}")
    sizes = page.evaluate(
        "['#about', 'body'].map((where) =>"
        " parseFloat(getComputedStyle(document.querySelector(where)).fontSize))"
    )
    assert sizes[0] < sizes[1]


def form_texts(page: Page) -> list[str]:
    """Every text the house-rules form shows: labels, descriptions, choices, values."""
    texts: list[str] = page.evaluate(
        """() => {
            const rules = document.querySelector("#rules");
            return [
                ...[...rules.querySelectorAll("label, small")].map((node) => node.textContent),
                ...[...rules.querySelectorAll("option")].map((option) => option.textContent),
                ...[...rules.querySelectorAll("input:not([type=checkbox])")].flatMap(
                    (input) => [input.placeholder, /^\\w+$/.test(input.value) ? input.value : ""]
                ),
            ];
        }"""
    )
    return texts


@pytest.mark.parametrize("game", ["account", "dice-poker", "palace"])
def test_no_raw_field_name_or_constant_is_visible_in_the_house_rules_form(
    page: Page, origin: str, game: str
) -> None:
    """Each house rule shows a label, choices and a description in words (``Must beat``,
    ``equal or higher``), never its config field name, a constant or a Python value; the
    form still sends the raw values, so the game started is the one chosen.
    """
    open_game(page, origin, game, 3)
    page.click("#setup summary")
    rules = house_rules(get_ruleset(game).config_type)
    labels = page.locator("#rules label").all_inner_texts()
    assert len(labels) == len(rules)
    assert not {rule.name for rule in rules} & set(labels)
    shown = [text for text in form_texts(page) if RAW_NAME.search(text)]
    assert shown == []
    if game == "palace":
        assert page.inner_text("label[for='rule-must_beat']") == "Must beat"
        options = page.locator("#rule-must_beat option").all_inner_texts()
        assert options == ["equal or higher", "higher"]
        start_from_form(page, {"must_beat": "higher", "max_turns": "40"})
        assert Match.from_record(saved_record(page)).config == palace.Config(
            must_beat="higher", max_turns=40
        )
    if game == "dice-poker":  # an optional cap left blank is none; a number caps
        assert page.input_value("#rule-max_fences") == ""
        start_from_form(page, {"max_fences_per_turn": "2"})
        config = Match.from_record(saved_record(page)).config
        assert (config.max_fences, config.max_fences_per_turn) == (None, 2)


def sheet_edges(page: Page) -> dict[str, float]:
    """Where the dice-poker sheet, its box and the page end, against the window's width."""
    edges: dict[str, float] = page.evaluate(
        """() => ({
            sheet: document.querySelector(".sheet").getBoundingClientRect().right,
            box: document.querySelector(".sheet-wrap").getBoundingClientRect().right,
            page: document.documentElement.scrollWidth,
            window: window.innerWidth,
        })"""
    )
    return edges


def test_at_390_px_the_dice_poker_sheet_fits_the_phone(page: Page, origin: str) -> None:
    """On a 390 px phone the sheet of two seats' three stages fits the screen, its open
    boxes' buttons included; with the coach's lines on, anything wider scrolls inside the
    sheet's own box, never the page.
    """
    page.set_viewport_size({"width": 390, "height": 844})
    open_game(page, origin, "dice-poker", 4)
    board_click(page, "roll")
    edges = sheet_edges(page)
    assert edges["sheet"] <= edges["box"] <= edges["window"], edges
    assert edges["page"] <= edges["window"], edges
    for button in page.locator("#board .sheet .box-move").all():
        box = button.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= edges["box"]
    page.click("#coach-toggle")
    edges = sheet_edges(page)
    assert edges["box"] <= edges["window"], edges
    assert edges["page"] <= edges["window"], edges


def test_the_coach_lines_are_hidden_until_toggled_on_and_the_choice_is_kept(
    page: Page, origin: str
) -> None:
    """The coach's line under each open box, and its advice among the hints, are there on
    request: off at first, on with the Coach toggle (the library's lines for the person's
    view), kept for the next visit.
    """
    open_game(page, origin, "dice-poker", 7)
    board_click(page, "roll")
    toggle = page.locator("#coach-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator("#board .coach").count() == 0
    hints = page.locator("#hints p")
    assert hints.count() > 0
    assert not [line for line in hints.all_inner_texts() if line.startswith("Coach (")]
    toggle.click()
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    coached = coach_lines(match.view(0))
    assert page.locator("#coach-toggle").get_attribute("aria-pressed") == "true"
    assert sorted(page.locator("#board .coach").all_inner_texts()) == sorted(coached.values())
    assert [line for line in hints.all_inner_texts() if line.startswith("Coach (")]
    page.goto(f"{origin}/?game=dice-poker&seed=7&speed=instant")
    page.wait_for_selector("#play:not([hidden])", timeout=90_000)
    board_click(page, "roll")
    assert page.locator("#board .coach").count() == len(coached)  # kept on: the choice stored
    page.click("#coach-toggle")
    assert page.locator("#board .coach").count() == 0
    assert page.evaluate("localStorage.getItem('tabletop-rules-coach')") == "false"
