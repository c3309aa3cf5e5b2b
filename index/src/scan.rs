//! Exact nearest neighbours by a plain scan over vectors held in memory.
//!
//! sqlite-vec's `vec0` knn reads every chunk of a partition through SQLite for each query,
//! several times slower than scanning the same vectors from one flat array
//! (docs/performance.md). So the index keeps each scope's vectors here once it has been
//! searched, exact (recall is 1), and SQLite stays where they are stored. A large set is
//! scanned by its codes first (`code_bounds`), with the same answer.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};
use std::ops::Range;

use crate::code_bounds::Codes;

/// One scope's vectors at unit length, one after another, with their ids.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ScopeVectors {
    dimension: usize,
    ids: Vec<String>,
    /// The SQLite rowid of each vector, so that equal scores come out in insertion order.
    rowids: Vec<i64>,
    data: Vec<f32>,
    /// Each vector's coarse code, in the same order.
    codes: Codes,
    positions: HashMap<String, usize>,
}

/// A vector's score and where it sits, ordered by score and then by rowid (lower first),
/// so that the heap keeps the best and ties are broken the same way every time.
#[derive(Clone, Copy)]
pub(crate) struct Scored {
    pub(crate) score: f32,
    pub(crate) rowid: i64,
    /// Where it sits in a `ScopeVectors` (0 for a streamed one, which has only its rowid).
    pub(crate) position: usize,
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
    pub(crate) fn new(dimension: usize) -> Self {
        ScopeVectors {
            dimension,
            codes: Codes::new(dimension),
            ..ScopeVectors::default()
        }
    }

    /// How many vectors there are.
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// Puts `id`'s vector in (replacing the one it had). The caller has checked that the
    /// vector has this set's length and a direction (`usable`).
    pub(crate) fn insert(&mut self, id: &str, rowid: i64, vector: &[f32]) {
        debug_assert_eq!(vector.len(), self.dimension);
        let unit = unit(vector);
        match self.positions.get(id) {
            Some(&at) => {
                self.rowids[at] = rowid;
                self.data[at * self.dimension..(at + 1) * self.dimension].copy_from_slice(&unit);
                self.codes.set(at, &unit);
            }
            None => {
                self.positions.insert(id.to_owned(), self.ids.len());
                self.ids.push(id.to_owned());
                self.rowids.push(rowid);
                self.data.extend_from_slice(&unit);
                self.codes.push(&unit);
            }
        }
    }

    /// Takes `id`'s vector out, if it is here.
    pub(crate) fn remove(&mut self, id: &str) {
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
        self.codes.swap_remove(at);
        self.ids.pop();
        self.rowids.pop();
        self.data.truncate(last * self.dimension);
    }

    /// The `k` most similar vectors to `query` (unit length, this set's length) as
    /// (id, cosine similarity), best first; equal scores in rowid order.
    pub(crate) fn nearest(&self, query: &[f32], k: usize) -> Vec<(&str, f32)> {
        if k == 0 || self.dimension == 0 {
            return Vec::new();
        }
        let best = if self.len() >= BY_CODES_FROM && k < self.len() {
            self.best_by_codes(query, k)
        } else {
            self.best_of_parts(query, k)
        };
        best.best_first()
            .into_iter()
            .map(|s| (self.ids[s.position].as_str(), s.score))
            .collect()
    }

    /// The best `k` of every vector, found by their codes: only the vectors whose codes
    /// say they may be among the best are scored.
    fn best_by_codes(&self, query: &[f32], k: usize) -> Best {
        let mut best = Best::new(k);
        for position in self.codes.candidates(query, k) {
            let vector = &self.data[position * self.dimension..(position + 1) * self.dimension];
            best.offer(Scored {
                score: dot(query, vector),
                rowid: self.rowids[position],
                position,
            });
        }
        best
    }

    /// The best `k` of every vector: a large set scanned in two halves side by side, whose
    /// bests are merged (the same `Scored` order, so the same answer as one pass). A scan
    /// reads every vector, 92 MB at 90,000 of 256 floats, about 6 ms on one core.
    fn best_of_parts(&self, query: &[f32], k: usize) -> Best {
        let n = self.len();
        #[cfg(not(target_arch = "wasm32"))]
        if n >= SPLIT_AT && cores() > 1 {
            let half = n / 2;
            // A thread that cannot be started or does not finish: the whole scan here.
            let halves = std::thread::scope(|s| {
                let other = std::thread::Builder::new()
                    .spawn_scoped(s, || self.scan(query, k, half..n))
                    .ok()?;
                let first = self.scan(query, k, 0..half);
                Some((first, other.join().ok()?))
            });
            if let Some((mut best, other)) = halves {
                for candidate in other.heap {
                    best.offer(candidate.0);
                }
                return best;
            }
        }
        self.scan(query, k, 0..n)
    }

    /// The best `k` of the vectors at `range`, with AVX2 where the CPU has it.
    fn scan(&self, query: &[f32], k: usize, range: Range<usize>) -> Best {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2, checked just above.
            return unsafe { self.scan_avx2(query, k, range) };
        }
        self.scan_in(query, k, range)
    }

    /// The same scan compiled for AVX2: its eight sums fill one 256-bit register instead
    /// of two 128-bit ones (the baseline x86-64 target has SSE2 only). The arithmetic is
    /// the same, in the same order, so the scores are bit for bit the same.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn scan_avx2(&self, query: &[f32], k: usize, range: Range<usize>) -> Best {
        self.scan_in(query, k, range)
    }

    #[inline(always)]
    fn scan_in(&self, query: &[f32], k: usize, range: Range<usize>) -> Best {
        let mut best = Best::new(k);
        let vectors = self.data[range.start * self.dimension..range.end * self.dimension].chunks_exact(self.dimension);
        for (position, vector) in range.zip(vectors) {
            best.offer(Scored {
                score: dot(query, vector),
                rowid: self.rowids[position],
                position,
            });
        }
        best
    }
}

/// From how many vectors a scan reads their codes first: below it, reading all the floats
/// costs about as much.
const BY_CODES_FROM: usize = 1024;

/// From how many vectors a scan is split in two: below it, starting a thread costs more
/// than half the scan saves.
#[cfg(not(target_arch = "wasm32"))]
const SPLIT_AT: usize = 16_384;

/// Whether this machine has a second core to scan on (asked once: the answer reads
/// cgroup files).
#[cfg(not(target_arch = "wasm32"))]
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The best `k` of the candidates offered so far.
pub(crate) struct Best {
    k: usize,
    /// A min-heap: its top is the worst of the best.
    heap: BinaryHeap<Reverse<Scored>>,
}

impl Best {
    pub(crate) fn new(k: usize) -> Self {
        Best {
            k,
            heap: BinaryHeap::with_capacity(k.saturating_add(1).min(4097)),
        }
    }

    #[inline(always)]
    pub(crate) fn offer(&mut self, candidate: Scored) {
        if self.heap.len() < self.k {
            self.heap.push(Reverse(candidate));
        } else if self.heap.peek().is_some_and(|worst| candidate > worst.0) {
            self.heap.pop();
            self.heap.push(Reverse(candidate));
        }
    }

    fn is_full(&self) -> bool {
        self.heap.len() >= self.k
    }

    /// The score of the worst of the best, once there is one.
    fn worst(&self) -> Option<f32> {
        self.heap.peek().map(|worst| worst.0.score)
    }

    pub(crate) fn best_first(self) -> Vec<Scored> {
        let mut found: Vec<Scored> = self.heap.into_iter().map(|r| r.0).collect();
        found.sort_by(|a, b| b.cmp(a));
        found
    }
}

/// The nearest vectors among those streamed past it, scored as they come and not kept:
/// what a scope searched once needs (a CLI call), where reading its vectors into a
/// `ScopeVectors` would cost a copy and an id of each for one scan.
///
/// The scores are sqlite-vec's own (`sqlite_vec_similarity`), bit for bit, as its knn
/// gives them: a hit scores the same whichever path found it.
/// (A search by coarse codes scores its candidates here too.)
/// That arithmetic is one chain of dependent additions, which the compiler cannot spread
/// over vector lanes, so each vector is first scored the eight-lane way, and only one
/// that could enter the best is scored again sqlite-vec's way. The pass is bound by SQLite
/// reading the chunks, with or without AVX2.
pub(crate) struct Streamed<'q> {
    /// The query as the caller gave it, which is what sqlite-vec's knn scores against.
    query: &'q [f32],
    /// The query at unit length, for the fast score.
    unit: Vec<f32>,
    best: Best,
}

/// How far below the worst of the best a fast score may be and still be scored again:
/// far more than the two ways of summing 256 products can differ (about 1e-6).
const FAST_SCORE_SLACK: f32 = 1e-3;

impl<'q> Streamed<'q> {
    /// Keeps the `k` best for `query`, which has a direction (`usable`).
    pub(crate) fn new(query: &'q [f32], k: usize) -> Self {
        Streamed {
            query,
            unit: unit(query),
            best: Best::new(k),
        }
    }

    /// Scores one stored vector, given as its little-endian bytes (`chunks::visit`); one
    /// without a direction (zero or not finite) is skipped, as `ScopeVectors` never holds
    /// one.
    pub(crate) fn offer(&mut self, rowid: i64, vector: &[u8]) {
        debug_assert_eq!(vector.len(), self.query.len() * 4);
        let (dot, norm_squared) = dot_and_norm(&self.unit, vector);
        if !(norm_squared.is_finite() && norm_squared > 1e-12 && dot.is_finite()) {
            return;
        }
        let fast = dot / norm_squared.sqrt();
        if self.best.is_full() && self.best.worst().is_some_and(|worst| fast < worst - FAST_SCORE_SLACK) {
            return;
        }
        self.best.offer(Scored {
            score: sqlite_vec_similarity(self.query, vector),
            rowid,
            position: 0,
        });
    }

    /// The (rowid, cosine similarity) of the best, best first; equal scores in rowid order.
    pub(crate) fn best_first(self) -> Vec<(i64, f32)> {
        self.best.best_first().into_iter().map(|s| (s.rowid, s.score)).collect()
    }
}

/// `v` scaled to unit length (the norm summed in f64, as `usable` checks it).
pub(crate) fn unit(v: &[f32]) -> Vec<f32> {
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

/// The similarity sqlite-vec's knn reports for `stored` (little-endian f32 bytes) against
/// `query`, to the bit: its `distance_cosine_float` sums the products and both squared
/// norms one at a time in f32 and divides by the product of the norms' square roots in
/// f64, and the distance (an f32) becomes a score as `SqliteIndex::sqlite_vec_knn` makes
/// it.
fn sqlite_vec_similarity(query: &[f32], stored: &[u8]) -> f32 {
    let (mut dot, mut query_norm, mut stored_norm) = (0.0f32, 0.0f32, 0.0f32);
    for (x, bytes) in query.iter().zip(stored.chunks_exact(4)) {
        let y = f32::from_le_bytes(bytes.try_into().expect("4 bytes"));
        dot += y * x;
        query_norm += x * x;
        stored_norm += y * y;
    }
    let distance = (1.0 - f64::from(dot) / (f64::from(stored_norm).sqrt() * f64::from(query_norm).sqrt())) as f32;
    1.0 - distance
}

/// `a . b` and `b . b` in one pass, in eight independent sums each as `dot` does, with
/// `b` given as little-endian f32 bytes and read where it lies (eight at a time, which
/// the compiler turns into unaligned vector loads).
#[inline(always)]
fn dot_and_norm(a: &[f32], b: &[u8]) -> (f32, f32) {
    let mut dots = [0.0f32; 8];
    let mut norms = [0.0f32; 8];
    let (a8, a_rest) = a.split_at(a.len() / 8 * 8);
    let (b8, b_rest) = b.split_at(a8.len() * 4);
    for (x, bytes) in a8.chunks_exact(8).zip(b8.chunks_exact(32)) {
        let y: [f32; 8] =
            std::array::from_fn(|lane| f32::from_le_bytes(bytes[lane * 4..lane * 4 + 4].try_into().expect("4 bytes")));
        for lane in 0..8 {
            dots[lane] += x[lane] * y[lane];
            norms[lane] += y[lane] * y[lane];
        }
    }
    let (tail_dot, tail_norm) = a_rest
        .iter()
        .zip(b_rest.chunks_exact(4))
        .map(|(x, b)| (x, f32::from_le_bytes(b.try_into().expect("4 bytes"))))
        .fold((0.0f32, 0.0f32), |(d, n), (x, y)| (d + x * y, n + y * y));
    (
        dots.iter().sum::<f32>() + tail_dot,
        norms.iter().sum::<f32>() + tail_norm,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `v` as the little-endian bytes a chunk stores it in.
    fn le_bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

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
    fn a_set_scanned_in_two_halves_finds_what_one_pass_finds() {
        let mut s = ScopeVectors::new(4);
        // Many equal scores across both halves, so that ties must come out in rowid order.
        for i in 0..SPLIT_AT + 1001 {
            let x = (i % 97) as f32;
            s.insert(
                &format!("m{i}"),
                (SPLIT_AT + 5000 - i) as i64,
                &[1.0 + x, 2.0, (i % 7) as f32, 0.5],
            );
        }
        let query = unit(&[3.0, 1.0, 0.2, 0.0]);
        for k in [1, 10, 100, 5000] {
            let split: Vec<(String, f32)> = s
                .nearest(&query, k)
                .into_iter()
                .map(|(id, x)| (id.to_owned(), x))
                .collect();
            let whole: Vec<(String, f32)> = s
                .scan(&query, k, 0..s.len())
                .best_first()
                .into_iter()
                .map(|c| (s.ids[c.position].clone(), c.score))
                .collect();
            assert_eq!(split, whole, "k = {k}");
        }
    }

    #[test]
    fn a_set_searched_by_its_codes_finds_what_a_full_scan_finds() {
        let dimension = 64;
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        // Twenty directions with many vectors close around each, copies among them (equal
        // scores), and some vectors dominated by one component (the coarsest codes).
        let centers: Vec<Vec<f32>> = (0..20).map(|_| (0..dimension).map(|_| next()).collect()).collect();
        let mut s = ScopeVectors::new(dimension);
        for i in 0..3000usize {
            let mut v: Vec<f32> = centers[i % 20].iter().map(|c| c + 0.15 * next()).collect();
            if i % 11 == 0 {
                v[i % dimension] = 9.0;
            }
            s.insert(&format!("m{i}"), i as i64, &v);
            if i % 13 == 0 {
                s.insert(&format!("copy{i}"), 5000 + i as i64, &v);
            }
        }
        // Removals and replacements move codes about as they move vectors.
        for i in (0..3000).step_by(17) {
            s.remove(&format!("m{i}"));
        }
        for i in (1..3000).step_by(29) {
            let v: Vec<f32> = centers[(i + 3) % 20].iter().map(|c| c + 0.1 * next()).collect();
            s.insert(&format!("m{i}"), i as i64, &v);
        }
        assert!(s.len() >= BY_CODES_FROM);
        let near: Vec<Vec<f32>> = centers
            .iter()
            .map(|center| unit(&center.iter().map(|c| c + 0.05 * next()).collect::<Vec<f32>>()))
            .collect();
        let anywhere: Vec<Vec<f32>> = (0..10)
            .map(|_| unit(&(0..dimension).map(|_| next()).collect::<Vec<f32>>()))
            .collect();
        for (q, query) in near.iter().chain(&anywhere).enumerate() {
            for k in [1, 8, 40, 500] {
                let by_codes: Vec<(String, f32)> = s
                    .nearest(query, k)
                    .into_iter()
                    .map(|(id, x)| (id.to_owned(), x))
                    .collect();
                let whole: Vec<(String, f32)> = s
                    .scan(query, k, 0..s.len())
                    .best_first()
                    .into_iter()
                    .map(|c| (s.ids[c.position].clone(), c.score))
                    .collect();
                assert_eq!(by_codes, whole, "query {q}, k = {k}");
            }
        }
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
    fn streamed_scores_by_cosine_skips_vectors_without_direction_and_breaks_ties_by_rowid() {
        let query = unit(&[1.0, 1.0, 0.0]);
        let mut s = Streamed::new(&query, 3);
        s.offer(7, &le_bytes(&[0.0, 0.0, 4.0]));
        s.offer(5, &le_bytes(&[1.0, 1.0, 0.0]));
        s.offer(9, &le_bytes(&[0.0, 0.0, 0.0]));
        s.offer(8, &le_bytes(&[f32::NAN, 1.0, 0.0]));
        s.offer(6, &le_bytes(&[f32::INFINITY, 1.0, 0.0]));
        s.offer(2, &le_bytes(&[1.0, 1.0, 0.0]));
        s.offer(3, &le_bytes(&[20.0, 0.0, 0.0]));
        let found = s.best_first();
        let rowids: Vec<i64> = found.iter().map(|(rowid, _)| *rowid).collect();
        assert_eq!(rowids, [2, 5, 3], "equal scores in rowid order");
        assert!(
            (found[0].1 - 1.0).abs() < 1e-6 && (found[1].1 - 1.0).abs() < 1e-6,
            "{found:?}"
        );
        // A long vector scores by its direction only.
        assert!((found[2].1 - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6, "{found:?}");
        assert!(Streamed::new(&query, 0).best_first().is_empty());
    }

    #[test]
    fn dot_and_norm_match_their_plain_sums_past_a_multiple_of_eight() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..19).map(|i| (19 - i) as f32).collect();
        let (d, n) = dot_and_norm(&a, &le_bytes(&b));
        assert_eq!(d, a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>());
        assert_eq!(n, b.iter().map(|y| y * y).sum::<f32>());
    }

    #[test]
    fn dot_handles_lengths_that_are_not_a_multiple_of_eight() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..19).map(|i| (19 - i) as f32).collect();
        let expected: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot(&a, &b), expected);
    }
}
