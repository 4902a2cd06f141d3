"""Bad input: every argument, each raising its saltation.Error subclass with the command's
message."""

import math

import numpy as np
import pytest

import saltation
from saltation import ArgumentError, ArgumentTypeError, LoadError, ParamError

from conftest import MODELS


def test_hierarchy():
    for cls in (saltation.LoadError, saltation.ParamError, saltation.ArgumentError,
                saltation.OrbitError, saltation.SimulationError, saltation.ContinuationError):
        assert issubclass(cls, saltation.Error)
    assert issubclass(ParamError, ValueError) and issubclass(ArgumentTypeError, TypeError)


def test_bad_file_text_names_line_and_column():
    text = "(\n  model: SimplestWalker(gama: 0.01),\n)"
    with pytest.raises(LoadError) as e:
        saltation.Model.from_str(text, origin="walker.ron")
    msg = str(e.value)
    assert msg.startswith("walker.ron:2:"), msg
    assert "gama" in msg


def test_syntax_error_position():
    with pytest.raises(LoadError, match=r"^<string>:1:\d+: "):
        saltation.Model.from_str("(model: SimplestWalker(gamma: 0.01)")


def test_missing_file():
    with pytest.raises(LoadError, match="cannot read .*no_such.ron"):
        saltation.Model.load(MODELS / "no_such.ron")


@pytest.mark.parametrize("bad", [None, 3, b"models/x.ron"])
def test_load_wrong_types(bad):
    with pytest.raises(ArgumentTypeError):
        saltation.Model.load(bad)


def test_from_str_wrong_type():
    with pytest.raises(ArgumentTypeError):
        saltation.Model.from_str(b"(model: SimplestWalker(gamma: 0.01))")


def test_unknown_param_suggests_the_nearest(walker):
    with pytest.raises(ParamError, match=r"unknown parameter `gama`; did you mean `gamma`\?"):
        walker.with_params(gama=0.01)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_param(walker, value):
    with pytest.raises(ParamError, match="not finite"):
        walker.with_params(gamma=value)


def test_param_out_of_range(walker):
    with pytest.raises(ParamError, match="out of range"):
        walker.with_params(gamma=2.0)


@pytest.mark.parametrize("value", ["0.01", None, [0.01], True])
def test_param_wrong_type(walker, value):
    with pytest.raises(ArgumentTypeError):
        walker.with_params(gamma=value)


def test_guess_wrong_length(walker):
    with pytest.raises(ArgumentError, match="has 3 value"):
        walker.orbit([0.2, -0.2, 0.0])


def test_guess_nan(walker):
    with pytest.raises(ArgumentError, match="not finite"):
        walker.orbit([math.nan, -0.2])


@pytest.mark.parametrize("guess", [0.2, object()])
def test_guess_wrong_type(walker, guess):
    with pytest.raises(ArgumentTypeError):
        walker.orbit(guess)


def test_guess_unknown_label(walker):
    with pytest.raises(ArgumentError, match="no such"):
        walker.orbit("no such gait")


def test_unknown_orbit_option_suggests(walker):
    with pytest.raises(ArgumentError, match=r"unknown option `rtl`; did you mean `rtol`"):
        walker.orbit(rtl=1e-10)


def test_orbit_option_out_of_range(walker):
    with pytest.raises(ArgumentError, match="rtol"):
        walker.orbit(rtol=-1.0)


def test_orbit_unknown_nested_option(walker):
    with pytest.raises(ArgumentError, match="ftoll"):
        walker.orbit(newton={"ftoll": 1e-9})


def test_orbit_unknown_method(walker):
    with pytest.raises(ArgumentError, match="unknown method"):
        walker.orbit(method="rk99")


def test_orbit_failure_is_an_orbit_error(walker):
    with pytest.raises(saltation.OrbitError, match="u = "):
        walker.orbit([3.0, 5.0], max_iters=3)


def test_simulate_without_initial_section(walker):
    with pytest.raises(ArgumentError, match="initial"):
        walker.simulate(1.0)


@pytest.mark.parametrize("kwargs", [dict(t_end="3"), dict(t_end=1.0, t_eval="0,1"),
                                    dict(t_end=1.0, method=3), dict(t_end=1.0, rtol="x")])
def test_simulate_wrong_types(ball, kwargs):
    with pytest.raises(ArgumentTypeError):
        ball.simulate(**kwargs)


def test_simulate_bad_values(ball):
    with pytest.raises(ArgumentError, match="unknown method"):
        ball.simulate(1.0, method="nope")
    with pytest.raises(ArgumentError, match="rtol"):
        ball.simulate(1.0, rtol=-1.0)
    with pytest.raises(ArgumentError):
        ball.simulate(1.0, t_eval=[0.5, 0.2])
    with pytest.raises(ArgumentError):
        ball.simulate(math.nan)


def test_simulation_failure_keeps_the_trajectory(ball):
    # The impacts accumulate at the Zeno time 9 √(2/g) ≈ 4.06: a longer run fails there.
    with pytest.raises(saltation.SimulationError) as e:
        ball.simulate(6.0)
    assert "Zeno" in str(e.value) and "4.0637" in str(e.value)
    r = e.value.result
    assert isinstance(r, saltation.Simulation) and r.status == -1 and not r.success
    assert r.message == str(e.value).split(": ", 1)[1] or r.message in str(e.value)
    assert 2.0 < r.t[-1] < 9 * (2 / 9.81) ** 0.5 and len(r.events) >= 4


def test_continuation_errors(walker, models):
    with pytest.raises(ArgumentError, match="continuation"):
        walker.continuation()
    cont = saltation.Model.load(models / "simplest_walker_continuation.ron")
    with pytest.raises(ParamError, match="did you mean `gamma`"):
        cont.continuation(param="gamm")
    with pytest.raises(ArgumentTypeError):
        cont.continuation(to="0.01")
    with pytest.raises(ArgumentError):
        cont.continuation(to=math.nan)
    with pytest.raises(ArgumentTypeError):
        cont.continuation(progress=42)


def test_orbit_diagram_errors(models):
    cont = saltation.Model.load(models / "simplest_walker_continuation.ron")
    with pytest.raises(ArgumentTypeError):
        cont.orbit_diagram(count=2.5)
    with pytest.raises(ArgumentError):
        cont.orbit_diagram(count=-1)
    with pytest.raises(ArgumentError):
        cont.orbit_diagram(start=math.inf)
