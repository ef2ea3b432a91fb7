"""What reading the shapes hardest on a JSON reader costs, at a size you choose.

For each of :func:`~tabletop_rules.testing.fuzz.hostile_json`'s shapes, the processor time
``parse_json`` takes and the most memory it holds at once (``tracemalloc``, which slows
the run; ``--no-memory`` times without it), per character of text::

    PYTHONPATH=src python fuzz/loading_cost.py                  # 1 MiB
    PYTHONPATH=src python fuzz/loading_cost.py --size 16777000  # near MAX_DOCUMENT_CHARS

Linear reading keeps both columns about the same at every size.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import time
import tracemalloc

from tabletop_rules.errors import InvalidStateError
from tabletop_rules.serialize import MAX_DOCUMENT_CHARS, parse_json
from tabletop_rules.testing.fuzz import hostile_json


def main() -> None:
    """Print one row per shape: characters, time and memory per character."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20, help="characters (about)")
    parser.add_argument("--no-memory", action="store_true", help="time only")
    args = parser.parse_args()
    for name, text in hostile_json(args.size).items():
        if len(text) > MAX_DOCUMENT_CHARS:
            text = text[:MAX_DOCUMENT_CHARS]
        gc.collect()
        if not args.no_memory:
            tracemalloc.start()
        start = time.thread_time()
        with contextlib.suppress(InvalidStateError):
            parse_json(text)
        seconds = time.thread_time() - start
        memory = "" if args.no_memory else f"{tracemalloc.get_traced_memory()[1] / len(text):6.1f}"
        tracemalloc.stop()
        print(f"{name:45} {len(text):>9} chars {seconds * 1e9 / len(text):7.0f} ns {memory} B")


if __name__ == "__main__":
    main()
