//! Reading a scope's vectors straight from sqlite-vec's chunk tables.
//!
//! Read through the `vecs` table, each vector is a point lookup that reads its 1 KB
//! slice of a 1 MB chunk blob by walking the blob's overflow pages from the start: about
//! 23 us a vector, 0.24 s for 10,000 (`ASH_LOG=ash_memory=debug ash-memory bench`). The
//! chunk tables hold the same vectors one after another, with a validity bitmap and their
//! rowids, so reading whole chunks is one sequential pass. This is sqlite-vec 0.1.9's
//! layout for a table with one partition key and one vector column (`vecs_chunks`:
//! `partition00`, `size`, `validity` with bit `i % 8` of byte `i / 8` for slot `i`,
//! `rowids` as little-endian i64s; `vecs_vector_chunks00`: `vectors`, one per chunk, by
//! chunk id). Anything else answers `None`, and the caller reads through `vecs`.

use rusqlite::{Connection, ErrorCode};

/// A vector and the rowid it has in `vecs` (and `items`).
pub(super) type RowVector = (i64, Vec<f32>);

/// Every live vector of `scope`, in chunk order; `None` when the chunk tables do not have
/// the layout this reads.
pub(super) fn read(conn: &Connection, scope: &str, dimension: usize) -> rusqlite::Result<Option<Vec<RowVector>>> {
    let mut stmt = match conn.prepare_cached(
        "SELECT c.size, c.validity, c.rowids, v.vectors
           FROM vecs_chunks c JOIN vecs_vector_chunks00 v ON v.rowid = c.chunk_id
          WHERE c.partition00 = ?1 ORDER BY c.chunk_id",
    ) {
        Ok(stmt) => stmt,
        // No such table or column: not the layout this reads.
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::Unknown => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut rows = stmt.query([scope])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let (Ok(size), Ok(validity), Ok(rowids), Ok(vectors)) = (
            row.get::<_, i64>(0),
            row.get_ref(1)?.as_blob(),
            row.get_ref(2)?.as_blob(),
            row.get_ref(3)?.as_blob(),
        ) else {
            return Ok(None);
        };
        let Ok(size) = usize::try_from(size) else {
            return Ok(None);
        };
        if validity.len() * 8 < size || rowids.len() != size * 8 || vectors.len() != size * dimension * 4 {
            return Ok(None);
        }
        for slot in 0..size {
            if validity[slot / 8] >> (slot % 8) & 1 == 0 {
                continue;
            }
            let rowid = i64::from_le_bytes(rowids[slot * 8..slot * 8 + 8].try_into().expect("8 bytes"));
            let bytes = &vectors[slot * dimension * 4..(slot + 1) * dimension * 4];
            let vector = bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            out.push((rowid, vector));
        }
    }
    Ok(Some(out))
}
