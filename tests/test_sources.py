import numpy as np
import pytest

from calibsim.sources import NullSource


def test_shapes_and_codes():
    X, y = NullSource(n_instances=50, n_attributes=4).sample(rng=1)
    assert X.shape == (50, 4) and y.shape == (50,)
    assert X.dtype == np.int64 and y.dtype == np.int64 and X.flags.c_contiguous
    assert set(np.unique(X)) <= {0, 1} and set(np.unique(y)) <= {0, 1}


def test_same_seed_same_data_and_stream_order_pinned():
    a = NullSource().sample(rng=np.random.SeedSequence(7))
    b = NullSource().sample(rng=np.random.SeedSequence(7))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    # regression pin: the order of draws (attribute probabilities, attributes, class) is fixed
    g = np.random.default_rng(7)
    p = g.random(10)
    X = (g.random((300, 10)) < p).astype(np.int64)
    y = (g.random(300) < 0.5).astype(np.int64)
    assert np.array_equal(a[0], X) and np.array_equal(a[1], y)


def test_class_prior_within_monte_carlo_error():
    src = NullSource(n_instances=20_000, n_attributes=1, class_prior=0.3)
    _, y = src.sample(rng=3)
    se = np.sqrt(0.3 * 0.7 / y.size)
    assert abs(y.mean() - 0.3) < 4 * se


def test_attribute_probabilities_uniform():
    # P(1) ~ U(0, 1) per attribute: across many attributes the marginal P(1) is 1/2
    X, _ = NullSource(n_instances=2, n_attributes=20_000).sample(rng=4)
    p_hat = X[0].mean()                 # one draw per attribute: E = 1/2, var = 1/4 (uniform p)
    assert abs(p_hat - 0.5) < 4 * np.sqrt(0.25 / X.shape[1])


@pytest.mark.parametrize("kw, match", [
    ({"n_instances": 1}, "`n_instances` must be an integer >= 2; got 1"),
    ({"n_attributes": 0}, "`n_attributes` must be an integer >= 1; got 0"),
    ({"class_prior": 1.0}, r"`class_prior` must lie in \(0, 1\); got 1.0"),
    ({"class_prior": float("nan")}, r"`class_prior` must lie in \(0, 1\)"),
])
def test_bad_parameters(kw, match):
    with pytest.raises(ValueError, match=match):
        NullSource(**kw)


def test_bad_type():
    with pytest.raises(TypeError, match="`n_instances` must be an integer"):
        NullSource(n_instances=300.0)


def test_a_dataset_source_takes_one_class_against_the_rest_and_subsamples():
    """``positive_class`` (one vs rest, in the identity) and ``subsample`` (a new random
    subsample of floor(share x n) instances per index, drawn from the index's rng)."""
    import numpy as np

    from calibsim.sources import DatasetSource
    src = DatasetSource("glass", positive_class="headlamps")
    assert src.n_classes == 2 and src.dataset.class_values == ("headlamps", "rest")
    assert np.bincount(src.dataset.y).tolist() == [29, 185]
    assert "positive_class=headlamps" in src.identity
    half = DatasetSource("glass", positive_class="headlamps", subsample=0.5)
    X1, y1 = half.sample(np.random.SeedSequence(7))
    X2, y2 = half.sample(np.random.SeedSequence(7))
    X3, _ = half.sample(np.random.SeedSequence(8))
    assert X1.shape == (107, 9) and (X1 == X2).all() and (y1 == y2).all()
    assert not (X1 == X3).all()
    rows = [np.flatnonzero((src.dataset.X == x).all(1))[0] for x in X1[:5]]
    assert rows == sorted(rows)                 # kept in the data set's order
    assert half.identity != src.identity and "subsample=0.5" in half.identity
    assert DatasetSource("glass", subsample=1.0).identity == DatasetSource("glass").identity
    with pytest.raises(ValueError, match="`rng` is required"):
        half.sample()
    with pytest.raises(ValueError, match=r"`subsample` must be a share .* got 0"):
        DatasetSource("glass", subsample=0)
    with pytest.raises(ValueError, match="did you mean 'headlamps'"):
        DatasetSource("glass", positive_class="headlamp")
