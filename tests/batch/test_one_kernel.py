"""Each built-in game has one batched kernel, compiled, living beside its rules
(``<game>/batch.py``) and reading only the rules' public names; the NumPy backend is left
to kernels of other packages, and importing a game never imports numba.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletop_rules import account, batch, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import ConfigError

GAMES: list[tuple[str, str, Any]] = [
    ("palace", "palace", palace.Config()),
    ("dice-poker", "dice_poker", dp.Config()),
    ("account", "account", account.Config()),
]
SOURCE = Path(batch.__file__).parents[1]


@pytest.mark.parametrize(("name", "package", "config"), GAMES)
def test_a_built_in_game_has_no_numpy_kernel_and_the_error_says_so(
    name: str, package: str, config: Any
) -> None:
    with pytest.raises(ConfigError, match=f"{name} has one batched kernel, compiled by numba"):
        batch.engine(name, config, 2, backend="numpy")
    assert name not in batch.engines("numpy")
    assert name in batch.engines("numba")


@pytest.mark.parametrize(("name", "package", "config"), GAMES)
def test_each_games_one_kernel_lives_beside_its_rules(name: str, package: str, config: Any) -> None:
    pytest.importorskip("numba")
    kernel = batch.kernel(name)
    assert kernel.__module__ == f"tabletop_rules.{package}.batch"
    assert batch.kernel(name, "numba") is kernel
    assert type(batch.engine(name, config, 2)) is kernel
    assert not (SOURCE / "batch" / f"{package}.py").exists()
    assert not (SOURCE / "batch" / "compiled" / f"{package}.py").exists()


def _private_names_read(path: Path) -> list[str]:
    """The ``_names`` a kernel imports from its game's modules (``from .rules import ...``)
    or reads off one of them (``rules._TABLE``): the rules' tables it reads must be public.
    """
    tree = ast.parse(path.read_text())
    modules = set()
    read = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:  # the game's own modules
            for alias in node.names:
                modules.add(alias.asname or alias.name)
                if alias.name.startswith("_"):
                    read.append(f"from .{node.module or ''} import {alias.name}")
    read += [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in modules
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]
    return read


@pytest.mark.parametrize("package", [package for _, package, _ in GAMES])
def test_a_games_kernel_reads_no_private_name_of_its_rules(package: str) -> None:
    assert _private_names_read(SOURCE / package / "batch.py") == []


def test_importing_the_games_and_the_batch_frame_imports_no_numba() -> None:
    code = (
        "import sys\n"
        "import tabletop_rules.account, tabletop_rules.dice_poker, tabletop_rules.palace\n"
        "import tabletop_rules.batch\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
