//! Whether standard output can take the result at all.
//!
//! A command started with its standard output closed (`saltation orbit FILE >&-`) would lose
//! its result without a word: Rust's standard library treats a closed descriptor 1 as a sink
//! (writes "succeed" with `EBADF` swallowed), and on Linux it even reopens a closed descriptor
//! 1 on `/dev/null` (read-write) before `main` runs. [`closed`] recognises both, so the
//! command can refuse to run instead of computing a result nobody sees; an ordinary
//! `>/dev/null` (write-only) is a choice the user made and is left alone.

/// Whether descriptor 1 is closed: it cannot be duplicated (`EBADF`), or (Linux) it is the
/// `/dev/null` the standard library opened read-write in place of a closed descriptor.
#[cfg(unix)]
pub(crate) fn closed() -> bool {
    use std::os::fd::AsFd;
    if std::io::stdout().as_fd().try_clone_to_owned().is_err() {
        return true;
    }
    reopened_on_dev_null()
}

/// Elsewhere standard output is taken as it is.
#[cfg(not(unix))]
pub(crate) fn closed() -> bool {
    false
}

/// Linux: descriptor 1 is `/dev/null` opened read-write, as the standard library's start-up
/// code opens it for a closed descriptor (a shell's `>/dev/null` opens it write-only).
#[cfg(target_os = "linux")]
fn reopened_on_dev_null() -> bool {
    let target = std::fs::read_link("/proc/self/fd/1");
    if !target.is_ok_and(|t| t == std::path::Path::new("/dev/null")) {
        return false;
    }
    // `flags:` in octal; the access mode is its low two bits (O_RDWR = 2).
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 3 == 2)
}

#[cfg(all(unix, not(target_os = "linux")))]
fn reopened_on_dev_null() -> bool {
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_test_harness_stdout_is_open() {
        // The test runner's standard output is a pipe or a terminal, never closed.
        assert!(!super::closed());
    }
}
