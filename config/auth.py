"""API authentication: the service's hashed API tokens, under ``Token <key>`` or ``Bearer <key>``.

A key is looked up by its SHA-256 (config.selectors.token_for_key): only valid tokens (not
revoked, not expired) of active users authenticate; every refusal says "Invalid token." alike.

The MCP endpoint takes the same key as ``Authorization: Bearer <key>`` (docs/mcp.md), and most
HTTP clients send that scheme by default: the REST API accepts it as an alias rather than
answering "credentials were not provided" to a request that carries them. Any other scheme is
refused with a message naming the one to use (config.errors.api_exception_handler).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from config.selectors import token_for_key

SCHEMES = ("token", "bearer")


def authorization_scheme(request) -> str:
    """Return the scheme of the request's Authorization header (``""`` without one)."""
    parts = authentication.get_authorization_header(request).split()
    return parts[0].decode("latin-1") if parts else ""


class TokenAuthentication(authentication.TokenAuthentication):
    """Token authentication against :class:`config.models.ApiToken`, also under ``Bearer``.

    A subclass of DRF's for its header handling and the schema's ``tokenAuth`` scheme
    (drf-spectacular matches the class); DRF's plain-text ``authtoken.Token`` is not read.
    """

    def authenticate(self, request):
        scheme = authorization_scheme(request)
        if scheme.lower() not in SCHEMES:
            return None
        # DRF's own header checks and messages, for the scheme this request used (DRF makes an
        # authenticator per request, so the keyword set here is this request's alone).
        self.keyword = scheme
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        token = token_for_key(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
