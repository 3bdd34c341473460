"""The small study file the engine tests share, written once.

Most engine and CLI tests need the same head: a ``[study]`` table, Bouckaert's simulated
null as the source ``null``, naive Bayes against C4.5 and a repeated k-fold scheme ``cv``.
:func:`tiny_study` writes it; each test appends only what it is about (its analyses, other
schemes, a hostile learner).
"""


def tiny_study(name="tiny", *, seed=7, n_datasets=6, n_instances=60, n_attributes=None,
               n_folds=5, n_runs=4, block_size=None, learners=("naive_bayes", "c45"),
               cv_extra=""):
    """Return the head of a small study file as TOML text.

    Parameters
    ----------
    name, seed : str, int
        The ``[study]`` table's name and seed.
    n_datasets, n_instances, n_attributes : int
        The null source's size (``n_attributes`` left to the default when None).
    n_folds, n_runs : int
        The ``[schemes.cv]`` repeated k-fold design.
    block_size : int or str, optional
        Written as is, so ``"{block}"`` leaves a ``str.format`` field.
    learners : tuple of str
        The ``[learners]`` names.
    cv_extra : str
        Lines added to ``[schemes.cv]`` (e.g. ``"correctness = true"``).

    Returns
    -------
    str
        TOML text ending after the ``[schemes.cv]`` table; append further tables to it.
    """
    block = "" if block_size is None else f"block_size = {block_size}\n"
    attributes = "" if n_attributes is None else f"n_attributes = {n_attributes}\n"
    names = ", ".join(f'"{n}"' for n in learners)
    extra = f"{cv_extra}\n" if cv_extra else ""
    return (f'\n[study]\nname = "{name}"\nseed = {seed}\n{block}\n'
            f'[sources.null]\nkind = "null"\nn_instances = {n_instances}\n'
            f"n_datasets = {n_datasets}\n{attributes}\n"
            f"[learners]\nnames = [{names}]\n\n"
            f'[schemes.cv]\nkind = "repeated_kfold"\nn_folds = {n_folds}\nn_runs = {n_runs}\n'
            f"{extra}\n")


def scored_study(tmp_path_factory, text, folder="tiny"):
    """Write ``text`` (a study file, dedented) to a fresh folder, load it and compute its
    scores: ``(study, scores)``, for a module-scoped fixture."""
    import textwrap

    from calibsim.engine import compute_scores, load_study
    path = tmp_path_factory.mktemp(folder) / "tiny.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    study = load_study(path)
    return study, compute_scores(study)
