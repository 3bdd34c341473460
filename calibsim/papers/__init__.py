"""What is specific to each paper: reference values, the rules that check its claims, figure layouts.

One module per paper; each has ``LAYOUTS``, a mapping of layout name to a function
``write(*, study, tables, scores, folder, wall, calibrations) -> {label: path}``
that a study file selects with ``[study] paper = "<module>.<layout>"``. The engine
never imports a paper module except through :func:`get_paper`, so deleting one
breaks only the study files that name it; a paper module never imports the engine
(the papers sit below it): what a layout needs of the engine's, it asks the study it
is given (:meth:`~calibsim.engine.spec.Study.test_callable`,
:meth:`~calibsim.engine.spec.Study.test_data`,
:meth:`~calibsim.engine.spec.Study.datasets_sampler_text`).
"""

from __future__ import annotations

import importlib

__all__ = ["PAPERS", "get_paper", "layouts"]

#: Paper modules, by the name study files use; ``own_studies`` holds the layouts of
#: calibsim's own studies beyond the papers (``studies/null_construction.toml``).
PAPERS = ("bouckaert2003", "bouckaert_frank2004", "dietterich1998", "scheffer_herbrich1997",
          "ulas2012", "own_studies")


def layouts(paper: str) -> tuple:
    """Layout names of ``paper``."""
    return tuple(importlib.import_module(f".{paper}", __name__).LAYOUTS)


class _Layout:
    def __init__(self, func):
        self.write = func


def get_paper(name: str):
    """The layout ``"<paper>.<layout>"``: an object whose ``write(...)`` writes its outputs.

    Raises
    ------
    ValueError
        If the paper or the layout is unknown (the message lists the known ones).
    """
    paper, _, layout = name.partition(".")
    if paper not in PAPERS:
        raise ValueError(f"`paper` must name one of {list(PAPERS)}; got {paper!r}.")
    module = importlib.import_module(f".{paper}", __name__)
    if layout not in module.LAYOUTS:
        raise ValueError(f"`paper` layout must be one of "
                         f"{[f'{paper}.{k}' for k in module.LAYOUTS]}; got {name!r}.")
    return _Layout(module.LAYOUTS[layout])
