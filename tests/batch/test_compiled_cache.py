"""numba's cache of the compiled kernels is kept only while the library's sources are
those it was compiled from: numba itself checks a function's own file alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numba")

from tabletop_rules.batch import compiled
from tabletop_rules.batch.compiled import rng

forget = compiled.forget_stale_cache.__wrapped__  # not the once-a-process cache


def _cached(folder: Path) -> list[Path]:
    for name in ("rng.below-40.py311.nbi", "rng.below-40.py311.1.nbc"):
        (folder / name).write_bytes(b"compiled")
    return sorted(folder.glob("*.nb[ic]"))


def test_code_compiled_from_other_sources_is_removed(tmp_path: Path) -> None:
    _cached(tmp_path)
    (tmp_path / compiled._STAMP).write_text("an older digest")
    forget(str(tmp_path), "the digest now")
    assert not list(tmp_path.glob("*.nb[ic]"))
    assert (tmp_path / compiled._STAMP).read_text() == "the digest now"


def test_code_of_a_cache_without_a_stamp_is_removed(tmp_path: Path) -> None:
    _cached(tmp_path)
    forget(str(tmp_path), "the digest now")
    assert not list(tmp_path.glob("*.nb[ic]"))


def test_code_compiled_from_these_sources_is_kept(tmp_path: Path) -> None:
    files = _cached(tmp_path)
    (tmp_path / compiled._STAMP).write_text("the digest now")
    forget(str(tmp_path), "the digest now")
    assert sorted(tmp_path.glob("*.nb[ic]")) == files


def test_the_package_cache_is_stamped_with_the_sources_it_was_compiled_from() -> None:
    folder = Path(rng.below._cache._cache_path)  # type: ignore[attr-defined]
    assert (folder / compiled._STAMP).read_text() == compiled.sources_digest()
