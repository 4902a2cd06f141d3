//! Empty: the comparison lives in `benches/stiff_peers.rs`.
