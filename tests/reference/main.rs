//! Reference tests of the whole stack against published values and closed forms, built as one
//! test binary (one link, and one instantiation of the solvers and stride maps for each model,
//! instead of one per file). One module per model or study; [`common`] loads the shipped model
//! files.

mod common;

mod arenstorf;
mod basin;
mod bouncing_ball;
mod compass_gait_curves;
mod continuation;
mod forced_table;
mod gait_sensitivity;
mod hopper_curves;
mod hopper_grazing_curve;
mod impact_oscillator_curves;
mod impact_oscillator_graze;
mod jacobians;
mod neimark_sacker_curves;
mod param_derivatives;
mod rimless_wheel;
mod simplest_walker_table1;
mod slip_runner;
mod stiff_methods_walker;
mod van_der_pol;
mod vibrating_table;
mod vibrating_table_curves;
mod vibrating_table_grazing_curve;
mod walker_long_run;
