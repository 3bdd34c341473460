"""Reading study files: TOML parsed and checked against a schema, with clear errors.

Every study kind declares ``{section: {key: type}}`` (``None`` for a section whose
keys are free and whose values are strings, such as a map of labels to files) and
the keys its ``[study]`` section must have; this module does the checks they share.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["read_study_file"]


def read_study_file(path, schema: dict, *, required=("name", "seed", "n_datasets"),
                    kind: str | None = None) -> dict:
    """Parse a study file and check its sections, keys and value types.

    Parameters
    ----------
    path : str or path-like
        The TOML file.
    schema : dict
        ``{section: {key: type}}``; a float key also accepts an integer; ``None``
        instead of a key map allows any key with a string value.
    required : sequence of str
        Keys the ``[study]`` section must hold.
    kind : str, optional
        The value ``study.kind`` must have.

    Returns
    -------
    dict
        The parsed document.

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the file is not valid TOML, has an unknown section or key, a value of
        the wrong type, misses a required key or has another kind; the message
        names the file, the key, the rule and the value.
    """
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"study file {path} is not valid TOML: {exc}") from exc
    for name, sec in doc.items():
        if name not in schema:
            raise ValueError(f"study file {path}: unknown section [{name}]; known sections "
                             f"are {sorted(schema)}.")
        if not isinstance(sec, dict):
            raise ValueError(f"study file {path}: [{name}] must be a table; got {sec!r}.")
        for key, value in sec.items():
            want = str if schema[name] is None else schema[name].get(key)
            if want is None:
                raise ValueError(f"study file {path}: unknown key `{name}.{key}`; known keys "
                                 f"are {sorted(schema[name])}.")
            ok = isinstance(value, want) or (want is float and isinstance(value, int))
            if not ok or isinstance(value, bool):
                raise ValueError(f"study file {path}: `{name}.{key}` must be of type "
                                 f"{want.__name__}; got {value!r}.")
    st = doc.get("study", {})
    for key in required:
        if key not in st:
            raise ValueError(f"study file {path}: [study] is missing required key `{key}`.")
    if kind is not None and st.get("kind") != kind:
        raise ValueError(f"study file {path}: `study.kind` must be {kind!r}; got "
                         f"{st.get('kind')!r}.")
    return doc
