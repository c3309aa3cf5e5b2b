//! Vectors as the `index` interface carries them (`packed-vector` in `wit/index.wit`):
//! little-endian f32s in base64, so that a JavaScript host copies them between the policy
//! and the index component whole.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::IndexError;

/// A vector as `packed-vector` text.
pub fn pack(v: &[f32]) -> String {
    STANDARD.encode(crate::f32_bytes(v))
}

/// The vector `packed-vector` text stands for; `Sql` when it is not base64 of whole floats.
pub fn unpack(text: &str) -> Result<Vec<f32>, IndexError> {
    let bytes = STANDARD
        .decode(text)
        .map_err(|e| IndexError::Sql(format!("a vector that is not base64: {e}")))?;
    if !bytes.len().is_multiple_of(4) {
        return Err(IndexError::Sql(format!(
            "a vector of {} bytes, not whole floats",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_comes_back_bit_for_bit_and_malformed_text_is_refused() {
        let v = [0.1f32, -0.0, f32::MIN_POSITIVE, 3.0e38, -1.0];
        let back = unpack(&pack(&v)).unwrap();
        assert_eq!(
            back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            v.map(f32::to_bits)
        );
        assert_eq!(pack(&[1.0]), "AACAPw==");
        assert_eq!(unpack("").unwrap(), Vec::<f32>::new());
        assert!(matches!(unpack("AACA"), Err(IndexError::Sql(m)) if m.contains("3 bytes")));
        assert!(matches!(unpack("not base64!"), Err(IndexError::Sql(_))));
    }
}
