//! libm's `erff` and `expf` (0.2, after FreeBSD's `s_erff.c` and `e_expf.c`), sixteen lanes
//! at once: the same constants, the same operations in the same order (no fused
//! multiply-adds), every branch computed and each lane's own selected. Covers `erff` for
//! `2^-28 <= |x| < 6` and `expf` for `|x| < 87.3` (where its scaling by `2^k` is one exact
//! multiplication); a lane outside is given to libm.

use std::arch::x86_64::*;

/// Values a kernel takes at once.
const LANES: usize = 16;

// erff's constants (libm's names).
const ERX: f32 = f32::from_bits(0x3f58_560b);
const PP: [f32; 5] = [
    f32::from_bits(0x3e03_75d4),
    f32::from_bits(0xbea6_6beb),
    f32::from_bits(0xbce9_528f),
    f32::from_bits(0xbbbd_1489),
    f32::from_bits(0xb7c7_56b1),
];
const QQ: [f32; 5] = [
    f32::from_bits(0x3ecb_bbce),
    f32::from_bits(0x3d85_2a63),
    f32::from_bits(0x3ba6_8116),
    f32::from_bits(0x390a_ee49),
    f32::from_bits(0xb684_e21a),
];
const PA: [f32; 7] = [
    f32::from_bits(0xbb1a_cdc6),
    f32::from_bits(0x3ed4_6805),
    f32::from_bits(0xbebe_9208),
    f32::from_bits(0x3ea2_fe54),
    f32::from_bits(0xbde3_1cc2),
    f32::from_bits(0x3d11_51b3),
    f32::from_bits(0xbb0d_f9c0),
];
const QA: [f32; 6] = [
    f32::from_bits(0x3dd9_f331),
    f32::from_bits(0x3f0a_5785),
    f32::from_bits(0x3d93_1ae7),
    f32::from_bits(0x3e01_3307),
    f32::from_bits(0x3c5f_6e13),
    f32::from_bits(0x3c44_5aa3),
];
const RA: [f32; 8] = [
    f32::from_bits(0xbc21_a093),
    f32::from_bits(0xbf31_a0b7),
    f32::from_bits(0xc128_f022),
    f32::from_bits(0xc279_8057),
    f32::from_bits(0xc322_658c),
    f32::from_bits(0xc338_9ae7),
    f32::from_bits(0xc2a2_932b),
    f32::from_bits(0xc11d_077e),
];
const SA: [f32; 8] = [
    f32::from_bits(0x419d_35ce),
    f32::from_bits(0x4309_a863),
    f32::from_bits(0x43d9_486f),
    f32::from_bits(0x4421_58c9),
    f32::from_bits(0x43d6_810b),
    f32::from_bits(0x42d9_451f),
    f32::from_bits(0x40d2_3f7c),
    f32::from_bits(0xbd77_7f97),
];
const RB: [f32; 7] = [
    f32::from_bits(0xbc21_a092),
    f32::from_bits(0xbf4c_9dd4),
    f32::from_bits(0xc18e_104b),
    f32::from_bits(0xc320_a2ea),
    f32::from_bits(0xc41f_6441),
    f32::from_bits(0xc480_230b),
    f32::from_bits(0xc3f1_c275),
];
const SB: [f32; 7] = [
    f32::from_bits(0x41f2_b459),
    f32::from_bits(0x43a2_e571),
    f32::from_bits(0x44c0_1759),
    f32::from_bits(0x4547_fdbb),
    f32::from_bits(0x451f_90ce),
    f32::from_bits(0x43ed_43a7),
    f32::from_bits(0xc1b3_8712),
];

// expf's constants.
const LN2_HI: f32 = f32::from_bits(0x3f31_7200);
const LN2_LO: f32 = f32::from_bits(0x35bf_be8e);
const INV_LN2: f32 = f32::from_bits(0x3fb8_aa3b);
const P1: f32 = f32::from_bits(0x3e2a_aa8f);
const P2: f32 = f32::from_bits(0xbb35_5215);

/// GELU in place; see [`super::gelu`].
///
/// SAFETY: needs AVX-512 F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn gelu_in_place(values: &mut [f32]) {
    let mut chunks = values.chunks_exact_mut(LANES);
    for chunk in &mut chunks {
        // SAFETY: the chunk holds LANES values.
        let x = unsafe { _mm512_loadu_ps(chunk.as_ptr()) };
        let (erf, covered) = erf(_mm512_mul_ps(x, splat(std::f32::consts::FRAC_1_SQRT_2)));
        let gelu = _mm512_mul_ps(_mm512_mul_ps(splat(0.5), x), _mm512_add_ps(splat(1.0), erf));
        let before: [f32; LANES] = chunk.try_into().expect("a chunk of LANES");
        // SAFETY: as the load's.
        unsafe { _mm512_storeu_ps(chunk.as_mut_ptr(), gelu) };
        for lane in uncovered(covered) {
            chunk[lane] = super::gelu(before[lane]);
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        // SAFETY: as this function's.
        unsafe { padded(rest, |v| gelu_in_place(v)) };
    }
}

/// `expf` in place.
///
/// SAFETY: needs AVX-512 F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn exp_in_place(values: &mut [f32]) {
    let mut chunks = values.chunks_exact_mut(LANES);
    for chunk in &mut chunks {
        // SAFETY: the chunk holds LANES values.
        let x = unsafe { _mm512_loadu_ps(chunk.as_ptr()) };
        let covered = _mm512_cmplt_epu32_mask(magnitude(x), _mm512_set1_epi32(0x42aeac50));
        let before: [f32; LANES] = chunk.try_into().expect("a chunk of LANES");
        // SAFETY: as the load's.
        unsafe { _mm512_storeu_ps(chunk.as_mut_ptr(), exp(x)) };
        for lane in uncovered(covered) {
            chunk[lane] = libm::expf(before[lane]);
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        // SAFETY: as this function's.
        unsafe { padded(rest, |v| exp_in_place(v)) };
    }
}

/// Runs a kernel over fewer than [`LANES`] values, copied into a whole chunk (attention's
/// scores are a text's length, often short of a chunk).
fn padded(rest: &mut [f32], kernel: impl FnOnce(&mut [f32])) {
    let mut chunk = [0.0f32; LANES];
    chunk[..rest.len()].copy_from_slice(rest);
    kernel(&mut chunk);
    rest.copy_from_slice(&chunk[..rest.len()]);
}

/// The lanes a mask leaves out.
fn uncovered(covered: __mmask16) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |lane| covered & (1 << lane) == 0)
}

#[target_feature(enable = "avx512f")]
fn splat(v: f32) -> __m512 {
    _mm512_set1_ps(v)
}

/// The bits of `|x|`, as libm's `ix` / `hx`.
#[target_feature(enable = "avx512f")]
fn magnitude(x: __m512) -> __m512i {
    _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fff_ffff))
}

/// `c[0] + s * (c[1] + s * (... + s * c[n-1]))`, innermost first.
#[target_feature(enable = "avx512f")]
fn horner(s: __m512, c: &[f32]) -> __m512 {
    let (last, rest) = c.split_last().expect("a polynomial has a coefficient");
    rest.iter()
        .rev()
        .fold(splat(*last), |acc, &k| _mm512_add_ps(splat(k), _mm512_mul_ps(s, acc)))
}

/// `1 + s * (c[0] + s * (c[1] + ...))`: libm's denominators.
#[target_feature(enable = "avx512f")]
fn one_plus(s: __m512, c: &[f32]) -> __m512 {
    _mm512_add_ps(splat(1.0), _mm512_mul_ps(s, horner(s, c)))
}

/// `erff(x)` in every lane, and the lanes whose value that is (`2^-28 <= |x| < 6`).
#[target_feature(enable = "avx512f")]
fn erf(x: __m512) -> (__m512, __mmask16) {
    let ix = magnitude(x);
    let below = |bits: i32| _mm512_cmplt_epu32_mask(ix, _mm512_set1_epi32(bits));
    let covered = !below(0x3180_0000) & below(0x40c0_0000);
    let ax = _mm512_castsi512_ps(ix);
    let one = splat(1.0);

    // |x| < 0.84375: x + x * (r / s), the sign carried by x.
    let z = _mm512_mul_ps(x, x);
    let small = _mm512_add_ps(x, _mm512_mul_ps(x, _mm512_div_ps(horner(z, &PP), one_plus(z, &QQ))));

    // |x| < 1.25: erfc1 = (1 - erx) - p / q, with s = |x| - 1.
    let s = _mm512_sub_ps(ax, one);
    let erfc1 = _mm512_sub_ps(
        _mm512_sub_ps(one, splat(ERX)),
        _mm512_div_ps(horner(s, &PA), one_plus(s, &QA)),
    );

    // Otherwise erfc2, over |x| with s = 1 / x^2, by one pair of polynomials below 1/0.35
    // and another above.
    let s = _mm512_div_ps(one, _mm512_mul_ps(ax, ax));
    let near = below(0x4036_db6d);
    let r = _mm512_mask_blend_ps(near, horner(s, &RB), horner(s, &RA));
    let big_s = _mm512_mask_blend_ps(near, one_plus(s, &SB), one_plus(s, &SA));
    let z = _mm512_castsi512_ps(_mm512_and_si512(ix, _mm512_set1_epi32(0xffff_e000u32 as i32)));
    let minus_z = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(z), _mm512_set1_epi32(i32::MIN)));
    let first = exp(_mm512_sub_ps(_mm512_mul_ps(minus_z, z), splat(0.5625)));
    let second = exp(_mm512_add_ps(
        _mm512_mul_ps(_mm512_sub_ps(z, ax), _mm512_add_ps(z, ax)),
        _mm512_div_ps(r, big_s),
    ));
    let erfc2 = _mm512_div_ps(_mm512_mul_ps(first, second), ax);

    let erfc = _mm512_mask_blend_ps(below(0x3fa0_0000), erfc2, erfc1);
    let sign = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(i32::MIN));
    let large = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(_mm512_sub_ps(one, erfc)), sign));
    (_mm512_mask_blend_ps(below(0x3f58_0000), large, small), covered)
}

/// `expf(x)` in every lane whose `|x|` is below 87.3 (libm's first special case).
#[target_feature(enable = "avx512f")]
fn exp(x: __m512) -> __m512 {
    let hx = magnitude(x);
    let above = |bits: i32| _mm512_cmpgt_epu32_mask(hx, _mm512_set1_epi32(bits));
    // libm's sign: the sign bit, -0.0 and negative NaNs included.
    let negative = _mm512_cmpneq_epi32_mask(_mm512_castps_si512(x), hx);

    // k: the nearest integer to x / ln 2 above 1.5 ln 2, +-1 above 0.5 ln 2, else 0.
    let half = _mm512_mask_blend_ps(negative, splat(0.5), splat(-0.5));
    let far = _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(splat(INV_LN2), x), half));
    let near = _mm512_mask_blend_epi32(negative, _mm512_set1_epi32(1), _mm512_set1_epi32(-1));
    let reduce = above(0x3eb1_7218);
    let k = _mm512_maskz_mov_epi32(reduce, _mm512_mask_blend_epi32(above(0x3f85_1592), near, far));
    let kf = _mm512_cvtepi32_ps(k);
    let hi = _mm512_mask_blend_ps(reduce, x, _mm512_sub_ps(x, _mm512_mul_ps(kf, splat(LN2_HI))));
    let lo = _mm512_maskz_mov_ps(reduce, _mm512_mul_ps(kf, splat(LN2_LO)));
    let r = _mm512_mask_blend_ps(reduce, x, _mm512_sub_ps(hi, lo));

    let xx = _mm512_mul_ps(r, r);
    let c = _mm512_sub_ps(
        r,
        _mm512_mul_ps(xx, _mm512_add_ps(splat(P1), _mm512_mul_ps(xx, splat(P2)))),
    );
    let y = _mm512_add_ps(
        splat(1.0),
        _mm512_add_ps(
            _mm512_sub_ps(_mm512_div_ps(_mm512_mul_ps(r, c), _mm512_sub_ps(splat(2.0), c)), lo),
            hi,
        ),
    );
    let scale = _mm512_castsi512_ps(_mm512_slli_epi32::<23>(_mm512_add_epi32(k, _mm512_set1_epi32(127))));
    let scaled = _mm512_mul_ps(y, scale);
    // |x| <= 2^-14: 1 + x.
    _mm512_mask_blend_ps(above(0x3900_0000), _mm512_add_ps(splat(1.0), x), scaled)
}
