"""Values against independent references: closed forms, published tables, the command's own
output."""

import json
import math
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

import saltation

from conftest import MODELS, ROOT

# Table 1 of Bhounsule 2014 (the simplest walker at γ = 0.009), as printed.
WALKER_STABLE_X0 = [0.200310900544287, -0.199832473004977, 0.400621801088574, -0.015822999948318]
WALKER_STABLE_PAIR = (-0.190099841069399, 0.557598776679489)
WALKER_UNSTABLE_X0 = [0.193937369810184, -0.203866927442010, 0.387874739620369, -0.015144260853192]
WALKER_UNSTABLE = [4.003864358929642, 0.459589589797672]


def test_simplest_walker_matches_the_published_table(walker):
    o = walker.orbit()
    assert o.x0.dtype == np.float64 and o.multipliers.dtype == np.complex128
    np.testing.assert_allclose(o.x0, WALKER_STABLE_X0, rtol=0, atol=1e-12)
    # The nontrivial complex pair, then the trivial multipliers (0) of the reset.
    pair = o.multipliers[:2]
    np.testing.assert_allclose(sorted(pair.imag), [-WALKER_STABLE_PAIR[1], WALKER_STABLE_PAIR[1]], atol=1e-9)
    np.testing.assert_allclose(pair.real, [WALKER_STABLE_PAIR[0]] * 2, atol=1e-9)
    assert o.stable and o.residual < 1e-12
    assert o.params == {"gamma": 0.009}


def test_simplest_walker_unstable_gait_by_label_and_by_values(walker):
    by_label = walker.orbit("unstable (short-period) gait")
    by_values = walker.orbit([0.19, -0.2])
    assert by_label.to_dict()["x0"] == by_values.to_dict()["x0"]
    np.testing.assert_allclose(by_values.x0, WALKER_UNSTABLE_X0, atol=1e-12)
    np.testing.assert_allclose(abs(by_values.multipliers[:2]), WALKER_UNSTABLE, rtol=1e-9)
    assert not by_values.stable


def test_rimless_wheel_matches_its_closed_form(wheel):
    # Coleman 2009: θ₀ = −π/n, θ̇₀² = 4λ²μ² sin(π/n) sin α / (1 − μ²), multipliers {μ², 0}
    # with μ = 1 − λ²(1 − cos 2π/n).
    for lam2, alpha, n in [(2 / 3, 0.2, 6), (0.7, 0.1, 8), (0.5, 0.3, 5)]:
        m = wheel.with_params(lambda2=lam2, alpha=alpha, spokes=n)
        mu = 1 - lam2 * (1 - math.cos(2 * math.pi / n))
        dtheta = math.sqrt(4 * lam2 * mu**2 * math.sin(math.pi / n) * math.sin(alpha) / (1 - mu**2))
        o = m.orbit([dtheta * 1.05])
        np.testing.assert_allclose(o.x0, [-math.pi / n, dtheta], rtol=0, atol=1e-12)
        assert abs(o.multipliers[0] - mu**2) < 1e-12, (lam2, alpha, n, o.multipliers)
        assert abs(o.multipliers[1]) < 1e-12
        assert o.stable


def test_bouncing_ball_impacts_at_the_closed_form_times(ball):
    # From rest at h = 1: first impact at t₁ = √(2h/g), then each flight lasts 2 e^k v₁ / g with
    # v₁ = g t₁: impact k at t₁ (1 + 2 (e + … + e^(k−1))).
    g, e = 9.81, 0.8
    t1 = math.sqrt(2 / g)
    sim = ball.simulate(3.0)
    expected = [t1 * (1 + 2 * sum(e**j for j in range(1, k))) for k in range(1, 20)]
    expected = [t for t in expected if t <= 3.0]
    np.testing.assert_allclose(sim.t_events, expected, rtol=1e-9)
    assert sim.y.shape == (2, sim.t.size) and sim.success and sim.status == 0
    # Between impacts x = 1 − g t²/2 before the first.
    before = sim.t < t1
    np.testing.assert_allclose(sim.y[0, before], 1 - g * sim.t[before] ** 2 / 2, atol=1e-9)


def test_simulate_samples_at_t_eval(ball):
    ts = np.linspace(0.0, 0.4, 9)
    sim = ball.simulate(0.4, t_eval=ts)
    np.testing.assert_array_equal(sim.t, ts)
    np.testing.assert_allclose(sim.y[0], 1 - 9.81 * ts**2 / 2, atol=1e-9)
    np.testing.assert_allclose(sim.y[1], -9.81 * ts, atol=1e-9)


def _cli():
    """The `saltation` command built by cargo (tests that compare with it skip without it)."""
    for profile in ("release", "debug"):
        exe = ROOT / "target" / profile / "saltation"
        if exe.exists():
            return exe
    return shutil.which("saltation")


@pytest.mark.skipif(_cli() is None, reason="the saltation command is not built")
def test_orbit_is_identical_to_the_command(walker):
    out = subprocess.run(
        [str(_cli()), "orbit", str(MODELS / "simplest_walker.ron"), "--set", "gamma=0.01", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    cli = json.loads(out)
    mine = walker.with_params(gamma=0.01).orbit().to_dict()
    for key in ("x0", "period", "multipliers", "stable", "residual", "newton_iterations", "params"):
        assert mine[key] == cli[key], key
