"""Third-party modules detections import (functions/detection-engine/requirements.txt): the file is read
as data, a module the python lacks fails only the detections importing it with a message naming the
module and how to install it, and a Deprecated detection does not run on its log types."""

import os
import unittest

from caracal_engine import requirements
from tests.engine import ENGINE_DIR
from tests.engine.host_case import HostTestCase


def detection(detection_id: str, body: str, **spec) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body, **spec}


class RequirementsFileTest(unittest.TestCase):
    def test_the_file_lists_the_modules_of_the_public_content_pinned(self):
        listed = {r.distribution: r for r in requirements.requirements()}
        self.assertEqual(requirements.REQUIREMENTS_FILE, os.path.join(ENGINE_DIR, "requirements.txt"))
        for name in ("pycountry", "policyuniverse"):
            self.assertIn(name, listed)
            self.assertRegex(listed[name].version, r"^\d+(\.\d+)+$")

    def test_every_requirement_of_the_file_is_pinned_with_sha256_hashes(self):
        # pip's --require-hashes (which the layer build switches to when a line carries a hash) refuses the
        # whole file unless every requirement has `==` and at least one hash.
        with open(requirements.REQUIREMENTS_FILE, encoding="utf-8") as file:
            text = file.read()
        listed = requirements.parse(text)
        self.assertGreaterEqual(len(listed), 7)
        unhashed = [r.distribution for r in listed if not r.hashed]
        self.assertEqual(unhashed, [])
        # Each requirement line (continuations joined) starts with the pin; no stray hash-less lines.
        logical = [line.strip() for line in text.replace("\\\n", " ").splitlines()
                   if line.strip() and not line.strip().startswith("#")]
        self.assertEqual(len(logical), len(listed))
        for line in logical:
            self.assertRegex(line, r"^[A-Za-z0-9._-]+==\S+( +--hash=sha256:[0-9a-f]{64})+( +# import: \w+)?$")

    def test_the_dependencies_of_the_listed_distributions_are_pinned_too(self):
        # requests 2.32.4 requires charset_normalizer>=2,<4, idna>=2.5,<4, urllib3>=1.21.1,<3 and certifi
        # (its metadata); pycountry and policyuniverse require nothing. Versions must fall in those ranges.
        listed = {r.distribution.lower(): r for r in requirements.requirements()}
        bounds = {"charset-normalizer": ((2,), (4,)), "idna": ((2, 5), (4,)), "urllib3": ((1, 21, 1), (3,)),
                  "certifi": ((2017, 4, 17), (9999,))}
        self.assertEqual(listed["requests"].version, "2.32.4")
        for name, (low, high) in bounds.items():
            self.assertIn(name, listed, f"{name} (a dependency of requests) is not pinned")
            version = tuple(int(part) for part in listed[name].version.split("."))
            self.assertTrue(low <= version < high, f"{name}=={listed[name].version} is outside {low}..{high}")
        self.assertEqual(listed["charset-normalizer"].module, "charset_normalizer")

    def test_parse_reads_pins_hashes_and_import_names(self):
        parsed = requirements.parse(
            "# a comment\n"
            "python-dateutil==2.9.0.post0  # import: dateutil\n"
            "pycountry==24.6.1 \\\n    --hash=sha256:" + "a" * 64 + "\n"
            "not a requirement\n"
        )
        self.assertEqual([(r.distribution, r.version, r.module, r.hashed) for r in parsed], [
            ("python-dateutil", "2.9.0.post0", "dateutil", False),
            ("pycountry", "24.6.1", "pycountry", True),
        ])
        self.assertEqual(parsed[1].install, "pip install pycountry==24.6.1")

    def test_the_missing_message_names_the_module_and_the_install_command(self):
        message = requirements.missing_message("pycountry")
        self.assertIn("No module named 'pycountry'", message)
        self.assertIn("pip install pycountry", message)
        self.assertIsNone(requirements.missing_message("sqlite3"))


class MissingModuleTest(HostTestCase):
    def test_a_missing_module_fails_only_the_detections_importing_it(self):
        present = requirements.present()
        missing = [m for m, here in present.items() if not here]
        if not missing:
            self.skipTest("every module of requirements.txt is installed in this python")
        module = missing[0]
        content = {"version": "missing-module", "detections": [
            detection("Imports", f"import {module}\ndef rule(event):\n    return True\n"),
            detection("Plain", "def rule(event):\n    return event.get('x') == 1\n"),
        ]}
        tests = [{"Name": "fires", "ExpectedResult": True, "Log": {"x": 1}}]
        failing = self.host.test(content, "Imports", tests)["tests"][0]
        self.assertFalse(failing["passed"])
        text = str(failing.get("error", "")) + str(failing.get("functions", ""))
        self.assertIn(f"No module named '{module}'", text)
        self.assertIn(f"pip install {module}", text)
        self.assertTrue(self.host.test(content, "Plain", tests)["tests"][0]["passed"])

    def test_an_installed_module_works_in_the_sandbox_with_its_lazily_loaded_data(self):
        if not requirements.present().get("pycountry"):
            self.skipTest("pycountry is not installed in this python")
        body = ("import pycountry\n"
                "def rule(event):\n"
                "    return pycountry.countries.get(alpha_2=event.get('cc')).name == 'France'\n"
                "def title(event):\n"
                "    return pycountry.subdivisions.get(code='FR-75C').name\n")
        content = {"version": "installed", "detections": [detection("Country", body)]}
        verdict = self.host.test(content, "Country", [{"Name": "fr", "ExpectedResult": True, "Log": {"cc": "FR"}}])["tests"][0]
        self.assertTrue(verdict["passed"], verdict)
        self.assertEqual(verdict["functions"]["title"]["output"], "Paris")

    def test_a_deprecated_detection_does_not_run_on_its_log_types_but_runs_when_named(self):
        body = "def rule(event):\n    return True\n"
        content = {"version": "status", "detections": [
            detection("Old", body, status="Deprecated"),
            detection("Trial", body, status="Experimental"),
        ]}
        out = self.host.run(content, [{"p_log_type": "T"}])
        self.assertEqual(sorted(r["id"] for r in out["results"][0]), ["Trial"])
        named = self.host.run(content, [{"p_log_type": "T"}], ["Old"])
        self.assertEqual([r["id"] for r in named["results"][0]], ["Old"])
        verdict = self.host.test(content, "Old", [{"Name": "t", "ExpectedResult": True, "Log": {}}])["tests"][0]
        self.assertTrue(verdict["passed"])


if __name__ == "__main__":
    unittest.main()
