"""The numba plumbing: how code written once runs compiled for every game.

- `protocol`: the kernel protocol inside numba, generic functions (``protocol.step(aux, s,
  a)``, ...) that each game binds to its own kernels, keyed by its aux class. Its Python
  side is `tradewinds.protocol`.
- `generic`: njit functions written once over that protocol: the Python-callable entry
  points, determinization into a copy, random playouts.
- `no_runtime`: ``@kernel``, njit compiled without numba's runtime, so without reference
  counts, for kernels that create no arrays.
- `borrow`: ``borrow(x)``, an argument array without reference counting for hot loops.
- `disk_cache`: keeps numba's on-disk cache honest across modules; a module with njit
  functions ends with ``disk_cache.refresh(globals())``.

Nothing here knows a game; the games and the search import from here.
"""
