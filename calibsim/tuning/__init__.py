"""The cost of tuning on the test set: Scheffer & Herbrich's (1997) parameter channel.

A learner whose parameters are tuned to the lowest error on the test set, and then
ranked by that error, reports an optimistically biased accuracy. Scheffer & Herbrich
(1997, §3) model the tuning as a *parameter channel* through which test-set class
labels leak: the tuned learner repeats the true labels of ``c`` test instances and
classifies the other ``m - c`` with the classifier h it would have learned anyway.
It gains one hit for every leaked instance that h gets wrong. Each leaked label
costs about ``H`` bits, the class entropy, so a learner whose parameter settings
carry ``b`` bits can leak about ``b / H`` labels. An algorithm with more parameters
is thus likely to be ranked above an equally good one with fewer.

Only the abstract and citation contexts of the paper survive. The model below is
rebuilt from them, and every assumption added is listed here and checked in
:mod:`calibsim.papers.scheffer_herbrich1997` against the paper's worked numbers:

A1  Gain. The tuned learner outputs the leaked true label on each of the ``c``
    leaked instances and h's prediction elsewhere (§3, quoted). The extra hits
    are ``Z = sum_i X_i``, where ``X_i = 1`` if h misclassifies leaked instance i.
A2  Which instances leak. A uniformly random subset of the test set, independent of
    h's errors. ``sampling="hypergeom"`` (default): one test set of m instances,
    ``m - hits`` of them errors of h, ``Z ~ Hypergeom``. ``sampling="binomial"``:
    every leaked instance is an error of h independently with probability
    ``1 - hits/m``, so Z is binomial, or Poisson-binomial when learning problems
    differ (the paper's array, §3).
A3  Bits. A leaked label costs H bits on average (entropy coding), with H the
    Shannon entropy of the class distribution of the test set. A ``b``-bit
    channel leaks ``floor(b / H)`` labels, and ``c`` labels need ``c H`` bits.
A4  Experiments. The gradient search of §3 finds one leaked label by trying each
    of the K classes, so it runs ``c K`` experiments per learning problem.
A5  Reaching an accuracy a means at least ``ceil(a m)`` hits. Ties with the
    learner to beat count as reaching it.
A6  Several learning problems. When a benchmark is split into several problems,
    each tuned on its own test set (FEM mesh design: five), c labels leak in each
    problem, and Z is the sum over problems (the convolution of §3).

References
----------
.. [1] Scheffer, T. & Herbrich, R. (1997). Unbiased assessment of learning
       algorithms. Proc. 15th International Joint Conference on Artificial
       Intelligence (IJCAI-97), 798-803.
"""

from ._model import (LabelsNeededResult, TunedAccuracyResult, channel_bits, channel_labels,
                     class_entropy, labels_needed, poisson_binomial_pmf, reach_probability,
                     search_experiments, sum_pmf, tuned_accuracy)

__all__ = ["LabelsNeededResult", "TunedAccuracyResult", "channel_bits", "channel_labels", "class_entropy", "labels_needed", "poisson_binomial_pmf", "reach_probability", "search_experiments", "sum_pmf", "tuned_accuracy"]
