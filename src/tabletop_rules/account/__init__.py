"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account. The rules are the rules page
``rules/account``; every house rule is a field of :class:`Config`.

Work in progress: the rules engine only (no views, notation, codec, bots or registry
entry yet).
"""

from __future__ import annotations
