import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fixed-seed generator; each test gets a fresh one."""
    return np.random.default_rng(20031)


_SHARED_SCOPES = ("module", "class", "package")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``--dist loadgroup``, see pyproject.toml), the tests that use a
    module-, class- or package-scoped fixture of their module run on one worker: the
    fixture (often a reduced end-to-end run) is then computed once, not once per worker.
    Every other test is sent to whichever worker is free.

    ``tryfirst``: xdist reads the ``xdist_group`` marks in its own hook of the same name;
    run after it, the marks came too late and such a module was split over both workers,
    each computing the fixture (the folder run of test_every_study.py twice: 110 s each)."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        for name in info.names_closure:
            defs = info.name2fixturedefs.get(name) or ()
            if any(d.scope in _SHARED_SCOPES for d in defs):
                item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
                break
