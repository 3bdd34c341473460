"""Choosing Dietterich's (1998) pair of per-point error probabilities (e1, e2) for a target ε."""

from __future__ import annotations

import math
import numbers

from .._docstrings import fill_doc

__all__ = ["epsilon_pair"]

_GAP_RULES = ("widest", "balanced")



def _check_real(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {value!r} "
                        f"of type {type(value).__name__}.")
    value = float(value)
    if not (lo <= value <= hi):
        raise ValueError(f"`{name}` must lie in [{lo:g}, {hi:g}]; got {value!r}.")
    return value


@fill_doc
def epsilon_pair(epsilon, *, gap="widest") -> tuple[float, float]:
    r"""The two per-point error probabilities (e1, e2) for target error ε.

    Among pairs with (e1 + e2)/2 = ε and 0 <= e2 <= e1 <= 1 the pair is fixed by
    its gap g = e1 - e2, at most g_max = 2 min(ε, 1 - ε). Dietterich (1998, §4)
    chose the pair that "did the best job of simultaneously maximizing
    within-algorithm variance and between-algorithm variation while achieving
    the desired error rate ε" [1]_; his numbers are lost, so the rule is
    explicit here.

    Parameters
    ----------
    epsilon : float
        Target error rate of both algorithms, in [0, 1].
    gap : {"widest", "balanced"} or float, default "widest"
        ``"widest"``: g = g_max. Both readings of the criterion that treat
        "within-algorithm variance" as the spread of ε_A(x) over points,
        Var_x ε_A(x) = (g/2)^2, and "between-algorithm variation" as
        |ε_A(x) - ε_B(x)| = g, are maximised by the widest gap: e1 = min(1, 2ε),
        e2 = 2ε - e1. This is the worst case for the tests that ignore how the
        points of a data set are mixed, which the paper says it sought.

        ``"balanced"``: the paper also says a high-variance algorithm gets
        per-point values "near the value giving the maximum variance of a
        binomial random variable", i.e. it measures within-algorithm
        (training-set) variance by W(g) = E_x[ε_A(x)(1 - ε_A(x))] =
        ε(1 - ε) - g^2/4, which *falls* as the gap grows. Both objectives then
        conflict, which is why he needed experiments to pick a pair. The
        scale-free compromise maximises W(g)·g:
        g = min(g_max, 2 sqrt(ε(1 - ε)/3)). It equals the widest gap for
        ε <= 1/4 and is interior above (ε = 0.4: e1 = 0.683, e2 = 0.117).

        A float in [0, 1]: that fraction of g_max (1 = widest, 0 = e1 = e2).

    Returns
    -------
    e1, e2 : float
        e1 >= e2, with mean ε; probabilities in [0, 1].

    Notes
    -----
    With g_max the widest pair is degenerate for ε <= 1/2: e2 = 0, so algorithm
    B never errs on kind-0 points (no training-set variance there). That does
    not make the simulation unfair (the two kinds mirror each other), and only
    the gap matters for the tests: under H0 the per-instance outcome of a
    random test point is a multinomial with P(n01) = P(n10) = (e1(1-e2) +
    e2(1-e1))/2 whatever g is, but the spread g(2f - 1) of the error
    difference over data sets whose kind-0 share is f grows with g. That spread
    is what the resampled t and the difference of proportions mistake for a
    real difference, so the widest gap is the hardest case for them.

    {references:dietterich1998}

    Examples
    --------
    >>> epsilon_pair(0.1)
    (0.2, 0.0)
    >>> epsilon_pair(0.7)
    (1.0, 0.3999999999999999)
    >>> [round(e, 3) for e in epsilon_pair(0.4, gap="balanced")]
    [0.683, 0.117]
    >>> epsilon_pair(0.2, gap=0.5)
    (0.30000000000000004, 0.1)
    """
    eps = _check_real("epsilon", epsilon, 0.0, 1.0)
    g_max = 2.0 * min(eps, 1.0 - eps)
    if isinstance(gap, str):
        if gap not in _GAP_RULES:
            raise ValueError(f"`gap` must be one of {list(_GAP_RULES)} or a fraction in "
                             f"[0, 1] of the widest gap; got {gap!r}.")
        g = g_max if gap == "widest" else min(g_max, 2.0 * math.sqrt(eps * (1.0 - eps) / 3.0))
    else:
        g = _check_real("gap", gap, 0.0, 1.0) * g_max
    if g == g_max and eps <= 0.5:          # exact ends, no rounding: e2 = 0
        return (2.0 * eps, 0.0)
    if g == g_max:
        return (1.0, 2.0 * eps - 1.0)
    return (eps + g / 2.0, eps - g / 2.0)


# ---------------------------------------------------------------------------
# Results of a batch of trials
# ---------------------------------------------------------------------------

