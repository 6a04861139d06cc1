"""SplitMix64 in plain Python, for the reference implementations (docs/hansa_engine.md).

Written from the algorithm, not from the numba version in `tradewinds/rng.py`, so the
references stay independent oracles of the kernels.
"""

MASK64 = (1 << 64) - 1


def _int32(x: int) -> int:
    return x - (1 << 32) if x >= 1 << 31 else x


class SplitMix64:
    """The shared RNG of the contract: SplitMix64 over a 64-bit state."""

    def __init__(self, seed: int):
        self.x = seed & MASK64

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return (self.next() >> 33) % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the top: for i = len-1 .. 1, swap items[i] with items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def words(self) -> list:
        """The state as the two int32 words of a kernel state vector (low, high)."""
        return [_int32(self.x & 0xFFFFFFFF), _int32(self.x >> 32)]

    @classmethod
    def from_words(cls, low: int, high: int) -> "SplitMix64":
        g = cls(0)
        g.x = (int(low) & 0xFFFFFFFF) | ((int(high) & 0xFFFFFFFF) << 32)
        return g
