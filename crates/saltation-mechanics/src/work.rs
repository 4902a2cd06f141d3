//! Scratch memory for the hot paths, so that a flow evaluation does not allocate: a per-thread
//! pool of `f64` and index buffers that grows to the largest size asked for and is then
//! reused, and small stack buffers (with a heap fallback) for vectors of dual numbers.

use std::cell::RefCell;

/// The per-thread buffers.
struct Pool {
    real: Vec<f64>,
    index: Vec<usize>,
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool {
            real: Vec::new(),
            index: Vec::new(),
        })
    };
}

/// Runs `f` with `reals` scratch `f64`s and `indices` scratch indices (contents unspecified:
/// `f` writes before it reads). The buffers are the thread's pool, grown on demand; a nested
/// call (the pool is in use) gets fresh ones from the heap.
pub(crate) fn with_scratch<R>(
    reals: usize,
    indices: usize,
    f: impl FnOnce(&mut [f64], &mut [usize]) -> R,
) -> R {
    POOL.with(|cell| match cell.try_borrow_mut() {
        Ok(mut pool) => {
            let pool = &mut *pool;
            if pool.real.len() < reals {
                pool.real.resize(reals, 0.0);
            }
            if pool.index.len() < indices {
                pool.index.resize(indices, 0);
            }
            f(&mut pool.real[..reals], &mut pool.index[..indices])
        }
        Err(_) => f(&mut vec![0.0; reals], &mut vec![0; indices]),
    })
}

pub(crate) use saltation_hybrid::with_buffer;

/// Carves consecutive slices of the given lengths off the front of `buf`.
pub(crate) fn split<'a, T, const K: usize>(
    mut buf: &'a mut [T],
    lens: [usize; K],
) -> [&'a mut [T]; K] {
    let mut out: [&'a mut [T]; K] = std::array::from_fn(|_| Default::default());
    for (o, len) in out.iter_mut().zip(lens) {
        let (head, tail) = std::mem::take(&mut buf).split_at_mut(len);
        *o = head;
        buf = tail;
    }
    out
}
