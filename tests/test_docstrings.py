"""The shared docstring fragments (calibsim/_docstrings.py): filled where they stand, never left.

A docstring that names a fragment must be filled when its module is imported; a forgotten
``@fill_doc`` would print ``{references:demsar2006}`` in the API docs. The walk reads every
module, class, function and method docstring of calibsim and looks for a placeholder left.
"""

import importlib
import inspect
import pkgutil
import re

import pytest

import calibsim
from calibsim._docstrings import FRAGMENTS, fill, fill_doc

_LEFT = re.compile(r"\{(references:[\w, ]+|" + "|".join(FRAGMENTS) + r")\}[ \t]*$", re.M)


def _docstrings():
    for info in pkgutil.walk_packages(calibsim.__path__, "calibsim."):
        if info.name.endswith("__main__"):     # runs the CLI
            continue
        module = importlib.import_module(info.name)
        yield info.name, module.__doc__
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{info.name}.{name}", obj.__doc__
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    member = getattr(member, "__func__", member)
                    if inspect.isfunction(member):
                        yield f"{info.name}.{name}.{attr}", member.__doc__


def test_no_docstring_keeps_a_placeholder():
    left = [name for name, doc in _docstrings()
            if doc and _LEFT.search(doc) and name != "calibsim._docstrings"]  # shows the syntax
    assert left == []


def test_a_citation_continues_under_its_label():
    doc = "Sum.\n\n    .. [2] {demsar2006}\n           (Sec. 3).\n"
    assert fill(doc) == ("Sum.\n\n    .. [2] Demšar, J. (2006). Statistical comparisons of "
                         "classifiers over\n           multiple data sets. Journal of Machine "
                         "Learning Research 7, 1-30.\n           (Sec. 3).\n")


def test_references_numbers_the_keys_in_order():
    doc = fill("Sum [2]_.\n\n    {references:demsar2006,garcia_herrera2008}\n")
    assert "    References\n    ----------\n    .. [1] Demšar" in doc
    assert "\n    .. [2] García, S. & Herrera, F. (2008)" in doc
    assert "\n           2677-2694." in doc


def test_braces_that_do_not_end_a_line_stay():
    doc = 'pvalue : {"a", "b"}, default "a"\n    :math:`\\{x\\}` and {x} here.\n'
    assert fill(doc) == doc


def test_a_local_fragment_keeps_the_methods_indentation():
    @fill_doc(block="Returns\n-------\nint\n    One.")
    def f():
        """Sum.

        {block}
        """
    assert f.__doc__ == "Sum.\n\n        Returns\n        -------\n        int\n            One.\n        "


@pytest.mark.parametrize("doc, match", [("Sum.\n    {nowhere}\n", "`{nowhere}` names no fragment"),
                                        ("Sum.\n    {demsar2006:x}\n", "only `{references:...}`")])
def test_an_unknown_placeholder_is_an_error(doc, match):
    with pytest.raises(KeyError, match=re.escape(match)):
        fill(doc)
