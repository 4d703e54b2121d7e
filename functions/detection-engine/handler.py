"""The detection-engine Lambda: `{"content": {...}, "events": [...], "detectionIds"?: [...]}` in,
`{"load": {...}, "results": [[...], ...]}` out. A custom schema's script parser runs here too:
`{"parse": {"function": "def parse(log): ...", "logs": [...]}}` in, `{"results": [...]}` or
`{"error": "..."}` out (see caracal_engine/script_parser.py).

Content is reloaded only when its `version` changes between invocations of a warm container. The
key-value table named by `CARACAL_KV_TABLE` backs the caching helpers (boto3 ships with the AWS
Python runtime); it is the only AWS access detections have.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from caracal_engine import kv  # noqa: E402 - needs the path above
from caracal_engine.engine import Engine  # noqa: E402
from caracal_engine.script_parser import script_parsers  # noqa: E402

_ENGINE = Engine()
_LOADED = {"version": None, "report": None}

# The only AWS access detections get is the key-value table: its client takes the function's
# credentials now, then they leave the environment so detection code cannot reuse them.
CREDENTIAL_VARIABLES = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_PROFILE",
)
if os.environ.get("CARACAL_KV_TABLE"):
    try:
        kv.use_store(kv.DynamoStore(os.environ["CARACAL_KV_TABLE"]))
    except ImportError:
        print("boto3 is not available: caching helpers keep their state in this process", file=sys.stderr)
for _name in CREDENTIAL_VARIABLES:
    os.environ.pop(_name, None)


def handler(event, _context=None):
    """Load the content when it changed, then run the events; or run a script parser over logs."""
    if "parse" in event:
        request = event.get("parse") or {}
        return script_parsers().parse(request.get("function"), request.get("logs"))
    content = event.get("content") or {}
    version = content.get("version")
    if version is None or version != _LOADED["version"]:
        _LOADED["report"] = _ENGINE.load(content)
        _LOADED["version"] = version
    test = event.get("test")
    if test:
        return {"load": _LOADED["report"], "tests": _ENGINE.test(test["detectionId"], test.get("tests") or [])}
    result = _ENGINE.run(event.get("events") or [], event.get("detectionIds"))
    result["load"] = _LOADED["report"]
    return result
