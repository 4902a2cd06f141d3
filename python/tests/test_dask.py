"""saltation.dask on a distributed.LocalCluster(n_workers=2): the map equals the serial
result."""

import numpy as np
import pytest

import saltation

distributed = pytest.importorskip("distributed")

import saltation.dask  # noqa: E402
from conftest import MODELS  # noqa: E402
from saltation.dask import map_params  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def test_map_params_equals_serial(walker, client):
    gammas = np.linspace(0.006, 0.012, 6)
    got = map_params(walker, "gamma", gammas, client=client)
    serial = [walker.with_params(gamma=float(g)).orbit() for g in gammas]
    assert [o.to_dict()["x0"] for o in got] == [o.to_dict()["x0"] for o in serial]
    assert all(isinstance(o, saltation.Orbit) for o in got)


def test_map_params_errors_returned(walker, client):
    # Far from the gait at γ = 0.1 Newton fails: the error takes the value's place.
    got = map_params(walker, "gamma", [0.009, 0.5], client=client, errors="return")
    assert isinstance(got[0], saltation.Orbit)
    assert isinstance(got[1], saltation.Error)


def test_map_params_bad_input(walker):
    with pytest.raises(saltation.ParamError, match="did you mean `gamma`"):
        map_params(walker, "gama", [0.01])
    with pytest.raises(saltation.ArgumentError):
        map_params(walker, "gamma", [0.01], fn="nope")
    with pytest.raises(saltation.ArgumentTypeError):
        map_params(walker, "gamma", ["0.01"])


def test_map_params_local_scheduler(walker):
    got = map_params(walker, "gamma", [0.009], fn="orbit")
    assert got[0].to_dict()["x0"] == walker.orbit().to_dict()["x0"]


def test_dask_basin_equals_the_serial_basin(walker, client):
    axes = "u0=0.15:0.25:8,u1=-0.3:-0.1:6"
    serial = walker.basin(axes=axes, strides=30)
    on_dask = saltation.dask.basin(walker, axes=axes, shards=3, client=client, strides=30)
    np.testing.assert_array_equal(on_dask.cells, serial.cells)
    assert on_dask.to_dict() == serial.to_dict()


def test_dask_basin_without_a_cluster(walker):
    serial = walker.basin(axes="u0=0.18:0.22:5", strides=10)
    assert saltation.dask.basin(walker, axes="u0=0.18:0.22:5", shards=2, strides=10) == serial


def test_dask_basin_bad_input(walker):
    with pytest.raises(saltation.ArgumentError, match="shards=0"):
        saltation.dask.basin(walker, axes="u0=0.18:0.22:5", shards=0)
    with pytest.raises(saltation.ArgumentError, match="shard: not an option"):
        saltation.dask.basin(walker, axes="u0=0.18:0.22:5", shard=(0, 2))
    with pytest.raises(saltation.ArgumentTypeError):
        saltation.dask.basin("walker", axes="u0=0.18:0.22:5")


MFPT = dict(
    param="alpha",
    distribution="normal(0.2,0.1)",
    mesh="dth=0.05:1:21",
    samples=20,
    runs=40,
    max_steps=300,
    seed=3,
)


def test_dask_mfpt_equals_the_serial_mfpt(client):
    wheel = saltation.Model.load(MODELS / "equations" / "rimless_wheel_rough.ron")
    serial = wheel.mfpt(**MFPT)
    on_dask = saltation.dask.mfpt(wheel, shards=3, client=client, **MFPT)
    assert on_dask.to_dict() == serial.to_dict()
    np.testing.assert_array_equal(on_dask.chain_mfpt, serial.chain_mfpt)
    assert saltation.dask.mfpt(wheel, shards=2, **MFPT).to_dict() == serial.to_dict()
    with pytest.raises(saltation.ArgumentError, match="shard: not an option of saltation.dask.mfpt"):
        saltation.dask.mfpt(wheel, shard=(0, 2), **MFPT)
    with pytest.raises(saltation.ArgumentError, match="shards=0"):
        saltation.dask.mfpt(wheel, shards=0, **MFPT)
