"""Public names loaded on first use: the one helper of the subpackages' ``__init__``.

On the lowest floor of the package (beside :mod:`calibsim._version`,
:mod:`calibsim._docstrings`, :mod:`calibsim._validation` and :mod:`calibsim._rng`): it
imports nothing of calibsim, so a subpackage that uses it never imports the top-level
package's ``__init__`` for it.
"""

import importlib
import sys


def _lazy_exports(package: str, api: dict):
    """``__getattr__`` and ``__dir__`` for a subpackage whose public names load on first
    use (PEP 562): ``api`` maps each name to the module of ``package`` that defines it.

    A worker process that needs one module of a subpackage then imports that module
    alone, not every module the subpackage's ``__init__`` would re-export.
    """

    def __getattr__(name):
        if name not in api:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{api[name]}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(api))

    return __getattr__, __dir__
