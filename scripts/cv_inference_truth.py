"""The true errors that studies/cv_inference_validation.toml's coverage analyses compare with.

A cv interval is judged by whether it holds the learner's expected error at a training
size m, Err(m) = E over training sets of m instances of the error of the model fitted on
them. On the ``logistic`` source (:class:`calibsim.sources.LogisticSource`) the error of a
fitted model is known exactly given the test attributes: a test instance x is
misclassified with probability P(y = 1 | x) where the model predicts 0 and 1 - P(y = 1 | x)
where it predicts 1. So each of ``--fits`` training sets of m instances is drawn, the
learner fitted, and its error computed as the mean of that probability over ``--test``
fresh attributes (no label noise enters); Err(m) is the mean over the fits, with its Monte
Carlo SE (the standard deviation over fits over sqrt(fits), which includes the test
draws' own noise). The accuracy difference of two learners is computed on the same
training sets (a paired estimate).

The learners are the study file's, built the same way (literal arguments):
``LogisticRegression(C=1e6)``, and the majority rule (``DummyClassifier(strategy=
"most_frequent")``), whose error is exactly 1/2 on this source at every strength (the
class is 1 with probability 1/2 whatever the attributes' signs, so any constant
prediction errs half the time); the accuracy difference logistic minus majority is then
1/2 - Err(m) of logistic regression.

Run (about 5 min of CPU)::

    python scripts/cv_inference_truth.py

and copy the printed values into the study file's ``truth`` tables (they are literal there,
with this script named beside them). Randomness: one ``SeedSequence(20261127,
spawn_key=(setting index,))`` per setting; the values do not depend on the machine beyond
the last printed digit.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

from calibsim.sources import LogisticSource

#: (label, n_attributes, strength, training size m) of every truth the study needs.
#: Bates et al.: the model fitted on all n = 100 instances (their NCV targets it);
#: Bayle et al.: the k-fold test error's mean, models trained on 9/10 of n; Cai et al.:
#: the model trained on m = 50 of n = 90 instances (the cv estimate's training size).
SETTINGS = [
    ("bates_s1 (n = 100)", 10, 1.0, 100),
    ("bates_s2 (n = 100)", 10, 2.0, 100),
    ("bayle_alt n = 200 (m = 180)", 10, 0.3, 180),
    ("bayle_alt n = 800 (m = 720)", 10, 0.3, 720),
    ("bayle_alt n = 3200 (m = 2880)", 10, 0.3, 2880),
    ("cai_s1 n = 90 (m = 50)", 10, 1.0, 50),
]


def true_errors(n_attributes, strength, m, fits, n_test, seed):
    """(fits,) exact conditional errors of logistic regression on ``fits`` training sets."""
    src = LogisticSource(n_instances=m, n_attributes=n_attributes, strength=strength)
    rng = np.random.default_rng(seed)
    out = np.empty(fits)
    for i in range(fits):
        X, y = src.sample(rng)
        if y.min() == y.max():                      # one class only: predicts it
            raise RuntimeError("a training set of one class; raise m")
        Xt = rng.standard_normal((n_test, n_attributes))
        p1 = src.probability(Xt)
        pred = LogisticRegression(C=1e6).fit(X, y).predict(Xt)
        out[i] = np.mean(np.where(pred == 1, 1.0 - p1, p1))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fits", type=int, default=2000, help="training sets per setting")
    ap.add_argument("--test", type=int, default=20_000, help="test attributes per fit")
    args = ap.parse_args(argv)
    print(f"{'setting':32s} {'Err(m) logistic':>17s} {'acc. logistic - majority':>26s}")
    for k, (label, p, s, m) in enumerate(SETTINGS):
        t0 = time.process_time()
        e = true_errors(p, s, m, args.fits, args.test, np.random.SeedSequence(20261127,
                                                                              spawn_key=(k,)))
        se = e.std(ddof=1) / np.sqrt(len(e))
        print(f"{label:32s} {e.mean():.4f} ± {se:.4f} {0.5 - e.mean():+.4f} ± {se:.4f}"
              f"   ({time.process_time() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
