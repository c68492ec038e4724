//! Appending the handful of ids of one match (2–10) to a vector.
//!
//! `Vec::extend_from_slice` of a slice whose length is not known at compile
//! time is a call to `memcpy`, whose fixed cost dominates a copy of a few
//! bytes; the match stores, the search buffers and the trace make such
//! copies on every application, and `memcpy` was the largest single entry
//! of their profiles.

/// Appends `src` to `dst` element by element.
#[inline]
pub(crate) fn append<T: Copy>(dst: &mut Vec<T>, src: &[T]) {
    dst.reserve(src.len());
    for &x in src {
        dst.push(x);
    }
}

/// Replaces the contents of `dst` with `src`, element by element.
#[inline]
pub(crate) fn assign<T: Copy>(dst: &mut Vec<T>, src: &[T]) {
    dst.clear();
    append(dst, src);
}
