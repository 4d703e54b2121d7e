from demo_helpers import aws_actor


def rule(event):
    if event.get("eventName") != "ConsoleLogin":
        return False
    if event.deep_get("userIdentity", "type") != "IAMUser":
        return False
    if event.deep_get("responseElements", "ConsoleLogin") != "Success":
        return False
    return event.deep_get("additionalEventData", "MFAUsed") == "No"


def title(event):
    return f"AWS console login without MFA by [{aws_actor(event)}]"


def dedup(event):
    return aws_actor(event)


def alert_context(event):
    return {
        "user": aws_actor(event),
        "sourceIPAddress": event.get("sourceIPAddress"),
        "userAgent": event.get("userAgent"),
    }
