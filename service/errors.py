"""Errors the service raises and how each maps to an HTTP status and a stable code."""
from __future__ import annotations


class ApiError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}


class NotFound(ApiError):
    status, code = 404, "not_found"


class Unauthorized(ApiError):
    status, code = 401, "unauthorized"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class Conflict(ApiError):
    status, code = 409, "conflict"


class BotsBusy(ApiError):
    """Owed bot turns wait longer than the setting: a new game with bot seats would only lengthen the queue."""
    status, code = 503, "bots_busy"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.headers = {"Retry-After": str(retry_after)}


class StorageFull(ApiError):
    """Redis is (nearly) full: nothing new is stored, so the games in progress keep room for their moves."""
    status, code = 507, "storage_full"
