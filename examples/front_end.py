"""A minimal hidden-information front end for palace: a server and its clients.

    python examples/front_end.py [--seed 4]

The server holds the game in a :class:`~tabletop_rules.match.Match`; each client holds only
what the server sent it, as JSON: its seat's view and the events as its seat may see
them. Clients answer with moves in text notation; the server plays a move only for the
seat on turn, and sends a bad move's rule back to its client. This is what a web or
desktop front end calls, with the network left out. Seat 0 plays as a person would,
typing a move the rules forbid first (a LowCardBot stands in for the person); seat 1
is a LowCardBot.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from tabletop_rules import Match, TabletopError
from tabletop_rules import palace as p
from tabletop_rules.records import GameRecord
from tabletop_rules.serialize import dumps, loads


class Server:
    """Holds the state; sends each seat its view and its events, and nothing else."""

    def __init__(self, seed: int) -> None:
        self.match = Match(p.RULES, p.Config(), seed=seed)
        self.sent: dict[int, list[str]] = {0: [], 1: []}

    def _send(self, seat: int, message: str) -> str:
        self.sent[seat].append(message)
        return message

    def table(self, seat: int) -> str:
        """The seat's view, as JSON."""
        return self._send(seat, dumps(self.match.view(seat)))

    def submit(self, seat: int, text: str) -> str:
        """Play ``text`` for ``seat``; the reply is the rule that refused it, or ``ok``.
        Every seat is sent the move's events as it may see them.
        """
        try:
            events = self.match.play(text, seat=seat)
        except TabletopError as error:
            return self._send(seat, json.dumps({"refused": str(error)}))
        for other in self.sent:
            redacted = [json.loads(dumps(p.RULES.redact(event, other))) for event in events]
            self._send(other, json.dumps({"events": redacted}))
        return self._send(seat, json.dumps({"ok": True}))


class Client:
    """Knows only what the server sent it."""

    def __init__(self, server: Server, seat: int) -> None:
        self.server, self.seat = server, seat

    def view(self) -> p.View:
        view = loads(self.server.table(self.seat), p.View)
        assert isinstance(view, p.View)
        return view

    def send(self, text: str) -> dict[str, object]:
        reply = json.loads(self.server.submit(self.seat, text))
        assert isinstance(reply, dict)
        return reply


def show(view: p.View) -> str:
    """One line of what seat 0 sees."""
    hand = " ".join(map(str, view.hand)) or "-"
    top = str(view.pile[-1]) if view.pile else "empty"
    return f"hand {hand:<20} pile top {top:<4} stock {view.stock_size}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4, help="the game's seed (default 4)")
    args = parser.parse_args(argv)
    server = Server(args.seed)
    person, other = Client(server, 0), Client(server, 1)
    bot = p.LowCardBot()

    print(f"Palace, seed {args.seed}: seat 0 is a person (a stand-in bot types), seat 1 a bot")
    print(f"seat 1 sends 'ready' out of turn: {other.send('ready')['refused']}")
    shown = 0
    while not server.match.is_over:
        for client in (person, other):
            view = client.view()
            if view.current_player != client.seat:
                continue
            move = p.format_move(bot.choose(view))
            if client is person and view.phase == "play" and shown < 5:
                if shown == 0:
                    seen = other.view()
                    print(f"seat 1 sees of seat 0's hand: {seen.hand_sizes[0]} cards, no faces")
                    print(f"seat 0 types 'play 2C 2D 2H': {person.send('play 2C 2D 2H')}")
                print(f"seat 0 sees {show(view)} and types {move!r}")
                shown += 1
            assert client.send(move) == {"ok": True}

    match = server.match
    print(f"game over after {len(match.moves)} moves: winners {sorted(match.winners)}")
    record = match.record.to_json()
    again = Match.from_record(p.RULES, GameRecord.from_json(record))
    print(
        f"record of {len(record)} characters replays to the same end: {again.state == match.state}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
