//! `simulate --plot`: names that are no state, output or `mode` (refused with the nearest
//! names), lists that are empty, repeat a name or are too long, `--plot` without `--out`, and
//! variables a figure must still draw (an output that is never finite, the mode of a built-in
//! model).

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let gait = "equations/compass_gait.ron";
    let ball = "equations/bouncing_ball.ron";
    let plot = |name: &str, file: &str, list: &str| {
        Case::edit(
            name,
            file,
            &[],
            &[
                "simulate", "--t-end", "0.5", "--out", "{out}", "--plot", list,
            ],
        )
    };
    let long = "q".repeat(10_000);
    let seventeen = vec!["x"; 17].join(",");
    vec![
        plot("an unknown name near an output", gait, "th_s,energie").expect(Fails(
            2,
            &["--plot", "`energie` is not a state", "`energy`"],
        )),
        plot("an unknown name near a state", gait, "th_sw")
            .expect(Fails(2, &["--plot", "`th_sw`", "did you mean", "`th_s`"])),
        plot("`mode` in capitals", ball, "MODE").expect(Fails(
            2,
            &["--plot", "`MODE`", "`mode`", "known: x, v, mode"],
        )),
        plot(
            "an output name on a built-in model",
            "bouncing_ball.ron",
            "energy",
        )
        .expect(Fails(2, &["--plot", "`energy` is not a state"])),
        plot("a name given twice", ball, "x,v,x")
            .expect(Fails(2, &["--plot", "`x` is listed twice"])),
        plot("an empty list", ball, "").expect(Fails(2, &["--plot", "an empty name"])),
        plot("a trailing comma", ball, "x,").expect(Fails(2, &["--plot", "an empty name"])),
        plot("17 names", ball, &seventeen)
            .expect(Fails(2, &["--plot", "17 variables", "at most 16"])),
        plot("a 10 000-character name", ball, &long)
            .expect(Fails(2, &["--plot", "is not a state", "…"])),
        Case::edit(
            "--plot without --out",
            ball,
            &[],
            &["simulate", "--t-end", "1", "--plot", "x"],
        )
        .expect(Fails(2, &["--plot", "give --out DIR as well"])),
        // Still drawn: an output that is NaN everywhere gets an empty panel, the mode of a
        // built-in model its own panel, and spaces around names are ignored.
        Case::edit(
            "an output that is never finite",
            ball,
            &[(
                "modes: [",
                "outputs: [(\"bad\", \"sqrt(-1 - x^2)\")],\n        modes: [",
            )],
            &[
                "simulate", "--t-end", "1", "--out", "{out}", "--plot", "x,bad",
            ],
        )
        .expect(Succeeds(&["files written", "_simulation.svg"])),
        plot("mode of a built-in model", "bouncing_ball.ron", "mode, v")
            .expect(Succeeds(&["files written", "_simulation.png"])),
    ]
}

#[test]
fn simulate_plot_cases() {
    super::harness::run_all(cases());
}
