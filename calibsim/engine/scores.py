"""The score container of a study: every source's arrays under every scheme.

:class:`Scores` holds, per (source label, scheme name), the arrays of
:mod:`calibsim.engine.cells` for data sets ``0 .. N - 1`` and derives what the
analyses need: accuracy differences of a learner pair (the x of the tests),
accuracies, McNemar's counts, model sizes and costs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Scores"]


@dataclass(frozen=True)
class Scores:
    """Saved score arrays of a study.

    Attributes
    ----------
    study : calibsim.engine.spec.Study
    arrays : dict of (str, str) to dict of str to ndarray
        ``(source label, scheme name) -> {array name: array of shape (N, ...)}``.
    """

    study: object
    arrays: dict

    def _get(self, source: str, scheme: str) -> dict:
        try:
            return self.arrays[(source, scheme)]
        except KeyError:
            raise ValueError(f"no scores for source {source!r} under scheme {scheme!r}; the "
                             f"study has {sorted(self.arrays)}.") from None

    def _index(self, learner: str) -> int:
        labels = [lrn.label for lrn in self.study.learners]
        if learner not in labels:
            raise ValueError(f"`learner` must be one of {labels}; got {learner!r}.")
        return labels.index(learner)

    def n_datasets(self, source: str, scheme: str) -> int:
        return next(iter(self._get(source, scheme).values())).shape[0]

    def accuracy(self, source: str, scheme: str, learner: str) -> np.ndarray:
        """Accuracy in [0, 1] of ``learner`` on every split, shape (N, *split)."""
        a = self._get(source, scheme)
        return a["correct"][:, self._index(learner)].astype(np.float64) / a["n_test"]

    def difference(self, source: str, scheme: str, pair) -> np.ndarray:
        """x = accuracy(a) - accuracy(b) on every split, shape (N, *split), in [-1, 1].

        The division is done once on the difference of counts, so x equals
        ``(correct_a - correct_b) / n_test`` exactly.
        """
        a = self._get(source, scheme)
        if "difference" in a:                      # simulated learners (ε-point)
            return a["difference"]
        i, j = self._index(pair[0]), self._index(pair[1])
        c = a["correct"].astype(np.float64)
        return (c[:, i] - c[:, j]) / a["n_test"]

    def mcnemar_counts(self, source: str, scheme: str, pair, split: int = 0) -> np.ndarray:
        """n00, n01, n10, n11 of ``pair`` on one split, shape (N, 4) int64.

        Dietterich's (1998) convention: n01 = a wrong and b right.
        """
        a = self._get(source, scheme)
        if "mcnemar" in a:
            return a["mcnemar"]
        if "correctness" not in a:
            raise ValueError(f"scheme {scheme!r} keeps no per-instance correctness; set "
                             f"`correctness = true` in [schemes.{scheme}] for McNemar's test.")
        n_test = a["n_test"].reshape(a["n_test"].shape[0], -1)[:, split]
        packed = a["correctness"]
        n_learners = packed.shape[1]
        flat = packed.reshape(packed.shape[0], n_learners, -1, packed.shape[-1])[:, :, split]
        bits = np.unpackbits(flat, axis=-1).astype(bool)
        ca, cb = bits[:, self._index(pair[0])], bits[:, self._index(pair[1])]
        n11 = (ca & cb).sum(-1)
        n01 = (~ca & cb).sum(-1)
        n10 = (ca & ~cb).sum(-1)
        return np.stack([n_test - n11 - n01 - n10, n01, n10, n11], axis=-1).astype(np.int64)

    def instance_differences(self, source: str, scheme: str, pair, *, runs=slice(None),
                             datasets=slice(None)) -> np.ndarray:
        """Per-instance A-minus-B correctness on every split, NaN off the split's test set.

        ``runs`` and ``datasets`` (slices of the run and data-set axes) are taken before
        the bits are unpacked, so only those are expanded to 8 bytes per value.

        Returns
        -------
        ndarray of shape (N, *split, n8), float64
            Values in {-1, 0, 1} (the masked layout of
            :func:`calibsim.stats.cv_clt_test`); n8 = 8 * ceil(n / 8), the padding
            columns NaN everywhere (an instance in no test set).

        Raises
        ------
        ValueError
            If the scheme keeps no per-instance correctness and test masks
            (``correctness = true`` on a ``repeated_kfold`` or ``nested`` scheme).
        """
        bits, mask = self._instance_bits(source, scheme, pair, runs, datasets)
        return np.where(mask, bits[:, 0].astype(np.float64) - bits[:, 1], np.nan)

    def instance_losses(self, source: str, scheme: str, learner: str, *, runs=slice(None),
                        datasets=slice(None)) -> np.ndarray:
        """Per-instance 0/1 loss of ``learner`` on every split, NaN off the split's test set.

        Returns
        -------
        ndarray of shape (N, *split, n8), float64
            1 where the instance was misclassified, 0 where it was classified right
            (the masked layout of :func:`calibsim.stats.nested_cv_test` for one
            learner's error); shapes, ``runs``, ``datasets`` and errors as
            :meth:`instance_differences`.
        """
        bits, mask = self._instance_bits(source, scheme, (learner,), runs, datasets)
        return np.where(mask, 1.0 - bits[:, 0], np.nan)

    def _instance_bits(self, source, scheme, learners, runs, datasets):
        """The unpacked correctness bits of ``learners`` (N, L, *split, n8) and the test
        masks (N, *split, n8) of the runs and data sets asked for."""
        a = self._get(source, scheme)
        if "correctness" not in a or "test_mask" not in a:
            raise ValueError(f"scheme {scheme!r} keeps no per-instance outcomes; set "
                             f"`correctness = true` in [schemes.{scheme}] (a repeated_kfold "
                             "or nested scheme) for the tests on per-instance outcomes.")
        idx = [self._index(name) for name in learners]
        corr = a["correctness"][datasets][:, idx, runs]
        bits = np.unpackbits(corr, axis=-1)
        mask = np.unpackbits(a["test_mask"][datasets][:, runs], axis=-1).astype(bool)
        return bits, mask

    def model_size(self, source: str, scheme: str, learner: str) -> np.ndarray:
        """Model size of ``learner`` on every split, shape (N, *split)."""
        return self._get(source, scheme)["model_size"][:, self._index(learner)]

    def costs(self, source: str, scheme: str, learner: str) -> dict:
        """Fit and predict seconds per data set (N,), summed over the scheme's splits."""
        a = self._get(source, scheme)
        i = self._index(learner)
        return {"fit_time": a["fit_time"][:, i], "predict_time": a["predict_time"][:, i]}
