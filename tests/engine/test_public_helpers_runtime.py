"""What the public content's helpers need from the runtime, found by running `caracal test` over a part of
panther-analysis (issue 16): its AWS helpers import boto3 at their top (the AWS Lambda runtime ships it), and
a unit test with Mocks of a detection whose helper import failed must report that import error."""

import importlib.util
import unittest

from caracal_engine import lockdown
from tests.engine.host_case import HostTestCase


def rule(detection_id: str, body: str) -> dict:
    return {"id": detection_id, "analysisType": "rule", "severity": "Low", "logTypes": ["T"], "body": body}


# A helper shaped like the public AWS helpers: boto3 imported at module level, used only inside a function.
AWS_LIKE_HELPER = (
    "import boto3\n"
    "def account_context(event):\n"
    "    return {'account': event.get('recipientAccountId', '<none>')}\n"
    "def table():\n"
    "    return boto3.resource('dynamodb', region_name='us-east-1').Table('anything')\n"
)


class PublicHelpersRuntimeTest(HostTestCase):
    def test_a_helper_importing_boto3_at_its_top_loads_and_only_its_network_calls_fail(self):
        if importlib.util.find_spec("boto3") is None:
            self.skipTest("boto3 is not installed in this python")
        content = {
            "version": "boto3-helper",
            "globals": [{"id": "aws_like_helpers", "body": AWS_LIKE_HELPER}],
            "detections": [
                rule("UsesContext", (
                    "from aws_like_helpers import account_context\n"
                    "def rule(event):\n"
                    "    return event.get('eventName') == 'LeaveOrganization'\n"
                    "def alert_context(event):\n"
                    "    return account_context(event)\n"
                )),
                rule("CallsAws", (
                    "from aws_like_helpers import table\n"
                    "def rule(event):\n"
                    "    return table().get_item(Key={'id': 'x'}) is not None\n"
                )),
            ],
        }
        tests = [
            {"Name": "fires", "ExpectedResult": True, "Log": {"eventName": "LeaveOrganization", "recipientAccountId": "1"}},
            {"Name": "quiet", "ExpectedResult": False, "Log": {"eventName": "Other"}},
        ]
        verdicts = self.host.test(content, "UsesContext", tests)["tests"]
        self.assertEqual([v["passed"] for v in verdicts], [True, True], verdicts)
        self.assertEqual(verdicts[0]["functions"]["alert_context"]["output"], {"account": "1"})
        # A call that needs files or the network fails in the detection making it, with an error, not a crash.
        calling = self.host.test(content, "CallsAws", tests[:1])["tests"][0]
        self.assertFalse(calling["passed"])
        self.assertTrue(calling.get("error"), calling)
        self.assertNotIn("No module named 'boto3'", str(calling.get("error")))
        # boto3 reads its resource and endpoint data from files, which the sandbox refuses.
        self.assertRegex(str(calling.get("error")), "ResourceNotExistsError|DataNotFoundError|Operation not permitted")

    def test_a_mocked_test_of_a_detection_whose_helper_import_failed_reports_the_import_error(self):
        content = {
            "version": "mocked-broken-import",
            "globals": [{"id": "small_helpers", "body": "def present():\n    return 1\n"}],
            "detections": [rule("Broken", (
                "from small_helpers import absent_function\n"
                "def rule(event):\n"
                "    return absent_function(event)\n"
            ))],
        }
        tests = [
            {"Name": "mocked", "ExpectedResult": True, "Log": {}, "Mocks": [{"objectName": "absent_function", "returnValue": True}]},
            {"Name": "plain", "ExpectedResult": False, "Log": {}},
        ]
        verdicts = self.host.test(content, "Broken", tests)["tests"]
        self.assertEqual([v["passed"] for v in verdicts], [False, False])
        for verdict in verdicts:
            self.assertIn("cannot import name 'absent_function' from 'small_helpers'", verdict["error"], verdict)
            self.assertNotIn("Mocks can only patch", verdict["error"])


    def test_udm_of_a_log_type_whose_data_model_did_not_load_names_that_failure(self):
        # A data model whose module imports something absent: before, udm() quietly answered None (through
        # its fallback to the event's own keys), so a test failed as "expected true, got false" with nothing
        # pointing at the data model.
        content = {
            "version": "broken-data-model",
            "dataModels": [{"id": "Standard.Broken", "logTypes": ["T"],
                            "mappings": [{"Name": "source_ip", "Method": "get_ip"}, {"Name": "actor", "Path": "who"}],
                            "body": "import module_nobody_has\ndef get_ip(event):\n    return event.get('ip')\n"}],
            "detections": [rule("NeedsModel", (
                "def rule(event):\n"
                "    return event.udm('source_ip') == '10.0.0.1'\n"
            ))],
        }
        tests = [{"Name": "fires", "ExpectedResult": True, "Log": {"p_log_type": "T", "ip": "10.0.0.1"}}]
        verdict = self.host.test(content, "NeedsModel", tests)["tests"][0]
        self.assertFalse(verdict["passed"])
        self.assertIn("Standard.Broken", str(verdict.get("error")), verdict)
        self.assertIn("module_nobody_has", str(verdict.get("error")), verdict)
        # The same content with a data model that loads passes: the error is the data model's, not the rule's.
        working = {**content, "version": "working-data-model", "dataModels": [
            {**content["dataModels"][0], "body": "def get_ip(event):\n    return event.get('ip')\n"}]}
        self.assertTrue(self.host.test(working, "NeedsModel", tests)["tests"][0]["passed"])


class OptionalModuleMessageTest(unittest.TestCase):
    def test_a_missing_runtime_module_is_named_with_how_to_install_it(self):
        # The public panther_base_helpers imports dateutil at its top: on a python without it, every detection
        # importing those helpers fails, and the message must say the module is allowed and how to get it.
        message = lockdown.optional_missing_message("dateutil.parser")
        self.assertIn("No module named 'dateutil'", message)
        self.assertIn("pip install python-dateutil", message)
        self.assertIn("pip install boto3", lockdown.optional_missing_message("boto3"))
        self.assertIsNone(lockdown.optional_missing_message("sqlite3"))


if __name__ == "__main__":
    unittest.main()
