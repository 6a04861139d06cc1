"""No cross-site use of the API: what a request must carry to be served at all.

The API has no accounts, so what keeps another web site (open in the same browser) from
using it is that a browser names the site a request comes from. `Guard` refuses, with a
one-line JSON error:

- an ``Origin`` that is not this server's own address (403), and an ``/api/`` request a
  browser marks ``Sec-Fetch-Site: cross-site`` (403);
- a POST whose ``Content-Type`` is not ``application/json`` (415): a plain form or
  ``text/plain`` body is what another site can send without asking first;
- a ``Host`` that is not an address the server answers to (400, Starlette's
  `TrustedHostMiddleware`): a DNS-rebinding page reaches the server under its own name.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _send_error(status: int, message: str):
    body = json.dumps({"error": message}).encode()

    async def respond(send):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return respond


class Guard:
    """ASGI middleware: Origin, Sec-Fetch-Site and Content-Type checks (module notes).
    `hosts`: the host names the server answers to; `port`: its port (None: the port the
    request came in on, as the server bound it: exact with ``--port 0`` too)."""

    def __init__(self, app, hosts, port: int | None = None):
        self.app, self.hosts, self.port = app, {h.strip("[]").lower() for h in hosts}, port

    def origin_ok(self, origin: str, host: str, bound: int | None = None) -> bool:
        """Whether `origin` is this server: one of its hosts on its port (`self.port`, else
        `bound`, the port the request arrived on; with the hosts "*": the request's own
        `host`)."""
        try:
            u = urlsplit(origin)
            port = u.port or (443 if u.scheme == "https" else 80)
        except ValueError:
            return False
        if "*" in self.hosts:
            return u.scheme == "http" and u.netloc.lower() == host.lower()
        want = self.port if self.port is not None else bound
        return (u.scheme == "http" and (u.hostname or "") in self.hosts
                and (want is None or port == want))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        problem = None
        origin = headers.get("origin")
        bound = (scope.get("server") or (None, None))[1]
        if origin is not None and not self.origin_ok(origin, headers.get("host", ""), bound):
            problem = (403, f"cross-site request refused: Origin {origin[:60]!r} is not "
                            f"this server")
        elif (scope["path"].startswith("/api/")
              and headers.get("sec-fetch-site") == "cross-site"):
            problem = (403, "cross-site request refused (Sec-Fetch-Site: cross-site)")
        elif scope["method"] not in ("GET", "HEAD"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                problem = (415, f"the body must be application/json, got "
                                f"{kind[:40] or 'no Content-Type'}")
        if problem:
            return await _send_error(*problem)(send)
        return await self.app(scope, receive, send)
