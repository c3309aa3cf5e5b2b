//! Reading the packed weights (`host/model/transformer/model.safetensors`, written by
//! `scripts/pack-transformer.py`): float32 vectors, and int8 matrices with one float32 scale
//! per row in a `<name>.scale` tensor. Matrices stay in the file's bytes, which are part of
//! the mapped binary: loading copies nothing large.

use safetensors::{Dtype, SafeTensors};

/// The tensors of one file, by name.
pub(super) struct Weights<'a> {
    file: SafeTensors<'a>,
}

/// An int8 matrix in place: `rows` x `cols`, row-major, row `r` meaning `data[r] * scales[r]`.
pub(super) struct Int8Matrix<'a> {
    pub rows: usize,
    pub cols: usize,
    /// Two's complement bytes.
    pub data: &'a [u8],
    pub scales: Vec<f32>,
}

impl<'a> Weights<'a> {
    pub(super) fn parse(bytes: &'a [u8]) -> Result<Self, String> {
        Ok(Weights {
            file: SafeTensors::deserialize(bytes).map_err(|e| e.to_string())?,
        })
    }

    /// A float32 tensor with exactly `len` values.
    pub(super) fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>, String> {
        let view = self.file.tensor(name).map_err(|e| format!("{name}: {e}"))?;
        if view.dtype() != Dtype::F32 || view.data().len() != len * 4 {
            return Err(format!(
                "{name}: expected {len} float32 values, found {:?} {:?}",
                view.dtype(),
                view.shape()
            ));
        }
        Ok(view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    /// An int8 `rows` x `cols` matrix and its row scales.
    pub(super) fn int8(&self, name: &str, rows: usize, cols: usize) -> Result<Int8Matrix<'a>, String> {
        let view = self.file.tensor(name).map_err(|e| format!("{name}: {e}"))?;
        if view.dtype() != Dtype::I8 || view.shape() != [rows, cols] {
            return Err(format!(
                "{name}: expected int8 [{rows}, {cols}], found {:?} {:?}",
                view.dtype(),
                view.shape()
            ));
        }
        let scales = self.vector(&format!("{name}.scale"), rows)?;
        Ok(Int8Matrix {
            rows,
            cols,
            data: view.data(),
            scales,
        })
    }
}

impl Int8Matrix<'_> {
    /// Writes row `r` as float32 into `out` (`cols` long).
    pub(super) fn widen(&self, r: usize, out: &mut [f32]) {
        let scale = self.scales[r];
        for (o, &q) in out.iter_mut().zip(&self.data[r * self.cols..(r + 1) * self.cols]) {
            *o = f32::from(q as i8) * scale;
        }
    }
}
