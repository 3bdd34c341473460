"""Plan an experiment before running it: Type I error, power and replicability of every
design and test on your data (``calibsim plan``).

:func:`plan` is the public door; the plan itself (the repeats of every design, the damage
of every Δ, the tests and the recommendation) is the engine's
(:mod:`calibsim.engine.planning`, which the engine's ``plan`` analysis runs on a study's
sources), as :func:`calibsim.compare` is over the engine's scoring.
"""

from __future__ import annotations

from ..engine.planning import DEFAULT_DESIGNS, PlanResult, run_plan

__all__ = ["plan", "PlanResult", "DEFAULT_DESIGNS"]


def plan(estimator_a, estimator_b, X, y=None, *, differences=(0.01, 0.02, 0.05),
         designs=DEFAULT_DESIGNS, tests=None, alpha: float = 0.05, power: float = 0.8,
         replicability: float = 0.9, n_datasets: int = 100, n_instances=None,
         df: str = "calibrated", damage: str = "better",
         random_state=0, n_jobs=None, scheduler=None, results=None,
         progress: bool = True, client=None, saved_only: bool = False) -> PlanResult:
    """Which design and test detect a difference Δ between my learners on my data?

    Before the experiment: for each design, the Type I error of every test that fits
    it on a null made from your real data (the better learner damaged by calibrated
    random errors until both have the same expected accuracy, Dietterich 1998 §5, at
    your class prior), its power at each Δ (the damage calibrated to Δ), Bouckaert &
    Frank's (2004) replicability, the cost in fits, and the cheapest design that
    reaches the target power with replicability ≥ ``replicability``.

    Parameters
    ----------
    estimator_a, estimator_b : estimator or str
        As in :func:`calibsim.compare`.
    X : Dataset, DataFrame, array_like of shape (n_instances, n_attributes) or str
        The data, as :func:`calibsim.compare` takes it, or a shipped name, a CSV or ARFF
        path or a scikit-learn loader.
    y : array_like of shape (n_instances,), optional
    differences : sequence of float, default (0.01, 0.02, 0.05)
        Δ > 0 in accuracy units (0.01 = one point); Δ = 0 (the null) is always added.
    designs : sequence of str, default :data:`DEFAULT_DESIGNS`
        Designs of :func:`calibsim.compare` (``"RxK"``, ``"5x2cv"``,
        ``"subsampling:N"``, ``"holdout"``).
    tests : str or sequence of str, optional
        Registered tests; each design takes those that fit it (default: every test of
        :data:`calibsim.stats.TESTS` that fits it).
    alpha : float, default 0.05
    power : float, default 0.8
        Target power of the recommendation.
    replicability : float, default 0.9
        Least replicability R of the recommendation.
    n_datasets : int, default 100
        Repeats N of each design (new partitions, new damage): the Monte Carlo size;
        rates have SE ≤ 0.5/sqrt(N).
    n_instances : int, optional
        Each repeat (and calibration run) on a random subsample of this many instances,
        drawn without replacement, as Dietterich (1998, §5) drew data sets of 300 from
        Pima's 768: the repeats then vary the data as well as the partitions. Default:
        every repeat on all the data, new partitions only (Type I error and power
        conditional on your data set).
    df : {"calibrated", "textbook"}, default "calibrated"
        The df of each test: as :func:`calibsim.compare` takes it (the shipped table
        where it covers the design, else the textbook df), or the textbook df.
    damage : {"better", "a", "b"}, default "better"
    random_state : int or SeedSequence, default 0
        Root of every stream; each design's partitions, calibration and damage are
        keyed by the design's name and Δ.
    n_jobs, scheduler
        As in :func:`calibsim.compare` (local worker processes, a Dask scheduler).
    results : str or path-like, optional
        A folder whose score store (``<results>/store``, the engine's
        :class:`~calibsim.engine.store.Store`) keeps every repeat as it finishes, keyed
        by the data, learners, design, seed and subsample size: a plan interrupted
        (Ctrl-C) resumes where it stopped, and a plan with a larger ``n_datasets``
        reuses the repeats already there. Default: nothing is saved.
    saved_only : bool, default False
        Fit nothing: read every repeat from the store of ``results`` (``calibsim report``
        of a study's ``plan`` analysis).
    progress : bool, default True
        A time estimate (on standard error) before the repeats, and a progress bar.
    client : LocalPool or distributed.Client, optional
        An open pool or cluster (:func:`calibsim.engine.runner.cluster`) to fit on
        instead of starting one (``n_jobs`` and ``scheduler`` are then ignored): the
        engine's ``plan`` analysis passes the pool of ``calibsim run``.

    Returns
    -------
    PlanResult

    Raises
    ------
    ValueError
        For a Δ outside [0, 1) or one that cannot be reached at a design's
        training-set size (see :func:`calibrate_damage`), an unknown design or test,
        a design no test fits, α, power or replicability outside (0, 1), ``n_datasets``
        < 2, or learners and data :func:`calibsim.compare` refuses; ``saved_only``
        without ``results``.
    FileNotFoundError
        With ``saved_only``, if a repeat is not in the store (naming how many are missing).

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD 2004, LNCS 3056, 3–12.

    Examples
    --------
    >>> res = plan("naive_bayes", "c45", "breast-cancer", differences=[0.05],
    ...            designs=["1x10", "5x2cv"], n_datasets=20, progress=False)
    >>> res.differences
    (0.0, 0.05)
    >>> res.recommendation.columns.tolist()
    ['difference', 'design', 'test', 'power', 'replicability', 'fits', 'statement']
    """
    return run_plan(estimator_a, estimator_b, X, y, differences=differences, designs=designs,
                    tests=tests, alpha=alpha, power=power, replicability=replicability,
                    n_datasets=n_datasets, n_instances=n_instances, df=df, damage=damage,
                    random_state=random_state, n_jobs=n_jobs, scheduler=scheduler,
                    results=results, progress=progress, client=client,
                    saved_only=saved_only)
