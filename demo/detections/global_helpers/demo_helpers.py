def aws_actor(event):
    """The user name of a CloudTrail event's identity, else its ARN, else 'unknown'."""
    identity = event.get("userIdentity") or {}
    return identity.get("userName") or identity.get("arn") or "unknown"
