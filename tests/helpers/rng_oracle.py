"""A second SplitMix64 in numpy uint64 arithmetic (wraps mod 2**64), to check the plain-
Python generator of the references (`tradewinds.pyrng`) and their setup order."""

import numpy as np


def numpy_splitmix(seed):
    """next(), below(n) and shuffle(list) over one generator started at `seed`."""
    x = np.array([seed % 2**64], dtype=np.uint64)

    def nxt():
        x[:] += np.uint64(0x9E3779B97F4A7C15)
        z = x.copy()
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return int((z ^ (z >> np.uint64(31)))[0])

    def below(n):
        return (nxt() >> 33) % n

    def shuffle(a):
        for i in range(len(a) - 1, 0, -1):
            j = below(i + 1)
            a[i], a[j] = a[j], a[i]

    return nxt, below, shuffle
