"""Where a webhook may POST: refuse internal targets (SSRF), pin the vetted address.

A webhook URL is checked twice. At creation (:func:`check_url`): scheme (https unless
``WEBHOOK_ALLOW_HTTP``), no credentials, an allowed port, and every address the host is (an
IP literal in any spelling, ``127.1``, ``0x7f000001``, ``2130706433``, ``[::1]``) or resolves
to must be a public unicast address. At delivery (:func:`pin`): the host is resolved once, every
address vetted again (a name may change after creation), and the POST connects to that very
address, so a second lookup cannot rebind the name to an internal one.

``WEBHOOK_ALLOW_PRIVATE_TARGETS`` (development and tests: receivers on 127.0.0.1) turns the
address and port rules off; nothing else does.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

from config.errors import InvalidArgument

# Ports a receiver may listen on: the web ports, and unprivileged ports except those of
# well-known databases, caches, brokers and cluster control planes (what an internal scan looks
# for). Private addresses are refused anyway: this narrows what a public host can be probed for.
WEB_PORTS = frozenset({80, 443})
FIRST_UNPRIVILEGED_PORT = 1024
DENIED_PORTS = frozenset(
    {
        1433, 1521, 2375, 2376, 2379, 2380, 3306, 3389, 4369, 5432, 5672, 5984, 6379, 6443,
        7000, 7001, 8086, 8500, 9042, 9092, 9200, 9300, 10250, 11211, 15672, 25672, 27017,
    }
)  # fmt: skip
# IPv6 prefixes that carry an IPv4 address in their last 32 bits (NAT64), vetted as that IPv4.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


@dataclass(frozen=True)
class Target:
    """A vetted destination: connect to ``ip``:``port``, name ``host`` in Host and SNI."""

    scheme: str
    host: str
    port: int
    ip: str

    def url(self, original: str) -> str:
        """Return ``original`` with its host replaced by the vetted address (same path)."""
        parts = urlsplit(original)
        literal = f"[{self.ip}]" if ":" in self.ip else self.ip
        return parts._replace(netloc=f"{literal}:{self.port}").geturl()

    def host_header(self) -> str:
        """Return the Host header the receiver expects (the port only when not the default)."""
        default = 443 if self.scheme == "https" else 80
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == default else f"{name}:{self.port}"


def _refuse(message: str) -> InvalidArgument:
    return InvalidArgument(message, details={"field": "url"})


def resolve(host: str, port: int) -> list[str]:
    """Return the addresses ``host`` resolves to (tests replace this: no real lookups)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


def literal_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """Return the address ``host`` spells, in any form a resolver accepts, else None.

    ``inet_aton`` reads the legacy IPv4 forms (``127.1``, ``0x7f000001``, ``2130706433``,
    ``0177.0.0.1``) that ``getaddrinfo`` and some HTTP clients accept as addresses.
    """
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, ValueError):
        return None


def refusal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Return why ``ip`` is no webhook target (loopback, private...), or None when public.

    In the active language: it ends up in the refusal a client reads.
    """
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return gettext("IPv4-mapped")
        embedded = ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        why = refusal(embedded) if embedded is not None else None
        if why:
            return gettext("%(why)s, embedded in IPv6") % {"why": why}
    for reason, flag in (
        (gettext("unspecified"), ip.is_unspecified),
        (gettext("loopback"), ip.is_loopback),
        (gettext("link-local"), ip.is_link_local),
        (gettext("multicast"), ip.is_multicast),
        (gettext("private"), ip.is_private),
        (gettext("reserved"), ip.is_reserved),
    ):
        if flag:
            return reason
    # What remains and is still not global: shared address space (CGNAT, 100.64.0.0/10) etc.
    return None if ip.is_global else gettext("not globally routable")


def _parse(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise _refuse(gettext("url has an invalid port.")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _refuse(gettext("url must be an http(s) URL with a host."))
    if parts.username or parts.password:
        raise _refuse(gettext("url must not carry credentials."))
    if parts.scheme == "http" and not settings.WEBHOOK_ALLOW_HTTP:
        raise _refuse(gettext("url must be https."))
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, parts.hostname.rstrip(".").lower(), port or default


def _check_port(port: int) -> None:
    if port in WEB_PORTS or (port >= FIRST_UNPRIVILEGED_PORT and port not in DENIED_PORTS):
        return
    raise _refuse(
        gettext(
            "url port %(port)d is not allowed: use 80, 443 or an unprivileged port of a web server."
        )
        % {"port": port}
    )


def _addresses(host: str, port: int) -> list[str]:
    """Return the vetted addresses of ``host``; raise when any is internal or none exists."""
    if host == "localhost" or host.endswith(".localhost"):
        raise _refuse(gettext("url must not point to this machine."))
    literal = literal_ip(host)
    try:
        found = [str(literal)] if literal is not None else resolve(host, port)
    except OSError:
        raise _refuse(gettext("url host does not resolve.")) from None
    if not found:
        raise _refuse(gettext("url host does not resolve."))
    for address in found:
        why = refusal(ipaddress.ip_address(address.split("%", 1)[0]))
        if why:
            # One internal address among public ones is refused too: which one a client
            # connects to is not ours to predict.
            raise _refuse(
                gettext("url must point to a public address (it is %(why)s).") % {"why": why}
            )
    return found


def check_url(url: str) -> None:
    """Raise ``InvalidArgument`` unless ``url`` is an acceptable webhook target (at creation)."""
    _, host, port = _parse(url)
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        return
    _check_port(port)
    _addresses(host, port)


def pin(url: str) -> Target:
    """Resolve ``url``'s host once, vet every address, return where to connect (at delivery).

    Raises ``InvalidArgument`` for a target that is (now) refused: the caller records a failed
    attempt without ever opening a connection.
    """
    scheme, host, port = _parse(url)
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        literal = literal_ip(host)
        ip = str(literal) if literal is not None else resolve(host, port)[0]
        return Target(scheme=scheme, host=host, port=port, ip=ip)
    _check_port(port)
    return Target(scheme=scheme, host=host, port=port, ip=_addresses(host, port)[0])
