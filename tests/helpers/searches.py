"""Counting the net searches an agent runs, for tests of where `az` searches."""

from tradewinds.agents import az_search


def count_searches(monkeypatch) -> list:
    """Patch `az_search.Searcher.run` to search as before and append to the list it returns
    once per call (its length: the searches run since)."""
    searched = []
    run = az_search.Searcher.run

    def counted(self, *args, **kwargs):
        searched.append(1)
        return run(self, *args, **kwargs)

    monkeypatch.setattr(az_search.Searcher, "run", counted)
    return searched
