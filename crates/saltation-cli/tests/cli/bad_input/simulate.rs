//! `saltation simulate` and the `initial` section: the initial state and mode, the method, the
//! tolerances, end and sample times, the output, and failures mid-way (a Zeno accumulation,
//! stiffness detected by an explicit method), which keep what was computed.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Partial, Succeeds};
    let ball = "bouncing_ball.ron";
    vec![
        Case::args(
            "simulate without an initial section",
            &["simulate", "{models}/simplest_walker.ron", "--t-end", "1"],
        )
        .expect(Fails(2, &["no `initial` section"])),
        Case::edit(
            "initial state of the wrong length",
            ball,
            &[("x: [1.0, 0.0]", "x: [1.0]")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &[
                "bouncing_ball.ron:22:",
                "initial state has 1 value",
                "2 state component",
            ],
        ))
        .located(),
        Case::edit(
            "initial mode out of range",
            ball,
            &[("mode: 0)", "mode: 5)")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &["bouncing_ball.ron:22:", "initial mode 5 is not a mode"],
        ))
        .located(),
        Case::edit(
            "unknown field in initial",
            ball,
            &[("x: [1.0, 0.0]", "y: [1.0, 0.0]")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["bouncing_ball.ron:", "y"])),
        Case::args(
            "simulate with an unknown method",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--method",
                "rk45",
            ],
        )
        .expect(Fails(
            2,
            &["--method rk45", "unknown method", "ode45 (dp5)"],
        )),
        Case::args(
            "simulate by a MATLAB name",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--method",
                "ode45",
                "--json",
            ],
        )
        .expect(Succeeds(&[
            "\"method\":\"dp5\"",
            "\"events\":[{\"t\":0.4515236409857",
        ])),
        Case::args(
            "simulate --rtol out of range",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--rtol",
                "2",
            ],
        )
        .expect(Fails(2, &["--rtol 2", "rtol"])),
        Case::args(
            "simulate --atol zero",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--atol",
                "0",
            ],
        )
        .expect(Fails(2, &["--atol 0", "atol"])),
        Case::args(
            "simulate --atol NaN",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--atol",
                "NaN",
            ],
        )
        .expect(Fails(2, &["atol"])),
        Case::args(
            "simulate --t-end before the start",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "-1"],
        )
        .expect(Fails(2, &["--t-end", "before the start"])),
        Case::args(
            "simulate --t-end infinite",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "inf"],
        )
        .expect(Fails(2, &["--t-end", "finite"])),
        Case::args(
            "simulate without an end time",
            &["simulate", "{models}/bouncing_ball.ron"],
        )
        .expect(Fails(2, &["--t-end"])),
        Case::args(
            "simulate --at not increasing",
            &["simulate", "{models}/bouncing_ball.ron", "--at", "2,1"],
        )
        .expect(Fails(2, &["--at", "increasing"])),
        Case::args(
            "simulate --at after --t-end",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--at",
                "0.5,2",
            ],
        )
        .expect(Fails(2, &["--at", "after the end time"])),
        Case::args(
            "simulate --at malformed",
            &["simulate", "{models}/bouncing_ball.ron", "--at", "0.5,x"],
        )
        .expect(Fails(2, &["--at 0.5,x", "not a number"])),
        Case::args(
            "simulate --out is a file",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--out",
                "{models}/bouncing_ball.ron",
            ],
        )
        .expect(Fails(2, &["bouncing_ball.ron"])),
        // A failed simulation loses nothing: what was computed is printed, then the error.
        Case::args(
            "simulate into Zeno accumulation",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "10"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY", "event accumulation (Zeno)", "events"],
            &["simulation of", "accumulate at t ≈ 4.0637127688"],
        )),
        Case::args(
            "simulate into Zeno accumulation, JSON",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "10",
                "--json",
            ],
        )
        .expect(Partial(
            1,
            &[
                "\"samples\":[{\"t\":0.0",
                "\"events\":[{\"t\":",
                "\"error\":\"event accumulation (Zeno)",
            ],
            &["failed at t = 2.88", "accumulate at t ≈ 4.06"],
        )),
        Case::args(
            "simulate a stiff problem with an explicit method",
            &[
                "simulate",
                "{models}/robertson.ron",
                "--method",
                "ode45",
                "--t-end",
                "1e11",
                "--json",
            ],
        )
        .expect(Partial(
            1,
            &["\"method\":\"dp5\"", "\"error\":\"", "stiff"],
            &["use an implicit method"],
        )),
        Case::args(
            "simulate at sample times",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--at",
                "0,1,3",
                "--json",
            ],
        )
        .expect(Succeeds(&[
            "\"samples\":[{\"t\":0.0,\"x\":[1.0,0.0]",
            "\"t_end\":3.0",
        ])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
