from demo_helpers import aws_actor

# Enrichment: the demo lookup tables (demo/lookups) are associated with AWS.CloudTrail's sourceIPAddress, so at
# ingestion a matching event carries p_enrichment.<table>.sourceIPAddress with the table's row.
TOR_TABLE = "demo_tor_exit_nodes"
THREAT_INTEL_TABLE = "demo_threat_intel"


def rule(event):
    if event.get("eventName") != "ConsoleLogin":
        return False
    return bool(event.deep_get("p_enrichment", TOR_TABLE, "sourceIPAddress"))


def title(event):
    return f"AWS console login by [{aws_actor(event)}] from Tor exit node {event.get('sourceIPAddress')}"


def dedup(event):
    return f"{aws_actor(event)}:{event.get('sourceIPAddress')}"


def severity(event):
    # an address also listed by threat intelligence is worse than Tor alone
    if event.deep_get("p_enrichment", THREAT_INTEL_TABLE, "sourceIPAddress"):
        return "CRITICAL"
    return "DEFAULT"


def alert_context(event):
    intel = event.deep_get("p_enrichment", THREAT_INTEL_TABLE, "sourceIPAddress") or {}
    return {
        "user": aws_actor(event),
        "sourceIPAddress": event.get("sourceIPAddress"),
        "torExitNode": event.deep_get("p_enrichment", TOR_TABLE, "sourceIPAddress"),
        "threatIntel": intel.get("comment"),
    }
