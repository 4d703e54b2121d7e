"""Lookup tables for `event.lookup(table, key)` in live runs.

The detections function passes the tables a batch needs with the run request, as compact data:
{"<table>": {"keyType": "STRING" | "CIDR", "rows": {"<key>": {row}}}}. The host hands them to the sandbox
with the task (data only: the sandbox reads no store and holds no credentials). A STRING key matches
exactly; a CIDR key matches the longest prefix holding the address, IPv4 and IPv6.
"""
import ipaddress
from typing import Any, Dict, List, Mapping, Optional, Tuple


class _Table:
    __slots__ = ("exact", "prefixes")

    def __init__(self, spec: Mapping) -> None:
        rows = spec.get("rows") if isinstance(spec.get("rows"), Mapping) else {}
        self.exact: Optional[Dict[str, Any]] = None
        # CIDR: per (version, prefix length), the network address as an int -> row; longest lengths first.
        self.prefixes: List[Tuple[int, int, Dict[int, Any]]] = []
        if str(spec.get("keyType") or "STRING").upper() != "CIDR":
            self.exact = {str(k): v for k, v in rows.items()}
            return
        buckets: Dict[Tuple[int, int], Dict[int, Any]] = {}
        for key, row in rows.items():
            try:
                network = ipaddress.ip_network(str(key).strip(), strict=False)
            except ValueError:
                continue
            buckets.setdefault((network.version, network.prefixlen), {})[int(network.network_address)] = row
        self.prefixes = sorted(((v, n, b) for (v, n), b in buckets.items()), key=lambda t: -t[1])

    def get(self, key: Any) -> Any:
        if self.exact is not None:
            return self.exact.get(str(key))
        try:
            address = ipaddress.ip_address(str(key).strip())
        except ValueError:
            return None
        if address.version == 6 and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        value, bits = int(address), address.max_prefixlen
        for version, length, bucket in self.prefixes:
            if version != address.version:
                continue
            row = bucket.get(value >> (bits - length) << (bits - length) if length else 0)
            if row is not None:
                return row
        return None


class LookupTables:
    """`event.lookup` over the tables of one run; an unknown table or key answers None."""

    def __init__(self, tables: Optional[Mapping]) -> None:
        self.tables = {str(name): _Table(spec) for name, spec in (tables or {}).items() if isinstance(spec, Mapping)}

    def __call__(self, _event: Any, name: str, key: Any) -> Any:
        table = self.tables.get(name)
        return None if table is None else table.get(key)
