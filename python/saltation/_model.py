"""The :class:`Model` class: a model file with its parameter values, and the computations on
it."""

import difflib
import json
import math
import numbers
import os

from . import _progress
from ._errors import ArgumentError, ArgumentTypeError, ParamError, SimulationError
from ._results import Continuation, Orbit, OrbitDiagram, Simulation
from ._saltation import _Model, read_text

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
        data = self._core.orbit_json(vec, label, over, method)
        return Orbit(json.loads(data))

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
        data, failure = self._core.simulate_json(t_end, at, method, rtol, atol, allow_inadmissible)
        data = json.loads(data)
        data["state_names"] = self.state_names
        result = Simulation(data)
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
            data = self._core.continuation_json(param, to, cb)
        finally:
            close()
        return Continuation(json.loads(data))

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
            data = self._core.orbit_diagram_json(param, start, stop, count, cb)
        finally:
            close()
        return OrbitDiagram(json.loads(data))


def _restore(text, origin, params):
    """Unpickles a :class:`Model`: its text parsed again, its parameter values set."""
    m = Model(_Model.parse(text, origin), text)
    return m.with_params(**params) if params != m.params else m
