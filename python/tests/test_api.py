"""The interface: parameters, options, results' dicts, continuation, the orbit diagram,
progress, pickling, threads."""

import json
import multiprocessing
import pickle
import threading
import time

import numpy as np
import pytest

import saltation

from conftest import MODELS


def test_params_and_with_params(walker):
    assert walker.params == {"gamma": 0.009}
    steeper = walker.with_params(gamma=0.012)
    assert steeper.params == {"gamma": 0.012} and walker.params == {"gamma": 0.009}
    assert walker.state_names and len(walker.state_names) == 4
    assert walker.guesses["stable (long-period) gait"] == [0.2, -0.2]
    assert walker.reduced_dim == 2 and walker.name == "simplest_walker"
    assert "guess" in saltation.Model.orbit.__doc__  # help() says what the arguments are


def test_from_str_equals_load(walker):
    text = (MODELS / "simplest_walker.ron").read_text()
    m = saltation.Model.from_str(text, origin="w.ron")
    assert m.orbit().to_dict()["x0"] == walker.orbit().to_dict()["x0"]
    assert m.origin == "w.ron"


def test_equation_model_from_str(walker):
    # The walker written as equations (text, not a path) has the built-in walker's gait.
    path = MODELS / "equations" / "simplest_walker.ron"
    m = saltation.Model.from_str(path.read_text(), origin="eq.ron")
    assert m.params == {"gamma": 0.009} and m.name == "simplest_walker_equations"
    o = m.orbit()
    np.testing.assert_allclose(o.x0, walker.orbit().x0, atol=1e-10)
    np.testing.assert_allclose(o.multipliers, walker.orbit().multipliers, atol=1e-9)


def test_orbit_options_change_the_solve(walker):
    loose = walker.orbit(rtol=1e-6, atol=1e-6, ftol=1e-6)
    tight = walker.orbit()
    assert 0 < np.max(np.abs(loose.x0 - tight.x0)) < 1e-4
    also = walker.orbit(stride={"ode": {"rtol": 1e-6, "atol": {"Scalar": 1e-6}}}, newton={"ftol": 1e-6})
    assert also.to_dict()["x0"] == loose.to_dict()["x0"]
    assert walker.orbit(method="radau5").stable


def test_orbit_dict_is_the_command_json(walker):
    d = walker.orbit().to_dict()
    json.dumps(d)
    assert set(d) >= {"params", "x0", "period", "multipliers", "stable", "residual",
                      "newton_iterations", "solve_seconds"}
    again = saltation.Orbit.from_dict(d)
    np.testing.assert_array_equal(again.multipliers, walker.orbit().multipliers)


def test_pickle_model_and_results(walker, ball):
    m = walker.with_params(gamma=0.011)
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.params == {"gamma": 0.011} and m2.text == m.text
    o = m.orbit()
    o2 = pickle.loads(pickle.dumps(o))
    assert o2 == o and o2.period == o.period
    np.testing.assert_array_equal(o2.multipliers, o.multipliers)
    assert m2.orbit().to_dict()["x0"] == o.to_dict()["x0"]
    s = ball.simulate(1.0)
    s2 = pickle.loads(pickle.dumps(s))
    np.testing.assert_array_equal(s2.y, s.y)
    e = pickle.loads(pickle.dumps(saltation.SimulationError("m", s)))
    assert str(e) == "m" and e.result == s


def _period(args):
    model, gamma = args
    return model.with_params(gamma=gamma).orbit().period


def test_multiprocessing_pool(walker):
    gammas = [0.008, 0.009, 0.010]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        got = pool.map(_period, [(walker, g) for g in gammas])
    assert got == [_period((walker, g)) for g in gammas]


@pytest.fixture(scope="module")
def cont():
    return saltation.Model.load(MODELS / "simplest_walker_continuation.ron")


def test_continuation_branches_and_progress(cont):
    events = []
    r = cont.continuation(to=0.012, progress=events.append)
    assert r.param == "gamma" and len(r.branches) >= 4
    b = r.branches[0]
    n = len(b)
    assert b.params.shape == (n,) and b.x0.shape == (n, 4) and b.multipliers.shape[0] == n
    assert b.multipliers.dtype == np.complex128 and b.stable.dtype == bool
    # Every point is an orbit of the model at its parameter: check one against a direct solve.
    k = n // 2
    direct = cont.with_params(gamma=float(b.params[k])).orbit(list(b.x0[k, :2]))
    np.testing.assert_allclose(direct.x0, b.x0[k], atol=1e-7)
    kinds = {e["event"] for e in events}
    assert {"branch_started", "point", "branch_done"} <= kinds
    assert pickle.loads(pickle.dumps(r)) == r


def test_continuation_finds_the_period_doubling(cont):
    r = cont.continuation(to=0.0165)
    pd = [b for b in r.bifurcations if b["kind"] == "period_doubling"]
    assert pd, r
    # Garcia et al. 1998: the stable gait period-doubles near γ ≈ 0.0151.
    assert abs(pd[0]["param"] - 0.0151) < 3e-4
    assert np.min(np.abs(pd[0]["multipliers"] + 1)) < 1e-3


def test_orbit_diagram_small(cont):
    events = []
    d = cont.orbit_diagram(start=0.014, stop=0.0145, count=4, progress=events.append)
    assert d.params.shape == (4,) and len(d.values) == 4
    assert events[0] == {"event": "diagram_started", "total": 4}
    assert sorted(e["done"] for e in events[1:]) == [1, 2, 3, 4]
    p, v = d.points()
    assert p.size == v.size


def test_callback_exception_is_raised(cont):
    def boom(_):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        cont.orbit_diagram(start=0.014, stop=0.0145, count=2, progress=boom)


def test_two_threads_run_in_parallel(walker):
    # The GIL is released during the solve: two threads take less than 0.8 × the time of the
    # same solves in series (on a machine with two cores or more). A thread counting meanwhile
    # shows it on any machine: it would stall while Rust held the GIL.
    import os

    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    models = [walker.with_params(gamma=g) for g in (0.0085, 0.0095)]
    t = time.perf_counter()
    models[0].orbit()
    one = time.perf_counter() - t
    reps = max(3, int(0.25 / one) + 1)  # about half a second of work in all

    def work(m):
        for _ in range(reps):
            m.orbit()

    t = time.perf_counter()
    for m in models:
        work(m)
    serial = time.perf_counter() - t
    ticks = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    threads = [threading.Thread(target=work, args=(m,)) for m in models]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    parallel = time.perf_counter() - t
    done.set()
    counter.join()
    # At most one tick per millisecond; with the GIL held throughout there would be ~none.
    assert ticks[0] > 0.1 * parallel / 0.001, (ticks[0], parallel)
    if cores < 2 or load > cores - 1:
        pytest.skip(f"speed not checked: {cores} core(s), load average {load:.1f} (busy)")
    assert parallel < 0.8 * serial, (parallel, serial)


def test_progress_with_tqdm(cont, capsys):
    pytest.importorskip("tqdm")
    d = cont.orbit_diagram(start=0.014, stop=0.0145, count=3, progress=True)
    assert d.params.size == 3
    assert "orbit diagram" in capsys.readouterr().err


# -- multipliers single shooting cannot resolve ------------------------------------------------


def test_orbit_multiplier_accuracy(models):
    # The compass gait at 5.5° with twelve steps per stride (largest multiplier ≈ 2970): its
    # second and third multipliers are below max(rtol, ε)·‖P_x‖_F, as the `orbit` command says;
    # the one-step gait at 3° has none (None).
    text = (models / "equations" / "compass_gait.ron").read_text()
    for old, new in [
        ('(name: "phi", value: 0.05235987755982989,', '(name: "phi", value: 0.09599310885968812,'),
        ("events_per_stride: 1,", "events_per_stride: 12,"),
        ("t_max: 5.0,", "t_max: 100.0,"),
        ("u: [0.2187, -0.3774, -1.0924]",
         "u: [0.23738164454414282, 0.03742899689063299, -1.178703035353069]"),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    twelve = saltation.Model.from_str(text).orbit()
    acc = twelve.multiplier_accuracy
    assert acc is not None and acc["unresolved"] == [1, 2]
    assert acc == twelve.to_dict()["multiplier_accuracy"]
    assert "--shooting phases" in acc["advice"]
    mods = np.abs(twelve.multipliers)
    assert all(mods[i] <= acc["error_bound"] for i in acc["unresolved"])
    assert mods[0] > acc["error_bound"]
    one = saltation.Model.load(models / "equations" / "compass_gait.ron").orbit()
    assert one.multiplier_accuracy is None
