"""Progress of long calls (:meth:`Model.continuation`, :meth:`Model.orbit_diagram`,
:meth:`Model.curve`, :meth:`Model.basin`).

``progress=`` takes:

* ``None`` (default): nothing is reported;
* a callable: called with one dict per event (from the computing thread, while the computation
  runs with the GIL released) — ``{"event": "branch_started", "branch", "branches", "label",
  "period_k", "from", "to", "max_points"}``, ``{"event": "point", "branch", "branches",
  "points", "max_points", "param", "step"}``, ``{"event": "branch_done", "branch", "branches",
  "label", "points"}``, ``{"event": "diagram_started", "total"}``, ``{"event": "diagram",
  "done", "total"}``. An exception it raises is raised when the call returns (the computation is
  not interrupted);
  :meth:`Model.curve` reports ``{"event": "curve", "points", "max_points", "p", "p2",
  "step"}`` per point, :meth:`Model.basin` ``{"event": "basin_started", "total"}`` then
  ``{"event": "basin", "done", "total"}`` (from its worker threads), :meth:`Model.mfpt`
  ``{"event": "mfpt_started", "level", "sd", "part", "total"}`` (``part`` ``"chain"`` or
  ``"monte_carlo"``) then ``{"event": "mfpt", "done", "total"}`` per level and part;
* ``True`` or ``"tqdm"``: a tqdm bar (``tqdm.auto``) per branch, for the orbit diagram, the
  curve, the basin and each part of the mfpt; tqdm must be installed (``pip install tqdm``), else
  :class:`saltation.ArgumentError`.
"""

from ._errors import ArgumentError, ArgumentTypeError


class _Tqdm:
    """A progress callback drawing tqdm bars: one per branch (points of its limit), one for
    the orbit diagram (values done)."""

    def __init__(self):
        try:
            from tqdm.auto import tqdm
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ArgumentError("progress=True needs tqdm (pip install tqdm)") from e
        self._tqdm = tqdm
        self._bar = None

    def _close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __call__(self, e):
        kind = e["event"]
        if kind == "branch_started":
            self._close()
            desc = f"branch {e['branch'] + 1}/{e['branches']} {e['label']}"
            self._bar = self._tqdm(total=e["max_points"], desc=desc, unit="pt", leave=False)
        elif kind == "point" and self._bar is not None:
            self._bar.n = e["points"]
            self._bar.set_postfix_str(f"param={e['param']:.6g}", refresh=True)
        elif kind == "branch_done":
            self._close()
        elif kind in ("diagram_started", "basin_started"):
            self._close()
            desc, unit = ("orbit diagram", "value") if kind == "diagram_started" else ("basin", "start")
            self._bar = self._tqdm(total=e["total"], desc=desc, unit=unit)
        elif kind == "mfpt_started":
            self._close()
            part = "chain" if e["part"] == "chain" else "Monte Carlo"
            unit = "point" if e["part"] == "chain" else "run"
            desc = f"mfpt {part} sd {e['sd']:.6g}"
            self._bar = self._tqdm(total=e["total"], desc=desc, unit=unit)
        elif kind == "curve":
            if self._bar is None:
                self._bar = self._tqdm(total=e["max_points"], desc="curve", unit="pt")
            self._bar.n = e["points"]
            self._bar.set_postfix_str(f"p={e['p']:.6g}, p2={e['p2']:.6g}", refresh=True)
        elif kind in ("diagram", "basin", "mfpt") and self._bar is not None:
            self._bar.n = e["done"]
            self._bar.refresh()
            if e["done"] >= e["total"]:
                self._close()

    def close(self):
        self._close()


def callback(progress):
    """The callable to hand to the extension for ``progress=`` (see the module doc), and a
    function closing what it opened."""
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True or progress == "tqdm":
        bar = _Tqdm()
        return bar, bar.close
    if callable(progress):
        return progress, lambda: None
    raise ArgumentTypeError(
        f"progress={progress!r}: expected None, True, 'tqdm' or a callable taking one dict"
    )
