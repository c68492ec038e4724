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

/// Replaces the contents of `dst` with `src`, element by element; when
/// `dst` already has `src`'s length (a match buffer refilled with another
/// match of the same rule) and it is at most 4, as one fixed-size copy.
#[inline]
pub(crate) fn assign<T: Copy>(dst: &mut Vec<T>, src: &[T]) {
    fn fixed<T: Copy, const N: usize>(dst: &mut [T], src: &[T]) {
        let x: [T; N] = src.try_into().expect("N ids");
        dst.copy_from_slice(&x);
    }
    if dst.len() == src.len() {
        match src.len() {
            0 => return,
            1 => {
                dst[0] = src[0];
                return;
            }
            2 => return fixed::<T, 2>(dst, src),
            3 => return fixed::<T, 3>(dst, src),
            4 => return fixed::<T, 4>(dst, src),
            _ => {}
        }
    }
    dst.clear();
    append(dst, src);
}

/// Copies `v[from..from + n]` to `v[to..to + n]` (ranges that do not
/// overlap): the copy of a match's few ids over another's. Sizes up to 4
/// are copied as fixed-size arrays (moves); `copy_within` would call
/// `memmove`.
#[inline]
pub(crate) fn move_within<T: Copy>(v: &mut [T], from: usize, to: usize, n: usize) {
    fn fixed<T: Copy, const N: usize>(v: &mut [T], from: usize, to: usize) {
        let x: [T; N] = v[from..from + N].try_into().expect("N ids");
        v[to..to + N].copy_from_slice(&x);
    }
    match n {
        0 => {}
        1 => v[to] = v[from],
        2 => fixed::<T, 2>(v, from, to),
        3 => fixed::<T, 3>(v, from, to),
        4 => fixed::<T, 4>(v, from, to),
        _ => v.copy_within(from..from + n, to),
    }
}

#[cfg(test)]
mod tests {
    use super::move_within;

    #[test]
    fn assign_copies_every_size() {
        for n in 0..7 {
            for had in [0, n, n + 2] {
                let src: Vec<u32> = (100..100 + n).collect();
                let mut dst: Vec<u32> = (0..had).collect();
                super::assign(&mut dst, &src);
                assert_eq!(dst, src, "{n} ids over {had}");
            }
        }
    }

    #[test]
    fn move_within_copies_every_size_like_copy_within() {
        for n in 0..7 {
            let original: Vec<u32> = (0..20).collect();
            let (mut ours, mut std) = (original.clone(), original.clone());
            move_within(&mut ours, 12, 3, n);
            std.copy_within(12..12 + n, 3);
            assert_eq!(ours, std, "{n} ids");
        }
    }
}
