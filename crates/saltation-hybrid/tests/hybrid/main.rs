//! Integration tests of saltation-hybrid, built as one test binary: the stride map and its
//! exact Jacobians against closed forms ([`stride`]).

mod forcing;
mod stride;
