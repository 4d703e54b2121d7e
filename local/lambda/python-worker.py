"""Runs one Python Lambda handler in a long-lived process for the local runtime.

Requests arrive as JSON lines on stdin ({"id", "event", "requestId", "deadline"}); answers go as JSON lines
on file descriptor 3, so whatever the handler prints on stdout stays log output.

Arguments: the code folder, the handler, and the function's declared memory in MB (MemorySize), which becomes
the process's address-space limit. A call that reaches it is answered Runtime.OutOfMemory and the process exits
(code 86), so the runtime replaces it; so does a process that ends a call near its limit (a handler that caught
the MemoryError still holds what it allocated). The terminal's Ctrl-C (SIGINT to the process group) is ignored:
the runtime drains the calls in flight, then ends its workers. The process ends when stdin closes.
"""
import importlib
import json
import os
import resource
import signal
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


OUT_OF_MEMORY_EXIT = 86
# a process whose address space ends a call above this share of the limit is replaced
RECYCLE_SHARE = 0.9


def limit_memory(megabytes):
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    return limit


def address_space():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def out_of_memory(megabytes):
    return {
        "errorType": "Runtime.OutOfMemory",
        "errorMessage": "Runtime exited: the function reached its memory limit of %d MB (MemorySize)" % megabytes,
    }


def main():
    code_dir, handler = sys.argv[1], sys.argv[2]
    megabytes = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit = limit_memory(megabytes) if megabytes > 0 else 0
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
        answer = {}
        if function is None:
            out.write(json.dumps({"id": request["id"], "ok": False, "error": load_error}) + "\n")
            continue
        try:
            result = function(request["event"], Context(request["requestId"], request["deadline"]))
            answer = {"id": request["id"], "ok": True, "result": result}
            if limit and address_space() > limit * RECYCLE_SHARE:
                answer["exiting"] = True
            out.write(json.dumps(answer, default=str) + "\n")
        except MemoryError:
            answer = {"id": request["id"], "ok": False, "error": out_of_memory(megabytes), "exiting": True}
            out.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
            os._exit(OUT_OF_MEMORY_EXIT)
        except Exception as err:  # noqa: BLE001 - the handler's error is the invocation's result
            error = {"errorType": type(err).__name__, "errorMessage": str(err), "trace": traceback.format_exc().splitlines()}
            out.write(json.dumps({"id": request["id"], "ok": False, "error": error}) + "\n")
        sys.stdout.flush()
        if answer.get("exiting"):
            print("Recycling this worker: it holds %d MB of its %d MB limit" % (address_space() >> 20, megabytes), flush=True)
            os._exit(OUT_OF_MEMORY_EXIT)


if __name__ == "__main__":
    main()
