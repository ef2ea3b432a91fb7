"""Adapters that let other frameworks play the games (optional extras)."""

__all__: list[str] = []
