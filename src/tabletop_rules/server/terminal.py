"""``tabletop-rules join``: a seat of a server's match played in the terminal (the ``cli``
and ``server`` extras).

Two threads feed one queue: one reads the socket, one reads the person's lines (with
``readline``'s line editing, history and completion of the legal moves where it exists
and the input is a terminal); the main thread shows what comes and sends what is typed.
A line is asked for only when the seat may act: on its turn, when a take-back awaits its
answer, while another person thinks or people are awaited (to propose a take-back, resign
or leave); never while the server's bots move, so that typed-ahead input meets the table
it was meant for.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from ..game import CHANCE
from .client import (
    ClientError,
    Connection,
    ConnectionLostError,
    MatchLink,
    SavedSeat,
    SavedSeats,
    SeatState,
    Update,
    config_dir,
    join_seat,
)

__all__ = ["JOIN_COMMANDS", "play_seat"]

JOIN_COMMANDS: dict[str, str] = {
    "help": "this help",
    "moves": "your moves again, with what each would do where the game says",
    "hint": "what your moves would do now, where the game gives hints",
    "undo": "take back your last turn and the bots' since (only against bots: nobody "
    "is asked); never a move that showed what was hidden",
    "takeback": "propose to take back your last turn: each person whose move it takes "
    "back must accept",
    "accept": "accept the take-back another seat proposes",
    "decline": "decline it",
    "resign": "give the match up",
    "claim": "end the match when the person on turn has been away past the grace",
    "quit": "leave the table; your seat stays yours: join again to come back "
    "(also exit, or the end of the input)",
}
"""The words the ``join`` prompt takes besides moves, and what each does."""

HISTORY_LINES = 1000
"""Lines of typed input kept between runs (where ``readline`` exists)."""

RECONNECT_SECONDS = 60.0
"""How long ``join`` tries to reconnect after losing its socket before it gives up."""

MOVES_SHOWN = 60
"""Legal moves listed at a prompt; the rest are counted (any may still be typed)."""

_Event = tuple[str, Any]


class _Lines:
    """The person's lines, read on a thread of their own when asked for, so that the
    socket is read meanwhile; with ``readline`` on a terminal, edited, kept and completed.
    """

    def __init__(self, stdin: IO[str], events: queue.Queue[_Event], console: Console) -> None:
        self.stdin = stdin
        self.events = events
        self.console = console
        self.choices: Sequence[str] = ()
        self.prompt = ""
        self.asking = False
        self._asked = threading.Event()
        self._closed = False
        self.readline: Any = None
        self._terminal: Any = None  # the terminal's modes, restored however the run ends
        if stdin is sys.stdin and stdin.isatty():
            with contextlib.suppress(ImportError, OSError):
                import termios

                self._terminal = termios.tcgetattr(stdin.fileno())
            with contextlib.suppress(ImportError):  # Windows: plain input
                import readline

                self.readline = readline
                readline.set_completer(self._complete)
                readline.set_completer_delims("")  # a move's words complete as one
                readline.parse_and_bind("tab: complete")
                readline.set_history_length(HISTORY_LINES)
                with contextlib.suppress(OSError):
                    readline.read_history_file(self._history)
        threading.Thread(target=self._run, name="join-input", daemon=True).start()

    @property
    def _history(self) -> str:
        return str(config_dir() / "join_history")

    def _complete(self, text: str, state: int) -> str | None:
        found = [choice for choice in self.choices if choice.startswith(text)]
        return found[state] if state < len(found) else None

    def ask(self, prompt: str, choices: Sequence[str]) -> None:
        """Ask for the next line (once until it comes), completing from ``choices``."""
        if self.asking:
            return
        self.prompt, self.choices, self.asking = prompt, choices, True
        if self.readline is None:
            self.console.print(Text(prompt, style="bold"), end="")
        self._asked.set()

    def interrupt(self) -> None:
        """Before printing while a line is asked for: start a fresh line."""
        if self.asking:
            self.console.print()

    def resume(self) -> None:
        """After printing while a line is asked for: show the prompt (and what is typed) again."""
        if not self.asking:
            return
        typed = self.readline.get_line_buffer() if self.readline is not None else ""
        self.console.print(Text(self.prompt, style="bold"), end="")
        self.console.file.write(typed)
        self.console.file.flush()

    def _run(self) -> None:
        while True:
            self._asked.wait()
            self._asked.clear()
            if self._closed:
                return
            try:
                if self.readline is not None:
                    line: str | None = input(self.prompt)
                else:
                    line = self.stdin.readline() or None
            except EOFError:
                line = None
            except UnicodeDecodeError as error:
                self.events.put(("failed", ClientError(f"the input is not text ({error.reason})")))
                return
            self.events.put(("line", line))

    def close(self) -> None:
        """Keep the history for the next run, give the terminal back as it was, and let
        the thread end (one blocked in a read ends with the process).
        """
        self._closed = True
        self._asked.set()
        if self.readline is not None:
            with contextlib.suppress(OSError):
                config_dir().mkdir(parents=True, exist_ok=True)
                self.readline.write_history_file(self._history)
        if self._terminal is not None:
            import termios

            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._terminal)


def _read_socket(connection: Connection, events: queue.Queue[_Event]) -> None:
    try:
        while True:
            text = connection.read()
            if text is not None:
                events.put(("message", text))
    except ClientError as error:
        events.put(("failed", error))


def play_seat(
    url: str,
    *,
    console: Console,
    stdin: IO[str],
    name: str = "",
    seat: int | None = None,
    token: str | None = None,
    watch: bool = False,
    saved: SavedSeats | None = None,
) -> int:
    """Play (or, with ``watch``, watch) the match at ``url`` until it is over or the
    person leaves; the exit status. The seat is ``token``'s, else the one kept in
    ``saved`` for the match, else a free one (``seat``, or the link's) taken in the
    lobby and kept.
    """
    link = MatchLink.parse(url)
    seats = saved if saved is not None else SavedSeats()
    cursor, kept_token = 0, False
    if seat is None and token is None:  # the page's share link may name the seat, or watch
        seat, watch = link.seat, watch or link.watch
    if watch:
        token = None
    elif token is None:
        kept = seats.get(link)
        if kept is not None and seat in (None, kept.seat):
            token, cursor, kept_token = kept.token, kept.cursor, True
            console.print(Text(f"Back at seat P{kept.seat} of match {link.match}."))
        else:
            try:
                seating = join_seat(link, seat=seat, name=name)
            except ClientError as error:
                if error.status != 409:
                    raise
                raise ClientError(f"{error}; watch the match with --watch") from None
            token = seating.token
            seats.put(link, SavedSeat(seat=seating.seat, token=token))
            console.print(Text(f"Took seat P{seating.seat} of match {link.match}."))
    try:
        connection, first = Connection.open(link, token, cursor=cursor)
    except ClientError as error:
        if kept_token and "holds no seat" in str(error):  # the seat was left, say
            seats.forget(link)
            raise ClientError(
                f"{error}; the seat kept for it is forgotten: join again to take a free seat"
            ) from None
        raise
    state = connection.state
    try:
        with connection:
            _Table(connection, console, stdin, link, url.strip()).run(first)
    finally:  # the cursor kept, so that coming back shows only the moves missed
        if token is not None and state.seat is not None:
            seats.put(link, SavedSeat(seat=state.seat, token=token, cursor=state.cursor))
    return 0


class _Table:
    """The terminal's side of one connection: what it shows, when it asks, what it sends."""

    def __init__(
        self, connection: Connection, console: Console, stdin: IO[str], link: MatchLink, url: str
    ) -> None:
        self.url = url  # as the person gave it: to share, and to come back with
        self.connection = connection
        self.state: SeatState = connection.state
        self.console = console
        self.link = link
        self.events: queue.Queue[_Event] = queue.Queue()
        self.lines = _Lines(stdin, self.events, console)
        self.drawn = -1  # the version whose table was last drawn
        self.waiting_for: tuple[Any, ...] | None = None  # the state an action was sent in
        self.refused = "Refused"  # how a refusal of the last message sent begins

    def run(self, first: Update) -> None:
        self._header()
        self._show(first, {})
        self._situation()
        self._read_socket()
        try:
            while self.state.status != "over":
                self._maybe_ask()
                kind, item = self.events.get()
                if kind == "failed":
                    if not isinstance(item, ConnectionLostError):
                        raise item
                    self._reconnect(item)
                    continue
                if kind == "message":
                    before = self.state.match
                    try:
                        update = self.state.receive(item)
                    except ClientError:
                        if self.state.closing is None:
                            raise
                        continue  # the server says why it closes; the close says what next
                    self._took(update, before)
                    continue
                self.lines.asking = False
                if item is None:
                    self.console.print()
                    self._leave()
                    return
                if not self._command(item.strip()):
                    self._leave()
                    return
            self._end()
        finally:
            self.lines.close()

    def _read_socket(self) -> None:
        threading.Thread(
            target=_read_socket, args=(self.connection, self.events), daemon=True
        ).start()

    def _took(self, update: Update, before: Mapping[str, Any]) -> None:
        """Show ``update``; an answer awaited came when it was refused or changed things."""
        with self._printing():
            self._show(update, before)
            self._situation()
        if self.waiting_for is not None and (
            update.kind == "refused" or self._now() != self.waiting_for
        ):
            self.waiting_for = None

    def _reconnect(self, lost: ConnectionLostError) -> None:
        """Come back after ``lost``: a new socket, hello with the cursor, the moves missed
        shown; tried for :data:`RECONNECT_SECONDS` (pausing longer each time), then the
        last error.
        """
        with self._printing():
            self._say(f"{str(lost)[:1].upper()}{str(lost)[1:]}; reconnecting…", "yellow")
        before, deadline, pause = self.state.match, time.monotonic() + RECONNECT_SECONDS, 0.25
        while True:
            try:
                update = self.connection.reconnect()
                break
            except ConnectionLostError as error:
                if time.monotonic() + pause > deadline:
                    raise ClientError(f"{error}; gave up after {RECONNECT_SECONDS:g} s") from None
                time.sleep(pause)
                pause = min(2 * pause, 4.0)
        self.waiting_for = None  # an answer to what the lost socket carried may never come
        self.drawn = -1
        with self._printing():
            self._say("Back at the table.", "yellow")
        self._took(update, before)
        self._read_socket()

    # --- what is shown ---------------------------------------------------------------------

    def _header(self) -> None:
        table = self.state.table
        assert table is not None
        seat = self.state.seat
        who = "watching" if seat is None else f"you are P{seat}"
        self.console.print(Text(f"{table.title}, match {self.link.match}: {who}.", style="bold"))
        self.console.print(Text(f"Seats: {self._seats()}."))
        if seat is not None:
            self.console.print(Text(f"Type a move in notation, or: {', '.join(self._words())}."))

    def _seats(self) -> str:
        rows = []
        for row in self.state.match.get("seats", ()):
            number = row["seat"]
            if row["kind"] == "bot":
                what = f"{row['bot']} bot"
            elif not row["taken"]:
                what = "free"
            else:
                what = row["name"] or "a person"
                if number == self.state.seat:
                    what = f"{what} (you)" if row["name"] else "you"
            rows.append(f"P{number} {what}")
        return ", ".join(rows)

    def _words(self) -> list[str]:
        """The commands offered now: ``undo`` only where no one need consent."""
        if self.state.seat is None:
            return ["help", "quit"]
        offered = dict(JOIN_COMMANDS)
        if self.state.against_bots:
            del offered["takeback"]
        else:
            del offered["undo"]
        return list(offered)

    def _show(self, update: Update, before: Mapping[str, Any]) -> None:
        """What ``update`` tells the person: moves taken back and played, a refusal,
        people arriving and leaving, a take-back proposed.
        """
        if update.taken_back:
            count = update.taken_back
            self._say(f"Took back {count} move{'s' * (count > 1)}.", "yellow")
        for entry in update.new:
            who = "chance" if entry.seat == CHANCE else f"P{entry.seat}"
            for line in entry.events or (f"{who}: {entry.move}",):
                self._say(line, "cyan")
        if update.reason is not None:
            self._say(f"{self.refused}: {update.reason}", "red")
        match = update.match
        if before:
            self._presence(before, match)
        proposal = match.get("takeback")
        if proposal and proposal != before.get("takeback"):
            waiting = ", ".join(f"P{seat}" for seat in proposal["waiting"]) or "nobody"
            line = (
                f"P{proposal['by']} proposes to take back their last turn; waiting for {waiting}."
            )
            if self.state.asked:
                line += " Type accept or decline."
            self._say(line, "yellow")
        elif before.get("takeback") and not proposal and not update.taken_back:
            self._say("The take-back was declined, or a move ended it.", "yellow")
        if match.get("status") == "open":
            free = self._free(match)
            if not before or before.get("status") != "open" or self._free(before) != free:
                link = f"{self.link.base}/?match={self.link.match}"
                self._say(f"Waiting for people at {', '.join(free)}; share {link}")
        claimable = match.get("claimable") or []
        if claimable and claimable != before.get("claimable") and self.state.seat is not None:
            away = ", ".join(f"P{seat}" for seat in claimable)
            self._say(f"{away} has been away past the grace: type claim to end the match.")
        if self.state.seat is None and update.table.version != self.drawn:
            self._draw()

    @staticmethod
    def _free(match: Mapping[str, Any]) -> list[str]:
        return [f"P{row['seat']}" for row in match.get("seats", ()) if not row["taken"]]

    def _presence(self, before: Mapping[str, Any], match: Mapping[str, Any]) -> None:
        was = {row["seat"]: row for row in before.get("seats", ())}
        for row in match.get("seats", ()):
            old = was.get(row["seat"])
            if old is None or row["seat"] == self.state.seat or row["kind"] == "bot":
                continue
            name = f"P{row['seat']}" + (f" ({row['name']})" if row["name"] else "")
            if row["taken"] and not old["taken"]:
                self._say(f"{name} took a seat.")
            elif row["connected"] != old["connected"]:
                self._say(f"{name} {'is at' if row['connected'] else 'left'} the table.")

    def _say(self, line: str, style: str = "") -> None:
        self.console.print(Text(line, style=style))

    def _draw(self) -> None:
        table = self.state.table
        assert table is not None
        self.console.print()
        self.console.print(Text(table.display))
        self.drawn = table.version

    @contextlib.contextmanager
    def _printing(self) -> Iterator[None]:
        """Print on a fresh line while a line is asked for, then ask again."""
        self.lines.interrupt()
        yield
        self.lines.resume()

    # --- what is asked ---------------------------------------------------------------------

    def _now(self) -> tuple[Any, ...]:
        """What an answer to an action changes: the version, the status, the take-back."""
        match = self.state.match
        return (self.state.cursor, match.get("status"), repr(match.get("takeback")))

    def _situation(self) -> None:
        """Draw the table when it changed and the seat may act on it: its turn (with its
        moves), a take-back to answer, another person thinking.
        """
        state, table = self.state, self.state.table
        assert table is not None
        if state.seat is None or table.version == self.drawn or not self._may_act():
            return
        self._draw()
        if state.to_move:
            self.console.print(Text("Your moves:", style="bold"))
            self.console.print(Text(_columns(table.moves, self.console.width)))
            clock = state.match.get("clock")
            if isinstance(clock, dict) and clock.get("to_move") == state.seat and clock["left"]:
                self._say(f"You have {clock['left']:.0f} s for this move, your bank included.")
        elif not state.asked:
            self._say(f"P{table.to_move} to move; meanwhile: takeback, resign or quit.")

    def _may_act(self) -> bool:
        state = self.state
        return state.status == "playing" and (
            state.to_move or state.asked or self._person_on_turn()
        )

    def _maybe_ask(self) -> None:
        """Ask for a line where the person may act (or wait for people to come) and no
        answer is awaited; never while the server's bots or chance move, which they do at
        once.
        """
        if self.waiting_for is not None or self.lines.asking:
            return
        table = self.state.table
        assert table is not None
        if self.state.seat is None:
            self.lines.ask("watch> ", ("help", "quit"))
        elif self._may_act() or self.state.status == "open":  # open: to leave, say
            self.lines.ask("move> ", (*table.moves, *self._words()))

    def _person_on_turn(self) -> bool:
        to_move = self.state.table.to_move if self.state.table else None
        seats = self.state.match.get("seats", ())
        return any(row["seat"] == to_move and row["kind"] == "person" for row in seats)

    def _command(self, text: str) -> bool:
        """Act on one typed line; ``False`` to leave."""
        state, table = self.state, self.state.table
        assert table is not None
        if not text:
            return True
        if text in ("quit", "exit"):
            return False
        shown: dict[str, Callable[[], str]] = {
            "help": self._help,
            "moves": lambda: (
                _columns(table.moves, self.console.width, table.move_notes)
                or "You have no move now."
            ),
            "hint": lambda: "\n".join(table.hints) or "No hints here.",
        }
        if text in shown:
            self.console.print(Text(shown[text]()))
            return True
        if state.seat is None:
            self._say("A spectator watches: type quit to leave.", "yellow")
            return True
        if text == "undo" and not state.against_bots:
            self._say(
                "undo takes back without asking only against bots; type takeback to "
                "propose it to the others.",
                "yellow",
            )
            return True
        messages: dict[str, dict[str, Any]] = {
            "undo": {"type": "takeback", "answer": "propose"},
            "takeback": {"type": "takeback", "answer": "propose"},
            "accept": {"type": "takeback", "answer": "accept"},
            "decline": {"type": "takeback", "answer": "decline"},
            "resign": {"type": "resign"},
            "claim": {"type": "claim"},
        }
        message = messages.get(text) or state.move(text)
        self.refused = {"move": "Not played", "takeback": "Not taken back"}.get(
            message["type"], "Refused"
        )
        self.waiting_for = self._now()
        try:
            self.connection.send(message)
        except ConnectionLostError:  # the reader hears of it too, and reconnects
            self.waiting_for = None
            self._say("Not sent: the connection was lost. Type it again once back.", "red")
        return True

    def _help(self) -> str:
        if self.state.seat is None:
            return "You are watching: each move is shown as it comes. Type quit to leave."
        names = max(map(len, JOIN_COMMANDS))
        words = self._words()
        lines = ["Moves are typed in notation, as 'moves' lists them (Tab completes them)."]
        lines.append("Commands:")
        lines += [f"  {name.ljust(names)}  {JOIN_COMMANDS[name]}" for name in words]
        return "\n".join(lines)

    # --- the end ---------------------------------------------------------------------------

    def _leave(self) -> None:
        if self.state.seat is None:
            self._say("Stopped watching.")
        else:
            self._say(f"Left the table; your seat stays yours: join {self.url} again to come back.")

    def _end(self) -> None:
        table = self.state.table
        assert table is not None
        if self.drawn != table.version:
            self._draw()
        result = self.state.match.get("result") or {}
        scores = ", ".join(f"P{seat} {points}" for seat, points in enumerate(table.scores))
        winners = ", ".join(f"P{seat}" for seat in result.get("winners", table.winners))
        won = f"winners {winners}" if "," in winners else f"winner {winners or 'none'}"
        reason = result.get("reason")
        how = {
            "resigned": f"P{result.get('seat')} resigned",
            "timeout": f"P{result.get('seat')} ran out of time",
            "claimed": f"P{result.get('seat')} was away and the match was claimed",
        }.get(str(reason))
        line = f"Game over: {won}. Scores: {scores}."
        self.console.print(Text(f"{how}. {line}" if how else line, style="bold"))


def _columns(items: Sequence[str], width: int, notes: Mapping[str, str] | None = None) -> str:
    """At most :data:`MOVES_SHOWN` moves in lines that fit ``width``; with ``notes``, one
    a line with its note.
    """
    shown = list(items[:MOVES_SHOWN])
    more = [f"... and {len(items) - MOVES_SHOWN} more"] if len(items) > MOVES_SHOWN else []
    if notes:
        widest = max(map(len, shown), default=0)
        rows = [f"{move.ljust(widest)}  {notes.get(move, '')}".rstrip() for move in shown]
        return "\n".join(rows + more)
    lines: list[str] = []
    line = ""
    for item in shown + more:
        if line and len(line) + 3 + len(item) > max(width, 40):
            lines.append(line)
            line = item
        else:
            line = f"{line}   {item}" if line else item
    if line:
        lines.append(line)
    return "\n".join(lines)
