from __future__ import annotations


class RefereeError(Exception):
    """An error answer of the referee: its HTTP status and the stable ``code`` of its JSON body."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message
