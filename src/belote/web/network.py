"""Who a request comes from, as the per-client limits count it: its network.

One person controls far more than one address: a home's IPv4 router hands out
a whole /24 behind one line, and a single IPv6 customer gets at least a /64
(18 billion billion addresses).  Limits counted per address are therefore
escaped by changing address; they are counted here per *network*: the /24 of
an IPv4 address and the /64 of an IPv6 address.  An IPv4 address written as
IPv6 (``::ffff:192.0.2.7``) counts as the IPv4 address it is.
"""

from __future__ import annotations

import ipaddress
from typing import Final

IPV4_PREFIX: Final = 24
IPV6_PREFIX: Final = 64
UNKNOWN: Final = "unknown"


def network_of(host: str | None) -> str:
    """The network a client address counts in for the limits: ``"a.b.c.0/24"``
    or ``"x:x:x:x::/64"``; a peer that is no IP address (a Unix socket, a test
    client's name) counts as itself.

    >>> network_of("192.0.2.77")
    '192.0.2.0/24'
    >>> network_of("2001:db8:1:2:aaaa::9")
    '2001:db8:1:2::/64'
    >>> network_of("::ffff:192.0.2.77")
    '192.0.2.0/24'
    >>> network_of("testclient")
    'testclient'
    >>> network_of(None)
    'unknown'
    """
    if not host:
        return UNKNOWN
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = IPV4_PREFIX if isinstance(address, ipaddress.IPv4Address) else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))
