//! The dot products with AVX-512 on x86-64 (checked at run time): one 512-bit register holds
//! the same eight columns of two weight rows, each half summed in its own eight lanes, so
//! that every output is the AVX2 kernel's arithmetic in the same order, bit for bit, with
//! half the vector instructions.

use std::arch::x86_64::*;

use super::{Linear, ROW_BLOCK, TOKEN_GROUP, TOKEN_TILE};

/// Weight rows a block takes at once: two registers of two rows each.
const ROWS: usize = 4;

/// SAFETY: needs AVX-512 F and DQ; `x` holds `tokens` rows of `inputs`, `out` `tokens`
/// rows of `outputs`, and `inputs` is a multiple of 8.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) unsafe fn apply(layer: &Linear, x: &[f32], tokens: usize, out: &mut [f32]) {
    let outputs = layer.weight.rows;
    for tile in (0..tokens).step_by(TOKEN_TILE) {
        let end = (tile + TOKEN_TILE).min(tokens);
        for first in (0..outputs).step_by(ROW_BLOCK) {
            let last = (first + ROW_BLOCK).min(outputs);
            let mut j = first;
            while j < last {
                let rows = (last - j).min(ROWS);
                let mut t = tile;
                // SAFETY (each block): as this function's; rows j..j+rows are in the layer.
                while t + TOKEN_GROUP <= end {
                    match rows {
                        ROWS => unsafe { block::<2, TOKEN_GROUP>(layer, x, t, j, out) },
                        2 | 3 => unsafe { block::<1, TOKEN_GROUP>(layer, x, t, j, out) },
                        _ => unsafe { super::avx2::block::<1, TOKEN_GROUP>(layer, x, t, j, out) },
                    }
                    t += TOKEN_GROUP;
                }
                while t < end {
                    match rows {
                        ROWS => unsafe { block::<2, 1>(layer, x, t, j, out) },
                        2 | 3 => unsafe { block::<1, 1>(layer, x, t, j, out) },
                        _ => unsafe { super::avx2::block::<1, 1>(layer, x, t, j, out) },
                    }
                    t += 1;
                }
                j += match rows {
                    ROWS => ROWS,
                    2 | 3 => 2,
                    _ => 1,
                };
            }
        }
    }
}

/// Weight rows `j..j + 2P` against tokens `t..t + T`: register `p` holds rows `j + 2p` (low
/// half) and `j + 2p + 1` (high half).
#[target_feature(enable = "avx512f,avx512dq")]
#[inline]
unsafe fn block<const P: usize, const T: usize>(layer: &Linear, x: &[f32], t: usize, j: usize, out: &mut [f32]) {
    let (outputs, inputs) = (layer.weight.rows, layer.weight.cols);
    let (x, w) = (x.as_ptr(), layer.weight.data.as_ptr());
    let mut acc = [[_mm512_setzero_ps(); T]; P];
    let mut c = 0;
    while c < inputs {
        // SAFETY (the loads): rows j..j+2P of the weights are `inputs` bytes each from
        // j * inputs, token rows t..t+T are in `x`, and c + 8 <= inputs.
        let mut wv = [_mm512_setzero_ps(); P];
        for (p, v) in wv.iter_mut().enumerate() {
            let row = unsafe { w.add((j + 2 * p) * inputs + c) };
            let low = unsafe { _mm_loadl_epi64(row as *const __m128i) };
            let high = unsafe { _mm_loadl_epi64(row.add(inputs) as *const __m128i) };
            *v = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_unpacklo_epi64(low, high)));
        }
        for u in 0..T {
            let xv = _mm512_broadcast_f32x8(unsafe { _mm256_loadu_ps(x.add((t + u) * inputs + c)) });
            for (pair, w) in acc.iter_mut().zip(&wv) {
                pair[u] = _mm512_add_ps(pair[u], _mm512_mul_ps(*w, xv));
            }
        }
        c += 8;
    }
    for (p, pair) in acc.iter().enumerate() {
        for (u, a) in pair.iter().enumerate() {
            for (half, lanes) in [_mm512_castps512_ps256(*a), _mm512_extractf32x8_ps::<1>(*a)]
                .into_iter()
                .enumerate()
            {
                let r = j + 2 * p + half;
                let (scale, bias) = (layer.weight.scales[r], layer.bias[r]);
                out[(t + u) * outputs + r] = super::avx2::sum(lanes) * scale + bias;
            }
        }
    }
}
