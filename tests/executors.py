"""Executors for the tests of runs on workers: they play each task in this process, so a
test can see what a run sends without starting a process.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class Counting:
    """Plays each task as it is submitted, counting the tasks submitted: a run that made
    every chunk before sending the first would show more tasks submitted than done.
    """

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        """Run ``fn(*args)`` now and return its finished future."""
        future: Future[T] = Future()
        self.submitted += 1
        future.set_result(fn(*args))
        return future
