"""The match-expression language, as a table: expression, event, expected verdict."""

import unittest

from caracal_engine.match import CONDITIONS, MatchExpressionError, compile_expression, compile_expressions, parse_key_path

EVENT = {
    "name": "Alice",
    "Mixed": {"Case": "value"},
    "count": 5,
    "ratio": "2.5",
    "flag": False,
    "nothing": None,
    "blank": "",
    "ip": "203.0.113.9",
    "private_ip": "10.1.2.3",
    "ip6": "2001:db8::1",
    "cidr": "192.168.0.0/16",
    "tags": ["red", "blue"],
    "items": [{"kind": "a", "n": 1}, {"kind": "b", "n": 2}, {"kind": "a", "n": 3}],
    "nested": {"list": [{"id": "x"}, {"id": "y"}]},
    "low": 1,
    "high": 9,
    "p_enrichment": {"ipinfo": {"ip": {"country": "NZ"}}},
}

CASES = [
    ({"Key": "name", "Condition": "Equals", "Value": "Alice"}, True),
    ({"Key": "NAME", "Condition": "Equals", "Value": "Alice"}, True),
    ({"Key": "name", "Condition": "Equals", "Value": "alice"}, False),
    ({"Key": "name", "Condition": "IEquals", "Value": "ALICE"}, True),
    ({"Key": "name", "Condition": "DoesNotEqual", "Value": "Bob"}, True),
    ({"Key": "name", "Condition": "IDoesNotEqual", "Value": "alice"}, False),
    ({"Key": "missing", "Condition": "DoesNotEqual", "Value": "x"}, True),
    ({"Key": "count", "Condition": "Equals", "Value": "5"}, True),
    ({"Key": "flag", "Condition": "Equals", "Value": False}, True),
    ({"Key": "flag", "Condition": "Equals", "Value": 0}, False),
    ({"Key": "name", "Condition": "StartsWith", "Value": "Al"}, True),
    ({"Key": "name", "Condition": "IStartsWith", "Value": "al"}, True),
    ({"Key": "name", "Condition": "DoesNotStartWith", "Value": "Al"}, False),
    ({"Key": "name", "Condition": "IDoesNotStartWith", "Value": "bo"}, True),
    ({"Key": "name", "Condition": "EndsWith", "Value": "ce"}, True),
    ({"Key": "name", "Condition": "IEndsWith", "Value": "CE"}, True),
    ({"Key": "name", "Condition": "DoesNotEndWith", "Value": "ce"}, False),
    ({"Key": "name", "Condition": "IDoesNotEndWith", "Value": "CE"}, False),
    ({"Key": "name", "Condition": "Contains", "Value": "lic"}, True),
    ({"Key": "name", "Condition": "IContains", "Value": "LIC"}, True),
    ({"Key": "name", "Condition": "DoesNotContain", "Value": "z"}, True),
    ({"Key": "name", "Condition": "IDoesNotContain", "Value": "LIC"}, False),
    ({"Key": "tags", "Condition": "Contains", "Value": "red"}, True),
    ({"Key": "count", "Condition": "IsGreaterThan", "Value": 4}, True),
    ({"Key": "count", "Condition": "IsGreaterThanOrEqual", "Value": 5}, True),
    ({"Key": "count", "Condition": "IsLessThan", "Value": 5}, False),
    ({"Key": "count", "Condition": "IsLessThanOrEqual", "Value": 5}, True),
    ({"Key": "ratio", "Condition": "IsGreaterThan", "Value": 2}, True),
    ({"Key": "name", "Condition": "IsGreaterThan", "Value": 2}, False),
    ({"Key": "name", "Condition": "Exists"}, True),
    ({"Key": "nothing", "Condition": "Exists"}, True),
    ({"Key": "missing", "Condition": "DoesNotExist"}, True),
    ({"Key": "nothing", "Condition": "IsNull"}, True),
    ({"Key": "missing", "Condition": "IsNull"}, True),
    ({"Key": "name", "Condition": "IsNotNull"}, True),
    ({"Key": "blank", "Condition": "IsNullOrEmpty"}, True),
    ({"Key": "tags", "Condition": "IsNotNullOrEmpty"}, True),
    ({"Key": "name", "Condition": "IsIn", "Values": ["Bob", "Alice"]}, True),
    ({"Key": "name", "Condition": "IsNotIn", "Values": ["Bob", "Alice"]}, False),
    ({"Key": "name", "Condition": "IIsIn", "Values": ["ALICE"]}, True),
    ({"Key": "ip", "Condition": "IsIPAddress"}, True),
    ({"Key": "name", "Condition": "IsIPAddress"}, False),
    ({"Key": "ip", "Condition": "IsIPv4Address"}, True),
    ({"Key": "ip6", "Condition": "IsIPv6Address"}, True),
    ({"Key": "private_ip", "Condition": "IsIPAddressPrivate"}, True),
    ({"Key": "private_ip", "Condition": "IsIPAddressPublic"}, False),
    ({"Key": "ip", "Condition": "IsIPAddressPublic"}, False),
    ({"Key": "private_ip", "Condition": "IsIPAddressInCIDR", "Value": "10.0.0.0/8"}, True),
    ({"Key": "ip", "Condition": "IsIPAddressNotInCIDR", "Value": "10.0.0.0/8"}, True),
    ({"Key": "cidr", "Condition": "CIDRContainsIPAddresses", "Value": "192.168.4.4"}, True),
    ({"Key": "cidr", "Condition": "CIDRDoesNotContainIPAddresses", "Value": "192.168.4.4"}, False),
    ({"DeepKey": ["Mixed", "case"], "Condition": "Equals", "Value": "value"}, True),
    ({"DeepKey": ["items", 1, "kind"], "Condition": "Equals", "Value": "b"}, True),
    ({"KeyPath": "items[2].n", "Condition": "Equals", "Value": 3}, True),
    ({"KeyPath": "nested.list[*].id", "Condition": "Equals", "Value": "y"}, True),
    ({"KeyPath": "nested.list[*].id", "Condition": "DoesNotEqual", "Value": "y"}, False),
    ({"Enrichment": {"Table": "ipinfo", "Selector": "ip", "FieldPath": "country"}, "Condition": "Equals", "Value": "NZ"}, True),
    ({"Condition": "IsLessThan", "Values": [{"Key": "low"}, {"Key": "high"}]}, True),
    ({"Condition": "Equals", "Values": [{"Key": "low"}, {"Key": "high"}]}, False),
    ({"Condition": "DoesNotEqual", "Values": [{"Key": "low"}, {"KeyPath": "high"}]}, True),
    ({"KeyPath": "items", "Condition": "AnyElement", "Expressions": [{"Key": "kind", "Condition": "Equals", "Value": "b"}]}, True),
    ({"KeyPath": "items", "Condition": "AllElements", "Expressions": [{"Key": "n", "Condition": "IsGreaterThan", "Value": 0}]}, True),
    ({"KeyPath": "items", "Condition": "NoElement", "Expressions": [{"Key": "kind", "Condition": "Equals", "Value": "c"}]}, True),
    ({"KeyPath": "items", "Condition": "OnlyOneElement", "Expressions": [{"Key": "kind", "Condition": "Equals", "Value": "a"}]}, False),
    ({"KeyPath": "tags", "Condition": "AnyElement", "Expressions": [{"Condition": "Equals", "Value": "blue"}]}, True),
    ({"KeyPath": "empty_list", "Condition": "AllElements", "Expressions": [{"Condition": "AlwaysTrue"}]}, False),
    ({"All": [{"Condition": "AlwaysTrue"}, {"Key": "name", "Condition": "Exists"}]}, True),
    ({"Any": [{"Condition": "AlwaysFalse"}, {"Key": "name", "Condition": "Exists"}]}, True),
    ({"OnlyOne": [{"Condition": "AlwaysTrue"}, {"Condition": "AlwaysTrue"}]}, False),
    ({"None": [{"Condition": "AlwaysFalse"}, {"Key": "missing", "Condition": "Exists"}]}, True),
]


class MatchExpressionTest(unittest.TestCase):
    def test_table(self):
        for expression, expected in CASES:
            with self.subTest(expression=expression):
                self.assertIs(compile_expression(expression)(EVENT), expected)

    def test_top_level_list_is_all(self):
        self.assertTrue(compile_expressions([{"Condition": "AlwaysTrue"}, {"Key": "name", "Condition": "Exists"}])(EVENT))
        self.assertFalse(compile_expressions([{"Condition": "AlwaysTrue"}, {"Key": "missing", "Condition": "Exists"}])(EVENT))

    def test_every_documented_condition_compiles(self):
        for condition in CONDITIONS:
            expression = {"Key": "name", "Condition": condition, "Value": "x", "Values": ["x"]}
            if "Element" in condition:
                expression = {"Key": "tags", "Condition": condition, "Expressions": [{"Condition": "AlwaysTrue"}]}
            with self.subTest(condition=condition):
                compile_expression(expression)(EVENT)

    def test_errors_are_clear(self):
        for expression, message in [
            ({"Key": "a", "Condition": "Nope", "Value": 1}, "unknown Condition"),
            ({"Key": "a", "Condition": "Equals"}, "needs a Value"),
            ({"Key": "a", "KeyPath": "b", "Condition": "Exists"}, "only one key specifier"),
            ({"Key": "a", "Condition": "IsIn", "Value": 1}, "needs a Values list"),
            ({"Key": "a", "Condition": "Exists", "Typo": 1}, "unknown key"),
            ({"All": "not a list"}, "must be a list"),
            ("not a mapping", "must be a mapping"),
            ({"KeyPath": "a..b[", "Condition": "Exists"}, "invalid KeyPath"),
        ]:
            with self.subTest(expression=expression):
                with self.assertRaisesRegex(MatchExpressionError, message):
                    compile_expression(expression)

    def test_key_path_parser(self):
        self.assertEqual(parse_key_path("a.b[0].c[*]"), ["a", "b", 0, "c", "*"])


if __name__ == "__main__":
    unittest.main()
