//! Small scratch buffers on the stack, for work done at every integration stage.

/// Runs `f` with a buffer of `len` copies of `init`: on the stack in one of a few sizes (up to
/// 128 entries, the `f_x` and `f_p` of an 11-state model; the smallest that fits, since the
/// whole array is initialised), on the heap beyond.
pub fn with_buffer<T: Copy, R>(init: T, len: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    if len <= 4 {
        f(&mut [init; 4][..len])
    } else if len <= 16 {
        f(&mut [init; 16][..len])
    } else if len <= 64 {
        f(&mut [init; 64][..len])
    } else if len <= 128 {
        f(&mut [init; 128][..len])
    } else {
        f(&mut vec![init; len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_gets_its_length() {
        for len in [0, 3, 4, 5, 64, 65, 128, 129, 1000] {
            assert_eq!(
                with_buffer(1.5, len, |b| (b.len(), b.iter().all(|&v| v == 1.5))),
                (len, true)
            );
        }
    }
}
