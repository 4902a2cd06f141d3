"""Result classes: plain Python objects over the JSON objects of the ``saltation`` command's
``--json`` output (whose keys are a public interface), with numpy arrays.

The arrays come from the extension, built in Rust from the computed values (the ``numpy``
crate) and handed over beside the JSON object; a result rebuilt from its dict alone
(:meth:`from_dict`) builds them from the dict's numbers instead (the same values: the JSON
numbers are the shortest round-trip text of each ``f64``). Every result keeps its dict
(:meth:`to_dict`); it pickles as the dict and its arrays, so results cross process boundaries
(multiprocessing, Dask, Ray) as they are.
"""

import copy

import numpy as np

__all__ = ["Orbit", "Simulation", "Branch", "Continuation", "OrbitDiagram"]


def _complex(ms):
    """``[{"re", "im"}, …]`` as a complex128 array."""
    return np.array([complex(m["re"], m["im"]) for m in ms], dtype=np.complex128)


def _rebuild(cls, data, arrays):
    """Unpickles a result: its dict and the arrays it had."""
    return cls(data, arrays)


class _Result:
    """Common part: the dict, the arrays from the extension, equality, pickling."""

    def __init__(self, data, arrays=None):
        self._data = data
        self._arrays = arrays

    def _array(self, key, build):
        """The extension's array ``key``, or ``build()`` from the dict when there is none."""
        a = self._arrays
        return a[key] if a is not None and key in a else build()

    @classmethod
    def from_dict(cls, data):
        """Rebuilds the result from :meth:`to_dict`'s dict."""
        return cls(copy.deepcopy(data))

    def to_dict(self):
        """The result as the ``saltation`` command's JSON object (a deep copy: plain dicts,
        lists, floats; ``json.dumps`` writes it)."""
        return copy.deepcopy(self._data)

    def __reduce__(self):
        return (_rebuild, (type(self), self._data, self._arrays))

    def __eq__(self, other):
        return type(self) is type(other) and self._data == other._data

    __hash__ = None


class Orbit(_Result):
    """A periodic orbit (a fixed point of the stride map) with its Floquet multipliers.

    Attributes:
        x0: fixed point, the full state just after the stride's last reset (float64 array).
        period: stride duration.
        multipliers: Floquet multipliers, eigenvalues of the full-state stride Jacobian, by
            decreasing modulus (complex128 array).
        stable: whether every multiplier lies strictly inside the unit circle.
        admissible: whether the orbit is physically admissible (contact forces push, gaps stay
            open); ``None`` for models without such conditions.
        violation: where an inadmissible orbit first fails, in words, else ``None``.
        phases: the stride's smooth phases in order, ``[(mode_name, duration), …]``, for models
            with more than one mode, else ``None``.
        residual: ``‖F(u*)‖`` at the solution.
        newton_iterations: Newton iterations used.
        params: the parameter values it was computed at, by name.
        solve_seconds: wall time of the solve (Newton, multipliers, admissibility).
        multiplier_accuracy: ``None``, or (single shooting only, when some multipliers are
            below what the stride Jacobian resolves) the ``orbit`` command's JSON object
            ``{"error_bound", "unresolved", "advice"}``: ``error_bound = max(rtol, ε)·‖P_x‖_F``
            is what any multiplier may be off by, ``unresolved`` the indices into
            ``multipliers`` of those with no correct digit, ``advice`` what to do (the command's
            words).
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        self.x0 = self._array("x0", lambda: np.array(data["x0"], dtype=np.float64))
        self.period = float(data["period"])
        self.multipliers = self._array("multipliers", lambda: _complex(data["multipliers"]))
        self.stable = bool(data["stable"])
        self.admissible = data.get("admissible")
        self.violation = data.get("violation")
        phases = data.get("phases")
        self.phases = None if phases is None else [(p["mode"], p["duration"]) for p in phases]
        self.residual = float(data["residual"])
        self.newton_iterations = int(data["newton_iterations"])
        self.params = dict(data["params"])
        self.solve_seconds = float(data["solve_seconds"])
        acc = data.get("multiplier_accuracy")
        self.multiplier_accuracy = None if acc is None else dict(acc)

    def __repr__(self):
        mods = ", ".join(f"{abs(m):.4g}" for m in self.multipliers)
        return (
            f"Orbit(period={self.period:.10g}, x0={np.array2string(self.x0, precision=6)}, "
            f"|multipliers|=[{mods}], stable={self.stable})"
        )


class Simulation(_Result):
    """A trajectory, shaped like SciPy's ``solve_ivp`` result.

    Attributes:
        t: sample times (float64 array of length n).
        y: states, one column per sample (float64 array, states × n).
        modes: the mode at each sample (int array of length n).
        outputs: an equation model's named outputs, name → float64 array of length n (NaN where
            the output is not finite); empty for other models.
        events: the events in order, ``[{"t", "guard", "from", "to"}, …]``.
        t_events: the event times (float64 array).
        state_names: names of the state components (the rows of ``y``).
        status: 0 if the run reached its end time, -1 if it failed (see ``message``).
        success: ``status == 0``.
        message: why the run stopped early, or ``"finished"``.
        nfev, njev, nlu: vector-field evaluations, Jacobian evaluations, LU decompositions.
        stats: the integrator's work as a dict (also steps and rejected steps).
        method: the method's short name.
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        samples = data["samples"]
        self.state_names = list(data.get("state_names", []))
        dim = len(data["x_end"])
        self.t = self._array("t", lambda: np.array([s["t"] for s in samples], dtype=np.float64))
        self.y = self._array(
            "y",
            lambda: np.array([s["x"] for s in samples], dtype=np.float64)
            .reshape(len(samples), dim)
            .T,
        )
        self.modes = self._array(
            "modes", lambda: np.array([s["mode"] for s in samples], dtype=np.int64)
        )

        def outputs():
            names = sorted({k for s in samples for k in s.get("outputs", {})})
            return {
                n: np.array(
                    [s.get("outputs", {}).get(n, np.nan) for s in samples], dtype=np.float64
                )
                for n in names
            }

        self.outputs = dict(self._array("outputs", outputs))
        self.events = [dict(e) for e in data["events"]]
        self.t_events = self._array(
            "t_events", lambda: np.array([e["t"] for e in self.events], dtype=np.float64)
        )
        err = data.get("error")
        self.status = 0 if err is None else -1
        self.success = err is None
        self.message = "finished" if err is None else err
        self.stats = dict(data["stats"])
        self.nfev = self.stats["rhs_evals"]
        self.njev = self.stats["jacobian_evals"]
        self.nlu = self.stats["lu_decompositions"]
        self.method = data["method"]
        self.params = dict(data["params"])

    def __getattr__(self, name):
        # The model's outputs by name, as attributes too (``sim.energy``).
        outputs = self.__dict__.get("outputs", {})
        if name in outputs:
            return outputs[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self):
        return (
            f"Simulation(method={self.method!r}, n={self.t.size}, "
            f"t=[{self.t[0] if self.t.size else 'nan'}, {self.t[-1] if self.t.size else 'nan'}], "
            f"events={len(self.events)}, status={self.status})"
        )


class Branch:
    """One branch of a continuation: arrays over its points.

    Attributes:
        label: the branch's label; period_k: its period multiplicity; end: why it ended.
        params: parameter value of each point (float64, n).
        x0: fixed point of each point (float64, n × states).
        period: period of each point (float64, n).
        multipliers: Floquet multipliers of each point (complex128, n × multipliers).
        stable: stability of each point (bool, n).
        admissible: admissibility of each point (bool, n), or ``None`` for models without
            contact conditions.
    """

    def __init__(self, data, arrays=None):
        pts = data["points"]
        self.label = data["label"]
        self.period_k = int(data["period_k"])
        self.end = data["end"]
        if arrays is not None:
            self.params = arrays["params"]
            self.x0 = arrays["x0"]
            self.period = arrays["period"]
            self.multipliers = arrays["multipliers"]
            self.stable = arrays["stable"]
            self.admissible = arrays["admissible"]
            return
        self.params = np.array([p["param"] for p in pts], dtype=np.float64)
        dim = len(pts[0]["x0"]) if pts else 0
        self.x0 = np.array([p["x0"] for p in pts], dtype=np.float64).reshape(len(pts), dim)
        self.period = np.array([p["period"] for p in pts], dtype=np.float64)
        k = len(pts[0]["multipliers"]) if pts else 0
        self.multipliers = np.array(
            [_complex(p["multipliers"]) for p in pts], dtype=np.complex128
        ).reshape(len(pts), k)
        self.stable = np.array([p["stable"] for p in pts], dtype=bool)
        adm = [p.get("admissible") for p in pts]
        self.admissible = None if not pts or adm[0] is None else np.array(adm, dtype=bool)

    def __len__(self):
        return self.params.size

    def __repr__(self):
        rng = f"{self.params.min():.6g}..{self.params.max():.6g}" if len(self) else "empty"
        return f"Branch({self.label!r}, points={len(self)}, param {rng}, end={self.end!r})"


class Continuation(_Result):
    """Branches of periodic orbits continued in a parameter, with their bifurcations.

    Attributes:
        param: the parameter continued.
        branches: the :class:`Branch` es, in the order computed (switched branches after their
            section branch).
        bifurcations: detected bifurcations, ``[{"kind", "branch", "param", "x0",
            "multipliers"}, …]`` (kind: ``"fold"``, ``"period_doubling"``, ``"neimark_sacker"``,
            ``"grazing"``; ``x0`` a float64 array, ``multipliers`` complex128).
        params: the model's parameter values (the continued one at the file's value).
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        self.param = data["param"]
        self.params = dict(data["params"])
        n = len(data["branches"])
        ba = self._array("branches", lambda: [None] * n)
        fa = self._array(
            "bifurcations",
            lambda: [
                {
                    "x0": np.array(b["x0"], dtype=np.float64),
                    "multipliers": _complex(b["multipliers"]),
                }
                for b in data["bifurcations"]
            ],
        )
        self.branches = [Branch(b, a) for b, a in zip(data["branches"], ba)]
        self.bifurcations = [
            {
                "kind": b["kind"],
                "branch": b["branch"],
                "param": b["param"],
                "x0": a["x0"],
                "multipliers": a["multipliers"],
            }
            for b, a in zip(data["bifurcations"], fa)
        ]

    def branch(self, label):
        """The branch labelled ``label`` (KeyError listing the labels if there is none)."""
        for b in self.branches:
            if b.label == label:
                return b
        raise KeyError(f"no branch {label!r}; branches: {[b.label for b in self.branches]}")

    def __repr__(self):
        return (
            f"Continuation(param={self.param!r}, branches={[b.label for b in self.branches]}, "
            f"bifurcations={[(b['kind'], round(b['param'], 8)) for b in self.bifurcations]})"
        )


class OrbitDiagram(_Result):
    """A brute-force orbit diagram: for each parameter value, the recorded strides' values of
    one state component after a transient.

    Attributes:
        param: the parameter varied.
        params: the parameter values (float64, n).
        values: the recorded values of each parameter value (a list of float64 arrays; shorter
            where a run failed).
        failed: whether each run failed (bool, n).
        causes: each failed run's cause in the model's words (``None`` where it did not fail).
        first_failure: the first failure (dict) or ``None``; failure_ranges: the failures as
            ranges of parameter values with their cause.
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        cols = data["columns"]
        self.param = data["param"]
        self.params = self._array(
            "params", lambda: np.array([c["param"] for c in cols], dtype=np.float64)
        )
        self.values = list(
            self._array(
                "values", lambda: [np.array(c["values"], dtype=np.float64) for c in cols]
            )
        )
        self.failed = self._array(
            "failed", lambda: np.array([c["failure"] is not None for c in cols], dtype=bool)
        )
        self.causes = [c["cause"] for c in cols]
        self.first_failure = data["first_failure"]
        self.failure_ranges = data["failure_ranges"]

    def points(self):
        """Every recorded value with its parameter: two float64 arrays ``(p, v)`` for a
        scatter plot."""
        p = np.concatenate([np.full(v.size, q) for q, v in zip(self.params, self.values)] or [[]])
        v = np.concatenate(self.values or [[]])
        return p.astype(np.float64), v.astype(np.float64)

    def __repr__(self):
        return f"OrbitDiagram(param={self.param!r}, values={self.params.size}, failed={int(self.failed.sum())})"
