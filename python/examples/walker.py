"""The simplest walker from Python: its gaits, their Floquet multipliers, the continuation in the
slope, and two figures (the multipliers in the complex plane, the branches with their
stability).

    python python/examples/walker.py [OUT_DIR]     # from the repository root

Needs matplotlib for the figures (without it, the numbers are printed only).
"""

import pathlib
import sys

import numpy as np

import saltation

ROOT = pathlib.Path(__file__).resolve().parents[2]
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "figures"

walker = saltation.Model.load(ROOT / "models" / "simplest_walker_continuation.ron")
for label in walker.guesses:
    o = walker.orbit(label)
    print(f"{label}: period {o.period:.6f}, |multipliers| {np.round(abs(o.multipliers), 6)}, "
          f"{'stable' if o.stable else 'unstable'}")

cont = walker.continuation(to=0.0165, progress=None)
for b in cont.branches:
    print(b)
for x in cont.bifurcations:
    print(f"{x['kind']} on {x['branch']!r} at gamma = {x['param']:.6f}")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)

out.mkdir(parents=True, exist_ok=True)
fig, ax = plt.subplots(figsize=(5, 5))
circle = np.exp(1j * np.linspace(0, 2 * np.pi, 400))
ax.plot(circle.real, circle.imag, "k-", lw=0.8)
for label, marker in zip(walker.guesses, "ox"):
    m = walker.orbit(label).multipliers
    ax.plot(m.real, m.imag, marker, label=label)
ax.set_aspect("equal")
ax.set_xlabel("Re λ")
ax.set_ylabel("Im λ")
ax.legend(fontsize=8)
ax.set_title("Floquet multipliers of the simplest walker, γ = 0.009")
fig.savefig(out / "python_walker_multipliers.png", dpi=120, bbox_inches="tight")

fig, ax = plt.subplots(figsize=(6, 4))
for b in cont.branches:
    period = b.period
    ax.plot(b.params, np.where(b.stable, period, np.nan), "-", lw=2, label=b.label)
    ax.plot(b.params, np.where(b.stable, np.nan, period), ":", lw=1, color=ax.lines[-1].get_color())
for x in cont.bifurcations:
    ax.axvline(x["param"], color="grey", lw=0.5)
ax.set_xlabel("slope γ")
ax.set_ylabel("stride period")
ax.legend(fontsize=7)
ax.set_title("Branches (solid: stable, dotted: unstable)")
fig.savefig(out / "python_walker_branches.png", dpi=120, bbox_inches="tight")
print(f"figures in {out}")
