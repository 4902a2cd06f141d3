//! Integration tests of the `saltation` command and its library, built as one test binary (one
//! link instead of one per file): [`orbit`], [`continuation`] and [`monopod`] and [`study`] run the built
//! binary end to end, [`output`] the writing of output files, [`bad_input`] tables of careless
//! or hostile inputs. [`support`] runs the binary and holds the checks every run's output must
//! pass.

mod support;

mod bad_input;
mod basin;
mod basin_coexist;
mod chattering;
mod continuation;
mod curve;
mod curve_grazing;
mod curve_shooting;
mod equations;
mod indicators;
mod lyapunov;
mod lyapunov_sweep;
mod mfpt;
mod mfpt_compass;
mod monopod;
mod orbit;
mod output;
mod script_curves;
mod simulate_figure;
mod study;
