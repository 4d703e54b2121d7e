"""The local worker's sandbox preloads only the optional modules (boto3, requests, ...) its content imports
(Host(preload_by_content=True), sandbox.py "ask"): the imports are read from the source text, anything that
may import by a computed name or may need a module an optional one brings along gets all of them, content that
imports more later gets a new sandbox, and the sandbox is still locked down before it sees any content."""

import os
import sys
import tempfile
import unittest

from caracal_engine import lockdown
from caracal_engine.host import Host, Sandbox, SandboxError, imported_modules
from tests.engine.test_sandbox import detection


def content(*bodies: str, helpers=()) -> dict:
    return {"globals": [{"id": name, "body": body} for name, body in helpers],
            "detections": [detection(f"D{i}", body) for i, body in enumerate(bodies)]}


class ImportedModulesTest(unittest.TestCase):
    def test_every_import_form_names_its_top_level_module(self):
        body = (
            "import os, sys as system\n"
            "from a.b import (c,\n    d)\n"
            "import x.y as z, \\\n    w\n"
            "if True: import q; import r\n"
            "from . import relative\n"
            "def rule(event):\n"
            "    import inner  # late imports count too\n"
            "    return 'import quoted' != ''\n"
        )
        self.assertEqual(imported_modules(content(body)),
                         ["a.b", "a.b.c", "a.b.d", "inner", "os", "q", "quoted", "r", "sys", "w", "x.y"])
        # `from X import y`: y may be a submodule (from urllib import request).
        self.assertEqual(imported_modules(content("from urllib import request, parse as p\n")),
                         ["urllib", "urllib.parse", "urllib.request"])

    def test_global_helpers_are_not_modules_to_preload(self):
        got = imported_modules(content("from panther_base_helpers import deep_get\nimport boto3\n",
                                       helpers=[("panther_base_helpers", "import requests.adapters\n")]))
        self.assertEqual(got, ["boto3", "requests.adapters"])

    def test_importing_by_a_computed_name_cannot_be_told(self):
        for body in ("m = __import__('bo' + 'to3')\n", "import importlib\n", "exec ('import x')\n",
                     "eval('1')\n", "import builtins\n", "f = __builtins__\n"):
            self.assertIsNone(imported_modules(content(body)), body)
        # A word that only looks like one does not count.
        self.assertEqual(imported_modules(content("x = 'pods/exec'\nexecutable = 1\n")), [])


class OptionalNeededTest(unittest.TestCase):
    ROOTS = {"fakeopt", "otheropt"}

    def test_the_optional_modules_named_and_nothing_for_loaded_or_missing_ones(self):
        self.assertEqual(lockdown.optional_needed(["json", "fakeopt", "no_such_module_4f2a"], self.ROOTS), {"fakeopt"})
        self.assertEqual(lockdown.optional_needed([], self.ROOTS), set())

    def test_a_submodule_not_loaded_yet_means_all_an_attribute_does_not(self):
        import urllib.parse  # pylint: disable=import-outside-toplevel,unused-import
        import datetime  # pylint: disable=import-outside-toplevel,unused-import

        self.assertEqual(lockdown.optional_needed(["datetime.datetime", "urllib.parse", "os.path"], self.ROOTS), set())
        self.assertEqual(lockdown.optional_needed(["fakeopt.sub"], self.ROOTS), {"fakeopt"})
        if "xml.dom.minidom" not in sys.modules:
            self.assertIsNone(lockdown.optional_needed(["xml.dom.minidom"], self.ROOTS))

    def test_an_installed_module_not_loaded_yet_or_unknown_input_means_all(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "caracal_probe_3c1e.py"), "w", encoding="utf-8") as handle:
                handle.write("")
            sys.path.insert(0, folder)
            try:
                self.assertIsNone(lockdown.optional_needed(["fakeopt", "caracal_probe_3c1e"], self.ROOTS))
            finally:
                sys.path.remove(folder)
        self.assertIsNone(lockdown.optional_needed(None, self.ROOTS))
        self.assertIsNone(lockdown.optional_needed(["not a name"], self.ROOTS))


class PreloadByContentHostTest(unittest.TestCase):
    def setUp(self):
        self.host = Host(preload_by_content=True)
        self.host.start()

    def tearDown(self):
        self.host.close()

    def test_tests_run_and_the_sandbox_is_locked_down(self):
        plain = content("import json\ndef rule(event):\n    return json.dumps(1) == '1'\n")
        out = self.host.test_many(plain, [("D0", [{"Name": "t", "ExpectedResult": True, "Log": {"p_log_type": "T"}}])],
                                  warm=True)
        self.assertEqual(out["detections"][0][0]["passed"], True)
        report = self.host.warm.report
        self.assertTrue(report["filter"])
        self.assertEqual(self.host.warm.imports, {"json"})
        installed = {name for name in lockdown.optional_roots() if lockdown._installed(name)}  # pylint: disable=protected-access
        self.assertFalse({name.split(".")[0] for name in report["preloaded"]} & installed)

    @unittest.skipUnless(lockdown._installed("requests") and lockdown._installed("boto3"),  # pylint: disable=protected-access
                         "needs requests and boto3 installed")
    def test_only_the_optional_modules_imported_are_loaded(self):
        self.host.prepare({**content("import requests\ndef rule(event):\n    return True\n"), "version": "v"})
        loaded = {name.split(".")[0] for name in self.host.warm.report["preloaded"]}
        self.assertIn("requests", loaded)
        self.assertNotIn("boto3", loaded)

    def test_content_importing_more_gets_a_new_sandbox_that_loads_all(self):
        first = content("def rule(event):\n    return True\n")
        self.host.prepare({**first, "version": "first"})
        sandbox = self.host.warm
        self.assertEqual(sandbox.imports, set())
        # sqlite3 is installed and not in the base preload (an optional module might bring it along: the new
        # sandbox loads them all, OptionalNeededTest).
        second = content("import sqlite3\ndef rule(event):\n    return True\n")
        self.host.prepare({**second, "version": "second"})
        self.assertIsNot(self.host.warm, sandbox)
        self.assertFalse(sandbox.alive())
        self.assertEqual(self.host.warm.imports, {"sqlite3"})
        # Content the new sandbox covers keeps it.
        kept = self.host.warm
        self.host.prepare({**first, "version": "third"})
        self.assertIs(self.host.warm, kept)
        # A sandbox started for more imports keeps covering what the one before it did: contents alternating
        # between two sets of imports settle on one sandbox.
        self.host.prepare({**content("import mailbox\n"), "version": "fourth"})
        self.assertEqual(self.host.warm.imports, {"sqlite3", "mailbox"})
        settled = self.host.warm
        self.host.prepare({**second, "version": "fifth"})
        self.assertIs(self.host.warm, settled)

    def test_the_sandbox_takes_nothing_but_the_preload_request_before_lockdown(self):
        sandbox = Sandbox(256, False, wait=False, ask=True)
        try:
            sandbox.asking = False  # as if told; the first message is something else
            sandbox.send({"op": "content", "version": "v", "content": content("def rule(e):\n    return True\n")})
            with self.assertRaises(SandboxError) as raised:
                sandbox.ready()
            self.assertIn("expected the preload request", str(raised.exception))
        finally:
            sandbox.close()


if __name__ == "__main__":
    unittest.main()


class BytecodeCacheTest(unittest.TestCase):
    """The sandbox writes no bytecode (-B): it names the modules it compiled from source in its ready report, and
    the local worker's host compiles them into its bytecode folder when it closes, for the next start."""

    def test_uncached_sources_are_named_and_compiled_for_the_next_start(self):
        import importlib  # pylint: disable=import-outside-toplevel
        import types  # pylint: disable=import-outside-toplevel
        from caracal_engine import host as host_module  # pylint: disable=import-outside-toplevel

        saved = sys.pycache_prefix
        with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
            with open(os.path.join(folder, "caracal_probe_b7d2.py"), "w", encoding="utf-8") as handle:
                handle.write("VALUE = 1\n")
            sys.path.insert(0, folder)
            sys.pycache_prefix = cache
            sys.dont_write_bytecode, written = True, sys.dont_write_bytecode
            try:
                module = importlib.import_module("caracal_probe_b7d2")
                self.assertIn(module.__file__, lockdown.uncached_sources())
                host_module._cache_bytecode(types.SimpleNamespace(_report={"uncached": [module.__file__, "relative.py"]}))  # pylint: disable=protected-access
                self.assertNotIn(module.__file__, lockdown.uncached_sources())
                self.assertTrue(os.path.exists(importlib.util.cache_from_source(module.__file__)))
            finally:
                sys.modules.pop("caracal_probe_b7d2", None)
                sys.path.remove(folder)
                sys.pycache_prefix = saved
                sys.dont_write_bytecode = written
        self.assertEqual(lockdown.uncached_sources() if not sys.pycache_prefix else [], [])


class MarshalledTestsTest(unittest.TestCase):
    """A test task's detections go to the zygote marshalled, once per task (the zygote hands them on unread);
    values marshal does not take go as JSON."""

    def test_marshalled_once_per_task_or_not_at_all(self):
        import marshal  # pylint: disable=import-outside-toplevel

        sandbox = Sandbox.__new__(Sandbox)
        sandbox._tests_cache = None  # pylint: disable=protected-access
        detections = [{"detectionId": "D", "tests": [{"Name": "t", "Log": {"a": [1, 2.5, None, True]}}]}]
        task = {"kind": "test", "detections": detections}
        first = sandbox._marshalled_tests(task)  # pylint: disable=protected-access
        self.assertEqual(marshal.loads(first), detections)
        self.assertIs(sandbox._marshalled_tests(dict(task)), first)  # pylint: disable=protected-access
        self.assertIsNone(sandbox._marshalled_tests({"kind": "test", "detections": [{"x": object()}]}))  # pylint: disable=protected-access
        self.assertIsNone(sandbox._marshalled_tests({"kind": "run", "detections": detections}))  # pylint: disable=protected-access


class CompiledByTheHostTest(unittest.TestCase):
    """The local worker's host compiles the content while its sandbox starts (host.compiled_content) and the
    zygote takes the code: verdicts, load errors and tracebacks are those of content the sandbox compiled."""

    def test_same_verdicts_errors_and_file_names_as_compiled_in_the_sandbox(self):
        content_ = {
            "globals": [{"id": "helper_mod", "body": "def flag(x):\n    return x == 1\n", "path": "/c/helper_mod.py"}],
            "dataModels": [{"id": "M", "logTypes": ["T"], "mappings": [{"Name": "n2", "Method": "get_n"}],
                            "body": "def get_n(event):\n    return event.get('n')\n"}],
            "detections": [
                detection("Good", "from helper_mod import flag\ndef rule(event):\n    return flag(event.udm('n2'))\n",
                          path="/c/good.py"),
                detection("Broken", "def rule(event)\n    return True\n", path="/c/broken.py"),
                detection("Raises", "def rule(event):\n    return {}['x']\n"),
            ],
        }
        tests = [(d, [{"Name": "one", "ExpectedResult": True, "Log": {"p_log_type": "T", "n": 1}}])
                 for d in ("Good", "Broken", "Raises")]
        outs = []
        for host in (Host(), Host(preload_by_content=True, compile_content=True)):
            try:
                host.start()
                outs.append(host.test_many({**content_, "version": "v"}, tests, warm=True))
            finally:
                host.close()
        self.assertEqual(outs[0], outs[1])
        good, broken, raises = outs[1]["detections"]
        self.assertTrue(good[0]["passed"])
        self.assertIn("(broken.py, line 1)", broken[0]["error"])
        self.assertIn("<detection_Raises>", raises[0]["error"])
        self.assertEqual([e["id"] for e in outs[1]["load"]["errors"]], ["Broken"])


class FailedStartTest(unittest.TestCase):
    def test_a_sandbox_that_ended_before_the_preload_request_fails_when_waited_for(self):
        """(The preload request is sent at once; a sandbox gone already is reported by ready(), which reads the
        reason it gave, not by the write.)"""
        sandbox = Sandbox(256, False, wait=False, ask=True)
        try:
            # As if it failed its base imports: the zygote ends before reading the host's preload request.
            sandbox.process.kill()
            sandbox.process.wait()
            sandbox.preload(["json"])
            with self.assertRaises(SandboxError) as raised:
                sandbox.ready()
            self.assertIn("the sandbox", str(raised.exception))
        finally:
            sandbox.close()
