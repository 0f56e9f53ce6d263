"""TLS for bnomic's own connections out ([smtp_out], [imap]).

`cafile` names a PEM file of the certificate authorities to trust instead of
the system's (a private CA, or a self-signed server certificate itself);
`verify = false` turns checking off altogether (the connection is still
encrypted, but anyone on the path can pretend to be the server: only for a
server on loopback or a trusted network). The default checks the server's
certificate and name against the system's authorities.
"""
from __future__ import annotations

import ssl


def context(settings: dict) -> ssl.SSLContext:
    """The SSL context a table's `cafile` and `verify` ask for."""
    ctx = ssl.create_default_context(cafile=settings.get("cafile") or None)
    if settings.get("verify", True) is False:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx
