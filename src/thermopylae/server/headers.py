"""Security headers on every HTTP answer.

Seat tokens travel in page URLs (`/table/ID#token=...`), so no page may leak its address
(`Referrer-Policy: no-referrer`), be framed by another site (clickjacking a seat), or run
a script the server did not serve. The browser client is written for this policy: ES
modules from /static, no inline script or style attribute (tests/browser checks that no
page reports a violation). The interactive API documentation (/docs, /redoc) is FastAPI's
page, which loads its script from a CDN and starts it inline: it gets a policy of its own
that allows just that.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The policy of the lobby, the table pages and every other answer."""

DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""The policy of FastAPI's documentation pages (their script comes from a CDN)."""

DOCS_PATHS = ("/docs", "/redoc")

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


class SecurityHeaders:
    """Adds the policy and `HEADERS` to every HTTP response (WebSockets pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = str(scope.get("path", ""))
        policy = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
