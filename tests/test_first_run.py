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
