"""The first run on a cold numba cache says what it compiles (issue 36)."""

import numba

from calibsim.cli._main import _compile_progress


def test_each_compiled_kernel_is_reported_with_its_time(capsys):
    @numba.njit
    def _kernel_for_this_test(x):
        return x + 1

    with _compile_progress():
        assert _kernel_for_this_test(1) == 2
    err = capsys.readouterr().err
    assert err.count("calibsim: compiled") == 1, err
    assert "_kernel_for_this_test" in err and err.rstrip().endswith(" s"), err
    _kernel_for_this_test(2.5)                      # after the block: no listener left
    assert capsys.readouterr().err == ""


def test_the_command_line_parser_imports_no_numerical_library():
    """Building the parser (every ``--help``, every command's start) imports what the
    command line needs, not numpy, pandas or scipy (issue 46: the parser used to import
    the register of differences, and with it all three)."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    code = ("import sys; from calibsim.cli._main import _parser; _parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'pandas', 'scipy'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         env={"PATH": "", "PYTHONPATH": str(root)}, check=True).stdout
    assert out.strip() == "[]", out
