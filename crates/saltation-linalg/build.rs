//! Links the system LAPACK (OpenBLAS, which bundles LAPACK) when the `lapack` feature is on.
//! The default build links no system library.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_LAPACK").is_some() {
        println!("cargo:rustc-link-lib=openblas");
    }
}
