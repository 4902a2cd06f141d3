#!/usr/bin/env python3
"""SciPy's Radau on one reference-grade run of the monopod (the solver study's nominal set).

The SciPy counterpart of

    saltation simulate models/monopod.ron --method radau5 --rtol 1e-12 --atol 1e-12 \
        --at 5,10,20,30,40,50 --json

The dimensionless monopod on Hunt-Crossley ground (eqs. 18-19 of the study of Papadopoulos
and co-authors): b* = 1951, m1* = 1.88, k* = 22.8, f* = 0.051, q0 = (0.5, 0, 1.5, 0), t in
[0, 50]; the contacts as events (terminal, restarted with the other phase's equations), exact
Jacobian given, rtol = atol = 1e-12.

How to run (from the repository root):

    python3 -m pip install scipy numpy
    python3 scripts/scipy_monopod_radau.py            # 3 timed runs, prints the median
    python3 scripts/scipy_monopod_radau.py --if-else  # the phase test inside the vector field

Prints the wall time, steps and right-hand-side evaluations, the number of contacts and the
state at t = 5, 10, 20, 30, 40, 50 (to compare with Saltation's JSON).
"""

import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

B, M1, K, F = 1951.0, 1.88, 22.8, 0.051
C = 4.0 * np.pi**2 - M1
TOL = 1e-12
T_END = 50.0
AT = [5.0, 10.0, 20.0, 30.0, 40.0, 50.0]


def rhs(stance):
    def f(_t, q):
        y1, v1, y2, v2 = q
        a1 = C * (y2 - y1) - F - C
        if stance:
            a = abs(y1)
            s = np.sqrt(a)
            a1 -= B * a * s * v1 + C * K * s * y1
        return [v1, a1, v2, M1 * (y1 - y2) + M1 - F]

    return f


def jac(stance):
    def j(_t, q):
        y1, v1 = q[0], q[1]
        d_y1, d_v1 = -C, 0.0
        if stance:
            s = np.sqrt(abs(y1))
            d_y1 -= 1.5 * B * s * np.sign(y1) * v1 + 1.5 * C * K * s
            d_v1 = -B * s**3
        return [[0, 1, 0, 0], [d_y1, d_v1, C, 0], [0, 0, 0, 1], [M1, 0, -M1, 0]]

    return j


def if_else_rhs(t, q):
    return rhs(q[0] <= 0.0)(t, q)


def if_else_jac(t, q):
    return jac(q[0] <= 0.0)(t, q)


def ground(_t, q):
    return q[0]


def with_events():
    """Integrates phase by phase, restarting at each contact; returns (states at AT, stats)."""
    t, q, stance = 0.0, np.array([0.5, 0.0, 1.5, 0.0]), False
    out, steps, nfev, contacts = {}, 0, 0, 0
    while t < T_END:
        ev = lambda tt, qq: ground(tt, qq)  # noqa: E731
        ev.terminal = True
        ev.direction = 1.0 if stance else -1.0
        sol = solve_ivp(rhs(stance), (t, T_END), q, method="Radau", jac=jac(stance),
                        rtol=TOL, atol=TOL, events=ev, dense_output=True)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        steps += len(sol.t) - 1
        nfev += sol.nfev
        t_stop = sol.t[-1]
        for s in AT:
            if t < s <= t_stop or (s == t_stop == T_END):
                out[s] = sol.sol(s)
        if sol.status == 1:
            t, q = sol.t_events[0][0], sol.y_events[0][0]
            contacts += 0 if stance else 1
            stance = not stance
        else:
            t = T_END
    return [out[s] for s in AT], steps, nfev, contacts


def if_else():
    sol = solve_ivp(if_else_rhs, (0.0, T_END), [0.5, 0.0, 1.5, 0.0], method="Radau",
                    jac=if_else_jac, rtol=TOL, atol=TOL, dense_output=True)
    if sol.status < 0:
        raise RuntimeError(sol.message)
    return [sol.sol(s) for s in AT], len(sol.t) - 1, sol.nfev, None


def main():
    run = if_else if "--if-else" in sys.argv else with_events
    times = []
    for _ in range(3):
        start = time.perf_counter()
        states, steps, nfev, contacts = run()
        times.append(time.perf_counter() - start)
    print(f"SciPy Radau ({run.__name__}), rtol = atol = {TOL:g}: median {np.median(times):.2f} s "
          f"of {len(times)} runs (min {min(times):.2f}, max {max(times):.2f})")
    print(f"steps {steps}, rhs evaluations {nfev}, touchdowns {contacts}")
    for s, x in zip(AT, states):
        print(f"t = {s:4g}: " + " ".join(f"{v:.12f}" for v in x))


if __name__ == "__main__":
    main()
