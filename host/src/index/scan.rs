//! Exact nearest neighbours by a plain scan over vectors held in memory.
//!
//! sqlite-vec's `vec0` knn reads every chunk of a partition through SQLite for each query,
//! which measured about 7x slower than scanning the same vectors from one flat array (the
//! speed issue's profile, 100k x 256). So the index keeps each scope's vectors here once it
//! has been searched, exact (no quantization, so recall is 1), and SQLite stays where they
//! are stored.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// One scope's vectors at unit length, one after another, with their ids.
#[derive(Debug, Default, PartialEq)]
pub(super) struct ScopeVectors {
    dimension: usize,
    ids: Vec<String>,
    /// The SQLite rowid of each vector, so that equal scores come out in insertion order.
    rowids: Vec<i64>,
    data: Vec<f32>,
    positions: HashMap<String, usize>,
}

/// A vector's score and where it sits, ordered by score and then by rowid (lower first),
/// so that the heap keeps the best and ties are broken the same way every time.
#[derive(Clone, Copy)]
struct Scored {
    score: f32,
    rowid: i64,
    position: usize,
}

impl PartialEq for Scored {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Scored {}
impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scored {
    /// Better is greater: a higher score, or the same score and a lower rowid.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then_with(|| other.rowid.cmp(&self.rowid))
    }
}

impl ScopeVectors {
    /// An empty set of vectors of this length.
    pub(super) fn new(dimension: usize) -> Self {
        ScopeVectors {
            dimension,
            ..ScopeVectors::default()
        }
    }

    /// How many vectors there are.
    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// Puts `id`'s vector in (replacing the one it had). The caller has checked that the
    /// vector has this set's length and a direction (`usable`).
    pub(super) fn insert(&mut self, id: &str, rowid: i64, vector: &[f32]) {
        debug_assert_eq!(vector.len(), self.dimension);
        let unit = unit(vector);
        match self.positions.get(id) {
            Some(&at) => {
                self.rowids[at] = rowid;
                self.data[at * self.dimension..(at + 1) * self.dimension].copy_from_slice(&unit);
            }
            None => {
                self.positions.insert(id.to_owned(), self.ids.len());
                self.ids.push(id.to_owned());
                self.rowids.push(rowid);
                self.data.extend_from_slice(&unit);
            }
        }
    }

    /// Takes `id`'s vector out, if it is here.
    pub(super) fn remove(&mut self, id: &str) {
        let Some(at) = self.positions.remove(id) else { return };
        let last = self.ids.len() - 1;
        if at != last {
            // The last vector moves into the hole.
            let (head, tail) = self.data.split_at_mut(last * self.dimension);
            head[at * self.dimension..(at + 1) * self.dimension].copy_from_slice(&tail[..self.dimension]);
            self.ids.swap(at, last);
            self.rowids.swap(at, last);
            self.positions.insert(self.ids[at].clone(), at);
        }
        self.ids.pop();
        self.rowids.pop();
        self.data.truncate(last * self.dimension);
    }

    /// The `k` most similar vectors to `query` (unit length, this set's length) as
    /// (id, cosine similarity), best first; equal scores in rowid order.
    pub(super) fn nearest(&self, query: &[f32], k: usize) -> Vec<(&str, f32)> {
        if k == 0 || self.dimension == 0 {
            return Vec::new();
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2, checked just above.
            return unsafe { self.nearest_avx2(query, k) };
        }
        self.nearest_in(query, k)
    }

    /// The same scan compiled for AVX2: its eight sums fill one 256-bit register instead
    /// of two 128-bit ones (the baseline x86-64 target has SSE2 only). The arithmetic is
    /// the same, in the same order, so the scores are bit for bit the same.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn nearest_avx2(&self, query: &[f32], k: usize) -> Vec<(&str, f32)> {
        self.nearest_in(query, k)
    }

    #[inline(always)]
    fn nearest_in(&self, query: &[f32], k: usize) -> Vec<(&str, f32)> {
        // A min-heap of the best k so far: its top is the worst of them.
        let mut best: BinaryHeap<std::cmp::Reverse<Scored>> = BinaryHeap::with_capacity(k + 1);
        for (position, vector) in self.data.chunks_exact(self.dimension).enumerate() {
            let candidate = Scored {
                score: dot(query, vector),
                rowid: self.rowids[position],
                position,
            };
            if best.len() < k {
                best.push(std::cmp::Reverse(candidate));
            } else if best.peek().is_some_and(|worst| candidate > worst.0) {
                best.pop();
                best.push(std::cmp::Reverse(candidate));
            }
        }
        let mut found: Vec<Scored> = best.into_iter().map(|r| r.0).collect();
        found.sort_by(|a, b| b.cmp(a));
        found
            .into_iter()
            .map(|s| (self.ids[s.position].as_str(), s.score))
            .collect()
    }
}

/// `v` scaled to unit length (the norm summed in f64, as `usable` checks it).
pub(super) fn unit(v: &[f32]) -> Vec<f32> {
    let norm = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    v.iter().map(|&x| (f64::from(x) / norm) as f32).collect()
}

/// The dot product, in eight independent sums so that the compiler keeps them in vector
/// registers (one long chain of additions cannot be reordered in floating point).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0.0f32; 8];
    let (a8, a_rest) = a.split_at(a.len() / 8 * 8);
    let (b8, b_rest) = b.split_at(a8.len());
    for (x, y) in a8.chunks_exact(8).zip(b8.chunks_exact(8)) {
        for lane in 0..8 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    let tail: f32 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(vectors: &[(&str, [f32; 3])]) -> ScopeVectors {
        let mut s = ScopeVectors::new(3);
        for (rowid, (id, v)) in vectors.iter().enumerate() {
            s.insert(id, rowid as i64, v);
        }
        s
    }

    fn ids<'a>(found: &[(&'a str, f32)]) -> Vec<&'a str> {
        found.iter().map(|(id, _)| *id).collect()
    }

    #[test]
    fn nearest_is_best_first_by_cosine_and_capped_at_k() {
        let s = set(&[("x", [1.0, 0.0, 0.0]), ("y", [0.0, 2.0, 0.0]), ("xy", [1.0, 1.0, 0.0])]);
        let found = s.nearest(&unit(&[3.0, 0.1, 0.0]), 2);
        assert_eq!(ids(&found), ["x", "xy"]);
        assert!((found[0].1 - 0.99944).abs() < 1e-4, "{found:?}");
        assert!((found[1].1 - 0.73027).abs() < 1e-4, "{found:?}");
        assert_eq!(s.nearest(&unit(&[0.0, 1.0, 0.0]), 10).len(), 3);
        assert!(s.nearest(&unit(&[0.0, 1.0, 0.0]), 0).is_empty());
    }

    #[test]
    fn equal_scores_come_out_in_insertion_order() {
        let s = set(&[("b", [1.0, 0.0, 0.0]), ("a", [2.0, 0.0, 0.0]), ("c", [0.0, 1.0, 0.0])]);
        assert_eq!(ids(&s.nearest(&unit(&[1.0, 0.0, 0.0]), 3)), ["b", "a", "c"]);
        assert_eq!(ids(&s.nearest(&unit(&[1.0, 0.0, 0.0]), 1)), ["b"]);
    }

    #[test]
    fn insert_replaces_and_remove_keeps_the_rest_findable() {
        let mut s = set(&[("a", [1.0, 0.0, 0.0]), ("b", [0.0, 1.0, 0.0]), ("c", [0.0, 0.0, 1.0])]);
        s.insert("a", 0, &[0.0, 0.0, 5.0]);
        assert_eq!(s.len(), 3);
        assert_eq!(
            ids(&s.nearest(&unit(&[1.0, 0.0, 0.0]), 1))[0],
            "a",
            "rowid order on a tie at 0"
        );
        assert_eq!(ids(&s.nearest(&unit(&[0.0, 0.0, 1.0]), 2)), ["a", "c"]);
        s.remove("a");
        s.remove("missing");
        assert_eq!(s.len(), 2);
        // "c" moved into a's place; both are still found by their own vectors.
        assert_eq!(ids(&s.nearest(&unit(&[0.0, 0.0, 1.0]), 1)), ["c"]);
        assert_eq!(ids(&s.nearest(&unit(&[0.0, 1.0, 0.0]), 1)), ["b"]);
        s.remove("c");
        s.remove("b");
        assert_eq!(s.len(), 0);
        assert!(s.nearest(&unit(&[0.0, 1.0, 0.0]), 3).is_empty());
    }

    #[test]
    fn dot_handles_lengths_that_are_not_a_multiple_of_eight() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..19).map(|i| (19 - i) as f32).collect();
        let expected: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot(&a, &b), expected);
    }
}
