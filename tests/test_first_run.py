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


def test_a_study_of_built_in_learners_imports_no_torch(tmp_path):
    """Loading a study (the main process, and a worker that builds its learners) takes
    calibsim's own classes directly: the allow-list of user specs, built from all of
    scikit-learn, imported torch where it was installed (issue 46). A stand-in torch
    on the path records any import of it."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(
        "open(__file__ + '.imported', 'w').close()\nraise ImportError('stand-in')\n")
    code = ("import sys; from calibsim.engine import load_study; "
            "s = load_study('studies/bouckaert2003_figure2.toml'); "
            "[lrn.make() for lrn in s.learners]; "
            "from calibsim.engine._safe_spec import _catalog; print(_catalog.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         env={"PATH": "", "PYTHONPATH": f"{tmp_path}:{root}"}, check=True).stdout
    assert out.strip() == "0", out
    assert not (tmp_path / "torch" / "__init__.py.imported").exists()


def test_loading_a_study_and_fitting_built_in_learners_imports_no_scikit_learn(tmp_path):
    """A study of built-in learners with their defaults is loaded (the main process)
    without importing scikit-learn, and its cells are fitted (a worker, which unpickles
    a cell: numba kernels only) without scikit-learn, scipy.stats or pandas: they were
    most of each worker's start-up (issue 46)."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    cell = tmp_path / "cell.pickle"
    main = ("import pickle, sys; from calibsim.engine import load_study; "
            "from calibsim.engine.cells import CellSpec; "
            "s = load_study('studies/bouckaert2003_figure2.toml', n_datasets=1); "
            "src = s.sources[0]; "
            f"open({str(cell)!r}, 'wb').write(pickle.dumps(CellSpec(src, s.learners_of(src), "
            "s.schemes, 0, 1))); print('sklearn' in sys.modules)")
    worker = ("import pickle, sys; from calibsim.engine.cells import run_cell; "
              f"out = run_cell(pickle.loads(open({str(cell)!r}, 'rb').read())); "
              "print(out['cv']['correct'].shape, "
              "sorted({'sklearn', 'pandas', 'scipy.stats'} & set(sys.modules)))")
    env = {"PATH": "", "PYTHONPATH": str(root)}
    out = [subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          env=env, check=True).stdout.strip() for code in (main, worker)]
    assert out == ["False", "(1, 2, 100, 10) []"], out
