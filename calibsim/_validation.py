"""Shared input validation for calibsim's public functions.

Every check raises ``ValueError`` for a bad value and ``TypeError`` for a bad
type, with a message that names the parameter in backticks, states the rule and
shows the value received (conventions.md, item 5).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_int",
    "check_probability",
    "check_alpha",
    "check_finite_array",
    "check_choice",
    "check_random_state",
    "memory_limit",
    "size_text",
    "check_memory_estimate",
    "MemoryEstimateError",
]


def check_int(name: str, value, *, min_value: int | None = None,
              max_value: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer within the bounds.

    Raises
    ------
    TypeError
        If ``value`` is not an integer (``bool`` is rejected too).
    ValueError
        If ``value`` is outside ``[min_value, max_value]``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {value!r} "
                        f"of type {type(value).__name__}.")
    value = int(value)
    if min_value is not None and value < min_value:
        raise ValueError(f"`{name}` must be an integer >= {min_value}; got {value!r}.")
    if max_value is not None and value > max_value:
        raise ValueError(f"`{name}` must be an integer <= {max_value}; got {value!r}.")
    return value


def check_probability(name: str, value, *, open_low: bool = True,
                      open_high: bool = True) -> float:
    """Return ``value`` as ``float`` if it lies in the unit interval.

    The ends are excluded when ``open_low`` / ``open_high`` are true.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If ``value`` is NaN or outside the interval.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {value!r} "
                        f"of type {type(value).__name__}.")
    value = float(value)
    lo, hi = ("(" if open_low else "["), (")" if open_high else "]")
    ok = (value > 0 if open_low else value >= 0) and (value < 1 if open_high else value <= 1)
    if not ok or np.isnan(value):
        raise ValueError(f"`{name}` must lie in {lo}0, 1{hi}; got {value!r}.")
    return value


def check_alpha(name: str, value) -> np.ndarray:
    """Return significance level(s) as a 1-D float array, each in (0, 1).

    Accepts a scalar or a sequence; a scalar gives an array of shape (1,).

    Raises
    ------
    TypeError
        If ``value`` holds strings, booleans, complex numbers or objects (``"0.05"``
        is not read as 0.05).
    ValueError
        If any level is outside the open interval (0, 1), or the sequence is empty.
    """
    if value is None:
        raise TypeError(f"`{name}` must be a number or a sequence of numbers in (0, 1); "
                        "got None.")
    check_real_dtype(name, value)
    arr = np.atleast_1d(np.asarray(value, dtype=float))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"`{name}` must be a number or a non-empty 1-D sequence "
                         f"of numbers in (0, 1); got {value!r}.")
    bad = ~((arr > 0) & (arr < 1))
    if bad.any():
        raise ValueError(f"`{name}` must lie in the open interval (0, 1); "
                         f"got {arr[bad][0]!r}.")
    return arr


_KIND_WORDS = {"c": "complex numbers", "b": "booleans", "U": "strings", "S": "bytes",
               "O": "Python objects", "M": "dates", "m": "time spans", "V": "raw bytes"}


def check_real_dtype(name: str, value) -> None:
    """Refuse complex numbers, booleans, strings and objects where real numbers are
    expected, naming the parameter (numpy would drop an imaginary part or read
    ``True`` as 1 and ``"0.5"`` as 0.5 without a word).

    Raises
    ------
    TypeError
        If ``value``'s array form is not of an integer or floating dtype.
    """
    kind = getattr(value, "dtype", None)
    kind = kind.kind if kind is not None else None
    if kind is None:
        try:
            kind = np.asarray(value).dtype.kind
        except (TypeError, ValueError, RecursionError, MemoryError):
            kind = "O"
    if kind not in "iuf":
        what = _KIND_WORDS.get(kind, f"dtype kind {kind!r}")
        raise TypeError(f"`{name}` must hold real numbers (integers or floats); got "
                        f"{what}.")


def check_finite_array(name: str, value, *, min_ndim: int = 0) -> np.ndarray:
    """Return ``value`` as a float64 array if it is finite with ``ndim >= min_ndim``.

    Raises
    ------
    TypeError
        If ``value`` cannot be converted to a real float array.
    ValueError
        If it has fewer than ``min_ndim`` dimensions or holds NaN or inf.
    """
    check_real_dtype(name, value)
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"`{name}` must be an array of real numbers; got {value!r}.") from exc
    if arr.ndim < min_ndim:
        raise ValueError(f"`{name}` must have at least {min_ndim} dimension(s); "
                         f"got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        n_bad = int(np.sum(~np.isfinite(arr)))
        raise ValueError(f"`{name}` must be finite (no NaN or inf); got {n_bad} "
                         f"non-finite value(s).")
    return arr


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of ``choices``.

    Raises
    ------
    ValueError
        If ``value`` is not among ``choices``; the message lists them.
    """
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {sorted(choices)}; got {value!r}.")
    return value


def check_random_state(name: str, value, *, generator: bool = False):
    """Return ``value`` if it can seed calibsim's randomness: None, an integer >= 0 or a
    ``numpy.random.SeedSequence`` (with ``generator``, also a ``numpy.random.Generator``
    or ``BitGenerator``, whose stream then advances).

    The one check of every ``random_state``, ``rng`` and ``seed`` calibsim takes, so
    ``True``, ``1.5``, ``'a'`` and ``-1`` are refused with the parameter's name rather
    than read as 1 or failing inside numpy.

    Raises
    ------
    TypeError
        If ``value`` is another type (a float, a string, a bool, a legacy
        ``RandomState``; a Generator unless ``generator``).
    ValueError
        If it is a negative integer.

    Examples
    --------
    >>> check_random_state("random_state", 7)
    7
    >>> check_random_state("random_state", True)
    Traceback (most recent call last):
    ...
    TypeError: `random_state` must be None, a non-negative int or a numpy SeedSequence; got True of type bool.
    """
    if value is None or isinstance(value, np.random.SeedSequence):
        return value
    if generator and isinstance(value, (np.random.Generator, np.random.BitGenerator)):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        kinds = ("None, a non-negative int, a numpy SeedSequence or Generator" if generator
                 else "None, a non-negative int or a numpy SeedSequence")
        raise TypeError(f"`{name}` must be {kinds}; got {value!r} of type "
                        f"{type(value).__name__}.")
    if value < 0:
        raise ValueError(f"`{name}` must be None, a non-negative int (SeedSequence entropy) "
                         f"or a numpy SeedSequence; got {value!r}.")
    return int(value)


def memory_limit() -> int:
    """Bytes one computation may hold: ``CALIBSIM_MEMORY_LIMIT`` or half this machine's RAM.

    Raises
    ------
    ValueError
        If ``CALIBSIM_MEMORY_LIMIT`` is set but is not a positive number of bytes.
    """
    import os
    env = os.environ.get("CALIBSIM_MEMORY_LIMIT")
    if env:
        try:
            value = float(env)
        except ValueError:
            value = float("nan")
        if not value > 0 or not np.isfinite(value):
            raise ValueError("the environment variable CALIBSIM_MEMORY_LIMIT must be a positive "
                             f"number of bytes; got {env!r}.")
        return int(value)
    try:
        import psutil
        return int(psutil.virtual_memory().total // 2)
    except Exception:  # pragma: no cover - psutil comes with distributed
        return 8 * 2**30


def size_text(n_bytes: float) -> str:
    """Human-readable size: ``"2.0 TiB"``, ``"11.8 GiB"``, ``"3.1 MiB"``."""
    if n_bytes >= 2**40:
        return f"{n_bytes / 2**40:,.1f} TiB"
    if n_bytes >= 2**30:
        return f"{n_bytes / 2**30:.1f} GiB"
    return f"{n_bytes / 2**20:.1f} MiB"


def check_memory_estimate(parts, *, what: str = "this computation") -> int:
    """Fail before allocating when an estimate of the bytes needed exceeds the limit.

    Parameters
    ----------
    parts : list of (float, str, object, float)
        ``(bytes, parameter, value, power)``: an estimate of the bytes one part of
        the computation holds at once, the parameter (as the user writes it, e.g.
        ``sources.null.n_instances`` or ``--design``) that sizes it, that
        parameter's value and how the bytes grow with it (1 linear, 2 quadratic).
    what : str
        What is being estimated, for the message.

    Returns
    -------
    int
        The estimate in bytes (the sum of the parts), when it is within
        :func:`memory_limit`.

    Raises
    ------
    MemoryEstimateError
        If the estimate exceeds the limit; the message starts with the parameter
        that weighs most and gives the estimate, the limit and the value to lower
        the parameter to. It is a ``ValueError``; ``parameter`` holds the name.

    Examples
    --------
    >>> check_memory_estimate([(8e6, "n", 10**6, 1)])
    8000000
    >>> try:
    ...     check_memory_estimate([(8e15, "n", 10**15, 1)])
    ... except MemoryEstimateError as exc:
    ...     print(exc.parameter, "|", str(exc).split(" makes")[0])
    n | `n` = 1000000000000000
    """
    total = float(sum(p[0] for p in parts))
    limit = memory_limit()
    if total <= limit:
        return int(total)
    merged = {}                        # one part per parameter (grid sources share keys)
    for nbytes, param, value, power in parts:
        b = merged.get((param, repr(value)), (0.0, param, value, power))
        merged[(param, repr(value))] = (b[0] + nbytes, param, value, power)
    nbytes, param, value, power = max(merged.values(), key=lambda p: p[0])
    rest = total - nbytes
    hint = ""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and rest < limit:
        target = value * ((limit - rest) / nbytes) ** (1.0 / power)
        target = int(target) if float(value).is_integer() else float(f"{target:.3g}")
        if target >= 1:
            hint = f" to at most about {target:,}"
    raise MemoryEstimateError(
        param,
        f"`{param}` = {value!r} makes {what} need an estimated {size_text(total)} of memory "
        f"({size_text(nbytes)} of it from this parameter), more than the limit of "
        f"{size_text(limit)} (half this machine's memory, or the environment variable "
        f"CALIBSIM_MEMORY_LIMIT in bytes); lower it{hint}.")


class MemoryEstimateError(ValueError):
    """A computation would need more memory than the limit; raised before allocating.

    Attributes
    ----------
    parameter : str
        The parameter that weighs most in the estimate.
    """

    def __init__(self, parameter: str, message: str):
        super().__init__(message)
        self.parameter = parameter
