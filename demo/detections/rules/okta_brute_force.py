def rule(event):
    return event.get("eventType") == "user.session.start" and event.deep_get("outcome", "result") == "FAILURE"


def title(event):
    return f"Repeated failed Okta logins for [{event.deep_get('actor', 'alternateId', default='unknown')}]"


def dedup(event):
    return event.deep_get("actor", "alternateId", default="unknown")


def alert_context(event):
    return {
        "user": event.deep_get("actor", "alternateId"),
        "ipAddress": event.deep_get("client", "ipAddress"),
        "reason": event.deep_get("outcome", "reason"),
    }
