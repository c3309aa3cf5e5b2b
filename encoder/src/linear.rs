//! `y = x Wᵀ + b` with `W` an int8 matrix in PyTorch's [outputs, inputs] layout, read in
//! place: every output is a dot product of a token's row with a weight row, scaled.
//!
//! Why not a general matrix product: a query is about ten tokens, and a packing GEMM copies
//! all 42 MB of widened weights per call to multiply them by those ten rows (measured: half
//! of the time went to packing). Reading 10.6 MB of int8 rows once, a block at a time while
//! every token passes over it, does the same arithmetic with a quarter of the memory traffic
//! and no copy. On x86-64 with AVX2 and FMA (checked at run time) the dot products run eight
//! lanes wide; elsewhere a portable loop does the same sums.

use crate::weights::Int8Matrix;

/// Tokens per tile: a tile's rows stay in the core's L2 cache while every weight row passes
/// over them, so that a large batch reads each weight from cache once a tile rather than
/// reading all the tokens again for every few weights.
const TOKEN_TILE: usize = 64;
/// Weight rows per block: kept hot in L1 while each group of a tile's tokens passes over them.
const ROW_BLOCK: usize = 16;
/// Threads a large batch is shared among, at most.
const MAX_THREADS: usize = 4;
/// Tokens per group: each weight chunk loaded is used this many times.
const TOKEN_GROUP: usize = 4;

/// One linear layer.
pub(super) struct Linear<'a> {
    weight: Int8Matrix<'a>,
    bias: Vec<f32>,
}

impl<'a> Linear<'a> {
    /// The layer; `weight.cols` must be a multiple of 8.
    pub(super) fn new(weight: Int8Matrix<'a>, bias: Vec<f32>) -> Result<Self, String> {
        if !weight.cols.is_multiple_of(8) || bias.len() != weight.rows {
            return Err(format!(
                "a {}x{} layer with {} biases",
                weight.rows,
                weight.cols,
                bias.len()
            ));
        }
        Ok(Linear { weight, bias })
    }

    /// `out` (tokens x outputs) = `x` (tokens x inputs) Wᵀ + b. A batch of several tiles
    /// is shared among the cores, each taking whole tiles.
    pub(super) fn apply(&self, x: &[f32], tokens: usize, out: &mut [f32]) {
        let (outputs, inputs) = (self.weight.rows, self.weight.cols);
        let threads = (tokens / TOKEN_TILE).min(cores());
        if threads < 2 {
            return self.apply_here(x, tokens, out);
        }
        let per = tokens.div_ceil(TOKEN_TILE).div_ceil(threads) * TOKEN_TILE;
        std::thread::scope(|scope| {
            let chunks = x[..tokens * inputs]
                .chunks(per * inputs)
                .zip(out[..tokens * outputs].chunks_mut(per * outputs));
            for (x, out) in chunks {
                scope.spawn(move || self.apply_here(x, x.len() / inputs, out));
            }
        });
    }

    /// [`Self::apply`] on this thread.
    fn apply_here(&self, x: &[f32], tokens: usize, out: &mut [f32]) {
        let (outputs, inputs) = (self.weight.rows, self.weight.cols);
        assert!(x.len() >= tokens * inputs && out.len() >= tokens * outputs);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the features the function is compiled for; the assert
            // above bounds every access it makes.
            unsafe { avx2::apply(self, x, tokens, out) };
            return;
        }
        self.apply_portable(x, tokens, out);
    }

    fn apply_portable(&self, x: &[f32], tokens: usize, out: &mut [f32]) {
        let (outputs, inputs) = (self.weight.rows, self.weight.cols);
        for t in 0..tokens {
            let row = &x[t * inputs..(t + 1) * inputs];
            for j in 0..outputs {
                let w = &self.weight.data[j * inputs..(j + 1) * inputs];
                let dot: f32 = row.iter().zip(w).map(|(a, &q)| a * f32::from(q as i8)).sum();
                out[t * outputs + j] = dot * self.weight.scales[j] + self.bias[j];
            }
        }
    }
}

/// The cores a batch may use (asked once: the answer reads cgroup files).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_THREADS)
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Linear, ROW_BLOCK, TOKEN_GROUP, TOKEN_TILE};

    /// SAFETY: needs AVX2 and FMA; `x` holds `tokens` rows of `inputs`, `out` `tokens` rows
    /// of `outputs`, and `inputs` is a multiple of 8.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn apply(layer: &Linear, x: &[f32], tokens: usize, out: &mut [f32]) {
        let outputs = layer.weight.rows;
        for tile in (0..tokens).step_by(TOKEN_TILE) {
            let end = (tile + TOKEN_TILE).min(tokens);
            for first in (0..outputs).step_by(ROW_BLOCK) {
                let last = (first + ROW_BLOCK).min(outputs);
                let mut j = first;
                while j < last {
                    let pair = j + 2 <= last;
                    let mut t = tile;
                    // SAFETY (each call): as this function's.
                    while t + TOKEN_GROUP <= end {
                        match pair {
                            true => unsafe { block::<2, TOKEN_GROUP>(layer, x, t, j, out) },
                            false => unsafe { block::<1, TOKEN_GROUP>(layer, x, t, j, out) },
                        }
                        t += TOKEN_GROUP;
                    }
                    while t < end {
                        match pair {
                            true => unsafe { block::<2, 1>(layer, x, t, j, out) },
                            false => unsafe { block::<1, 1>(layer, x, t, j, out) },
                        }
                        t += 1;
                    }
                    j += if pair { 2 } else { 1 };
                }
            }
        }
    }

    /// Weight rows `j..j + R` against tokens `t..t + T`: R * T dot products at once, so that
    /// each chunk loaded serves several of them.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn block<const R: usize, const T: usize>(layer: &Linear, x: &[f32], t: usize, j: usize, out: &mut [f32]) {
        let (outputs, inputs) = (layer.weight.rows, layer.weight.cols);
        let (x, w) = (x.as_ptr(), layer.weight.data.as_ptr());
        let mut acc = [[_mm256_setzero_ps(); T]; R];
        let mut c = 0;
        while c < inputs {
            // SAFETY (the loads): rows j..j+R of the weights are `inputs` bytes each from
            // j * inputs, token rows t..t+T are in `x`, and c + 8 <= inputs.
            let mut wv = [_mm256_setzero_ps(); R];
            for (r, v) in wv.iter_mut().enumerate() {
                let bytes = unsafe { _mm_loadl_epi64(w.add((j + r) * inputs + c) as *const __m128i) };
                *v = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes));
            }
            for u in 0..T {
                let xv = unsafe { _mm256_loadu_ps(x.add((t + u) * inputs + c)) };
                for (row, w) in acc.iter_mut().zip(&wv) {
                    row[u] = _mm256_fmadd_ps(*w, xv, row[u]);
                }
            }
            c += 8;
        }
        for (r, row) in acc.iter().enumerate() {
            let (scale, bias) = (layer.weight.scales[j + r], layer.bias[j + r]);
            for (u, a) in row.iter().enumerate() {
                out[(t + u) * outputs + j + r] = sum(*a) * scale + bias;
            }
        }
    }

    /// The sum of a vector's eight lanes.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn sum(v: __m256) -> f32 {
        let half = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let pairs = _mm_add_ps(half, _mm_movehl_ps(half, half));
        _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector kernel and the portable loop agree, for token counts that do and do not
    /// fill a group.
    #[test]
    fn the_kernels_agree() {
        let (rows, cols) = (37, 24);
        let data: Vec<u8> = (0..rows * cols).map(|i| (i * 37 % 251) as u8).collect();
        let scales: Vec<f32> = (0..rows).map(|r| 0.01 + r as f32 * 0.001).collect();
        let bias: Vec<f32> = (0..rows).map(|r| r as f32 * 0.5 - 3.0).collect();
        let layer = Linear::new(
            Int8Matrix {
                rows,
                cols,
                data: &data,
                scales,
            },
            bias,
        )
        .unwrap();
        for tokens in [1, 4, 7, 2 * TOKEN_TILE + 3] {
            let x: Vec<f32> = (0..tokens * cols)
                .map(|i| ((i * 13 % 17) as f32 - 8.0) * 0.25)
                .collect();
            let (mut fast, mut slow) = (vec![0.0; tokens * rows], vec![0.0; tokens * rows]);
            layer.apply(&x, tokens, &mut fast);
            layer.apply_portable(&x, tokens, &mut slow);
            for (a, b) in fast.iter().zip(&slow) {
                assert!((a - b).abs() <= 1e-4 * b.abs().max(1.0), "{a} vs {b}");
            }
        }
    }
}
