"""A test case holding one detection host (and its warm sandbox) for all of its tests, closed after them."""

import unittest

from caracal_engine.host import Host


class HostTestCase(unittest.TestCase):
    host: Host

    @classmethod
    def setUpClass(cls):
        cls.host = Host()

    @classmethod
    def tearDownClass(cls):
        cls.host.close()
