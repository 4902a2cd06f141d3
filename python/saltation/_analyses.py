"""Result classes of the analyses beyond one orbit: two-parameter curves
(:meth:`Model.curve <saltation.Model.curve>`), basins of attraction and their shards
(:meth:`Model.basin <saltation.Model.basin>`, :func:`merge_basins`), Lyapunov exponents
(:meth:`Model.lyapunov <saltation.Model.lyapunov>`), the gait sensitivity norm
(:meth:`Model.sensitivity <saltation.Model.sensitivity>`) and the mean first-passage time on
rough terrain and its shards (:meth:`Model.mfpt <saltation.Model.mfpt>`, :func:`merge_mfpt`).

Like the other results they wrap the ``saltation`` command's JSON object (``to_dict()`` equals
what ``--json`` prints) and carry numpy arrays built in Rust; they pickle.
"""

import numpy as np

from ._errors import ArgumentTypeError
from ._results import _complex, _Result
from ._saltation import merge_basins_json, merge_mfpt_json

__all__ = [
    "Curve",
    "Basin",
    "BasinShard",
    "Lyapunov",
    "Sensitivity",
    "Mfpt",
    "MfptShard",
    "merge_basins",
    "merge_mfpt",
]


def _rows(values, cols, dtype=np.float64):
    """A list of rows as an ``n × cols`` array (``cols`` for the empty case)."""
    return np.array(values, dtype=dtype).reshape(len(values), cols)


def _floats(values):
    """A vector as a float64 array."""
    return np.array(values, dtype=np.float64)


def _item_arrays(result, key, items, vectors):
    """The arrays of each of ``items`` (the JSON's objects, e.g. attractors): its ``vectors``
    (names) as float64 and its ``multipliers`` as complex128 — those Rust built where
    ``result`` has them under ``key``."""
    return result._array(
        key,
        lambda: [
            {**{v: _floats(it[v]) for v in vectors}, "multipliers": _complex(it["multipliers"])}
            for it in items
        ],
    )


class Curve(_Result):
    """A curve of codimension-one bifurcations (fold, period doubling, Neimark–Sacker,
    grazing) continued in two parameters: what ``saltation curve`` computes.

    Attributes:
        kind: ``"fold"``, ``"period_doubling"``, ``"neimark_sacker"`` or ``"grazing"``.
        param_names: the two parameters ``[P, P2]``.
        param_values: the model's parameter values the curve started from, by name.
        period_k: period multiplicity of the orbits on the curve.
        params: ``(P, P2)`` of each point (float64, n × 2).
        x0: fixed point of each point (float64, n × states).
        period: period of each point (float64, n).
        multipliers: Floquet multipliers of each point (complex128, n × k).
        codim2: the codimension-two points met, in order: ``[{"kind", "name", "params"
            (float64, 2), "x0", "period", "multipliers"}, …]`` (kind: ``"cusp"``,
            ``"fold_flip"``, ``"resonance_1_1"``, ``"resonance_1_2"``,
            ``"fold_neimark_sacker"``, ``"flip_neimark_sacker"``, ``"grazing"``).
        end: why the curve ended, in words; end_reason: the same as a key (``"reached"``, …).
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        pts = data["points"]
        self.kind = data["kind"]
        self.param_names = list(data["params"])
        self.param_values = dict(data["param_values"])
        self.period_k = int(data["period_k"])
        dim = len(pts[0]["x0"]) if pts else 0
        k = len(pts[0]["multipliers"]) if pts else 0
        self.params = self._array("params", lambda: _rows([p["params"] for p in pts], 2))
        self.x0 = self._array("x0", lambda: _rows([p["x0"] for p in pts], dim))
        self.period = self._array("period", lambda: _floats([p["period"] for p in pts]))
        self.multipliers = self._array(
            "multipliers",
            lambda: _rows([_complex(p["multipliers"]) for p in pts], k, np.complex128),
        )
        ca = _item_arrays(self, "codim2", data["codim2"], ("params", "x0"))
        self.codim2 = [
            {
                "kind": c["kind"],
                "name": c["name"],
                "params": a["params"],
                "x0": a["x0"],
                "period": c["period"],
                "multipliers": a["multipliers"],
            }
            for c, a in zip(data["codim2"], ca)
        ]
        self.end = data["end"]
        self.end_reason = data["end_reason"]

    def __len__(self):
        return int(self.period.size)

    def __repr__(self):
        return (
            f"Curve({self.kind!r} in {tuple(self.param_names)}, points={len(self)}, "
            f"codim2={[c['kind'] for c in self.codim2]}, end={self.end_reason!r})"
        )


class Basin(_Result):
    """Basins of attraction on a grid of starts on the section: what ``saltation basin``
    (or ``saltation merge`` of its shards) computes.

    Attributes:
        axes: the grid's axes, ``[{"name", "from", "to", "count"}, …]`` (one or two).
        cells: each start's outcome, shaped by the grid (int64, ``(N,)`` or ``(N, M)``; cell
            ``(i, j)`` is value ``i`` of the first axis, ``j`` of the second): the attractor id
            ≥ 0, −1 failed (the walker fell, a stride failed), −2 undecided.
        attractors: ``[{"id", "label", "x0", "u0", "period_k", "period", "multipliers",
            "stable", "first_cell"}, …]`` (``x0``, ``u0`` float64, ``multipliers``
            complex128).
        fractions: the share of the cells of each attractor id, and of ``"failed"`` and
            ``"undecided"``.
        failure_causes, undecided_causes: ``[(cause, count), …]`` in the order first met.
    """

    FAILED = -1
    UNDECIDED = -2

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        self.axes = [dict(a) for a in data["axes"]]
        shape = tuple(a["count"] for a in self.axes)
        self.cells = self._array(
            "cells", lambda: np.array(data["cells"], dtype=np.int64).reshape(shape)
        )
        aa = _item_arrays(self, "attractors", data["attractors"], ("x0", "u0"))
        self.attractors = [
            {**a, "x0": b["x0"], "u0": b["u0"], "multipliers": b["multipliers"]}
            for a, b in zip(data["attractors"], aa)
        ]
        self.fractions = {
            (int(k) if k not in ("failed", "undecided") else k): float(v)
            for k, v in data["fractions"].items()
        }
        self.failure_causes = [(c["cause"], c["count"]) for c in data["failure_causes"]]
        self.undecided_causes = [(c["cause"], c["count"]) for c in data["undecided_causes"]]

    def axis_values(self, k=0):
        """The values of axis ``k`` (float64): ``count`` values evenly spaced from ``from`` to
        ``to`` (as the grid spaces them)."""
        a = self.axes[k]
        return np.linspace(a["from"], a["to"], a["count"])

    def __repr__(self):
        return (
            f"Basin(axes={[a['name'] for a in self.axes]}, cells={self.cells.shape}, "
            f"attractors={[a['label'] for a in self.attractors]}, fractions={self.fractions})"
        )


class _Shard:
    """One shard of a sharded run: its index ``i`` of ``count`` ``n`` and the text of the
    shard file the command writes with ``--shard i/n``. Subclasses name the command's file
    kind (``_KIND``, as in ``<stem>_<kind>_shard_<i>_of_<n>.json``)."""

    __slots__ = ("text", "index", "count")
    _KIND = ""

    def __init__(self, text, index, count):
        self.text = text
        self.index = int(index)
        self.count = int(count)

    def __reduce__(self):
        return (type(self), (self.text, self.index, self.count))

    def __eq__(self, other):
        return isinstance(other, type(self)) and self.text == other.text

    __hash__ = None

    def save(self, directory, stem):
        import os

        path = os.path.join(
            os.fspath(directory),
            f"{stem}_{self._KIND}_shard_{self.index}_of_{self.count}.json",
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)
        return path

    def __repr__(self):
        return f"{type(self).__name__}({self.index}/{self.count}, {len(self.text)} bytes)"


def _shard_texts(parts, cls, article):
    """The shard files' texts of ``parts`` (``cls`` instances or texts), refusing anything
    else by its place ``parts[k]`` (``article``: ``"a"`` or ``"an"`` before the class name)."""
    name = cls.__name__
    if isinstance(parts, (str, bytes, cls)):
        raise ArgumentTypeError(f"parts: expected a sequence of {name} (or shard texts)")
    texts = []
    for k, p in enumerate(parts):
        if isinstance(p, cls):
            texts.append(p.text)
        elif isinstance(p, str):
            texts.append(p)
        else:
            raise ArgumentTypeError(
                f"parts[{k}]: expected {article} {name} or a shard file's text, "
                f"got {type(p).__name__}"
            )
    return texts


class BasinShard(_Shard):
    """One shard of a basin (``model.basin(..., shard=(i, n))``): the outcomes of cells ``i,
    i + n, i + 2n, …`` with the run's header, as the text of the shard file ``saltation basin
    --shard i/n`` writes (so :meth:`save` writes a file ``saltation merge`` reads). Join the
    ``n`` shards with :func:`merge_basins`.

    Attributes:
        index, count: the shard ``i`` and the number of shards ``n``.
        text: the shard file's text (JSON).
    """

    __slots__ = ()
    _KIND = "basin"

    def save(self, directory, stem):
        """Writes the shard file ``<directory>/<stem>_basin_shard_<i>_of_<n>.json`` (the name
        ``saltation basin --shard`` gives it for a model file ``<stem>.ron``); returns the
        path."""
        return super().save(directory, stem)


def merge_basins(parts):
    """Joins the shards of one basin run into exactly the unsharded :class:`Basin` (cells,
    attractors and fractions identical), as ``saltation merge`` does.

    Args:
        parts: the :class:`BasinShard` s (any order), or shard files' texts (str).

    Raises:
        ArgumentError: shards of different runs, a shard twice or missing (the message names
            ``parts[k]``), a text that is not a shard file.
        BasinError: identifying the attractors failed.
    """
    data, arrays = merge_basins_json(_shard_texts(parts, BasinShard, "a"))
    import json

    return Basin(json.loads(data), arrays)


class Lyapunov(_Result):
    """Lyapunov exponents on the section, tangent vectors carried through every phase and
    every impact (the saltation matrix) and re-orthonormalised each stride: what ``saltation
    lyapunov`` computes.

    Attributes:
        exponents: per unit time, descending (float64).
        per_stride: the same per stride (float64).
        strides: strides taken; time: their total duration.
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        self.exponents = self._array("exponents", lambda: _floats(data["exponents"]))
        self.per_stride = self._array("per_stride", lambda: _floats(data["per_stride"]))
        self.strides = int(data["strides"])
        self.time = float(data["time"])

    def __repr__(self):
        return f"Lyapunov(exponents={self.exponents}, strides={self.strides})"


class Sensitivity(_Result):
    """The gait sensitivity norm (Hobbelen & Wisse 2007) for a disturbance entering as a
    one-stride change of a parameter: what ``saltation sensitivity`` computes.

    Attributes:
        disturbance: the parameter disturbed.
        indicators: the gait indicators (``["step_time"]``).
        norm: the norm ``sqrt(Σ_k ‖y_k‖²)`` of the impulse response.
        lyapunov_norm: the same from the discrete Lyapunov equation, or ``None``.
        spectral_radius: of the reduced stride Jacobian ``a``.
        impulse_response: ``y_k`` per stride (float64, strides × indicators).
        strides: rows of ``impulse_response``.
        u0, x0, period: the periodic orbit (reduced coordinates, full state, period).
        a, b, c, d: the linearisation ``x_{k+1} = a x_k + b d_k``, ``y_k = c x_k + d d_k``.
        params: the model's parameter values.
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        lin = data["linearisation"]
        orbit = data["orbit"]
        self.disturbance = data["disturbance"]
        self.indicators = list(data["indicators"])
        self.norm = float(data["norm"])
        self.lyapunov_norm = data["lyapunov_norm"]
        self.spectral_radius = float(data["spectral_radius"])
        self.strides = int(data["strides"])
        self.params = dict(data["params"])
        self.period = float(orbit["period"])
        ni = len(self.indicators)
        r = len(orbit["u0"])
        self.impulse_response = self._array(
            "impulse_response", lambda: _rows(data["impulse_response"], ni)
        )
        self.u0 = self._array("u0", lambda: _floats(orbit["u0"]))
        self.x0 = self._array("x0", lambda: _floats(orbit["x0"]))
        self.a = self._array("a", lambda: _rows(lin["a"], r))
        self.b = self._array("b", lambda: _floats(lin["b"]))
        self.c = self._array("c", lambda: _rows(lin["c"], r))
        self.d = self._array("d", lambda: _floats(lin["d"]))

    def __repr__(self):
        return (
            f"Sensitivity(disturbance={self.disturbance!r}, norm={self.norm:.6g}, "
            f"strides={self.strides})"
        )


def _nan(v):
    return np.nan if v is None else float(v)


def _part(level, block, key):
    """``level[block][key]``, or ``None`` where the block is absent (its method did not run)
    or the key is (an infinite time, no estimate)."""
    return (level.get(block) or {}).get(key)


class Mfpt(_Result):
    """The mean first-passage time of a gait on rough terrain (a parameter drawn afresh at
    every stride): Byl & Tedrake's mesh Markov chain and Monte Carlo side by side, at one or
    several roughness levels — what ``saltation mfpt`` computes.

    Attributes:
        model, param, distribution: the model's name, the parameter drawn, its distribution.
        nominal: ``{"u0", "period", "param_value"}``, the periodic orbit at the mean.
        levels: the JSON's per-level objects ``[{"sd", "distribution", "chain", "monte_carlo"},
            …]`` (``"chain"`` or ``"monte_carlo"`` absent where that method did not run:
            ``method=``; its arrays are then NaN).
        roughness: the levels' standard deviations (float64).
        chain_mfpt: the chain's ``1/(1 − λ₂)`` per level (float64, NaN: infinite).
        chain_lambda2: the chain's second eigenvalue ``λ₂`` per level.
        chain_expected_steps: the chain's expected strides from the nominal orbit (NaN:
            infinite).
        mc_mean: Monte Carlo's mean strides to a fall (NaN: no estimate).
        mc_ci: its confidence interval, ``levels × 2`` (NaN: no estimate).
    """

    def __init__(self, data, arrays=None):
        super().__init__(data, arrays)
        self.model = data["model"]
        self.param = data["param"]
        self.distribution = data["distribution"]
        self.nominal = dict(data["nominal"])
        self.levels = [dict(lv) for lv in data["levels"]]
        lv = data["levels"]
        self.roughness = self._array(
            "roughness", lambda: np.array([x["sd"] for x in lv], dtype=np.float64)
        )
        self.chain_mfpt = self._array(
            "chain_mfpt", lambda: np.array([_nan(_part(x, "chain", "mfpt")) for x in lv])
        )
        self.chain_lambda2 = self._array(
            "chain_lambda2", lambda: np.array([_nan(_part(x, "chain", "lambda2")) for x in lv])
        )
        self.chain_expected_steps = self._array(
            "chain_expected_steps",
            lambda: np.array([_nan(_part(x, "chain", "expected_steps")) for x in lv]),
        )
        self.mc_mean = self._array(
            "mc_mean", lambda: np.array([_nan(_part(x, "monte_carlo", "mean")) for x in lv])
        )
        self.mc_ci = self._array(
            "mc_ci",
            lambda: _rows(
                [
                    [_nan(c) for c in (_part(x, "monte_carlo", "ci") or [None, None])]
                    for x in lv
                ],
                2,
            ),
        )

    def __repr__(self):
        return (
            f"Mfpt({self.param!r} ~ {self.distribution}, levels={len(self.levels)}, "
            f"chain_mfpt={self.chain_mfpt.tolist()}, mc_mean={self.mc_mean.tolist()})"
        )


class MfptShard(_Shard):
    """One shard of a mean first-passage time run (``model.mfpt(..., shard=(i, n))``): the
    mesh points and Monte Carlo runs ``i, i + n, …`` of every level with the run's header, as
    the text of the shard file ``saltation mfpt --shard i/n`` writes. :func:`merge_mfpt` (or
    ``saltation merge`` on the saved files) joins the ``n`` shards into exactly the unsharded
    result.

    Attributes:
        index, count: the shard ``i`` and the number of shards ``n``.
        text: the shard file's text (JSON).
    """

    __slots__ = ()
    _KIND = "mfpt"

    def save(self, directory, stem):
        """Writes the shard file ``<directory>/<stem>_mfpt_shard_<i>_of_<n>.json`` (the name
        ``saltation mfpt --shard`` gives it for a model file ``<stem>.ron``); returns the
        path."""
        return super().save(directory, stem)


def merge_mfpt(parts):
    """Joins the shards of one mean first-passage time run into exactly the unsharded
    :class:`Mfpt`, as ``saltation merge`` does.

    Args:
        parts: the :class:`MfptShard` s (any order), or shard files' texts (str).

    Raises:
        ArgumentError: shards of different runs, a shard twice or missing (the message names
            ``parts[k]``), a text that is not an mfpt shard file.
        MfptError: the chain could not be solved.
    """
    data, arrays = merge_mfpt_json(_shard_texts(parts, MfptShard, "an"))
    import json

    return Mfpt(json.loads(data), arrays)
