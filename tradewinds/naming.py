"""Stable action names <-> ids, with errors that name the game and the bad value."""


class ActionNames:
    def __init__(self, names, game: str):
        self.names = tuple(names)
        self.game = game
        self._ids = {n: i for i, n in enumerate(self.names)}
        if len(self._ids) != len(self.names):
            raise ValueError(f"{game}: duplicate action names")

    def name(self, action) -> str:
        """The stable name of an action id."""
        if not 0 <= int(action) < len(self.names):
            raise ValueError(f"{self.game}: action id {action} out of range "
                             f"0..{len(self.names) - 1}")
        return self.names[int(action)]

    def id(self, action_name: str) -> int:
        """The action id of a stable name."""
        try:
            return self._ids[action_name]
        except KeyError:
            raise ValueError(f"{self.game}: unknown action name {action_name!r}") from None
