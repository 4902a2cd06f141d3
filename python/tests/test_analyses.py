"""Model.curve, Model.basin (and its shards), merge_basins, Model.lyapunov, Model.sensitivity,
Model.mfpt (and its shards):
identical to the `saltation` command's JSON, arrays equal to the JSON's numbers with the promised
dtypes and shapes, checked against closed forms and second methods, picklable, bad arguments
refused with the command's messages."""

import json
import math
import pickle
import subprocess

import numpy as np
import pytest

import saltation
from conftest import MODELS
from test_references import _cli

needs_cli = pytest.mark.skipif(_cli() is None, reason="the saltation command is not built")

TABLE = MODELS / "equations" / "vibrating_table.ron"
WALKER = MODELS / "simplest_walker.ron"
AXES = "u0=0.15:0.25:8,u1=-0.3:-0.1:6"
ROUGH = MODELS / "equations" / "rimless_wheel_rough.ron"
MFPT = dict(param="alpha", distribution="normal(0.2,0.1)", mesh="dth=0.05:1:21", samples=20,
            runs=40, max_steps=300, seed=3)
MFPT_FLAGS = ["--param", "alpha", "--distribution", "normal(0.2,0.1)", "--mesh",
              "dth=0.05:1:21", "--samples", "20", "--runs", "40", "--max-steps", "300",
              "--seed", "3"]


def run_cli(*args):
    out = subprocess.run([str(_cli()), *map(str, args)], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def table():
    return saltation.Model.load(TABLE)


@pytest.fixture(scope="module")
def pd_curve(table):
    return table.curve("period_doubling", "Gamma", "e", 0.6)


@pytest.fixture(scope="module")
def rough():
    return saltation.Model.load(ROUGH)


@pytest.fixture(scope="module")
def mfpt(rough):
    return rough.mfpt(**MFPT)


@pytest.fixture(scope="module")
def basin(walker):
    return walker.basin(axes=AXES, strides=30)


# -- curve --------------------------------------------------------------------------------


def test_curve_follows_the_closed_form(pd_curve):
    # The period-1 orbit of the ball on the vibrating table flips at
    # Γ² = ((1 − e)π/(1 + e))² + (2(1 + e²)/(1 + e)²)² (Luo & Han 1996; the model file).
    g, e = pd_curve.params[:, 0], pd_curve.params[:, 1]
    closed = np.sqrt(((1 - e) * np.pi / (1 + e)) ** 2 + (2 * (1 + e**2) / (1 + e) ** 2) ** 2)
    np.testing.assert_allclose(g, closed, rtol=0, atol=1e-9)
    assert pd_curve.end_reason == "reached" and e[-1] == 0.6
    # A multiplier at −1 all along.
    assert np.all(np.min(np.abs(pd_curve.multipliers + 1), axis=1) < 1e-8)


def test_curve_arrays_match_its_dict(pd_curve):
    d = pd_curve.to_dict()
    n = len(d["points"])
    assert pd_curve.params.shape == (n, 2) and pd_curve.params.dtype == np.float64
    assert pd_curve.x0.dtype == np.float64 and pd_curve.x0.shape[0] == n
    assert pd_curve.multipliers.dtype == np.complex128 and pd_curve.multipliers.shape[0] == n
    assert pd_curve.params.tolist() == [p["params"] for p in d["points"]]
    assert pd_curve.x0.tolist() == [p["x0"] for p in d["points"]]
    assert pd_curve.period.tolist() == [p["period"] for p in d["points"]]
    mus = [[complex(m["re"], m["im"]) for m in p["multipliers"]] for p in d["points"]]
    assert pd_curve.multipliers.tolist() == mus
    assert pd_curve.param_names == ["Gamma", "e"] and len(pd_curve) == n
    # Rebuilt from the dict alone: the same arrays.
    again = saltation.Curve.from_dict(d)
    np.testing.assert_array_equal(again.params, pd_curve.params)
    np.testing.assert_array_equal(again.multipliers, pd_curve.multipliers)


@needs_cli
def test_curve_is_identical_to_the_command(pd_curve, tmp_path):
    cli = run_cli("curve", TABLE, "--kind", "period_doubling", "--param", "Gamma", "--param2", "e",
                  "--to2", "0.6", "--json", "--out", tmp_path)
    assert pd_curve.to_dict() == cli


@needs_cli
def test_curve_by_multiple_shooting_is_the_command_and_the_closed_form(table, pd_curve, tmp_path):
    # Three pieces per phase: the defining system bordered on the lifted cyclic matrix.
    c = table.curve("period_doubling", "Gamma", "e", 0.6, shooting=3)
    cli = run_cli("curve", TABLE, "--kind", "period_doubling", "--param", "Gamma", "--param2", "e",
                  "--to2", "0.6", "--shooting", "3", "--json", "--out", tmp_path)
    assert c.to_dict() == cli
    g, e = c.params[:, 0], c.params[:, 1]
    closed = np.sqrt(((1 - e) * np.pi / (1 + e)) ** 2 + (2 * (1 + e**2) / (1 + e) ** 2) ** 2)
    np.testing.assert_allclose(g, closed, rtol=0, atol=1e-9)
    assert c.end_reason == "reached" and e[-1] == 0.6
    assert abs(g[-1] - pd_curve.params[-1, 0]) < 1e-9
    # `phases` (one segment per phase here) is accepted too.
    assert table.curve("period_doubling", "Gamma", "e", 0.6, shooting="phases").end_reason \
        == "reached"


def test_curve_shooting_bad_arguments(table):
    for bad in (True, 1.5, [3], {"n": 3}):
        with pytest.raises(saltation.ArgumentTypeError, match="shooting="):
            table.curve("period_doubling", "Gamma", "e", 0.6, shooting=bad)
    with pytest.raises(saltation.ArgumentError, match="shooting.*not `single`, `phases`"):
        table.curve("period_doubling", "Gamma", "e", 0.6, shooting="sometimes")
    with pytest.raises(saltation.ArgumentError, match="shooting"):
        table.curve("period_doubling", "Gamma", "e", 0.6, shooting=0)
    with pytest.raises(saltation.ArgumentError, match="shooting"):
        table.curve("period_doubling", "Gamma", "e", 0.6, shooting=1001)


def test_curve_options_and_progress(table, pd_curve):
    events = []
    c = table.curve("period_doubling", "Gamma", "e", 0.6, step=0.005, max_step=0.005,
                    progress=events.append)
    # Smaller steps: more points on the same curve.
    assert len(c) > len(pd_curve) and c.end_reason == "reached"
    assert c.params[-1].tolist() == pd_curve.params[-1].tolist() or \
        abs(c.params[-1, 0] - pd_curve.params[-1, 0]) < 1e-9
    assert {e["event"] for e in events} == {"curve"} and events[-1]["points"] == len(c)
    with pytest.raises(saltation.ArgumentError, match="must be at least step"):
        table.curve("period_doubling", "Gamma", "e", 0.6, max_step=0.005)


def test_curve_bad_arguments(table):
    with pytest.raises(saltation.ArgumentError, match="--kind flop: one of fold"):
        table.curve("flop", "Gamma", "e", 0.6)
    with pytest.raises(saltation.ArgumentError, match="unknown field `stepp`"):
        table.curve("period_doubling", "Gamma", "e", 0.6, stepp=0.1)
    with pytest.raises(saltation.ArgumentError, match="no length"):
        table.curve("period_doubling", "Gamma", "e", 0.5)
    with pytest.raises(saltation.ArgumentError, match="not a finite number"):
        table.curve("period_doubling", "Gamma", "e", float("nan"))
    with pytest.raises(saltation.ArgumentTypeError):
        table.curve("period_doubling", "Gamma", 3, 0.6)
    with pytest.raises(saltation.Error, match="param2"):
        table.curve("period_doubling", "Gamma", "ee", 0.6)


def test_curve_pickles(pd_curve):
    again = pickle.loads(pickle.dumps(pd_curve))
    assert again == pd_curve
    np.testing.assert_array_equal(again.params, pd_curve.params)


# -- basin --------------------------------------------------------------------------------


def test_basin_arrays(basin):
    d = basin.to_dict()
    assert basin.cells.dtype == np.int64 and basin.cells.shape == (8, 6)
    assert basin.cells.ravel().tolist() == d["cells"]  # row-major as the JSON
    assert len(basin.attractors) >= 1
    a = basin.attractors[0]
    assert a["x0"].dtype == np.float64 and a["multipliers"].dtype == np.complex128
    assert a["x0"].tolist() == d["attractors"][0]["x0"]
    assert sum(basin.fractions.values()) == pytest.approx(1.0, abs=1e-12)
    ids, counts = np.unique(basin.cells, return_counts=True)
    for i, c in zip(ids.tolist(), counts.tolist()):
        key = {-1: "failed", -2: "undecided"}.get(i, i)
        assert basin.fractions[key] == c / basin.cells.size


def test_basin_axes_forms_agree(walker, basin):
    by_dict = walker.basin(axes={"u0": (0.15, 0.25, 8), "u1": (-0.3, -0.1, 6)}, strides=30)
    by_list = walker.basin(axes=[("u0", 0.15, 0.25, 8), ("u1", -0.3, -0.1, 6)], strides=30)
    assert by_dict == basin and by_list == basin


@needs_cli
def test_basin_is_identical_to_the_command(basin, tmp_path):
    cli = run_cli("basin", WALKER, "--axes", AXES, "--strides", "30", "--json", "--out", tmp_path)
    assert basin.to_dict() == cli


def test_shards_merge_to_the_whole_basin(walker, basin):
    parts = [walker.basin(axes=AXES, strides=30, shard=(i, 3)) for i in range(3)]
    assert all(isinstance(p, saltation.BasinShard) for p in parts)
    merged = saltation.merge_basins(parts[::-1])
    assert merged == basin
    np.testing.assert_array_equal(merged.cells, basin.cells)
    # Shards pickle (they travel back from workers).
    assert pickle.loads(pickle.dumps(parts[0])) == parts[0]


@needs_cli
def test_python_shards_merge_with_the_command(walker, basin, tmp_path):
    for i in range(2):
        walker.basin(axes=AXES, strides=30, shard=(i, 2)).save(tmp_path, "simplest_walker")
    cli = run_cli("merge", tmp_path, "--json", "--out", tmp_path / "out")
    assert cli == basin.to_dict()


def test_shards_at_other_parameters_carry_them(walker):
    steep = walker.with_params(gamma=0.0095)
    whole = steep.basin(axes="u0=0.18:0.22:4", strides=20)
    parts = [steep.basin(axes="u0=0.18:0.22:4", strides=20, shard=(i, 2)) for i in range(2)]
    assert saltation.merge_basins(parts) == whole


def test_merge_refuses_mixed_or_missing_shards(walker):
    a = walker.basin(axes=AXES, strides=30, shard=(0, 2))
    b = walker.basin(axes=AXES, strides=30, shard=(1, 2))
    with pytest.raises(saltation.ArgumentError, match=r"shard\(s\) 1 of 2 missing"):
        saltation.merge_basins([a])
    with pytest.raises(saltation.ArgumentError, match=r"parts\[1\]: shard 0/2 twice"):
        saltation.merge_basins([a, a, b])
    other = walker.basin(axes=AXES, strides=31, shard=(1, 2))
    with pytest.raises(saltation.ArgumentError, match="belongs to another run"):
        saltation.merge_basins([a, other])
    with pytest.raises(saltation.ArgumentError, match="not a basin shard file"):
        saltation.merge_basins(["{}"])
    with pytest.raises(saltation.ArgumentTypeError):
        saltation.merge_basins([1])


def test_basin_bad_arguments(walker):
    with pytest.raises(saltation.ArgumentError, match="unknown section coordinate `u7`"):
        walker.basin(axes="u7=0:1:3")
    with pytest.raises(saltation.ArgumentError, match="i must be below N"):
        walker.basin(axes=AXES, shard=(2, 2))
    with pytest.raises(saltation.ArgumentError, match="must be at least 0"):
        walker.basin(axes=AXES, strides=-1)
    with pytest.raises(saltation.ArgumentError, match="--strides"):
        walker.basin(axes=AXES, strides=0)
    with pytest.raises(saltation.ArgumentError, match="not a finite number"):
        walker.basin(axes={"u0": (0.1, float("inf"), 3)})
    with pytest.raises(saltation.ArgumentError, match="already given"):
        walker.basin(axes="u0=0.15:0.25:3", at={"u0": 0.2})
    with pytest.raises(saltation.ArgumentTypeError):
        walker.basin(axes=AXES, shard=1)
    with pytest.raises(saltation.ArgumentTypeError):
        walker.basin(axes=3)


def test_basin_progress(walker):
    events = []
    walker.basin(axes="u0=0.18:0.22:5", strides=10, progress=events.append)
    assert events[0] == {"event": "basin_started", "total": 5}
    assert events[-1]["event"] == "basin" and events[-1]["done"] == 5


def test_basin_pickles(basin):
    again = pickle.loads(pickle.dumps(basin))
    assert again == basin
    np.testing.assert_array_equal(again.cells, basin.cells)


# -- Lyapunov exponents -----------------------------------------------------------------


def test_lyapunov_at_the_orbit_is_log_of_the_multipliers(walker):
    # At a periodic orbit the exponents' sum is ln|μ₁μ₂|/T, the reduced multipliers' product
    # (the walker's are a complex pair, the full state's other two are zero).
    s = walker.sensitivity("gamma")
    o = walker.orbit()
    mus = sorted(o.multipliers, key=abs, reverse=True)[:2]
    expected = sum(math.log(abs(m)) for m in mus) / o.period
    ly = walker.lyapunov(strides=400, guess=s.u0)
    assert ly.exponents.dtype == np.float64 and ly.exponents.shape == (2,)
    assert ly.exponents.sum() == pytest.approx(expected, abs=1e-6)
    assert ly.strides == 400 and ly.time == pytest.approx(400 * o.period, rel=1e-9)
    np.testing.assert_allclose(ly.per_stride, ly.exponents * o.period, rtol=1e-9)


@needs_cli
def test_lyapunov_is_identical_to_the_command(walker):
    cli = run_cli("lyapunov", WALKER, "--strides", "50", "--guess", "0.2,-0.2", "--json")
    mine = walker.lyapunov(strides=50, guess=[0.2, -0.2])
    assert mine.to_dict() == cli
    assert mine.exponents.tolist() == cli["exponents"]
    assert pickle.loads(pickle.dumps(mine)) == mine


def test_lyapunov_bad_arguments(walker):
    with pytest.raises(saltation.ArgumentError, match="--strides 0"):
        walker.lyapunov(strides=0)
    with pytest.raises(saltation.ArgumentError, match="has 1 value"):
        walker.lyapunov(guess=[0.2])
    with pytest.raises(saltation.ArgumentTypeError):
        walker.lyapunov(strides=1.5)


# -- gait sensitivity ---------------------------------------------------------------------


def test_sensitivity_impulse_response_from_its_linearisation(walker):
    s = walker.sensitivity("gamma")
    assert s.impulse_response.shape == (s.strides, 1)
    assert s.a.shape == (2, 2) and s.b.shape == (2,) and s.c.shape == (1, 2)
    # y₀ = D, y_k = C A^(k−1) B: recomputed from the linearisation with numpy.
    y, x = [s.d[0]], s.b.copy()
    for _ in range(s.strides - 1):
        y.append((s.c @ x)[0])
        x = s.a @ x
    np.testing.assert_allclose(s.impulse_response[:, 0], y, rtol=1e-12, atol=1e-14)
    assert s.norm == pytest.approx(math.sqrt(float(np.sum(s.impulse_response**2))), rel=1e-12)
    # The discrete Lyapunov equation: a second method for the same norm.
    assert s.lyapunov_norm == pytest.approx(s.norm, rel=1e-6)
    assert s.spectral_radius == pytest.approx(max(abs(np.linalg.eigvals(s.a))), rel=1e-12)


@needs_cli
def test_sensitivity_is_identical_to_the_command(walker):
    cli = run_cli("sensitivity", WALKER, "--disturbance", "gamma", "--json")
    mine = walker.sensitivity("gamma")
    assert mine.to_dict() == cli
    assert pickle.loads(pickle.dumps(mine)) == mine


def test_sensitivity_bad_arguments(walker):
    with pytest.raises(saltation.ArgumentError, match="--disturbance gama"):
        walker.sensitivity("gama")
    with pytest.raises(saltation.ArgumentError):
        walker.sensitivity("gamma", guess=[0.2])
    with pytest.raises(saltation.ArgumentTypeError):
        walker.sensitivity(0.1)


# -- mean first-passage time ----------------------------------------------------------------


@needs_cli
def test_mfpt_is_identical_to_the_command(mfpt, tmp_path):
    cli = run_cli("mfpt", ROUGH, *MFPT_FLAGS, "--json", "--out", tmp_path)
    assert mfpt.to_dict() == cli


@needs_cli
def test_mfpt_roughness_sweep_is_identical_to_the_command(rough, tmp_path):
    r = rough.mfpt(**{**MFPT, "runs": 10}, roughness=[0.08, 0.12])
    flags = [f if f != "40" else "10" for f in MFPT_FLAGS]
    cli = run_cli("mfpt", ROUGH, *flags, "--roughness", "0.08,0.12", "--json", "--out",
                  tmp_path)
    assert r.to_dict() == cli
    # The string form writes the same flag.
    assert rough.mfpt(**{**MFPT, "runs": 10}, roughness="0.08,0.12") == r
    np.testing.assert_array_equal(r.roughness, [0.08, 0.12])
    # A rougher ground fails sooner.
    assert r.chain_mfpt[1] < r.chain_mfpt[0]


def test_mfpt_arrays_match_its_dict(mfpt):
    d = mfpt.to_dict()
    (lv,) = d["levels"]
    for name in ("roughness", "chain_mfpt", "chain_lambda2", "chain_expected_steps",
                 "mc_mean"):
        a = getattr(mfpt, name)
        assert a.dtype == np.float64 and a.shape == (1,), name
    assert mfpt.mc_ci.dtype == np.float64 and mfpt.mc_ci.shape == (1, 2)
    assert mfpt.roughness[0] == lv["sd"] == 0.1
    assert mfpt.chain_mfpt[0] == lv["chain"]["mfpt"]
    assert mfpt.chain_lambda2[0] == lv["chain"]["lambda2"]
    # mfpt is 1/(1 − λ₂) (the chain's definition).
    assert lv["chain"]["mfpt"] == pytest.approx(1 / (1 - lv["chain"]["lambda2"]), rel=1e-12)
    assert mfpt.chain_expected_steps[0] == lv["chain"]["expected_steps"]
    assert mfpt.mc_mean[0] == lv["monte_carlo"]["mean"]
    assert mfpt.mc_ci[0].tolist() == lv["monte_carlo"]["ci"]
    lo, hi = mfpt.mc_ci[0]
    assert lo <= mfpt.mc_mean[0] <= hi
    # Rebuilt from the dict alone (no extension arrays): the same arrays.
    again = saltation.Mfpt.from_dict(d)
    np.testing.assert_array_equal(again.mc_ci, mfpt.mc_ci)
    np.testing.assert_array_equal(again.chain_mfpt, mfpt.chain_mfpt)
    assert mfpt.nominal["param_value"] == 0.2


def test_mfpt_distribution_forms_agree(rough, mfpt):
    assert rough.mfpt(**{**MFPT, "distribution": ("normal", 0.2, 0.1)}) == mfpt
    assert rough.mfpt(**{**MFPT, "mesh": {"dth": (0.05, 1, 21)}}) == mfpt


def test_mfpt_pickles(mfpt):
    again = pickle.loads(pickle.dumps(mfpt))
    assert again == mfpt
    np.testing.assert_array_equal(again.mc_ci, mfpt.mc_ci)


@needs_cli
def test_mfpt_python_shards_merge_with_the_command(rough, mfpt, tmp_path):
    parts = [rough.mfpt(**MFPT, shard=(i, 3)) for i in range(3)]
    assert all(isinstance(p, saltation.MfptShard) for p in parts)
    assert pickle.loads(pickle.dumps(parts[1])) == parts[1]
    for p in parts:
        p.save(tmp_path, "rimless_wheel_rough")
    cli = run_cli("merge", tmp_path, "--json", "--out", tmp_path / "out")
    assert cli == mfpt.to_dict()


def test_mfpt_shards_merge_to_the_whole_result(rough, mfpt):
    parts = [rough.mfpt(**MFPT, shard=(i, 3)) for i in range(3)]
    merged = saltation.merge_mfpt(parts[::-1])
    assert merged == mfpt
    np.testing.assert_array_equal(merged.mc_ci, mfpt.mc_ci)
    assert saltation.merge_mfpt([p.text for p in parts]) == mfpt


def test_merge_mfpt_refuses_mixed_or_missing_shards(rough):
    a = rough.mfpt(**MFPT, shard=(0, 2))
    b = rough.mfpt(**MFPT, shard=(1, 2))
    with pytest.raises(saltation.ArgumentError, match=r"shard\(s\) 1 of 2 missing"):
        saltation.merge_mfpt([a])
    with pytest.raises(saltation.ArgumentError, match=r"parts\[1\]: shard 0/2 twice"):
        saltation.merge_mfpt([a, a, b])
    other = rough.mfpt(**{**MFPT, "seed": 4}, shard=(1, 2))
    with pytest.raises(saltation.ArgumentError, match="belongs to another run"):
        saltation.merge_mfpt([a, other])
    with pytest.raises(saltation.ArgumentError, match="not an mfpt shard file"):
        saltation.merge_mfpt(["{}"])
    with pytest.raises(saltation.ArgumentError, match="no shard files"):
        saltation.merge_mfpt([])
    with pytest.raises(saltation.ArgumentTypeError):
        saltation.merge_mfpt([1])
    with pytest.raises(saltation.ArgumentTypeError):
        saltation.merge_mfpt(a)


def test_mfpt_progress(rough):
    events = []
    rough.mfpt(**{**MFPT, "runs": 5}, progress=events.append)
    assert events[0] == {"event": "mfpt_started", "level": 0, "sd": 0.1, "part": "chain",
                         "total": 21}
    starts = [e for e in events if e["event"] == "mfpt_started"]
    assert [e["part"] for e in starts] == ["chain", "monte_carlo"]
    assert starts[1]["total"] == 5
    assert events[-1] == {"event": "mfpt", "done": 5, "total": 5}


@needs_cli
def test_mfpt_no_nominal_orbit_is_an_mfpt_error_with_the_commands_message(rough):
    # At a mean slope of −0.3 the wheel stalls before the top: no nominal orbit.
    args = {**MFPT, "distribution": "normal(-0.3,0.01)", "samples": 5, "runs": 5}
    with pytest.raises(saltation.MfptError, match="no periodic orbit from guess") as e:
        rough.mfpt(**args)
    flags = [f if f != "normal(0.2,0.1)" else "normal(-0.3,0.01)" for f in MFPT_FLAGS]
    flags = [{"20": "5", "40": "5"}.get(f, f) for f in flags]
    out = subprocess.run([str(_cli()), "mfpt", str(ROUGH), *flags], capture_output=True,
                         text=True)
    assert out.returncode != 0
    assert out.stderr.strip() == f"error: {e.value}"


def test_mfpt_bad_arguments(rough):
    with pytest.raises(saltation.ArgumentError, match=r"--param alfa"):
        rough.mfpt(**{**MFPT, "param": "alfa"})
    with pytest.raises(saltation.ArgumentError, match=r"--distribution gauss\(0.2,0.1\)"):
        rough.mfpt(**{**MFPT, "distribution": "gauss(0.2,0.1)"})
    with pytest.raises(saltation.ArgumentError, match=r"--mesh u7=0:1:3"):
        rough.mfpt(**{**MFPT, "mesh": "u7=0:1:3"})
    with pytest.raises(saltation.ArgumentError, match=r"--runs 0: must be in 1\.\.="):
        rough.mfpt(**{**MFPT, "runs": 0})
    with pytest.raises(saltation.ArgumentError, match=r"--max-steps 0"):
        rough.mfpt(**{**MFPT, "max_steps": 0})
    with pytest.raises(saltation.ArgumentError, match=r"--samples 0"):
        rough.mfpt(**{**MFPT, "samples": 0})
    with pytest.raises(saltation.ArgumentError, match=r"--roughness 0.1,-1"):
        rough.mfpt(**MFPT, roughness="0.1,-1")
    with pytest.raises(saltation.ArgumentError, match="lies outside the mesh's box"):
        rough.mfpt(**{**MFPT, "mesh": "dth=2:3:5"})
    with pytest.raises(saltation.ArgumentError, match="i must be below N"):
        rough.mfpt(**MFPT, shard=(3, 3))
    with pytest.raises(saltation.ArgumentError, match="must be at least 0"):
        rough.mfpt(**{**MFPT, "seed": -1})
    with pytest.raises(saltation.ArgumentError, match="not a finite number"):
        rough.mfpt(**MFPT, roughness=[0.1, float("nan")])
    with pytest.raises(saltation.ArgumentTypeError):
        rough.mfpt(**{**MFPT, "distribution": 0.1})
    with pytest.raises(saltation.ArgumentTypeError):
        rough.mfpt(**{**MFPT, "distribution": ("normal", 0.2)})
    with pytest.raises(saltation.ArgumentTypeError):
        rough.mfpt(**MFPT, shard=1)
    with pytest.raises(saltation.ArgumentTypeError):
        rough.mfpt(**{**MFPT, "param": 1})


# -- the GIL --------------------------------------------------------------------------------


@pytest.mark.parametrize("call", ["basin", "lyapunov", "sensitivity", "curve", "mfpt"])
def test_the_gil_is_released(walker, table, rough, call):
    # A Python thread keeps ticking while the computation runs in another: it would stall if
    # the computation held the GIL.
    import threading
    import time

    work = {
        "basin": lambda: walker.basin(axes="u0=0.15:0.25:20,u1=-0.3:-0.1:10", strides=30),
        "lyapunov": lambda: walker.lyapunov(strides=600),
        "sensitivity": lambda: [walker.sensitivity("gamma") for _ in range(5)],
        "curve": lambda: table.curve("period_doubling", "Gamma", "e", 0.6),
        "mfpt": lambda: rough.mfpt(**{**MFPT, "runs": 400, "max_steps": 2000}),
    }[call]
    ticks, done = [0], threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    t = time.perf_counter()
    work()
    elapsed = time.perf_counter() - t
    done.set()
    counter.join()
    assert ticks[0] > 0.1 * elapsed / 0.001, (ticks[0], elapsed)


@needs_cli
def test_mfpt_monte_carlo_alone_needs_no_mesh(rough, tmp_path):
    mc = {k: v for k, v in MFPT.items() if k not in ("mesh", "samples")}
    r = rough.mfpt(**mc, method="monte-carlo")
    d = r.to_dict()
    assert "mesh" not in d and "samples" not in d and "chain" not in d["levels"][0]
    assert np.isnan(r.chain_mfpt[0]) and np.isnan(r.chain_lambda2[0])
    flags = [f for f in MFPT_FLAGS if f not in ("--mesh", "dth=0.05:1:21", "--samples", "20")]
    cli = run_cli("mfpt", ROUGH, *flags, "--method", "monte-carlo", "--json", "--out", tmp_path)
    assert d == cli
    # The same walks as beside the chain.
    both = rough.mfpt(**MFPT)
    assert d["levels"][0]["monte_carlo"] == both.to_dict()["levels"][0]["monte_carlo"]


def test_mfpt_method_argument_is_checked(rough):
    mc = {k: v for k, v in MFPT.items() if k not in ("mesh", "samples")}
    with pytest.raises(saltation.ArgumentError, match="the chain needs a mesh"):
        rough.mfpt(**mc)
    with pytest.raises(saltation.ArgumentError, match="--mesh: is an option of the chain"):
        rough.mfpt(**MFPT, method="monte-carlo")
    with pytest.raises(saltation.ArgumentError, match="--runs: is an option of Monte Carlo"):
        rough.mfpt(**MFPT, method="chain")
    with pytest.raises(saltation.ArgumentError, match="method='markov'"):
        rough.mfpt(**MFPT, method="markov")
