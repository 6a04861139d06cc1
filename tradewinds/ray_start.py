"""Starting Ray for the suite's own work (self-play actors, study workers, RLlib runners).

A Ray that this process starts runs its workers at the driver's priority: Ray's default
(niceness 15) starves them behind any other busy process on the machine, such as a
second test runner or the learner, and a 2-core run then waits on its own actors.
Joining a running cluster (``address``) keeps that cluster's settings.
"""

from __future__ import annotations

LOCAL_SYSTEM_CONFIG = {"worker_niceness": 0}


def start(address: str | None = None, **kwargs) -> None:
    """`ray.init` without the dashboard or the workers' logs; `kwargs` go to it as well."""
    import ray

    kw = {"include_dashboard": False, "log_to_driver": False, **kwargs}
    if address is None:
        kw.setdefault("_system_config", LOCAL_SYSTEM_CONFIG)
    ray.init(address=address, **kw)
