"""What several test modules share: builders of positions for each game, the plain-Python
generator oracle, the tiny third game Pebbles, and the repository's root."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
