"""What the engine hands the paper layouts: a registry test as the engine calls it, the
data it is given, and how the over-data-sets study samples the hierarchical test.

:mod:`calibsim.papers` sits below the engine and never imports it; the layouts reach
these through the :class:`~calibsim.engine.spec.Study` they are given
(:meth:`~calibsim.engine.spec.Study.test_callable`,
:meth:`~calibsim.engine.spec.Study.test_data`,
:meth:`~calibsim.engine.spec.Study.datasets_sampler_text`). They live here, below both
:mod:`calibsim.engine._specs` and :mod:`calibsim.engine.analyses` (which uses and
re-exports them), so that the study's methods call the engine's one implementation
without an import circle.
"""

from __future__ import annotations

import functools

import numpy as np

from ..stats import get_test

__all__ = ["test_callable", "test_data", "datasets_sampler_text", "DATASETS_WARMUP",
           "DATASETS_SAMPLER", "DATASETS_CHAINS", "DATASETS_DRAWS", "DATASETS_TARGET_ACCEPT"]


def _n_instances(source) -> int:
    src = source.build()
    return int(getattr(src, "n_instances", getattr(src, "n_points", 0)))


def test_callable(test: str, study, source, scheme_name: str):
    """The registry test with the scheme's own n2/n1 for the corrected resampled t, and
    the data set's size and training size for the bootstrap of the cv estimate."""
    spec = get_test(test)
    if spec.scheme == "bootstrap":
        n = _n_instances(source)
        func = functools.partial(spec.func, n_instances=n,
                                 n_train=study.scheme(scheme_name).splitter().n_train(n))
        func.__name__ = spec.name
        return func
    if test == "corrected_resampling":
        ratio = study.scheme(scheme_name).splitter().test_train_ratio_for(_n_instances(source))
        func = functools.partial(spec.func, test_train_ratio=ratio)
        func.__name__ = spec.name
        return func
    return spec


def test_data(scores, source: str, scheme_name: str, test: str, pair, runs=None, group=0,
              datasets=slice(None), *, target: str = "difference"):
    """The data of ``test``: the ``group``-th block of ``runs`` runs of the scheme.

    Returns (N, r, k) for r x k cv, (N, r) for subsampling and holdout, (N, 5, 2) for
    5 x 2 cv (``group`` = the repeat), (N, 4) McNemar counts for the holdout tests, and
    for the tests on per-instance outcomes the masked layouts (N, 1, k, n) (the block's
    first run of r x k cv, all the cv CLT test reads) and (N, R, K, K, n) (nested cv),
    of the data sets ``datasets`` only (a slice; the others ignore it).

    ``target = "difference"`` (default): accuracy of ``pair[0]`` minus ``pair[1]`` (per
    split, or per instance their correctness); ``"error"``: the error of ``pair[0]``
    alone (per split 1 - accuracy, per instance the 0/1 loss), for the ``coverage``
    analysis of one learner's error (not for the holdout tests' counts).
    """
    spec = get_test(test)
    scheme = scores.study.scheme(scheme_name)
    error = target == "error"
    if spec.scheme == "holdout":
        if error:
            raise ValueError(f"test {test!r} takes McNemar counts of two learners; it has "
                             "no data for one learner's error.")
        return scores.mcnemar_counts(source, scheme_name, pair)
    if spec.scheme in ("instances", "nested"):     # per-instance outcomes
        r = runs if runs else scheme.split_shape[0]
        # the cv CLT test reads the first run of the block only
        stop = group * r + (1 if spec.scheme == "instances" else r)
        block = slice(group * r, stop)
        x = (scores.instance_losses(source, scheme_name, pair[0], runs=block,
                                    datasets=datasets) if error else
             scores.instance_differences(source, scheme_name, pair, runs=block,
                                         datasets=datasets))
        if spec.scheme == "nested":
            x = scheme.splitter().nested_layout(x, ~np.isnan(x))
        return x
    x = (1.0 - scores.accuracy(source, scheme_name, pair[0]) if error
         else scores.difference(source, scheme_name, pair))
    if scheme.kind == "cv5x2":
        return x[:, group]
    r = runs if runs else x.shape[1]
    return x[:, group * r:(group + 1) * r]



#: Warm-up iterations per chain of the hierarchical test in a ``bayes_datasets`` analysis
#: (4 chains x 1,000 kept draws each, NUTS's target acceptance 0.9, the test's default,
#: adaptation from the scaled metric). Measured and not taken
#: (``benchmarks/bench_hierarchical.py --steps`` on synthetic 10 x 10 cv comparisons):
#: 300 warm-up iterations take about 15% fewer leapfrog steps per fit at q = 10 and 50 and
#: 7% at q = 20, but at q = 10 3 of 40 fits had a divergent transition (one with 6, ESS
#: 367) against 2 of 40 at 500; target acceptance 0.8 (Stan's default, which the paper's
#: code and baycomp use) takes 23-29% fewer, but gave a divergent transition in a quarter
#: of the fits at q = 10 (none at 0.9), and 0.85 in 8-17% at q = 10 and 20. Either would
#: raise the study's ``poor_diagnostics``. Since the fifth round the study samples with
#: calibsim's NUTS in numba (``sampler="numba"``), which takes the same steps per fit at
#: 5-10x less CPU per fit, so these savings are no longer needed.
DATASETS_WARMUP = 500
#: The rest of the hierarchical fits' settings in the over-data-sets study (its report
#: names them): the sampler, chains, draws over the chains, NUTS's target acceptance.
DATASETS_SAMPLER = "numba"
DATASETS_CHAINS = 4
DATASETS_DRAWS = 4000
DATASETS_TARGET_ACCEPT = 0.9


def datasets_sampler_text() -> str:
    """One sentence for a report: how the over-data-sets study samples the hierarchical
    test's posterior (the defaults of :func:`calibsim.engine.analyses._datasets_summaries`,
    from the constants above), so that the study's report names what ran.

    Returns
    -------
    str

    Examples
    --------
    >>> "4 chains of NUTS" in datasets_sampler_text()
    True
    """
    return (f"The hierarchical test's posterior: {DATASETS_CHAINS} chains of NUTS "
            f"(calibsim's in numba, `sampler=\"{DATASETS_SAMPLER}\"`: NumPyro's model, NUTS "
            f"and warm-up), {DATASETS_WARMUP} warm-up iterations per chain from a metric "
            f"scaled to the data, target acceptance {DATASETS_TARGET_ACCEPT:g}, "
            f"{DATASETS_DRAWS:,} draws in all.")
