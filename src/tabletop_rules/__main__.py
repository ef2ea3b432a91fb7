"""``python -m tabletop_rules``: the ``tabletop-rules`` command."""

from .cli import main

raise SystemExit(main())
