"""Errors raised for malformed input (as opposed to illegal moves, which are verdicts)."""


class InputError(ValueError):
    """Input that cannot be judged at all: a stable ``code`` and a message saying why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
