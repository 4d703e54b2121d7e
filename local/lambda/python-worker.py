"""Runs one Python Lambda handler in a long-lived process for the local runtime.

Requests arrive as JSON lines on stdin ({"id", "event", "requestId", "deadline"}); answers go as JSON lines
on file descriptor 3, so whatever the handler prints on stdout stays log output.
"""
import importlib
import json
import os
import sys
import time
import traceback


class Context:
    def __init__(self, request_id, deadline_ms):
        self.function_name = os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "")
        self.function_version = "$LATEST"
        self.invoked_function_arn = os.environ.get("CARACAL_FUNCTION_ARN", "")
        self.memory_limit_in_mb = os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "128")
        self.aws_request_id = request_id
        self.log_group_name = "/aws/lambda/" + self.function_name
        self.log_stream_name = "local"
        self._deadline_ms = deadline_ms

    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline_ms - time.time() * 1000))


def main():
    code_dir, handler = sys.argv[1], sys.argv[2]
    sys.path.insert(0, code_dir)
    module_name, function_name = handler.rsplit(".", 1)
    out = os.fdopen(3, "w", buffering=1)
    try:
        function = getattr(importlib.import_module(module_name), function_name)
    except Exception as err:  # noqa: BLE001 - any import failure is reported per invocation
        load_error = {"errorType": type(err).__name__, "errorMessage": str(err), "trace": traceback.format_exc().splitlines()}
        function = None
    for line in sys.stdin:
        request = json.loads(line)
        if function is None:
            out.write(json.dumps({"id": request["id"], "ok": False, "error": load_error}) + "\n")
            continue
        try:
            result = function(request["event"], Context(request["requestId"], request["deadline"]))
            out.write(json.dumps({"id": request["id"], "ok": True, "result": result}, default=str) + "\n")
        except Exception as err:  # noqa: BLE001 - the handler's error is the invocation's result
            error = {"errorType": type(err).__name__, "errorMessage": str(err), "trace": traceback.format_exc().splitlines()}
            out.write(json.dumps({"id": request["id"], "ok": False, "error": error}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
