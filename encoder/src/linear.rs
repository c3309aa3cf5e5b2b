//! `y = x Wᵀ + b` with `W` an int8 matrix in PyTorch's [outputs, inputs] layout, read in
//! place: every output is a dot product of a token's row with a weight row, scaled.
//!
//! Why not a general matrix product: a query is about ten tokens, and a packing GEMM copies
//! all 42 MB of widened weights per call to multiply them by those ten rows (measured: half
//! of the time went to packing). Reading 10.6 MB of int8 rows once, a block at a time while
//! every token passes over it, does the same arithmetic with a quarter of the memory traffic
//! and no copy. On x86-64 with AVX2 (checked at run time) the dot products run eight lanes
//! wide, with AVX-512 two weight rows to a register (`avx512.rs`: the same sums, 1.3x as
//! many texts a second), and in WebAssembly as two four-lane halves (`simd128.rs`); elsewhere
//! a portable loop keeps the same eight partial sums.
//!
//! All three give the same bits, so that every host stores the same vector for a text (the
//! JavaScript and Python hosts run the WebAssembly build): lane `i` of a dot product sums the
//! products of columns `i, i + 8, i + 16, ...` in order, each product rounded before it is
//! added (WebAssembly has no fused multiply-add outside relaxed SIMD, whose results may
//! differ between engines; fusing them natively saved 6% of a query's time and 15% of a
//! batch's, measured with `bench --embedder transformer`), and the eight lanes are added as
//! `((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))`.

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
        let threads = (tokens / TOKEN_TILE).min(cores()).min(THREADS_HERE.get());
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
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") {
            // SAFETY: as below, with the features this kernel is compiled for.
            unsafe { avx512::apply(self, x, tokens, out) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has the features the function is compiled for; the assert
            // above bounds every access it makes.
            unsafe { avx2::apply(self, x, tokens, out) };
            return;
        }
        // SAFETY: an engine without 128-bit SIMD refuses the whole module (Node and
        // wasmtime, the engines that load it, have it); the assert above bounds every
        // access the kernel makes.
        #[cfg(target_arch = "wasm32")]
        return unsafe { simd128::apply(self, x, tokens, out) };
        #[cfg(not(target_arch = "wasm32"))]
        self.apply_portable(x, tokens, out);
    }

    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    fn apply_portable(&self, x: &[f32], tokens: usize, out: &mut [f32]) {
        let (outputs, inputs) = (self.weight.rows, self.weight.cols);
        for t in 0..tokens {
            let row = &x[t * inputs..(t + 1) * inputs];
            for j in 0..outputs {
                let w = &self.weight.data[j * inputs..(j + 1) * inputs];
                let mut lanes = [0.0f32; 8];
                for (xs, ws) in row.chunks_exact(8).zip(w.chunks_exact(8)) {
                    for ((lane, a), &q) in lanes.iter_mut().zip(xs).zip(ws) {
                        *lane += f32::from(q as i8) * a;
                    }
                }
                out[t * outputs + j] = sum_lanes(lanes) * self.weight.scales[j] + self.bias[j];
            }
        }
    }
}

/// Eight partial sums added in the order every kernel adds them (see the module's doc).
fn sum_lanes(l: [f32; 8]) -> f32 {
    ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

/// The vector kernels' walk over a layer: tiles of [`TOKEN_TILE`] tokens, blocks of
/// [`ROW_BLOCK`] weight rows, and in each block groups of `rows` (2, or 1 for an odd last
/// row) by `group` tokens ([`TOKEN_GROUP`], or 1 for the tile's remainder): `block(rows,
/// group, t, j)` computes weight rows `j..j + rows` against tokens `t..t + group`.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "wasm32")), allow(dead_code))]
fn for_each_block(tokens: usize, outputs: usize, mut block: impl FnMut(usize, usize, usize, usize)) {
    for tile in (0..tokens).step_by(TOKEN_TILE) {
        let end = (tile + TOKEN_TILE).min(tokens);
        for first in (0..outputs).step_by(ROW_BLOCK) {
            let last = (first + ROW_BLOCK).min(outputs);
            let mut j = first;
            while j < last {
                let rows = if j + 2 <= last { 2 } else { 1 };
                let mut t = tile;
                while t + TOKEN_GROUP <= end {
                    block(rows, TOKEN_GROUP, t, j);
                    t += TOKEN_GROUP;
                }
                while t < end {
                    block(rows, 1, t, j);
                    t += 1;
                }
                j += rows;
            }
        }
    }
}

std::thread_local! {
    /// The most threads a layer on this thread may share its batch among: the cores,
    /// unless [`on_this_thread`] says one.
    static THREADS_HERE: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Runs `f` with every layer on this thread's batches computed on this thread alone: for a
/// caller that already shares its texts among the cores, where threads inside each layer
/// would only contend for the same cores. The results are the same bits either way.
pub fn on_this_thread<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the limit back however `f` ends, a panic included.
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREADS_HERE.set(self.0);
        }
    }
    let _restore = Restore(THREADS_HERE.replace(1));
    f()
}

/// The cores a batch may use (asked once: the answer reads cgroup files), at most
/// four: the threads a layer's tiles, or a caller's texts, are shared among.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_THREADS)
    })
}

/// Runs a kernel's `block::<ROWS, TOKENS>(layer, x, t, j, out)` over a layer in
/// [`for_each_block`]'s walk, each group with the block its shape compiles to. Used inside
/// the kernel's unsafe `apply`, whose contract covers every block.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "wasm32")), allow(unused_macros))]
macro_rules! run_blocks {
    ($block:ident, $layer:expr, $x:expr, $tokens:expr, $out:expr) => {
        for_each_block($tokens, $layer.weight.rows, |rows, group, t, j| match (rows, group) {
            (2, TOKEN_GROUP) => unsafe { $block::<2, TOKEN_GROUP>($layer, $x, t, j, $out) },
            (2, _) => unsafe { $block::<2, 1>($layer, $x, t, j, $out) },
            (_, TOKEN_GROUP) => unsafe { $block::<1, TOKEN_GROUP>($layer, $x, t, j, $out) },
            _ => unsafe { $block::<1, 1>($layer, $x, t, j, $out) },
        })
    };
}

#[cfg(target_arch = "wasm32")]
mod simd128;

#[cfg(target_arch = "x86_64")]
mod avx512;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Linear, TOKEN_GROUP, for_each_block};

    /// SAFETY: needs AVX2; `x` holds `tokens` rows of `inputs`, `out` `tokens` rows
    /// of `outputs`, and `inputs` is a multiple of 8.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply(layer: &Linear, x: &[f32], tokens: usize, out: &mut [f32]) {
        // SAFETY (each block): as this function's.
        run_blocks!(block, layer, x, tokens, out);
    }

    /// Weight rows `j..j + R` against tokens `t..t + T`: R * T dot products at once, so that
    /// each chunk loaded serves several of them.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn block<const R: usize, const T: usize>(
        layer: &Linear,
        x: &[f32],
        t: usize,
        j: usize,
        out: &mut [f32],
    ) {
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
                    row[u] = _mm256_add_ps(row[u], _mm256_mul_ps(*w, xv));
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
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn sum(v: __m256) -> f32 {
        let half = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let pairs = _mm_add_ps(half, _mm_movehl_ps(half, half));
        _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 16 + 16 + 7: row blocks of four, then two and one (the AVX-512 walk), an odd last row.
    const ROWS: usize = 39;
    const COLS: usize = 64;

    /// A layer of odd shape (an odd last row, several row blocks) and its inputs.
    struct Case {
        data: Vec<u8>,
        scales: Vec<f32>,
        bias: Vec<f32>,
    }

    impl Case {
        fn new() -> Self {
            Case {
                data: (0..ROWS * COLS).map(|i| (i * 37 % 251) as u8).collect(),
                scales: (0..ROWS).map(|r| 0.01 + r as f32 * 0.001).collect(),
                bias: (0..ROWS).map(|r| r as f32 * 0.5 - 3.0).collect(),
            }
        }

        fn layer(&self) -> Linear<'_> {
            let weight = Int8Matrix {
                rows: ROWS,
                cols: COLS,
                data: &self.data,
                scales: self.scales.clone(),
            };
            Linear::new(weight, self.bias.clone()).unwrap()
        }

        /// The products of output `j` and token `t`, each rounded to f32, in column order.
        fn products(&self, x: &[f32], t: usize, j: usize) -> Vec<f32> {
            (0..COLS)
                .map(|c| f32::from(self.data[j * COLS + c] as i8) * x[t * COLS + c])
                .collect()
        }

        /// The module doc's arithmetic written out plainly, one output at a time: lane `i`
        /// adds the products of columns `i, i + 8, ...` in order, the lanes are added as
        /// `((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))`, then scaled and biased.
        fn reference(&self, x: &[f32], tokens: usize) -> Vec<f32> {
            let mut out = Vec::with_capacity(tokens * ROWS);
            for t in 0..tokens {
                for j in 0..ROWS {
                    let p = self.products(x, t, j);
                    let lane = |i: usize| (i..COLS).step_by(8).fold(0.0f32, |s, c| s + p[c]);
                    let sum = ((lane(0) + lane(4)) + (lane(2) + lane(6))) + ((lane(1) + lane(5)) + (lane(3) + lane(7)));
                    out.push(sum * self.scales[j] + self.bias[j]);
                }
            }
            out
        }
    }

    /// Token counts that do and do not fill a group, and a batch of several tiles (which
    /// `apply` shares among threads).
    const TOKENS: [usize; 5] = [1, 4, 7, TOKEN_TILE + 1, 2 * TOKEN_TILE + 3];

    /// Inputs with full mantissas, so that a sum in another order or a fused multiply-add
    /// rounds differently (checked by `the_reference_tells_the_orders_apart`).
    fn input(tokens: usize) -> Vec<f32> {
        (0..tokens * COLS)
            .map(|i| ((i * 7919 % 1000) as f32 / 997.0 - 0.5) * 3.3)
            .collect()
    }

    /// The inputs are such that a kernel summing in another order, or fusing the multiply
    /// and the add, gives other bits than the reference: otherwise the comparisons below
    /// could not see those defects.
    #[test]
    fn the_reference_tells_the_orders_apart() {
        let case = Case::new();
        let tokens = 7;
        let x = input(tokens);
        let reference = case.reference(&x, tokens);
        let (mut in_order, mut fused) = (Vec::new(), Vec::new());
        for t in 0..tokens {
            for j in 0..ROWS {
                let p = case.products(&x, t, j);
                in_order.push(p.iter().fold(0.0f32, |s, p| s + p) * case.scales[j] + case.bias[j]);
                let lane = |i: usize| {
                    (i..COLS).step_by(8).fold(0.0f32, |s, c| {
                        f32::from(case.data[j * COLS + c] as i8).mul_add(x[t * COLS + c], s)
                    })
                };
                let sum = ((lane(0) + lane(4)) + (lane(2) + lane(6))) + ((lane(1) + lane(5)) + (lane(3) + lane(7)));
                fused.push(sum * case.scales[j] + case.bias[j]);
            }
        }
        assert_ne!(
            in_order, reference,
            "a plain left-to-right sum gives the reference's bits"
        );
        assert_ne!(fused, reference, "fused multiply-adds give the reference's bits");
    }

    /// The portable loop gives the reference's bits.
    #[test]
    fn the_portable_kernel_follows_the_reference() {
        let case = Case::new();
        let layer = case.layer();
        for tokens in TOKENS {
            let x = input(tokens);
            let mut out = vec![0.0; tokens * ROWS];
            layer.apply_portable(&x, tokens, &mut out);
            assert_eq!(out, case.reference(&x, tokens), "{tokens} tokens");
        }
    }

    /// The AVX2 kernel, called directly, and `apply` (the kernel this CPU dispatches to,
    /// over threads for a large batch) give the reference's bits. On a CPU without AVX2
    /// the vector kernel cannot run: the test says so on stderr, and checks `apply` alone.
    /// The WebAssembly kernel (`simd128.rs`) runs only in the wasm build.
    #[test]
    fn the_kernels_agree() {
        let case = Case::new();
        let layer = case.layer();
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let avx2 = false;
        if !avx2 {
            eprintln!(
                "the_kernels_agree: this CPU has no AVX2, so the AVX2 kernel is NOT compared; \
                 only `apply` (the portable loop here) is checked against the reference"
            );
        }
        for tokens in TOKENS {
            let x = input(tokens);
            let reference = case.reference(&x, tokens);
            let mut out = vec![0.0; tokens * ROWS];
            layer.apply(&x, tokens, &mut out);
            assert_eq!(out, reference, "apply, {tokens} tokens");
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                let mut out = vec![0.0; tokens * ROWS];
                // SAFETY: the CPU has AVX2; `x` and `out` hold `tokens` rows, and 64 columns
                // are a multiple of 8.
                unsafe { avx2::apply(&layer, &x, tokens, &mut out) };
                assert_eq!(out, reference, "the AVX2 kernel, {tokens} tokens");
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") {
                let mut out = vec![0.0; tokens * ROWS];
                // SAFETY: the CPU has AVX-512 F and DQ; as above otherwise.
                unsafe { avx512::apply(&layer, &x, tokens, &mut out) };
                assert_eq!(out, reference, "the AVX-512 kernel, {tokens} tokens");
            } else {
                eprintln!("the_kernels_agree: this CPU has no AVX-512, so its kernel is NOT compared");
            }
        }
    }
}
