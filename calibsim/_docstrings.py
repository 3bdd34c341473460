"""Shared numpydoc fragments: a citation or a block that several docstrings repeat, written once.

A docstring names a fragment by ``{name}`` as the last thing on a line, and :func:`fill_doc`
(a decorator) or :func:`fill` (for a module's ``__doc__``) puts the fragment's text in its
place. The fragment's first line takes the placeholder's place; its later lines are indented
to the placeholder's column, so a citation continues under its ``.. [1]`` label and a
``Returns`` block keeps the method's indentation. ``{references:key1,key2}`` writes a whole
numpydoc References section with the citations of those keys numbered [1], [2] in that
order::

    @fill_doc
    def sign_test(x):
        '''Sign test ... as Demšar [1]_ suggests.

        {references:demsar2006}

        Examples
        --------
        '''

renders the same as the docstring with the section and Demšar's citation written out. A
docstring that also cites a work of its own writes its References section out and fills only
the shared citations, e.g. ``.. [2] {garcia_herrera2008}``.

Only a ``{name}`` that ends its line is a placeholder, so braces elsewhere (``{"a", "b"}``,
``\\{x\\}``) need no doubling; an unknown name is an error at import, never a silent
``{typo}`` in the docs. Citations are keyed by author(s) and year.
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["FRAGMENTS", "fill", "fill_doc"]

FRAGMENTS = {
    # --- Citations (the text after ``.. [n]``), by author(s) and year ---
    "alpaydin1999": """
        Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised
        classification learning algorithms. Neural Computation 11(8),
        1885-1892. doi:10.1162/089976699300016007""",
    "bouckaert2003": """
        Bouckaert, R. R. (2003). Choosing between two learning algorithms
        based on calibrated tests. Proceedings of the 20th International
        Conference on Machine Learning (ICML-2003), 51-58.""",
    "demsar2006": """
        Demšar, J. (2006). Statistical comparisons of classifiers over
        multiple data sets. Journal of Machine Learning Research 7, 1-30.""",
    "dietterich1998": """
        Dietterich, T. G. (1998). Approximate statistical tests for comparing
        supervised classification learning algorithms. Neural Computation
        10(7), 1895-1923. doi:10.1162/089976698300017197""",
    "garcia_herrera2008": """
        García, S. & Herrera, F. (2008). An extension on "Statistical
        comparisons of classifiers over multiple data sets" for all
        pairwise comparisons. Journal of Machine Learning Research 9,
        2677-2694.""",
    "nadeau_bengio2003": """
        Nadeau, C. & Bengio, Y. (2003). Inference for the generalization
        error. Machine Learning 52, 239-281. doi:10.1023/A:1024068626366""",
    "ulas2012": """
        Ulaş, A., Yıldız, O. T. & Alpaydın, E. (2012). Cost-conscious
        comparison of supervised learning algorithms over multiple data sets.
        Pattern Recognition 45(4), 1772-1781. doi:10.1016/j.patcog.2011.10.005""",
    "witten_frank2005": """
        Witten, I. H. & Frank, E. (2005). Data Mining: Practical Machine
        Learning Tools and Techniques, 2nd ed. Morgan Kaufmann""",
    "yildiz_alpaydin2006": """
        Yıldız, O. T. & Alpaydın, E. (2006). Ordering and finding the best of
        K > 2 supervised learning algorithms. IEEE Trans. Pattern Analysis and
        Machine Intelligence 28(3), 392-402. doi:10.1109/TPAMI.2006.61""",
}

_PLACEHOLDER = re.compile(r"^(?P<lead>[^\n]*?)\{(?P<name>[A-Za-z_]\w*)(?::(?P<keys>[\w, ]+))?\}"
                          r"[ \t]*$", re.MULTILINE)


def _references(keys: str, fragments: dict) -> str:
    """A numpydoc References section citing ``keys`` (comma-separated) as [1], [2], ..."""
    lines = ["References", "----------"]
    for n, key in enumerate(k.strip() for k in keys.split(",")):
        label = f".. [{n + 1}] "
        first, *rest = _lines(fragments, key)
        lines += [label + first] + [" " * len(label) + line if line else line for line in rest]
    return "\n".join(lines)


def _lines(fragments: dict, name: str) -> list:
    if name not in fragments:
        raise KeyError(f"docstring placeholder `{{{name}}}` names no fragment; known: "
                       f"{sorted(fragments)}.")
    return textwrap.dedent(fragments[name]).strip("\n").split("\n")


def fill(doc: str | None, fragments: dict | None = None) -> str | None:
    """Return ``doc`` with every placeholder that ends a line replaced by its text.

    Parameters
    ----------
    doc : str or None
        A docstring; None (docstrings stripped by ``python -OO``) is returned as is.
    fragments : dict, optional
        Name -> text; defaults to :data:`FRAGMENTS`. A text is dedented and stripped of
        leading and trailing blank lines before it is put in.

    Returns
    -------
    str or None
        The filled docstring.

    Raises
    ------
    KeyError
        If a placeholder names no fragment.
    """
    if doc is None:
        return None
    fragments = FRAGMENTS if fragments is None else fragments

    def put(match):
        if match["name"] == "references" and match["keys"]:
            first, *rest = _references(match["keys"], fragments).split("\n")
        elif match["keys"] is None:
            first, *rest = _lines(fragments, match["name"])
        else:
            raise KeyError(f"only `{{references:...}}` takes keys; got `{match[0].strip()}`.")
        lead = match["lead"]
        indent = " " * len(lead)
        return "\n".join([lead + first] + [indent + line if line else line for line in rest])

    return _PLACEHOLDER.sub(put, doc)


def fill_doc(obj=None, /, **fragments):
    """Decorator: fill the placeholders of a function's or class's docstring (see :func:`fill`).

    Used bare (``@fill_doc``) it knows :data:`FRAGMENTS`; with keywords
    (``@fill_doc(rank_parameters=...)``) it also knows a module's own fragments.
    """
    if obj is None:
        return lambda target: fill_doc(target, **fragments)
    obj.__doc__ = fill(obj.__doc__, {**FRAGMENTS, **fragments})
    return obj
