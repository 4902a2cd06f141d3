//! Variable-order NDF/BDF.
crate::any_stepper::not_yet!(Bdf, "ndf");
impl Bdf {
    /// The NDF variant (MATLAB `ode15s`).
    pub fn ndf() -> Self {
        Self::new()
    }
    /// The BDF variant (NDF correction off).
    pub fn bdf() -> Self {
        Self::new()
    }
}
