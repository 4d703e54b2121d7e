def rule(event):
    return (event.get("failures") or 0) >= 5


def title(event):
    return f"{event.get('user_email', 'unknown')} failed to sign in to Okta {event.get('failures')} times in an hour"


def dedup(event):
    return event.get("user_email", "unknown")


def alert_context(event):
    return {"user": event.get("user_email"), "failures": event.get("failures"), "firstFailure": event.get("first_failure")}
