//! Lists per place kept in one array (compressed sparse rows): row `i` is
//! `items[start[i]..start[i + 1]]`. Each pass of the checker walks every
//! place's steps, keys and locks; one small heap vector per place put
//! them all over memory, and on levels of 10,000 places and more each
//! pass missed the cache on almost every place (benches/play.rs).

use std::ops::Index;

/// `n` rows of `T`, indexed by row number.
#[derive(Clone, Debug)]
pub(crate) struct Rows<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Rows<T> {
    /// The rows of `n` rows holding `pairs` (row, item), each row's items
    /// in the order of `pairs`.
    ///
    /// # Panics
    /// A row of `pairs` is `n` or more.
    pub(crate) fn new(n: usize, pairs: &[(u32, T)]) -> Self {
        let mut start = vec![0u32; n + 1];
        for &(row, _) in pairs {
            start[row as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = Vec::with_capacity(pairs.len());
        // Every slot is written once below; the first item fills them
        // until then.
        if let Some(&(_, first)) = pairs.first() {
            items.resize(pairs.len(), first);
        }
        for &(row, item) in pairs {
            let at = &mut next[row as usize];
            items[*at as usize] = item;
            *at += 1;
        }
        Rows { start, items }
    }
}

impl<T> Index<usize> for Rows<T> {
    type Output = [T];

    fn index(&self, row: usize) -> &[T] {
        &self.items[self.start[row] as usize..self.start[row + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::Rows;

    #[test]
    fn rows_keep_their_items_in_order() {
        let rows = Rows::new(4, &[(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (2, 'e')]);
        assert_eq!(&rows[0], &['b']);
        assert!(rows[1].is_empty());
        assert_eq!(&rows[2], &['a', 'c', 'e']);
        assert_eq!(&rows[3], &['d']);
        let empty: Rows<u32> = Rows::new(2, &[]);
        assert!(empty[0].is_empty() && empty[1].is_empty());
    }
}
