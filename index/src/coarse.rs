//! Coarse codes: every stored vector also kept as one byte a component, so that a search
//! run once (a CLI call) reads a quarter of the bytes to find its candidates.
//!
//! Reading a scope's float vectors through SQLite is most of a one-shot CLI search at
//! 100,000 memories (100 MB at 256 dimensions). So a search scans the scope's codes
//! (`code_blocks`), keeps the `candidates` best by the score the codes give, and scores only those
//! again from their float vectors, exactly as sqlite-vec scores them (`scan::Streamed`).
//! The scores a search reports are exact, and only which vectors are looked at is
//! approximate: the bench prints its recall against an exact scan (`ash-memory bench`).
//!
//! A code is the vector over its largest component, rounded to the nearest of -127..=127
//! (halves away from zero, in f64), with the scale that turns a code's dot product with a
//! unit query back into a cosine: `largest / (127 * norm)`. Scaling each vector by its own
//! largest component, not by 1, gives the model2vec vectors' typical component (0.06 of a
//! unit vector whose largest is 0.34) about 22 levels instead of 7. Every host runs this
//! code (the JavaScript and Python hosts as the index component), so an index reads the
//! same whichever host wrote it.

use crate::IndexError;
use crate::code_blocks;
use crate::database::Database;
use crate::scan::{Best, Scored};

/// The most a component's code reaches, either way.
const LEVELS: f64 = 127.0;

/// How many of the nearest by code are scored again, to return `k`: four times `k`, at
/// least 128 (an add's supersession check asks for 8) and at most 160, then twice `k`. Each
/// candidate is a vector read from the file (about 23 µs), and a search asks for 80; with
/// half as many candidates a rank past 40, a first search still finds 99.9% of the exact
/// 80 nearest (docs/performance.md).
pub(crate) fn candidates(k: usize) -> usize {
    k.saturating_mul(4).clamp(128, 160).max(k.saturating_mul(2))
}

/// A vector's code: (scale, one byte a component). The caller has checked that it has a
/// direction (`usable`).
pub(crate) fn code(v: &[f32]) -> (f64, Vec<u8>) {
    let largest = v.iter().map(|x| f64::from(*x).abs()).fold(0.0, f64::max);
    let norm = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    let levels = v
        .iter()
        // `f64::round` takes halves away from zero, as the other hosts do by hand.
        .map(|&x| ((f64::from(x) / largest * LEVELS).round() as i8) as u8)
        .collect();
    (largest / (LEVELS * norm), levels)
}

/// A query as the codes are scored against it: its components as integers in
/// -`QUERY_LEVELS`..=`QUERY_LEVELS` over its largest, and the scale that turns their dot
/// product with a code back into the dot product with the query at unit length. In
/// integers, eight or sixteen products are summed an instruction (`pmaddwd`); in floats the
/// pass took as long as SQLite reading the codes.
pub(crate) struct Query {
    levels: Vec<i16>,
    scale: f32,
}

/// The most a query component reaches either way: fine beside a code's 127 (an error of
/// 1/8190 of the largest component, against 1/254). A product is at most 4095 * 128 in
/// size, so each of `dot`'s sixteen i32 lanes holds 65,536 dimensions' worth (sqlite-vec
/// takes at most 8,192); the lanes are added in i64.
const QUERY_LEVELS: f64 = 4095.0;

impl Query {
    /// `unit` (a query at unit length) as levels.
    pub(crate) fn new(unit: &[f32]) -> Self {
        let largest = unit.iter().map(|x| f64::from(*x).abs()).fold(0.0, f64::max);
        let levels = unit
            .iter()
            .map(|&x| (f64::from(x) / largest * QUERY_LEVELS).round() as i16)
            .collect();
        Query {
            levels,
            scale: (largest / QUERY_LEVELS) as f32,
        }
    }

    /// The query's dot product with the vector `code` stands for, at that vector's unit
    /// length: about its cosine.
    fn score(&self, scale: f64, code: &[u8]) -> f32 {
        self.scale * scale as f32 * dot(&self.levels, code) as f32
    }

    /// What one of the query's integer levels stands for: each of its components is
    /// within half of it of the query's.
    pub(crate) fn step(&self) -> f32 {
        self.scale
    }

    /// [`Query::score`] of every code in `codes` (one after another, with their scales in
    /// `scales`), pushed onto `out` in order.
    pub(crate) fn score_all(&self, codes: &[u8], scales: &[f32], out: &mut Vec<f32>) {
        if self.levels.is_empty() {
            return;
        }
        for (code, scale) in codes.chunks_exact(self.levels.len()).zip(scales) {
            out.push(self.scale * scale * dot(&self.levels, code) as f32);
        }
    }
}

/// The rowids of the `count` vectors of `scope` whose codes score best against `query`,
/// best first, and how many codes were read.
pub(crate) fn nearest(
    db: &mut dyn Database,
    scope: &str,
    query: &Query,
    count: usize,
) -> Result<(Vec<i64>, usize), IndexError> {
    let mut best = Best::new(count);
    let mut read = 0;
    code_blocks::read(db, scope, query.levels.len(), &mut |item, scale, levels| {
        read += 1;
        best.offer(Scored {
            score: query.score(scale, levels),
            rowid: item,
            position: 0,
        });
    })?;
    Ok((best.best_first().into_iter().map(|s| s.rowid).collect(), read))
}

/// `a . b` with `b` as signed bytes, in integers: sixteen independent sums (`dot_in`), or
/// `dot_avx2` where the CPU has AVX2 (the baseline x86-64 target has SSE2 only).
fn dot(a: &[i16], b: &[u8]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: this CPU has AVX2, checked just above.
        return unsafe { dot_avx2(a, b) };
    }
    dot_in(a, b)
}

/// `dot` sixteen components at a time: the bytes widened to 16 bits and multiplied with the
/// query's in pairs summed to 32 bits (`vpmaddwd`), the instruction the compiler did not
/// find for `dot_in` (which took twice as long). Integer arithmetic: the same sum exactly.
/// Each of the eight lanes adds two products of at most 4095 * 127 for every sixteen
/// components, so it holds sqlite-vec's 8,192. `a` and `b` have one length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn dot_avx2(a: &[i16], b: &[u8]) -> i64 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_cvtepi8_epi16, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    let length = a.len().min(b.len());
    let whole = length / 16 * 16;
    let mut sums = _mm256_setzero_si256();
    for at in (0..whole).step_by(16) {
        // SAFETY: `at + 16 <= whole <= length`, within both slices; unaligned loads.
        let (bytes, levels) = unsafe {
            (
                _mm_loadu_si128(b.as_ptr().add(at).cast::<__m128i>()),
                _mm256_loadu_si256(a.as_ptr().add(at).cast::<__m256i>()),
            )
        };
        sums = _mm256_add_epi32(sums, _mm256_madd_epi16(levels, _mm256_cvtepi8_epi16(bytes)));
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes; an unaligned store.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sums) };
    let tail: i64 = a[whole..length]
        .iter()
        .zip(&b[whole..length])
        .map(|(x, y)| i64::from(*x) * i64::from(*y as i8))
        .sum();
    lanes.iter().map(|&s| i64::from(s)).sum::<i64>() + tail
}

#[inline(always)]
fn dot_in(a: &[i16], b: &[u8]) -> i64 {
    let mut sums = [0i32; 16];
    let (a16, a_rest) = a.split_at(a.len() / 16 * 16);
    let (b16, b_rest) = b.split_at(a16.len());
    for (x, y) in a16.chunks_exact(16).zip(b16.chunks_exact(16)) {
        for lane in 0..16 {
            sums[lane] += i32::from(x[lane]) * i32::from(y[lane] as i8);
        }
    }
    let tail: i64 = a_rest
        .iter()
        .zip(b_rest)
        .map(|(x, y)| i64::from(*x) * i64::from(*y as i8))
        .sum();
    sums.iter().map(|&s| i64::from(s)).sum::<i64>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_deeper_than_forty_scores_no_more_candidates_until_twice_its_k_is_more() {
        assert_eq!(candidates(8), 128, "an add's supersession check");
        assert_eq!(candidates(40), 160);
        assert_eq!(candidates(80), 160, "a search of ten, `LIST_DEPTH` deep");
        assert_eq!(candidates(200), 400, "a search of fifty");
    }

    #[test]
    fn a_code_spans_the_levels_by_its_largest_component_and_rounds_halves_away_from_zero() {
        // Over 128 and times 127, every step is exact: 64 is 63.5, a half either way.
        let (scale, levels) = code(&[128.0, -64.0, 64.0, 32.0, 0.5, 0.0]);
        let levels: Vec<i8> = levels.into_iter().map(|b| b as i8).collect();
        assert_eq!(levels, [127, -64, 64, 32, 0, 0]);
        let norm = (128.0f64 * 128.0 + 2.0 * 64.0 * 64.0 + 32.0 * 32.0 + 0.25).sqrt();
        assert_eq!(scale, 128.0 / (127.0 * norm));
    }

    #[test]
    fn a_codes_score_is_near_the_cosine_it_stands_for() {
        let v: Vec<f32> = (0..256).map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0).collect();
        let q: Vec<f32> = (0..256).map(|i| ((i * 53 % 89) as f32 - 44.0) / 3.0).collect();
        let unit = crate::scan::unit(&q);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let cosine: f32 = unit.iter().zip(&v).map(|(a, b)| a * b / norm).sum();
        let (scale, levels) = code(&v);
        let coarse = Query::new(&unit).score(scale, &levels);
        assert!((coarse - cosine).abs() < 0.01, "{coarse} against {cosine}");
    }

    #[test]
    fn the_vector_kernel_sums_as_the_plain_one_past_a_multiple_of_sixteen() {
        for dimension in [3, 16, 37, 256, 384] {
            let a: Vec<i16> = (0..dimension).map(|i| (i * 113 % 8191) as i16 - 4095).collect();
            let b: Vec<u8> = (0..dimension)
                .map(|i| ((i * 7 % 255) as i16 - 127) as i8 as u8)
                .collect();
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: this CPU has AVX2, checked just above.
                assert_eq!(unsafe { dot_avx2(&a, &b) }, dot_in(&a, &b), "{dimension} dimensions");
            }
            assert_eq!(dot(&a, &b), dot_in(&a, &b), "{dimension} dimensions");
        }
    }

    #[test]
    fn the_integer_dot_product_counts_every_component_past_a_multiple_of_sixteen() {
        let a: Vec<i16> = (0..37).map(|i| (i * 113 % 8191) as i16 - 4095).collect();
        let b: Vec<u8> = (0..37).map(|i| ((i * 7 % 255) as i16 - 127) as i8 as u8).collect();
        let expected: i64 = a.iter().zip(&b).map(|(x, y)| i64::from(*x) * i64::from(*y as i8)).sum();
        assert_eq!(dot(&a, &b), expected);
        assert_eq!(dot_in(&a, &b), expected);
        // sqlite-vec's largest dimension, every product at its largest: past an i32.
        let (a, b) = (vec![-4095i16; 8192], vec![(-127i8) as u8; 8192]);
        assert_eq!(dot(&a, &b), 8192 * 4095 * 127);
    }
}
