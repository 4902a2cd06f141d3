#!/usr/bin/env python3
"""Independent reference for the compass-gait biped (no Saltation involved).

The model of Goswami, Thuilot & Espiau (INRIA RR-2996, 1996; IJRR 17(12), 1998): two rigid
legs of length l = a + b with point masses m (at a from the foot, b from the hip) and a hip
mass m_H, walking passively down a slope phi.

Convention (the papers'): angles of the legs from the vertical, counter-clockwise positive,
the biped walking down the slope towards +x; state x = (th_ns, th_s, dth_ns, dth_s)
(swing = non-support leg, stance = support leg). Heel strike: th_ns + th_s = -2 phi with the
swing leg ahead (th_ns > th_s).

This script
  * integrates single support with SciPy's solve_ivp (DOP853, rtol = atol = 1e-13) and locates
    the heel strike as an event (in two phases: until the legs cross, then until the swing
    foot reaches the slope, so the foot scuffing at mid-stance is skipped);
  * applies the impact map from a floating-base impulse computation (4x4 mass matrix, the
    new stance foot's velocity set to zero) and checks it against the closed form
    Q+(alpha) dq+ = Q-(alpha) dq- of Goswami et al.;
  * finds the fixed point of the stride map (just after heel strike, reduced coordinates
    u = (th_s, dth_ns, dth_s); th_ns = -th_s - 2 phi) by Newton with a central-difference
    Jacobian, and prints the fixed point (both sides of the impact), the period and the
    multipliers (central differences, and central differences with one Richardson step).

Run: python3 scripts/compass_gait_reference.py [phi_degrees] [--cascade]   (default 3 degrees;
--cascade also locates the first three period doublings in the slope, about a minute)
"""

import sys

import numpy as np
from scipy.integrate import solve_ivp

M_LEG, M_HIP, A, B, G = 5.0, 10.0, 0.5, 0.5, 9.81
L = A + B
RTOL = ATOL = 1e-13


def rhs(_t, x):
    """Single support: M(q) ddq + C(q, dq) + G(q) = 0 with q = (th_ns, th_s)."""
    th_ns, th_s, w_ns, w_s = x
    c = np.cos(th_s - th_ns)
    s = np.sin(th_s - th_ns)
    m11 = M_LEG * B * B
    m12 = -M_LEG * L * B * c
    m22 = (M_HIP + M_LEG) * L * L + M_LEG * A * A
    # Right-hand side -(C + G), derived from the Lagrangian
    # T = 1/2 (m a^2 + (m_H + m) l^2) w_s^2 + 1/2 m b^2 w_ns^2 - m l b cos(th_s - th_ns) w_s w_ns,
    # V = g (m a + m_H l + m l) cos th_s - m b g cos th_ns.
    r1 = -(M_LEG * L * B * s * w_s**2 + M_LEG * B * G * np.sin(th_ns))
    r2 = M_LEG * L * B * s * w_ns**2 + (M_HIP * L + M_LEG * A + M_LEG * L) * G * np.sin(th_s)
    det = m11 * m22 - m12 * m12
    acc_ns = (m22 * r1 - m12 * r2) / det
    acc_s = (-m12 * r1 + m11 * r2) / det
    return [w_ns, w_s, acc_ns, acc_s]


def impact_floating_base(x):
    """Heel strike from an impulse computation on the floating-base model (x_f, y_f, th_s, th_ns):
    the stance foot (x_f, y_f) is free, the swing foot must stop; returns the post-impact state
    with the legs' roles swapped."""
    th_ns, th_s, w_ns, w_s = x
    # Positions: stance-leg mass p1 = f + a(-sin th_s, cos th_s), hip ph = f + l(-sin th_s, cos th_s),
    # swing-leg mass p2 = ph + b(sin th_ns, -cos th_ns), swing foot pf = ph + l(sin th_ns, -cos th_ns).
    def jac(d_s, d_ns):
        return np.array([
            [1.0, 0.0, -d_s * np.cos(th_s), d_ns * np.cos(th_ns)],
            [0.0, 1.0, -d_s * np.sin(th_s), d_ns * np.sin(th_ns)],
        ])

    j1, jh, j2, jf = jac(A, 0.0), jac(L, 0.0), jac(L, B), jac(L, L)
    mass = M_LEG * j1.T @ j1 + M_HIP * jh.T @ jh + M_LEG * j2.T @ j2
    v_minus = np.array([0.0, 0.0, w_s, w_ns])
    # M (v+ - v-) = jf^T lam, jf v+ = 0.
    kkt = np.zeros((6, 6))
    kkt[:4, :4] = mass
    kkt[:4, 4:] = -jf.T
    kkt[4:, :4] = jf
    rhs_v = np.concatenate([mass @ v_minus, np.zeros(2)])
    sol = np.linalg.solve(kkt, rhs_v)
    v_plus = sol[:4]
    # Old stance foot must leave the ground (velocity along the slope normal (sin phi, cos phi) > 0
    # is checked by the caller through lift_off_speed if wanted).
    return np.array([th_s, th_ns, v_plus[2], v_plus[3]]), v_plus


def impact_goswami(x):
    """Closed form of Goswami et al. (RR-2996 / IJRR 1998): Q+(alpha) dq+ = Q-(alpha) dq-,
    alpha = (th_ns - th_s)/2 (half the inter-leg angle), q = (th_ns, th_s), positions swapped."""
    th_ns, th_s, w_ns, w_s = x
    c2a = np.cos(th_ns - th_s)
    qm = np.array([
        [-M_LEG * A * B, -M_LEG * A * B + (M_HIP * L * L + 2 * M_LEG * A * L) * c2a],
        [0.0, -M_LEG * A * B],
    ])
    qp = np.array([
        [M_LEG * B * (B - L * c2a), M_LEG * L * (L - B * c2a) + M_LEG * A * A + M_HIP * L * L],
        [M_LEG * B * B, -M_LEG * B * L * c2a],
    ])
    w_plus = np.linalg.solve(qp, qm @ np.array([w_ns, w_s]))
    return np.array([th_s, th_ns, w_plus[0], w_plus[1]])


def step(x0, phi, dense=False):
    """One step from just after heel strike to just before the next: (x_minus, duration)."""
    def legs_cross(_t, x):
        return x[0] - x[1]

    legs_cross.terminal = True
    legs_cross.direction = 1.0

    def heel_strike(_t, x):
        return x[0] + x[1] + 2.0 * phi

    heel_strike.terminal = True
    heel_strike.direction = -1.0

    def fall(_t, x):
        return np.cos(x[1] + phi)

    fall.terminal = True
    fall.direction = -1.0

    kw = dict(method="DOP853", rtol=RTOL, atol=ATOL)
    s1 = solve_ivp(rhs, (0.0, 10.0), x0, events=[legs_cross, fall], **kw)
    if s1.status != 1 or len(s1.t_events[0]) == 0:
        raise RuntimeError("the walker fell (or the legs never crossed)")
    t1, x1 = s1.t_events[0][0], s1.y_events[0][0]
    s2 = solve_ivp(rhs, (t1, t1 + 10.0), x1, events=[heel_strike, fall], **kw)
    if s2.status != 1 or len(s2.t_events[0]) == 0:
        raise RuntimeError("the walker fell before heel strike")
    return s2.y_events[0][0], s2.t_events[0][0]


def chart(u, phi):
    th_s, w_ns, w_s = u
    return np.array([-th_s - 2.0 * phi, th_s, w_ns, w_s])


def stride(u, phi):
    """Stride map in the reduced coordinates u = (th_s, dth_ns, dth_s) just after heel strike."""
    x_minus, period = step(chart(u, phi), phi)
    x_plus, _ = impact_floating_base(x_minus)
    return np.array([x_plus[1], x_plus[2], x_plus[3]]), period, x_minus, x_plus


def cd_jacobian(f, u, h):
    n = len(u)
    jac = np.zeros((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        jac[:, k] = (f(u + e) - f(u - e)) / (2.0 * h)
    return jac


def fixed_point(phi, u, k=1, tol=1e-14):
    """Fixed point of the k-fold stride map P^k near u (Newton, central-difference Jacobian)."""
    def fk(v):
        for _ in range(k):
            v = stride(v, phi)[0]
        return v

    for _ in range(30):
        jac = cd_jacobian(fk, u, 1e-6)
        du = np.linalg.solve(jac - np.eye(3), u - fk(u))
        u = u + du
        if np.linalg.norm(du) < tol:
            break
    return u, fk


def flip_multiplier(phi, u, k=1):
    """The real multiplier of P^k nearest -1 at the fixed point near u, and that fixed point."""
    u, fk = fixed_point(phi, u, k)
    jac = (4.0 * cd_jacobian(fk, u, 5e-5) - cd_jacobian(fk, u, 1e-4)) / 3.0
    mu = np.linalg.eigvals(jac)
    real = mu[np.abs(mu.imag) < 1e-12].real
    return real[np.argmin(np.abs(real + 1.0))], u


def period_doubling(phi0, phi1, u, k=1):
    """Slope where a multiplier of the period-k orbit crosses -1 (secant on mu(phi) + 1)."""
    m0, u = flip_multiplier(phi0, u, k)
    m1, u = flip_multiplier(phi1, u, k)
    for _ in range(30):
        phi2 = phi1 - (m1 + 1.0) * (phi1 - phi0) / (m1 - m0)
        phi0, m0 = phi1, m1
        m2, u = flip_multiplier(phi2, u, k)
        phi1, m1 = phi2, m2
        if abs(m1 + 1.0) < 1e-11:
            break
    return phi1, u


def cascade(u1):
    """The first three period doublings from the 3-degree gait's fixed point u1."""
    deg = np.deg2rad
    phi_pd1, u = period_doubling(deg(4.3), deg(4.45), u1)
    print(f"period doubling of the period-1 gait: phi = {phi_pd1:.12f} rad"
          f" = {np.rad2deg(phi_pd1):.8f} deg (a multiplier crosses -1)")
    # The period-2 orbit (a fixed point of P^2) from the attractor, reached by iterating P at
    # 4.6 degrees; likewise the period-4 orbit from the attractor at 5 degrees.
    phi = deg(4.6)
    v = u.copy()
    for _ in range(200):
        v = stride(v, phi)[0]
    phi_pd2, v = period_doubling(deg(4.85), deg(4.9), v, k=2)
    print(f"period doubling of the period-2 gait: phi = {phi_pd2:.12f} rad"
          f" = {np.rad2deg(phi_pd2):.8f} deg")
    phi = deg(5.0)
    for _ in range(400):
        v = stride(v, phi)[0]
    phi_pd4, v = period_doubling(deg(4.995), deg(5.005), v, k=4)
    print(f"period doubling of the period-4 gait: phi = {phi_pd4:.12f} rad"
          f" = {np.rad2deg(phi_pd4):.8f} deg")


def main():
    global G
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    phi_deg = float(args[0]) if args else 3.0
    phi = np.deg2rad(phi_deg)
    print(f"compass gait: m = {M_LEG}, m_H = {M_HIP}, a = {A}, b = {B}, g = {G}, "
          f"phi = {phi_deg} deg = {phi:.16f} rad")

    # The two impact maps agree (independent derivations).
    x_test = np.array([0.25, -0.35, -0.4, -1.1])
    d = np.max(np.abs(impact_floating_base(x_test)[0] - impact_goswami(x_test)))
    print(f"impact map: floating-base impulse vs Goswami Q+/Q- closed form: max diff {d:.1e}")

    f = lambda u: stride(u, phi)[0]
    u = np.array([0.22, -0.38, -1.09])  # rough guess (th_s, dth_ns, dth_s) after heel strike
    for it in range(20):
        r = f(u) - u
        jac = cd_jacobian(f, u, 1e-5)
        du = np.linalg.solve(jac - np.eye(3), -r)
        u = u + du
        print(f"  Newton {it}: |r| = {np.linalg.norm(r):.3e}  |du| = {np.linalg.norm(du):.3e}")
        if np.linalg.norm(du) < 1e-14 or np.linalg.norm(r) < 1e-14:
            break
    u_next, period, x_minus, _ = stride(u, phi)
    print(f"residual |P(u) - u| = {np.linalg.norm(u_next - u):.3e}")
    x0 = chart(u, phi)
    np.set_printoptions(precision=15)
    print("fixed point, just after heel strike  (th_ns, th_s, dth_ns, dth_s):")
    print("   ", " ".join(f"{v:+.15f}" for v in x0))
    print("fixed point, just before heel strike (th_ns, th_s, dth_ns, dth_s):")
    print("   ", " ".join(f"{v:+.15f}" for v in x_minus))
    print(f"period (step time) T = {period:.15f} s")
    step_length = 2.0 * L * np.sin((x_minus[0] - x_minus[1]) / 2.0)
    print(f"step length 2 l sin(alpha) = {step_length:.15f} m, "
          f"speed = {step_length / period:.15f} m/s")
    # The old stance foot (the floating base's (x, y)) must leave the slope after the impact:
    # its velocity along the slope normal (sin phi, cos phi) is positive.
    v_plus = impact_floating_base(x_minus)[1]
    old_stance_foot_normal_speed = np.sin(phi) * v_plus[0] + np.cos(phi) * v_plus[1]
    print(f"old stance foot normal speed right after impact = {old_stance_foot_normal_speed:+.6f} "
          "(must be > 0: it lifts off)")

    jac_cd = cd_jacobian(f, u, 1e-4)
    jac_cd2 = cd_jacobian(f, u, 5e-5)
    jac_rich = (4.0 * jac_cd2 - jac_cd) / 3.0
    for label, jac in (("central differences (h = 1e-4)", jac_cd),
                       ("central differences + Richardson (h = 1e-4, 5e-5)", jac_rich)):
        mu = np.linalg.eigvals(jac)
        mu = mu[np.argsort(-np.abs(mu))]
        print(f"multipliers of the 3x3 stride map, {label}:")
        for z in mu:
            print(f"    {z.real:+.12f} {z.imag:+.12f}i   |mu| = {abs(z):.12f}")

    # The 4x4 map x+ -> x+ (what a 4-D Poincare map gives): the same three plus a zero.
    def full(x):
        xm, _ = step(x, phi)
        return impact_floating_base(xm)[0]

    jac4 = cd_jacobian(full, x0, 1e-5)
    mu4 = np.linalg.eigvals(jac4)
    mu4 = mu4[np.argsort(-np.abs(mu4))]
    print("eigenvalues of the 4x4 Jacobian of x+ -> x+ (central differences, h = 1e-5;"
          " perturbations off the guard surface are allowed, so one eigenvalue is ~0):")
    for z in mu4:
        print(f"    {z.real:+.10f} {z.imag:+.10f}i   |mu| = {abs(z):.10f}")

    if phi_deg == 3.0 and "--cascade" in sys.argv:
        cascade(u)

    # The state quoted for this gait in many reproductions, (0.2187, -0.3234, -0.3772, -1.0918)
    # (attributed to Goswami et al.; its primary source could not be checked here), is the
    # post-impact state of this gait for g = 9.8 (not 9.81: the rates scale with sqrt(g), the
    # angles do not), with the angles listed stance first: (th_s, th_ns, dth_ns, dth_s).
    g_saved, G = G, 9.8
    u98, _ = fixed_point(phi, u.copy())
    x98 = chart(u98, phi)
    G = g_saved
    quoted = np.array([0.2187, -0.3234, -0.3772, -1.0918])
    mine = np.array([x98[1], x98[0], x98[2], x98[3]])
    print("\nwith g = 9.8, just after heel strike, (th_s, th_ns, dth_ns, dth_s) ="
          f" ({', '.join(f'{v:+.6f}' for v in mine)})")
    print(f"    vs the often-quoted (0.2187, -0.3234, -0.3772, -1.0918): max |difference| "
          f"{np.max(np.abs(mine - quoted)):.1e} (4 decimals)")


if __name__ == "__main__":
    main()
