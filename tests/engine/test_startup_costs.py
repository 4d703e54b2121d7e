"""What `caracal test` no longer pays at every start, with the same outcome: interpreters started without `site`
(-S) get the same module path (sitepath.py), unittest.mock (and the asyncio it brings) is loaded only by
sandboxes whose content or tests need it (lockdown.ON_DEMAND_MODULES), and the local worker keeps its compiled
content in its bytecode folder (host.compiled_content)."""

import json
import marshal
import os
import subprocess
import sys
import tempfile
import unittest

from caracal_engine import host as host_module
from caracal_engine import lockdown
from caracal_engine.host import Host, compiled_content
from caracal_engine.sitepath import _pth_folders, site_folders  # pylint: disable=protected-access
from tests.engine.test_sandbox import detection

ENGINE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "functions", "detection-engine")
ADD = f"import sys, json; sys.path.insert(0, {ENGINE!r}); from caracal_engine import sitepath; "


def _path(*flags: str, code: str = "") -> list:
    out = subprocess.run([sys.executable, *flags, "-c", f"{ADD}{code}print(json.dumps(sys.path))"], check=True,
                         capture_output=True, text=True, cwd="/").stdout
    return [p for p in json.loads(out) if p != ENGINE and p != ""]


class SiteFoldersTest(unittest.TestCase):
    def test_the_same_module_path_as_site_gives(self):
        self.assertEqual(_path("-S", code="sitepath.add_site_folders(); "), _path())
        # A sandbox (-I -S) is given what -I would have had: no user site-packages.
        isolated = _path("-I")
        bare = _path("-I", "-S")
        self.assertEqual(bare + site_folders(user=False), isolated)

    def test_path_lines_of_pth_files_count_their_import_lines_do_not_run(self):
        with tempfile.TemporaryDirectory() as folder:
            os.mkdir(os.path.join(folder, "extra"))
            with open(os.path.join(folder, "a.pth"), "w", encoding="utf-8") as handle:
                handle.write("# a comment\nextra\nmissing\nimport sys; sys.caracal_ran = True\n")
            got = _pth_folders(folder)
        self.assertEqual(got, [os.path.join(folder, "extra")])
        self.assertFalse(hasattr(sys, "caracal_ran"))


def _content(*bodies: str) -> dict:
    return {"detections": [detection(f"D{i}", body) for i, body in enumerate(bodies)]}


MOCKED = {"Name": "mocked", "ExpectedResult": True, "Log": {"p_log_type": "T"},
          "Mocks": [{"objectName": "helper", "returnValue": True}]}
PLAIN = {"Name": "plain", "ExpectedResult": False, "Log": {"p_log_type": "T"}}
BODY = "def helper():\n    return False\n\ndef rule(event):\n    return helper()\n"


class MockModulesOnDemandTest(unittest.TestCase):
    def setUp(self):
        self.host = Host(preload_by_content=True)
        self.host.start()

    def tearDown(self):
        self.host.close()

    def test_content_without_mocks_does_not_load_unittest_mock_and_tests_with_mocks_get_a_sandbox_that_does(self):
        content = {**_content(BODY), "version": "v"}
        self.host.prepare(content)
        first = self.host.warm
        self.assertNotIn("unittest.mock", first.report["preloaded"])
        self.assertEqual(self.host.test_many(content, [("D0", [PLAIN])], warm=True)["detections"][0][0]["passed"], True)
        self.assertIs(self.host.warm, first)
        verdicts = self.host.test_many(content, [("D0", [MOCKED, PLAIN])], warm=True)["detections"][0]
        self.assertEqual([v["passed"] for v in verdicts], [True, True], verdicts)
        self.assertIsNot(self.host.warm, first)
        self.assertIn("unittest.mock", self.host.warm.report["preloaded"])
        self.assertTrue(self.host.warm.report["filter"])

    def test_told_at_load_the_sandbox_loads_it_at_once(self):
        content = {**_content(BODY), "version": "v"}
        self.host.prepare(content, mocks=True)
        sandbox = self.host.warm
        self.assertIn("unittest.mock", sandbox.report["preloaded"])
        verdicts = self.host.test_many(content, [("D0", [MOCKED])], warm=True)["detections"][0]
        self.assertEqual(verdicts[0]["passed"], True, verdicts)
        self.assertIs(self.host.warm, sandbox)

    def test_content_importing_it_gets_it(self):
        content = {**_content("from unittest.mock import MagicMock\ndef rule(event):\n    return MagicMock()() is not None\n"),
                   "version": "v"}
        verdicts = self.host.test_many(content, [("D0", [{**PLAIN, "ExpectedResult": True}])], warm=True)["detections"][0]
        self.assertEqual(verdicts[0]["passed"], True, verdicts)
        self.assertIn("unittest.mock", self.host.warm.report["preloaded"])

    def test_every_other_sandbox_loads_it(self):
        self.assertIn("unittest", lockdown.optional_roots())
        host = Host()
        try:
            host.prepare({**_content(BODY), "version": "v"})
            self.assertIn("unittest.mock", host.warm.report["preloaded"])
        finally:
            host.close()


class CompiledContentKeptTest(unittest.TestCase):
    def setUp(self):
        self.saved = sys.pycache_prefix
        self.folder = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with - ended in tearDown
        sys.pycache_prefix = self.folder.name

    def tearDown(self):
        sys.pycache_prefix = self.saved
        self.folder.cleanup()

    def kept(self) -> list:
        folder = os.path.join(self.folder.name, host_module.CONTENT_CODE_FOLDER)
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    def test_read_back_for_the_same_sources_compiled_again_for_others(self):
        content = _content("def rule(event):\n    return True\n", "def rule(event):\n    return (\n")
        first = compiled_content(content)
        self.assertEqual(set(marshal.loads(first)), {"detections:0"})
        [name] = self.kept()
        # What is kept is what is served: a file changed in place proves the second call read it.
        path = os.path.join(self.folder.name, host_module.CONTENT_CODE_FOLDER, name)
        with open(path, "wb") as handle:
            handle.write(marshal.dumps({"kept": 1}))
        self.assertEqual(marshal.loads(compiled_content(content)), {"kept": 1})
        # Another source, file name or place is another entry.
        changed = _content("def rule(event):\n    return False\n", "def rule(event):\n    return (\n")
        self.assertEqual(set(marshal.loads(compiled_content(changed))), {"detections:0"})
        renamed = {"detections": [{**content["detections"][0], "path": "other.py"}, content["detections"][1]]}
        self.assertEqual(marshal.loads(compiled_content(renamed))["detections:0"].co_filename, "other.py")
        self.assertEqual(len(self.kept()), 3)

    def test_only_the_newest_are_kept_and_none_without_a_folder_of_its_own(self):
        for index in range(host_module.KEPT_CONTENT_CODE + 3):
            compiled_content(_content(f"def rule(event):\n    return {index}\n"))
        self.assertEqual(len(self.kept()), host_module.KEPT_CONTENT_CODE)
        sys.pycache_prefix = None
        code = compiled_content(_content("def rule(event):\n    return 'not kept'\n"))
        self.assertIn("detections:0", marshal.loads(code))
        sys.pycache_prefix = self.folder.name
        self.assertEqual(len(self.kept()), host_module.KEPT_CONTENT_CODE)


class ChildLinesTest(unittest.TestCase):
    """The lines a child wrote, read at once, are decoded in one call when that gives one value per line, and
    line by line otherwise: the same messages either way."""

    def messages(self, lines: list) -> list:
        sandbox = host_module.Sandbox.__new__(host_module.Sandbox)
        sandbox.err_out, sandbox.ctl_out, sandbox.data_out = -3, -2, -1
        sandbox.control, sandbox.data = [], []
        sandbox._lines(-1, lines)  # pylint: disable=protected-access
        return sandbox.data

    def test_the_same_messages_as_line_by_line(self):
        good = [b'{"done":[0,{"passed":true},[]]}', b'{"done":[1,{"passed":false},[]]}']
        self.assertEqual(self.messages(good), [json.loads(line) for line in good])
        for bad in ([good[0], b'{"done":[1,', good[1]], [good[0], b"", good[1]], [good[0], b"1,2", good[1]],
                    [good[0], b"[1", b"2]", good[1]], [good[0], b"\xff", good[1]], [good[0], b"7", good[1]]):
            expected = []
            for line in bad:
                try:
                    value = json.loads(line)
                except ValueError:
                    continue
                if isinstance(value, dict):
                    expected.append(value)
            self.assertEqual(self.messages(bad), expected, bad)


if __name__ == "__main__":
    unittest.main()
