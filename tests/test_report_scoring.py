"""The report of a comparison by another metric names it and prints the result's numbers."""

import pytest

from calibsim import compare, load_uci


def _prose(res, text):
    """The report without the df's source, which says the df was calibrated for accuracy,
    and the shared reproducibility sentence (calibsim.reports, not this report's)."""
    for said in (res.df_source, res.df_statement or "",
                 "partitions, accuracies and numbers"):
        text = text.replace(said, "")
    return text


@pytest.fixture(scope="module")
def auc():
    return compare("naive_bayes", "c45", load_uci("vote"), design="2x5", scoring="roc_auc",
                   progress=False)


@pytest.fixture(scope="module")
def mse():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor
    X, y = load_diabetes(return_X_y=True)
    return compare(Ridge(), DecisionTreeRegressor(random_state=0), X, y, design="2x5",
                   progress=False)


def test_auc_report_names_the_metric(auc):
    text = auc.report("markdown")
    m = auc.metric
    assert "Do naive_bayes and c45 differ in ROC AUC on vote?" in text
    assert "Difference A − B (points of AUC)" in text
    assert m.value_text(auc.score_a) in text and m.value_text(auc.score_b) in text
    assert f"{100 * auc.difference:+.2f}" in text
    assert f"{100 * auc.detectable_difference:.2f}" in text
    assert "accura" not in _prose(auc, text).lower()
    assert "percentage points" not in text


def test_mse_report_names_the_loss(mse):
    text = mse.report("markdown")
    m = mse.metric
    assert "differ in mean squared error" in text
    assert "mean squared error (lower is better)" in text
    assert "Difference A − B of the mean squared error (in the target's units squared)" in text
    assert m.value_text(mse.score_a) in text and m.value_text(mse.score_b) in text
    assert f"{-mse.difference:+.4f}" in text            # the losses' difference A − B
    assert "accura" not in _prose(mse, text).lower()
    assert "percentage points" not in text
    assert "stratified" not in text and "Classes" not in text
