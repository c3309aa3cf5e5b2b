//! Which vectors may be used. An embedder (the static model on text it has no words for, or
//! a faulty HTTP service) can return zeros, NaN, infinities or the wrong length; such a
//! vector has no direction, poisons cosine distances, and must never reach the index. The
//! memory is then stored without one and found by its words.

/// The vector, if it has the expected length, only finite components and a norm that is
/// neither zero nor infinite.
pub fn usable(vector: Vec<f32>, dimension: u32) -> Option<Vec<f32>> {
    if vector.len() != dimension as usize || vector.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let norm: f64 = vector.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    (norm.is_finite() && norm > 1e-6).then_some(vector)
}

/// Cosine similarity; 0 when either vector has no direction.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    let c = if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na * nb) };
    if c.is_finite() { c } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finite_directed_vectors_of_the_right_length_pass() {
        assert!(usable(vec![0.6, 0.8], 2).is_some());
        assert!(usable(vec![0.0, 0.0], 2).is_none(), "zero norm");
        assert!(usable(vec![f32::NAN, 1.0], 2).is_none());
        assert!(usable(vec![f32::INFINITY, 1.0], 2).is_none());
        assert!(
            usable(vec![f32::MAX, f32::MAX], 2).is_some(),
            "large but finite norm in f64"
        );
        assert!(usable(vec![1.0], 2).is_none(), "wrong length");
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
        assert_eq!(cosine(&[f32::NAN, 0.0], &[1.0, 0.0]), 0.0);
    }
}
