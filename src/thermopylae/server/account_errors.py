"""The one refusal the account modules raise, shaped like `seats.TableError` so the routes
turn it into a JSON error the same way."""

from __future__ import annotations


class AccountError(Exception):
    """A refused account request: an HTTP status, a message naming what was wrong, and for
    a rate limit the seconds to wait (for a Retry-After header)."""

    def __init__(self, status: int, detail: str, retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after
