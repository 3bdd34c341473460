"""How the test suite itself runs: tests sharing a module fixture stay on one worker.

Under pytest-xdist (``-n auto --dist loadgroup``, pyproject.toml) tests/conftest.py marks the
tests that use a module-, class- or package-scoped fixture with their module's
``xdist_group``, and xdist adds the group to each such test's node id; the scheduler then
sends the module to one worker, which computes the fixture once. If a pytest or xdist
release stops that (pytest 9.2 with xdist 3.8 did: the node id stayed bare), the suite still
passes but every worker recomputes the shared reduced runs (test_every_study.py's folder run
took 110 s on each of the two workers). This test fails instead.
"""

import pytest


@pytest.fixture(scope="module")
def shared():
    """A module-scoped fixture: the tests using it must run on one worker."""
    return object()


def test_a_test_using_a_module_fixture_carries_its_modules_group(shared, request):
    config = request.config
    if not hasattr(config, "workerinput") or not config.getvalue("loadgroup"):
        pytest.skip("not on a pytest-xdist worker with --dist loadgroup")
    assert request.node.nodeid.endswith("@tests/test_suite_layout.py"), (
        f"node id {request.node.nodeid!r} lacks its xdist group: --dist loadgroup does not "
        "group this pytest/xdist pair (see the pin in pyproject.toml)")
