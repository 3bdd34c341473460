"""One naming map for every figure: identifiers in, names a reader knows out.

Tables keep the identifiers a study file declares (``naive_bayes``,
``ban[network=set1]``, ``uci[name=zoo]``, ``c45_tuned[tuning=test_set, n_settings=4]``);
figures show names (``naive Bayes``, ``Set 1``, ``zoo``, ``C4.5 tuned on the test folds,
4 settings``). Every figure of calibsim takes its tick, legend and panel labels from
:func:`display_name` and its axis labels from :func:`axis_label`, so a name is spelt the
same way in every figure (docs/guide/figures.md, item 3 of the checklist).
"""

from __future__ import annotations

import re

__all__ = ["display_name", "axis_label", "source_words", "LEARNER_NAMES", "SOURCE_NAMES",
           "PARAMETER_NAMES", "AXIS_LABELS"]

#: Built-in and commonly declared learners -> their names in the papers.
LEARNER_NAMES = {
    "naive_bayes": "naive Bayes", "c45": "C4.5", "ib1": "nearest neighbour (IB1)",
    "tan": "TAN", "voted_perceptron": "voted perceptron", "logistic": "logistic regression",
    "A": "learner A", "B": "learner B",
    "damaged_nn": "damaged nearest neighbour", "random_errors": "random errors",
}

#: Source keys and grid values -> names (Bouckaert 2003 calls the BAN collections Set 1-4).
SOURCE_NAMES = {
    "null": "null data", "calibration_data": "calibration data (null)",
    "set1": "Set 1", "set2": "Set 2", "set3": "Set 3", "set4": "Set 4",
    "exp6": "EXP6", "letter": "letter", "pima": "Pima",
    "widest": "widest ε-point", "balanced": "balanced ε-point",
}

#: Parameters of a source's or learner's grid -> (name, how the value is shown).
PARAMETER_NAMES = {
    "class_prior": "class prior", "epsilon": "ε", "n_instances": "instances",
    "n_attributes": "attributes", "n_settings": "settings", "network": "",
    "name": "", "path": "", "tuning": "", "e1": "e₁", "e2": "e₂",
}

_TUNING = {"test_set": "tuned on the test folds", "nested_cv": "tuned by nested cv",
           "holdout": "tuned on a held-out third", "bootstrap632": "tuned by .632 bootstrap"}

#: Table columns -> axis labels with units.
AXIS_LABELS = {
    "n_runs": "number of runs r", "alpha": "significance level α",
    "class_prior": "class prior P(class 1)", "epsilon": "ε (difference in error rate)",
    "n_settings": "parameter settings tried p", "n_instances": "instances per data set",
    "lambda": "λ", "n_folds": "folds k", "df": "degrees of freedom",
    "calibrated_df": "calibrated df", "rate": "rejection rate (%)", "R": "replicability R",
    "accuracy": "accuracy (%)", "source": "data source", "name": "data set",
    "learner": "learner", "pair": "learner pair", "test": "test", "label": "test",
}

_BRACKET = re.compile(r"^(?P<base>[^\[\]]+)\[(?P<params>[^\[\]]*)\]$")
_DAMAGED = re.compile(r"^(?P<base>[a-z0-9]+)_lam(?P<lam>\d{3})$")


def _number(v: str) -> str:
    try:
        x = float(v)
    except ValueError:
        return v
    return f"{x:g}"


def _param(key: str, value: str) -> str:
    key, value = key.strip(), value.strip()
    if key == "tuning":
        return _TUNING.get(value, value.replace("_", " "))
    if key == "n_settings":
        return f"{value} setting" + ("" if value == "1" else "s")
    name = PARAMETER_NAMES.get(key, key.replace("_", " "))
    shown = SOURCE_NAMES.get(value, _number(value))
    if not name:
        return shown
    return f"{name} = {shown}" if name in ("ε", "e₁", "e₂") else f"{name} {shown}"


def _plain(text: str) -> str:
    """A name as it stands, or an identifier with its underscores made spaces."""
    if text in LEARNER_NAMES:
        return LEARNER_NAMES[text]
    if text in SOURCE_NAMES:
        return SOURCE_NAMES[text]
    m = _DAMAGED.match(text)
    if m:
        base = LEARNER_NAMES.get(m["base"], {"nn": "nearest neighbour"}.get(m["base"], m["base"]))
        return f"{base}, λ = {int(m['lam']) / 100:g}"
    try:
        from ..stats import get_test
        return get_test(text).label
    except (KeyError, ValueError, ImportError):
        pass
    return text.replace("_", " ")


def display_name(value) -> str:
    """The name a figure shows for an identifier of a table.

    Parameters
    ----------
    value : object
        A learner, test, source or grid value as the tidy tables hold it: a plain
        key (``naive_bayes``, ``set1``, ``corrected_resampling``), a source or tuned
        learner label ``key[param=value, ...]``, or a number.

    Returns
    -------
    str
        The learner's or test's name in the papers, the data set's name, the
        collection's name (``Set 1``), parameters in words; anything unknown with
        underscores made spaces. Names that are already names pass unchanged.

    Examples
    --------
    >>> from calibsim.plotting import display_name
    >>> display_name("uci[name=zoo]"), display_name("ban[network=set1]")
    ('zoo', 'Set 1')
    >>> display_name("null[class_prior=0.1]"), display_name("naive_bayes")
    ('null data, class prior 0.1', 'naive Bayes')
    >>> display_name("c45_tuned[tuning=test_set, n_settings=4]")
    'C4.5 tuned on the test folds, 4 settings'
    >>> display_name("nn_lam020"), display_name("corrected_resampling")
    ('nearest neighbour, λ = 0.2', 'corrected resampling')
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        return _number(str(value))
    text = value.strip()
    m = _BRACKET.match(text)
    if not m:
        return _plain(text)
    base = m["base"].strip()
    params = [p.split("=", 1) for p in m["params"].split(",") if "=" in p]
    shown = [_param(k, v) for k, v in params]
    if base.endswith("_tuned"):
        learner = _plain(base[: -len("_tuned")])
        tuning = [s for (k, _), s in zip(params, shown) if k.strip() == "tuning"]
        rest = [s for (k, _), s in zip(params, shown) if k.strip() != "tuning"]
        return ", ".join([" ".join([learner] + tuning)] + rest)
    keys = {k.strip() for k, _ in params}
    if keys & {"name", "network", "path"}:      # the data set names itself: drop the group
        return ", ".join(shown)
    return ", ".join([_plain(base)] + shown)


def axis_label(column: str, unit: str | None = None) -> str:
    """The axis label of a table column, with its unit.

    Examples
    --------
    >>> from calibsim.plotting import axis_label
    >>> axis_label("n_runs"), axis_label("rate", "%")
    ('number of runs r', 'rejection rate (%)')
    """
    label = AXIS_LABELS.get(column, column.replace("_", " "))
    if unit and f"({unit})" not in label:
        label = re.sub(r"\s*\(%\)$", "", label) + f" ({unit})"
    return label


def source_words(row) -> str:
    """A source of a tidy table in words: "null source (learners equally good)",
    "BAN source Set 2", or the source's display name for other kinds."""
    group = str(row.get("group", ""))
    if group == "null":
        return "null source (learners equally good)"
    if group == "ban" and str(row.get("network", "")) not in ("", "nan"):
        return f"BAN source {display_name(str(row['network']))}"
    return display_name(row["source"])
