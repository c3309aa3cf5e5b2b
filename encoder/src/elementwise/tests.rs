//! The AVX-512 kernels against libm, bit for bit: on a sweep of every float (a stride
//! through all 2^32 bit patterns) and on every float near each bound where libm changes
//! branch. `every_float_*` (ignored: a few minutes) checks all 2^32 of them.

use super::*;

/// Every branch bound of `erff` and `expf`, as bits of `|x|`.
const ERF_BOUNDS: [u32; 6] = [
    0x3180_0000,
    0x3f58_0000,
    0x3fa0_0000,
    0x4036_db6d,
    0x40c0_0000,
    0x7f80_0000,
];
const EXP_BOUNDS: [u32; 6] = [
    0x3900_0000,
    0x3eb1_7218,
    0x3f85_1592,
    0x42ae_ac50,
    0x42b1_7218,
    0x42cf_f1b5,
];

fn avx512() -> bool {
    let here = std::is_x86_feature_detected!("avx512f");
    if !here {
        eprintln!("this CPU has no AVX-512: the kernels are NOT compared, only libm's loop runs");
    }
    here
}

/// The values to check: a stride through all bit patterns, and 4,096 floats either side
/// of each bound, of both signs, scaled by `by` (GELU's input is divided by sqrt 2).
fn values(bounds: &[u32], by: f32) -> Vec<f32> {
    let mut out: Vec<f32> = (0..=u32::MAX).step_by(4_099).map(f32::from_bits).collect();
    for &bound in bounds {
        for bits in bound.saturating_sub(4_096)..bound.saturating_add(4_096) {
            let v = f32::from_bits(bits) * by;
            out.extend([v, -v]);
        }
    }
    out
}

/// Runs `kernel` and `reference` over the values and names the first that differ.
fn compare(values: &[f32], kernel: impl Fn(&mut [f32]), reference: impl Fn(f32) -> f32) {
    let mut out = values.to_vec();
    kernel(&mut out);
    for (x, got) in values.iter().zip(&out) {
        let want = reference(*x);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "{x:e} ({:#010x}): {got:e} ({:#010x}), libm {want:e} ({:#010x})",
            x.to_bits(),
            got.to_bits(),
            want.to_bits()
        );
    }
}

#[test]
fn gelu_gives_libms_bits() {
    if avx512() {
        compare(
            &values(&ERF_BOUNDS, std::f32::consts::SQRT_2),
            // SAFETY: the CPU has AVX-512.
            |v| unsafe { avx512::gelu_in_place(v) },
            gelu,
        );
    }
    compare(&values(&ERF_BOUNDS, std::f32::consts::SQRT_2), gelu_in_place, gelu);
}

#[test]
fn exp_gives_libms_bits() {
    if avx512() {
        // SAFETY: the CPU has AVX-512.
        compare(
            &values(&EXP_BOUNDS, 1.0),
            |v| unsafe { avx512::exp_in_place(v) },
            libm::expf,
        );
    }
    compare(&values(&EXP_BOUNDS, 1.0), exp_in_place, libm::expf);
}

/// The sweep reaches every branch: a kernel that got one branch wrong would be seen.
#[test]
fn the_values_reach_every_branch() {
    let erf = values(&ERF_BOUNDS, 1.0);
    for pair in ERF_BOUNDS.windows(2) {
        let inside = |v: &&f32| (pair[0]..pair[1]).contains(&(v.to_bits() & 0x7fff_ffff));
        assert!(erf.iter().filter(inside).count() > 1_000, "{pair:x?}");
    }
    let exp = values(&EXP_BOUNDS, 1.0);
    for pair in EXP_BOUNDS.windows(2) {
        let inside = |v: &&f32| (pair[0]..pair[1]).contains(&(v.to_bits() & 0x7fff_ffff));
        assert!(exp.iter().filter(inside).count() > 1_000, "{pair:x?}");
    }
}

/// Every one of the 2^32 floats, in blocks.
fn every_float(kernel: unsafe fn(&mut [f32]), reference: fn(f32) -> f32) {
    if !avx512() {
        return;
    }
    let mut block = Vec::with_capacity(1 << 20);
    for high in 0..1u64 << 12 {
        block.clear();
        block.extend((0..1u64 << 20).map(|low| f32::from_bits(((high << 20) | low) as u32)));
        // SAFETY: the CPU has AVX-512.
        compare(&block, |v| unsafe { kernel(v) }, reference);
    }
}

#[test]
#[ignore = "all 2^32 floats: minutes; run by hand after a change to the kernels"]
fn every_float_gelu() {
    every_float(avx512::gelu_in_place, gelu);
}

#[test]
#[ignore = "all 2^32 floats: minutes; run by hand after a change to the kernels"]
fn every_float_exp() {
    every_float(avx512::exp_in_place, libm::expf);
}

/// Slices of every length up to three chunks, so that the padded last chunk is checked
/// whatever its length.
#[test]
fn every_length_gives_libms_bits() {
    for len in 0..48 {
        let values: Vec<f32> = (0..len).map(|i| (i as f32 - 20.0) * 0.37).collect();
        compare(&values, gelu_in_place, gelu);
        compare(&values, exp_in_place, libm::expf);
    }
}
