"""Each learner kernel compiles once per argument types (issue 36, a quick first run).

numba types an integer or boolean constant first as a literal (``K = 0``,
``multi_val = True``, ``f(memo, 1)``). When such a variable, or the constant
itself, is passed to another kernel, that callee is compiled twice: once for
``Literal[int](0)`` and once for ``int64``. A first run waits for both; in the
general C4.5 fit one such variable cost 1.4 s of the 14 s of a first
``calibsim compare --data vote``. The kernels therefore start such variables as
``np.int64(...)`` or ``np.bool_(...)``.

The test compiles each learner's top fit kernel afresh (numba's on-disk cache
keeps only the top kernel's signature, not those of the kernels it calls), then
asserts that none of the kernels they call was given a signature with a literal
type beside the same signature without it. (Tests may compile helpers that call
a kernel with a constant; only signatures new during this test count.)
"""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest
from numba.core import types
from numba.core.registry import CPUDispatcher

from calibsim.datasets import load_uci
from calibsim.learners import C45, TAN, NaiveBayes, VotedPerceptron
from calibsim.learners import _kernels_nb, tan, voted_perceptron
from calibsim.learners._c45 import general as c45_general


def _kernels():
    """Every numba kernel defined in a calibsim module."""
    for name, module in list(sys.modules.items()):
        if name.startswith("calibsim"):
            for attr, value in list(vars(module).items()):
                if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
                    yield f"{name}.{attr}", value


def _literal_twins(before):
    """Kernels given, since ``before`` ({name: signatures}), a signature with a literal type
    that they also hold without it: (kernel, the literal types)."""
    found = []
    for name, kernel in _kernels():
        sigs = kernel.signatures
        plain = {tuple(types.unliteral(a) for a in s) for s in sigs
                 if not any(isinstance(a, types.Literal) for a in s)}
        for sig in set(sigs) - before.get(name, set()):
            literals = [str(a) for a in sig if isinstance(a, types.Literal)]
            if literals and tuple(types.unliteral(a) for a in sig) in plain:
                found.append((name, literals))
    return found


def _afresh(monkeypatch, module, name):
    """Replace module.name by an uncached copy, so that its callees are typed again."""
    monkeypatch.setattr(module, name, numba.njit(getattr(module, name).py_func))


@pytest.mark.parametrize("data", ["vote", "credit-a"])
def test_no_kernel_is_compiled_for_a_literal_and_for_its_type(monkeypatch, data):
    """vote: nominal with missing values (C4.5's general kernel without the numeric
    search); credit-a: numeric and nominal with missing values."""
    before = {name: set(kernel.signatures) for name, kernel in _kernels()}
    ds = load_uci(data)
    X, y, nv = ds.X[:120], ds.y[:120], ds.n_values
    _afresh(monkeypatch, c45_general, "_c45_fit_general_kernel")
    _afresh(monkeypatch, _kernels_nb, "_nb_fit_general_kernel")
    learners = [C45(), NaiveBayes()]
    if data == "credit-a":
        _afresh(monkeypatch, tan, "_tan_fit")
        _afresh(monkeypatch, voted_perceptron, "_vp_fit_numeric")
        learners += [TAN(), VotedPerceptron()]
    for learner in learners:
        predicted = learner.fit(X, y, n_values=nv).predict(X)
        assert predicted.shape == (120,)
    assert _literal_twins(before) == []
