"""The account rules page keeps up with the package: every house rule is in its table."""

from __future__ import annotations

from pathlib import Path

import attrs

from tabletop_rules import account as a

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "account.rst"


def test_the_house_rule_table_lists_every_config_field() -> None:
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("House rules\n-----------") :]
    for field in attrs.fields(a.Config):
        assert f"   * - ``{field.name}``\n" in table, field.name
