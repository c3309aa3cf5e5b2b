//! The exact nearest vectors held in memory, found by reading a quarter of their bytes.
//!
//! A long-lived host keeps each searched scope's vectors in memory (`scan::ScopeVectors`)
//! and every search and every add's supersession check scans them all: at 10,000 memories
//! of 256 floats that is 10 MB a scan, 0.29 ms bound by memory, an eighth of an add.
//! Beside each vector the set now keeps its coarse code (`coarse`, one byte a component),
//! and a scan reads the codes first. A code gives a score and a bound on how far that score
//! can be from the exact one, so the vectors that can be among the best `k` are known
//! without reading their floats: those whose highest possible score reaches the `k`-th
//! best lowest possible one. Only they are scored exactly, so the answer is the full
//! scan's, bit for bit and tie for tie.
//!
//! The bound, for a query `q` at unit length and a stored vector `u` at unit length whose
//! code is `c` with scale `s` (`u_i ≈ s c_i`, off by at most `s / 2`), when the query is
//! taken as integers `Q` with step `t` (`q_i ≈ t Q_i`, off by at most `t / 2`):
//! `|q·u − t s Q·c| ≤ s (|q|₁ / 2 + t |c|₁ / 2)`. `SLACK` covers the rounding of the float
//! arithmetic on either side.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::coarse;

/// Added to every bound: far more than float rounding moves a score (typically about 1e-6;
/// at worst about 2^-24 for every eight components of the exact dot product's sums), far
/// less than the bound itself (about 0.01). `SLACK_PER_COMPONENT` keeps twice the worst
/// case at sqlite-vec's 8,192 dimensions.
const SLACK: f32 = 1e-4;
const SLACK_PER_COMPONENT: f32 = 2e-8;

/// The coarse codes of a set of vectors, in the set's order.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Codes {
    dimension: usize,
    /// One byte a component, a vector after another.
    levels: Vec<u8>,
    /// Each code's scale: `s` above.
    scales: Vec<f32>,
    /// Each code's scale times the sum of its levels' sizes: `s |c|₁`.
    spans: Vec<f32>,
}

impl Codes {
    /// No codes, for vectors of this length.
    pub(crate) fn new(dimension: usize) -> Self {
        Codes {
            dimension,
            ..Codes::default()
        }
    }

    /// The code of `vector` (with a direction), as its scale, its levels and its span.
    fn code(vector: &[f32]) -> (f32, Vec<u8>, f32) {
        let (scale, levels) = coarse::code(vector);
        let size: u64 = levels.iter().map(|&b| u64::from((b as i8).unsigned_abs())).sum();
        (scale as f32, levels, (scale * size as f64) as f32)
    }

    /// Adds the code of `vector` after the others.
    pub(crate) fn push(&mut self, vector: &[f32]) {
        let (scale, levels, span) = Self::code(vector);
        self.levels.extend_from_slice(&levels);
        self.scales.push(scale);
        self.spans.push(span);
    }

    /// Replaces the code at `at` with that of `vector`.
    pub(crate) fn set(&mut self, at: usize, vector: &[f32]) {
        let (scale, levels, span) = Self::code(vector);
        self.levels[at * self.dimension..(at + 1) * self.dimension].copy_from_slice(&levels);
        self.scales[at] = scale;
        self.spans[at] = span;
    }

    /// Takes the code at `at` out, moving the last one into its place (as
    /// `ScopeVectors::remove` moves the last vector).
    pub(crate) fn swap_remove(&mut self, at: usize) {
        let last = self.scales.len() - 1;
        if at != last {
            let (head, tail) = self.levels.split_at_mut(last * self.dimension);
            head[at * self.dimension..(at + 1) * self.dimension].copy_from_slice(&tail[..self.dimension]);
        }
        self.levels.truncate(last * self.dimension);
        self.scales.swap_remove(at);
        self.spans.swap_remove(at);
    }

    /// The positions of every vector that can be among the `k` nearest to `query` (at unit
    /// length, with a direction): a superset of the exact best `k`, in order. `k` is at
    /// least one and less than the number of codes.
    pub(crate) fn candidates(&self, query: &[f32], k: usize) -> Vec<usize> {
        debug_assert!(k >= 1 && k < self.scales.len());
        let integers = coarse::Query::new(query);
        let half_l1 = 0.5 * query.iter().map(|x| f64::from(x.abs())).sum::<f64>() as f32;
        let half_step = 0.5 * integers.step();
        let slack = SLACK + SLACK_PER_COMPONENT * self.dimension as f32;
        let mut highs = Vec::with_capacity(self.scales.len());
        integers.score_all(&self.levels, &self.scales, &mut highs);
        // The best k lowest scores, in a min-heap: its top is the k-th best.
        let mut lows: BinaryHeap<Reverse<i32>> = BinaryHeap::with_capacity(k + 1);
        for (score, (scale, span)) in highs.iter_mut().zip(self.scales.iter().zip(&self.spans)) {
            let bound = scale * half_l1 + span * half_step + slack;
            let low = ordered(*score - bound);
            if lows.len() < k {
                lows.push(Reverse(low));
            } else if lows.peek().is_some_and(|worst| low > worst.0) {
                lows.pop();
                lows.push(Reverse(low));
            }
            *score += bound;
        }
        // The k-th best lowest score: k vectors score at least that, so the k-th best exact
        // score does too, and so does every vector of the best k.
        let floor = lows.peek().map_or(i32::MIN, |worst| worst.0);
        highs
            .iter()
            .enumerate()
            .filter(|(_, high)| ordered(**high) >= floor)
            .map(|(position, _)| position)
            .collect()
    }
}

/// `x` as an integer in the same order (`f32::total_cmp`'s), cheaper to compare.
fn ordered(x: f32) -> i32 {
    let bits = x.to_bits() as i32;
    bits ^ (((bits >> 31) as u32) >> 1) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::unit;

    /// A deterministic spread of values in -1..1 (a linear congruential generator).
    fn noise(seed: u64, n: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn every_score_lies_within_its_bound() {
        let dimension = 256;
        let mut codes = Codes::new(dimension);
        let vectors: Vec<Vec<f32>> = (0..300)
            .map(|i| {
                let mut v = noise(i, dimension);
                // Some vectors with one large component, whose codes are coarsest.
                if i % 7 == 0 {
                    v[(i as usize) % dimension] = 40.0;
                }
                unit(&v)
            })
            .collect();
        for v in &vectors {
            codes.push(v);
        }
        for seed in 1000..1010 {
            let query = unit(&noise(seed, dimension));
            let integers = coarse::Query::new(&query);
            let mut approx = Vec::new();
            integers.score_all(&codes.levels, &codes.scales, &mut approx);
            let half_l1 = 0.5 * query.iter().map(|x| x.abs()).sum::<f32>();
            for (i, v) in vectors.iter().enumerate() {
                let exact: f32 = query.iter().zip(v).map(|(a, b)| a * b).sum();
                let bound = codes.scales[i] * half_l1 + codes.spans[i] * 0.5 * integers.step();
                assert!(
                    (exact - approx[i]).abs() <= bound,
                    "vector {i}: {exact} against {} within {bound}",
                    approx[i]
                );
                // Loose enough to hold, not so loose that it would keep everything.
                if i % 7 != 0 {
                    assert!(bound < 0.03, "vector {i}: a bound of {bound}");
                }
            }
        }
    }

    #[test]
    fn scores_as_integers_keep_their_order() {
        let xs = [
            f32::NEG_INFINITY,
            -2.5,
            -1e-30,
            -0.0,
            0.0,
            1e-30,
            0.3,
            0.300_000_03,
            7.0,
            f32::INFINITY,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(ordered(a).cmp(&ordered(b)), a.total_cmp(&b), "{a} and {b}");
            }
        }
    }

    #[test]
    fn a_replaced_or_removed_code_follows_its_vector() {
        let a = unit(&[1.0, 0.0, 0.5]);
        let b = unit(&[0.0, 1.0, 0.0]);
        let c = unit(&[0.0, 0.2, 1.0]);
        let mut codes = Codes::new(3);
        for v in [&a, &b, &c] {
            codes.push(v);
        }
        codes.set(0, &c);
        codes.swap_remove(1);
        let mut expected = Codes::new(3);
        expected.push(&c);
        expected.push(&c);
        assert_eq!(codes, expected);
        codes.swap_remove(1);
        codes.swap_remove(0);
        assert_eq!(codes, Codes::new(3));
    }
}
