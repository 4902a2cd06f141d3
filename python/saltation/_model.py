"""The :class:`Model` class: a model file with its parameter values, and the computations on
it."""

import difflib
import json
import math
import numbers
import os

from . import _progress
from ._errors import ArgumentError, ArgumentTypeError, ParamError, SimulationError
from ._analyses import Basin, BasinShard, Curve, Lyapunov, Mfpt, MfptShard, Sensitivity
from ._results import Continuation, Orbit, OrbitDiagram, Simulation
from ._saltation import (
    _Model,
    basin_json,
    curve_json,
    lyapunov_json,
    mfpt_json,
    read_text,
    sensitivity_json,
)

__all__ = ["Model"]

# Shortcuts of orbit(**options), each a path in the file's `orbit` section.
_ORBIT_SHORTCUTS = {
    "rtol": ("stride", "ode", "rtol"),
    "ftol": ("newton", "ftol"),
    "xtol": ("newton", "xtol"),
    "max_iters": ("newton", "max_iters"),
}
_ORBIT_SECTIONS = ("stride", "newton", "eigen")
_ORBIT_OPTIONS = tuple(sorted((*_ORBIT_SHORTCUTS, "atol", "method", *_ORBIT_SECTIONS)))


def _suggest(name, known):
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    return f"; did you mean {' or '.join(f'`{c}`' for c in close)}?" if close else ""


def _number(what, value, integer=False):
    """``value`` as a float (or int), or :class:`ArgumentTypeError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{what}={value!r}: expected a number, got {type(value).__name__}")
    if integer:
        if isinstance(value, numbers.Integral):
            return int(value)
        raise ArgumentTypeError(f"{what}={value!r}: expected an integer")
    return float(value)


def _finite(what, value):
    x = _number(what, value)
    if not math.isfinite(x):
        raise ArgumentError(f"{what}={value!r}: not a finite number")
    return x


def _count(what, value, least=0):
    """``value`` as an int of at least ``least`` (``None`` stays ``None``)."""
    if value is None:
        return None
    n = _number(what, value, integer=True)
    if n < least:
        raise ArgumentError(f"{what}={n}: must be at least {least}")
    return n


def _name(what, value):
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what}={value!r}: expected a name (str)")
    return value


def _axes(axes):
    """``axes`` as the command's ``--axes`` text: a str ``"NAME=a:b:N[,NAME=c:d:M]"`` as it
    is, or ``{name: (a, b, n)}`` / ``[(name, a, b, n), …]`` written out exactly (floats by
    their shortest round-trip ``repr``)."""
    if isinstance(axes, str):
        return axes
    if isinstance(axes, dict):
        items = [(k, *v) if isinstance(v, (tuple, list)) else (k, v) for k, v in axes.items()]
    elif isinstance(axes, (list, tuple)):
        items = [tuple(a) if isinstance(a, (tuple, list)) else (a,) for a in axes]
    else:
        raise ArgumentTypeError(
            f"axes={axes!r}: expected 'NAME=a:b:N[,NAME=c:d:M]', {{name: (a, b, n)}} or "
            "[(name, a, b, n), …]"
        )
    parts = []
    for k, item in enumerate(items):
        if len(item) != 4:
            raise ArgumentError(f"axes[{k}]={item!r}: expected (name, from, to, count)")
        name, a, b, n = item
        name = _name(f"axes[{k}] name", name)
        a = _finite(f"axes[{k}] from", a)
        b = _finite(f"axes[{k}] to", b)
        n = _count(f"axes[{k}] count", n, least=0)
        parts.append(f"{name}={a!r}:{b!r}:{n}")
    return ",".join(parts)


def _vector(what, values):
    """A sequence of numbers (list, tuple, 1-D array) as a list of floats."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ArgumentTypeError(f"{what}={values!r}: expected a sequence of numbers")
    out = [_number(f"{what}[{i}]", v) for i, v in enumerate(values)]
    return out


class Model:
    """A hybrid model from a RON model file (``models/*.ron``): the model with its parameter
    values, its guesses, its orbit settings, and optionally a continuation script and an
    initial state.

    Models are immutable: :meth:`with_params` returns a new one. They are picklable (as the
    file's text and the parameter values), so they travel to worker processes
    (multiprocessing, Dask, Ray), and one model may be used from several threads at once: every
    computation releases the GIL.

    Build one with :meth:`Model.load` (a file) or :meth:`Model.from_str` (a file's text).
    """

    __slots__ = ("_core", "_text")

    def __init__(self, core, text):
        self._core = core
        self._text = text

    # -- construction --------------------------------------------------------------------

    @classmethod
    def load(cls, path):
        """Reads and checks a model file.

        Args:
            path: the file (``str`` or ``os.PathLike``).

        Raises:
            LoadError: the file cannot be read, or is not a valid model file (the message says
                ``path:line:column: reason``).
        """
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError(f"path={path!r}: expected a str or os.PathLike")
        path = os.fspath(path)
        text = read_text(path)
        return cls(_Model.parse(text, path), text)

    @classmethod
    def from_str(cls, text, origin="<string>"):
        """Parses a model file's text (any model file, equation models included).

        Args:
            text: the RON text.
            origin: the name errors give the text (``origin:line:column: reason``).

        Raises:
            LoadError: the text is not a valid model file.
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(f"text: expected a str, got {type(text).__name__}")
        if not isinstance(origin, str):
            raise ArgumentTypeError(f"origin: expected a str, got {type(origin).__name__}")
        return cls(_Model.parse(text, origin), text)

    def __reduce__(self):
        return (_restore, (self._text, self._core.origin, self.params))

    # -- description ---------------------------------------------------------------------

    @property
    def params(self):
        """The model's numeric parameters, ``{name: value}`` (a new dict each time)."""
        return dict(self._core.param_items())

    @property
    def name(self):
        """The model's name (``"simplest_walker"``, …)."""
        return self._core.name

    @property
    def origin(self):
        """Where the model came from: the path, or ``from_str``'s ``origin``."""
        return self._core.origin

    @property
    def text(self):
        """The model file's text."""
        return self._text

    @property
    def state_names(self):
        """Names of the state components (the entries of ``Orbit.x0``, the rows of
        ``Simulation.y``)."""
        return list(self._core.state_names)

    @property
    def reduced_dim(self):
        """Number of reduced coordinates of the section: the length of an orbit guess."""
        return self._core.reduced_dim

    @property
    def mode_names(self):
        """Names of the modes."""
        return list(self._core.mode_names)

    @property
    def guesses(self):
        """The file's initial guesses, ``{label: reduced coordinates}``."""
        return {label: list(u) for label, u in self._core.guesses}

    def __repr__(self):
        ps = ", ".join(f"{k}={v:g}" for k, v in self.params.items())
        return f"Model({self.name}({ps}), origin={self.origin!r})"

    def with_params(self, **values):
        """A new model with some parameters changed: ``walker.with_params(gamma=0.012)``.

        Raises:
            ParamError: an unknown name (the message lists the known names and suggests the
                nearest), or a value the model refuses (not finite, out of range).
            ArgumentTypeError: a value that is not a number.
        """
        known = list(self.params)
        items = []
        for name, value in values.items():
            if name not in known:
                raise ParamError(
                    f"unknown parameter `{name}`{_suggest(name, known)} "
                    f"(known: {', '.join(known)})"
                )
            items.append((name, _number(name, value)))
        return Model(self._core.with_params(items), self._text)

    # -- computations --------------------------------------------------------------------

    def orbit(self, guess=None, **options):
        """Finds a periodic orbit (a fixed point of the stride map) by Newton shooting, with its
        Floquet multipliers: what ``saltation orbit`` computes.

        Args:
            guess: where Newton starts: the reduced coordinates of the section (a sequence of
                ``model.reduced_dim`` numbers), or the label of one of the file's guesses (a
                str); ``None``: the file's first guess.
            **options: overrides of the file's orbit settings. Shortcuts: ``rtol``, ``atol``
                (stride integration tolerances), ``method`` (a method name: ``"dop853"``,
                ``"radau5"``, ``"ode45"``, …), ``ftol``, ``xtol``, ``max_iters`` (Newton).
                Whole sections as in the file's ``orbit`` block, as dicts: ``stride={...}``,
                ``newton={...}``, ``eigen=...``.

        Returns:
            Orbit: ``.x0``, ``.period``, ``.multipliers``, ``.stable``, ``.admissible``,
            ``.phases``, ``.residual``, ``.to_dict()``.

        Raises:
            OrbitError: Newton did not converge or a stride failed (the message says where).
            ArgumentError: a guess of the wrong length or not finite, an unknown option (the
                message suggests the nearest), an option out of range.
        """
        over, method = self._orbit_options(options)
        vec, label = None, None
        if isinstance(guess, str):
            label = guess
        elif guess is not None:
            vec = _vector("guess", guess)
        data, arrays = self._core.orbit_json(vec, label, over, method)
        return Orbit(json.loads(data), arrays)

    def _orbit_options(self, options):
        over = {}
        method = None
        for key, value in options.items():
            if key in _ORBIT_SHORTCUTS:
                node = over
                *path, leaf = _ORBIT_SHORTCUTS[key]
                for p in path:
                    node = node.setdefault(p, {})
                node[leaf] = _number(key, value, integer=key == "max_iters")
            elif key == "atol":
                node = over.setdefault("stride", {}).setdefault("ode", {})
                if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
                    node["atol"] = {"Vector": _vector("atol", value)}
                else:
                    node["atol"] = {"Scalar": _number("atol", value)}
            elif key == "method":
                if not isinstance(value, str):
                    raise ArgumentTypeError(f"method={value!r}: expected a method name (str)")
                method = value
            elif key in _ORBIT_SECTIONS:
                if key != "eigen" and not isinstance(value, dict):
                    raise ArgumentTypeError(f"{key}={value!r}: expected a dict")
                over[key] = value
            else:
                raise ArgumentError(
                    f"unknown option `{key}`{_suggest(key, _ORBIT_OPTIONS)} "
                    f"(known: {', '.join(_ORBIT_OPTIONS)})"
                )
        try:
            text = json.dumps(over, allow_nan=False) if over else None
        except (TypeError, ValueError) as e:
            raise ArgumentError(f"orbit options: {e}") from None
        return text, method

    def simulate(self, t_end, t_eval=None, method=None, rtol=None, atol=None,
                 allow_inadmissible=False):
        """Runs the model forward in time from the file's ``initial`` section (time, state,
        mode) through its events and resets: what ``saltation simulate`` computes.

        Args:
            t_end: end time.
            t_eval: sample times (increasing, at most ``t_end``), from the integrator's dense
                output; ``None``: the command's default (every accepted step, the events, and
                evenly spaced times from the dense output).
            method: integration method (``"dop853"``, ``"radau5"``, ``"ndf"``, …, or a MATLAB
                name: ``"ode45"``, ``"ode15s"``, …); ``None``: the file's ``orbit.stride``
                method (dop853 unless the file says otherwise). Given, it integrates every
                mode (no exact stepping of affine modes).
            rtol, atol: tolerances (``None``: the file's).
            allow_inadmissible: run on past a broken admissibility condition instead of
                failing there.

        Returns:
            Simulation: ``.t``, ``.y`` (states × times), ``.modes``, ``.events``,
            ``.t_events``, ``.outputs`` (an equation model's named outputs), ``.status``,
            ``.nfev``, … (like SciPy's ``solve_ivp`` result).

        Raises:
            SimulationError: the run stopped before ``t_end`` (``.result`` holds the
                trajectory up to there).
            ArgumentError: no ``initial`` section, a bad method or tolerance, bad times.
        """
        t_end = _number("t_end", t_end)
        at = None if t_eval is None else _vector("t_eval", t_eval)
        if method is not None and not isinstance(method, str):
            raise ArgumentTypeError(f"method={method!r}: expected a method name (str)")
        rtol = None if rtol is None else _number("rtol", rtol)
        atol = None if atol is None else _number("atol", atol)
        if not isinstance(allow_inadmissible, bool):
            raise ArgumentTypeError("allow_inadmissible: expected a bool")
        data, arrays, failure = self._core.simulate_json(
            t_end, at, method, rtol, atol, allow_inadmissible
        )
        data = json.loads(data)
        data["state_names"] = self.state_names
        result = Simulation(data, arrays)
        if failure is not None:
            cls, message = failure
            raise SimulationError(message, result)
        return result

    def continuation(self, param=None, to=None, progress=None):
        """Runs the file's continuation script: every branch of its ``continuation`` section,
        bifurcations detected, period-doubling switches — what ``saltation continue``
        computes.

        Args:
            param: continue in this parameter instead of the section's ``param``.
            to: end every branch at this value instead of its ``to``.
            progress: ``None``, a callable taking one dict per event, or ``True``/``"tqdm"``
                for tqdm bars (see ``saltation._progress``).

        Returns:
            Continuation: ``.branches`` (each with ``.params``, ``.x0``, ``.multipliers``,
            ``.stable`` arrays), ``.bifurcations``.

        Raises:
            ContinuationError: no branch could start.
            ParamError: ``param`` is not a parameter of the model.
            ArgumentError: no ``continuation`` section; a setting out of range.
        """
        if param is not None and not isinstance(param, str):
            raise ArgumentTypeError(f"param={param!r}: expected a parameter name (str)")
        if param is not None and param not in self.params:
            known = list(self.params)
            raise ParamError(
                f"param=\"{param}\": unknown parameter `{param}`{_suggest(param, known)} "
                f"(known: {', '.join(known)})"
            )
        to = None if to is None else _finite("to", to)
        cb, close = _progress.callback(progress)
        try:
            data, arrays = self._core.continuation_json(param, to, cb)
        finally:
            close()
        return Continuation(json.loads(data), arrays)

    def orbit_diagram(self, param=None, start=None, stop=None, count=None, progress=None):
        """The brute-force orbit diagram of the file's continuation section (parameter values
        in parallel on every core): from a start state, each value runs a transient and
        records one state component per stride — what ``saltation orbit-diagram`` computes.

        Args:
            param: vary this parameter instead of the section's.
            start, stop: the first and last parameter values (``None``: the file's).
            count: the number of values, evenly spaced (``None``: the file's, else 200).
            progress: as for :meth:`continuation`.

        Returns:
            OrbitDiagram: ``.params``, ``.values``, ``.failed``, ``.points()``.
        """
        if param is not None and not isinstance(param, str):
            raise ArgumentTypeError(f"param={param!r}: expected a parameter name (str)")
        start = None if start is None else _finite("start", start)
        stop = None if stop is None else _finite("stop", stop)
        if count is not None:
            count = _number("count", count, integer=True)
            if count < 0:
                raise ArgumentError(f"count={count}: must be positive")
        cb, close = _progress.callback(progress)
        try:
            data, arrays = self._core.orbit_diagram_json(param, start, stop, count, cb)
        finally:
            close()
        return OrbitDiagram(json.loads(data), arrays)

    def curve(self, kind, param, param2, to2, guess=None, progress=None, shooting=None,
              **options):
        """Continues a codimension-one bifurcation of the orbit in two parameters: from the
        orbit at ``guess``, the bifurcation of ``kind`` is located in ``param`` at the model's
        value of ``param2``, then followed in the plane until ``param2`` reaches ``to2`` (or a
        limit) — what ``saltation curve`` computes.

        Args:
            kind: ``"fold"``, ``"period_doubling"``, ``"neimark_sacker"`` or ``"grazing"``.
            param: the parameter in which the bifurcation is located first.
            param2: the second parameter, continued until ``to2``.
            to2: where the curve ends.
            guess: reduced coordinates near the orbit (``None``: the file's first guess).
            progress: ``None``, a callable taking one dict per point (``{"event": "curve",
                "points", "max_points", "p", "p2", "step"}``), or ``True``/``"tqdm"``.
            shooting: as the command's ``--shooting``: ``"single"``, ``"phases"`` (one
                segment per phase of the stride) or a number N of pieces per phase (multiple
                shooting: the defining systems bordered on the lifted cyclic matrix);
                ``None``: the file's continuation settings (single by default).
            **options: ``search`` (±1: the direction in ``param`` to look for the
                bifurcation), ``codim2`` (bool: detect codimension-two points), and the
                continuation settings by name (``step``, ``min_step``, ``max_step``,
                ``max_points``, ``locate_tol``, …), replacing the file's.

        Returns:
            Curve: ``.params`` (n × 2), ``.x0``, ``.period``, ``.multipliers``, ``.codim2``,
            ``.end``, ``.to_dict()`` (the command's JSON object).

        Raises:
            ContinuationError: no bifurcation of ``kind`` found from the guess, the curve
                could not start.
            ArgumentError: an unknown kind or option, ``to2`` at the start value.
        """
        kind = _name("kind", kind)
        param = _name("param", param)
        param2 = _name("param2", param2)
        to2 = _finite("to2", to2)
        vec = None if guess is None else _vector("guess", guess)
        if shooting is not None:
            if isinstance(shooting, bool) or not isinstance(shooting, (str, int)):
                raise ArgumentTypeError(
                    f"shooting={shooting!r}: expected 'single', 'phases' or a number of pieces")
            shooting = str(shooting)
        for key, value in options.items():
            if isinstance(value, bool) and key != "codim2" and key != "detect":
                raise ArgumentTypeError(f"{key}={value!r}: expected a number")
        try:
            over = json.dumps(options, allow_nan=False) if options else None
        except (TypeError, ValueError) as e:
            raise ArgumentError(f"curve options: {e}") from None
        cb, close = _progress.callback(progress)
        try:
            data, arrays = curve_json(self._core, kind, param, param2, to2, vec, over, cb,
                                      shooting)
        finally:
            close()
        return Curve(json.loads(data), arrays)

    def basin(self, axes, strides=None, max_period=None, at=None, shard=None, progress=None):
        """Basins of attraction on a grid of starts over one or two reduced coordinates of the
        section: each start iterated stride by stride until it returns (a period-k orbit),
        fails (the walker falls, a stride fails) or stays undecided; the attractors by Newton,
        with their multipliers — what ``saltation basin`` computes, on every core.

        Args:
            axes: ``"NAME=a:b:N[,NAME=c:d:M]"`` as the command's ``--axes``, or ``{name: (a,
                b, n)}``, or ``[(name, a, b, n), …]`` (NAME a reduced coordinate's state name,
                or ``"u0"``, ``"u1"``, …).
            strides: strides per start before it is undecided (``None``: 50).
            max_period: largest return period detected (``None``: 8).
            at: ``{name: value}`` for coordinates on no axis (the others: the first
                attractor's, the file's first guess solved).
            shard: ``(i, n)``: compute only cells ``i, i + n, …`` and return a
                :class:`BasinShard` (join the ``n`` shards with
                :func:`saltation.merge_basins`; :func:`saltation.dask.basin` does both).
            progress: ``None``, a callable taking one dict per event (``{"event":
                "basin_started", "total"}``, ``{"event": "basin", "done", "total"}``), or
                ``True``/``"tqdm"``.

        Returns:
            Basin: ``.cells`` (int64 array shaped by the grid), ``.attractors``,
            ``.fractions``, ``.to_dict()``; with ``shard``: a :class:`BasinShard`.

        Raises:
            ArgumentError: a bad axis, shard, ``at`` or setting (the command's message).
            BasinError, OrbitError: the first attractor or an attractor's Newton solve failed.
        """
        axes = _axes(axes)
        strides = _count("strides", strides)
        max_period = _count("max_period", max_period)
        at_list = []
        if at is not None:
            if not isinstance(at, dict):
                raise ArgumentTypeError(f"at={at!r}: expected a dict {{name: value}}")
            for k, v in at.items():
                at_list.append(f"{_name('at name', k)}={_finite(f'at[{k!r}]', v)!r}")
        if shard is not None:
            if not isinstance(shard, (tuple, list)) or len(shard) != 2:
                raise ArgumentTypeError(f"shard={shard!r}: expected a pair (i, n)")
            shard = (_count("shard[0]", shard[0]), _count("shard[1]", shard[1]))
        cb, close = _progress.callback(progress)
        try:
            data, arrays = basin_json(
                self._core, axes, at_list, strides, max_period, shard, cb
            )
        finally:
            close()
        if shard is not None:
            return BasinShard(data, shard[0], shard[1])
        return Basin(json.loads(data), arrays)

    def mfpt(self, param, distribution, mesh=None, samples=None, runs=None, max_steps=None,
             seed=None, roughness=None, shard=None, progress=None, method=None):
        """The mean first-passage time of the gait on rough terrain: ``param`` drawn afresh
        from ``distribution`` at every stride, by Byl & Tedrake's mesh Markov chain and by
        Monte Carlo side by side — what ``saltation mfpt`` computes (the same code), on every
        core. The nominal orbit is the periodic orbit at the distribution's mean, by Newton
        from the file's first guess.

        Args:
            param: the parameter drawn (the slope of a walker, the ground of a hopper).
            distribution: ``"normal(mean,sd)"`` or ``"uniform(a,b)"``, or ``("normal",
                mean, sd)`` / ``("uniform", a, b)``.
            mesh: the chain's mesh, one axis per reduced coordinate (any number: three for
                the compass gait), as ``axes`` of :meth:`basin` (``"NAME=a:b:N[,…]"``, a
                dict or a list); ``None`` only with ``method="monte-carlo"``.
            samples: stratified terrain quantiles per mesh point (``None``: 200).
            runs: Monte Carlo walks from the nominal orbit (``None``: 1000).
            max_steps: strides per walk before it is censored (``None``: 10 000).
            seed: seed of the Monte Carlo draws (``None``: 0); run ``r`` is seeded from it
                and ``r``.
            roughness: standard deviations to repeat both methods at (a sequence of numbers
                or ``"sd1,sd2,…"``; same kind of distribution and mean, a uniform one of
                half-width ``√3·sd``). No figure is written (use the arrays).
            shard: ``(i, n)``: compute only the mesh points and runs ``i, i + n, …`` of every
                level and return an :class:`MfptShard` (:func:`saltation.merge_mfpt` joins
                the ``n`` shards into exactly the unsharded result, as ``saltation merge`` does
                the saved files).
            progress: ``None``, a callable taking one dict per event (``{"event":
                "mfpt_started", "level", "sd", "part", "total"}`` with ``part`` ``"chain"`` or
                ``"monte_carlo"``, ``{"event": "mfpt", "done", "total"}``), or
                ``True``/``"tqdm"``.
            method: ``None`` or ``"both"`` (the chain and Monte Carlo), ``"chain"`` (the
                chain alone), ``"monte-carlo"`` (Monte Carlo alone, no mesh). The options of
                a method that does not run are refused; its JSON blocks are absent and its
                arrays NaN.

        Returns:
            Mfpt: ``.roughness``, ``.chain_mfpt``, ``.chain_lambda2``,
            ``.chain_expected_steps``, ``.mc_mean``, ``.mc_ci`` (levels × 2), ``.levels``,
            ``.to_dict()`` (the JSON of ``saltation mfpt --json``); with ``shard``: an
            :class:`MfptShard`.

        Raises:
            ArgumentError: an unknown ``param``, a bad distribution, mesh, count, roughness or
                shard, a terrain sample the model refuses, a nominal orbit outside the mesh (the
                command's message, naming its flag).
            MfptError: no nominal orbit at the distribution's mean (its Newton solve failed), or
                the chain could not be solved (the command's message).
        """
        param = _name("param", param)
        if isinstance(distribution, (tuple, list)):
            if len(distribution) != 3 or not isinstance(distribution[0], str):
                raise ArgumentTypeError(
                    f"distribution={distribution!r}: expected (kind, a, b), e.g. "
                    "('normal', mean, sd)"
                )
            a = _finite("distribution[1]", distribution[1])
            b = _finite("distribution[2]", distribution[2])
            distribution = f"{distribution[0]}({a!r},{b!r})"
        elif not isinstance(distribution, str):
            raise ArgumentTypeError(
                f"distribution={distribution!r}: expected 'normal(mean,sd)', "
                "'uniform(a,b)' or (kind, a, b)"
            )
        if method is not None and method not in ("both", "chain", "monte-carlo"):
            raise ArgumentError(
                f"method={method!r}: expected 'both', 'chain' or 'monte-carlo'"
            )
        mesh = None if mesh is None else _axes(mesh)
        samples = _count("samples", samples)
        runs = _count("runs", runs)
        max_steps = _count("max_steps", max_steps)
        if seed is not None:
            seed = _count("seed", seed)
            if seed >= 2**64:
                raise ArgumentError(f"seed={seed}: must be below 2**64")
        if roughness is not None and not isinstance(roughness, str):
            roughness = ",".join(
                repr(v) for v in (_finite(f"roughness[{i}]", x) for i, x in enumerate(
                    _vector("roughness", roughness)))
            )
        if shard is not None:
            if not isinstance(shard, (tuple, list)) or len(shard) != 2:
                raise ArgumentTypeError(f"shard={shard!r}: expected a pair (i, n)")
            shard = (_count("shard[0]", shard[0]), _count("shard[1]", shard[1]))
        cb, close = _progress.callback(progress)
        try:
            data, arrays = mfpt_json(
                self._core, param, distribution, mesh, samples, runs, max_steps, seed,
                roughness, shard, cb, method,
            )
        finally:
            close()
        if shard is not None:
            return MfptShard(data, shard[0], shard[1])
        return Mfpt(json.loads(data), arrays)

    def lyapunov(self, strides=None, guess=None):
        """Lyapunov exponents on the section: tangent vectors carried through every phase by
        the variational equations and through every impact by the saltation matrix, QR
        re-orthonormalised each stride — what ``saltation lyapunov`` computes.

        Args:
            strides: strides (``None``: 1000).
            guess: the start, reduced coordinates (``None``: the file's first guess).

        Returns:
            Lyapunov: ``.exponents`` (per unit time, descending), ``.per_stride``,
            ``.strides``, ``.time``, ``.to_dict()``.

        Raises:
            LyapunovError: a stride failed (the walker fell).
            ArgumentError: a start of the wrong length, ``strides`` out of range.
        """
        strides = _count("strides", strides)
        vec = None if guess is None else _vector("guess", guess)
        data, arrays = lyapunov_json(self._core, vec, strides)
        return Lyapunov(json.loads(data), arrays)

    def sensitivity(self, disturbance, guess=None):
        """The gait sensitivity norm (Hobbelen & Wisse 2007) of the periodic orbit for a
        disturbance entering as a one-stride change of parameter ``disturbance``, with the
        step time as the gait indicator — what ``saltation sensitivity`` computes.

        Args:
            disturbance: the parameter disturbed for one stride (the slope of a walker).
            guess: where the orbit's Newton starts: reduced coordinates, a guess label (str),
                or ``None`` (the file's first guess).

        Returns:
            Sensitivity: ``.norm``, ``.impulse_response`` (strides × indicators),
            ``.lyapunov_norm``, ``.spectral_radius``, ``.a``/``.b``/``.c``/``.d``,
            ``.to_dict()``.

        Raises:
            ArgumentError: an unknown disturbance parameter, a bad guess.
            OrbitError: the orbit solve failed; SensitivityError: its linearisation did.
        """
        disturbance = _name("disturbance", disturbance)
        vec, label = None, None
        if isinstance(guess, str):
            label = guess
        elif guess is not None:
            vec = _vector("guess", guess)
        data, arrays = sensitivity_json(self._core, disturbance, vec, label)
        return Sensitivity(json.loads(data), arrays)


def _restore(text, origin, params):
    """Unpickles a :class:`Model`: its text parsed again, its parameter values set."""
    m = Model(_Model.parse(text, origin), text)
    return m.with_params(**params) if params != m.params else m
