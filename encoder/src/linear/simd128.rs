//! The dot products in WebAssembly's 128-bit SIMD, for the module the JavaScript and Python
//! hosts load (`encoder/wasm`): eight lanes as two four-lane halves, with the AVX2 kernel's
//! blocking and its sums in its order, so that the vectors are the native build's bit for bit.

use core::arch::wasm32::*;

use super::{Linear, TOKEN_GROUP, for_each_block};

/// SAFETY: `x` holds `tokens` rows of `inputs`, `out` `tokens` rows of `outputs`, and
/// `inputs` is a multiple of 8.
#[target_feature(enable = "simd128")]
pub(super) unsafe fn apply(layer: &Linear, x: &[f32], tokens: usize, out: &mut [f32]) {
    // SAFETY (each block): as this function's.
    run_blocks!(block, layer, x, tokens, out);
}

/// Weight rows `j..j + R` against tokens `t..t + T`.
#[target_feature(enable = "simd128")]
#[inline]
unsafe fn block<const R: usize, const T: usize>(layer: &Linear, x: &[f32], t: usize, j: usize, out: &mut [f32]) {
    let (outputs, inputs) = (layer.weight.rows, layer.weight.cols);
    let (x, w) = (x.as_ptr(), layer.weight.data.as_ptr());
    let zero = f32x4_splat(0.0);
    let mut acc = [[[zero; 2]; T]; R];
    let mut c = 0;
    while c < inputs {
        // SAFETY (the loads): rows j..j+R of the weights are `inputs` bytes each from
        // j * inputs, token rows t..t+T are in `x`, c + 8 <= inputs, and wasm loads need
        // no alignment.
        let mut wv = [[zero; 2]; R];
        for (r, v) in wv.iter_mut().enumerate() {
            let bytes = unsafe { v128_load64_zero(w.add((j + r) * inputs + c) as *const u64) };
            let wide = i16x8_extend_low_i8x16(bytes);
            *v = [
                f32x4_convert_i32x4(i32x4_extend_low_i16x8(wide)),
                f32x4_convert_i32x4(i32x4_extend_high_i16x8(wide)),
            ];
        }
        for u in 0..T {
            let p = unsafe { x.add((t + u) * inputs + c) };
            let xv = unsafe { [v128_load(p as *const v128), v128_load(p.add(4) as *const v128)] };
            for (row, w) in acc.iter_mut().zip(&wv) {
                row[u][0] = f32x4_add(row[u][0], f32x4_mul(w[0], xv[0]));
                row[u][1] = f32x4_add(row[u][1], f32x4_mul(w[1], xv[1]));
            }
        }
        c += 8;
    }
    for (r, row) in acc.iter().enumerate() {
        let (scale, bias) = (layer.weight.scales[j + r], layer.bias[j + r]);
        for (u, halves) in row.iter().enumerate() {
            let v = f32x4_add(halves[0], halves[1]);
            let sum = (f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<2>(v))
                + (f32x4_extract_lane::<1>(v) + f32x4_extract_lane::<3>(v));
            out[(t + u) * outputs + j + r] = sum * scale + bias;
        }
    }
}
