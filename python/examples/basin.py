"""The simplest walker's basin of attraction on the heel-strike section from Python: a grid of
starts (θ, θ̇) iterated stride by stride, each coloured by where it ends (the gait, a fall, or
undecided), computed as shards on a Dask ``LocalCluster`` when ``distributed`` is installed
(else in this process), and drawn with matplotlib.

    python python/examples/basin.py [OUT_DIR] [N]     # from the repository root; N × N starts

Needs matplotlib for the figure (without it, the numbers are printed only).
"""

import pathlib
import sys
import time

import numpy as np

import saltation

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "figures"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 60

    walker = saltation.Model.load(ROOT / "models" / "simplest_walker.ron")
    axes = {"u0": (0.15, 0.25, n), "u1": (-0.3, -0.1, n)}

    start = time.perf_counter()
    try:
        from distributed import Client, LocalCluster

        from saltation.dask import basin as dask_basin

        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            basin = dask_basin(walker, axes=axes, shards=8, client=client, strides=50)
        how = "Dask LocalCluster(2), 8 shards"
    except ImportError:
        basin = walker.basin(axes=axes, strides=50)
        how = "one process"
    print(f"{basin.cells.size} starts in {time.perf_counter() - start:.1f} s ({how})")
    for a in basin.attractors:
        print(f"{a['label']}: u0 = {np.round(a['u0'], 6)}, |multipliers| = "
              f"{np.round(abs(a['multipliers']), 4)}, {basin.fractions[a['id']]:.3%} of the starts")
    print(f"failed {basin.fractions['failed']:.3%}, undecided {basin.fractions['undecided']:.3%}")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
    except ImportError:
        return

    out.mkdir(parents=True, exist_ok=True)
    x, y = basin.axis_values(0), basin.axis_values(1)
    # cells[i, j]: value i of the first axis (θ), j of the second (θ̇); −2 undecided, −1 fell.
    colours = ListedColormap(["0.85", "0.55", "tab:blue", "tab:orange", "tab:green", "tab:red"])
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.pcolormesh(x, y, basin.cells.T, cmap=colours, vmin=-2.5, vmax=3.5, shading="nearest")
    for a in basin.attractors:
        ax.plot(a["u0"][0], a["u0"][1], "k*", ms=12, label=a["label"])
    names = [ax_["name"] for ax_ in basin.axes]
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_title("simplest walker: basin of attraction (dark grey: falls)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out / "python_walker_basin.png"
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


if __name__ == "__main__":  # Dask workers import this file: compute only when run
    main()
