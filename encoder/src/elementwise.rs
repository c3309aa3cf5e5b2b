//! The encoder's functions of one value at a time, GELU's error function and attention's
//! exponential, over whole slices: libm's (`erff`, `expf`), the same code in every build,
//! so that every host stores the same vector for a text. On x86-64 with AVX-512 (checked at
//! run time) sixteen values go at once through the same operations in the same order, each
//! branch computed for every lane and the lane's own kept, which gives libm's bits; the
//! rare values its fast path does not cover (tiny, huge, not a number) go to libm itself.

#[cfg(target_arch = "x86_64")]
mod avx512;

/// BERT's exact GELU, `x * Phi(x)`, of every value in place.
pub(crate) fn gelu_in_place(values: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has the feature the kernel is compiled for.
        return unsafe { avx512::gelu_in_place(values) };
    }
    values.iter_mut().for_each(|v| *v = gelu(*v));
}

/// `e^v` of every value in place.
pub(crate) fn exp_in_place(values: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has the feature the kernel is compiled for.
        return unsafe { avx512::exp_in_place(values) };
    }
    values.iter_mut().for_each(|v| *v = libm::expf(*v));
}

/// GELU of one value, the definition every kernel gives the bits of.
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests;
