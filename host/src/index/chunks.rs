//! Reading a scope's vectors straight from sqlite-vec's chunk tables.
//!
//! Read through the `vecs` table, each vector is a point lookup that reads its slice of a
//! chunk blob by walking the blob's overflow pages from the start, a walk a vector however
//! small the chunks (`VECTOR_CHUNK_SLOTS`). The chunk tables hold the same vectors one
//! after another, with a validity bitmap and their rowids, so reading whole chunks is one
//! sequential pass. This is sqlite-vec 0.1.9's layout for a table with one partition key
//! and one vector column (`vecs_chunks`: `partition00`, `size`, `validity` with bit `i % 8`
//! of byte `i / 8` for slot `i`, `rowids` as little-endian i64s; `vecs_vector_chunks00`:
//! `vectors`, one per chunk, by chunk id). Anything else answers `false` (`None` from
//! `read`), and the caller reads through `vecs`.
//!
//! `visit` hands each live vector to its caller as it goes, so a search streams the chunks
//! through a scorer without keeping them (`scan::Streamed`), and `read` keeps them all.
//!
//! The chunks and their vectors are read by two statements, not one join: SQLite plans
//! that join as a scan of every vector blob sorted through a temporary B-tree, which
//! copies each chunk blob to a temporary file.

use rusqlite::{CachedStatement, Connection, ErrorCode};

/// A vector and the rowid it has in `vecs` (and `items`).
pub(super) type RowVector = (i64, Vec<f32>);

/// The scope's chunks in order, and one chunk's vectors by chunk id.
fn statements(conn: &Connection) -> rusqlite::Result<(CachedStatement<'_>, CachedStatement<'_>)> {
    Ok((
        conn.prepare_cached(
            "SELECT chunk_id, size, validity, rowids FROM vecs_chunks
              WHERE partition00 = ?1 ORDER BY chunk_id",
        )?,
        conn.prepare_cached("SELECT vectors FROM vecs_vector_chunks00 WHERE rowid = ?1")?,
    ))
}

/// Calls `each` with the rowid and vector of every live slot of `scope`, in chunk order,
/// the vector as stored: `dimension` little-endian f32s, not decoded (a search scores the
/// bytes where they lie).
/// `false` when the chunk tables do not have the layout this reads; `each` may have been
/// called for the chunks before the one that showed it, so the caller drops what it
/// gathered.
pub(super) fn visit(
    conn: &Connection,
    scope: &str,
    dimension: usize,
    mut each: impl FnMut(i64, &[u8]),
) -> rusqlite::Result<bool> {
    let (mut chunks, mut blob) = match statements(conn) {
        Ok(statements) => statements,
        // No such table or column: not the layout this reads.
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::Unknown => return Ok(false),
        Err(e) => return Err(e),
    };
    let mut rows = chunks.query([scope])?;
    let width = dimension * 4;
    while let Some(row) = rows.next()? {
        let (Ok(chunk), Ok(size), Ok(validity), Ok(rowids)) = (
            row.get::<_, i64>(0),
            row.get::<_, i64>(1),
            row.get_ref(2)?.as_blob(),
            row.get_ref(3)?.as_blob(),
        ) else {
            return Ok(false);
        };
        let mut vector_rows = blob.query([chunk])?;
        let Some(vector_row) = vector_rows.next()? else {
            return Ok(false);
        };
        let Ok(vectors) = vector_row.get_ref(0)?.as_blob() else {
            return Ok(false);
        };
        let Ok(size) = usize::try_from(size) else {
            return Ok(false);
        };
        if validity.len() * 8 < size || rowids.len() != size * 8 || vectors.len() != size * dimension * 4 {
            return Ok(false);
        }
        for slot in 0..size {
            if validity[slot / 8] >> (slot % 8) & 1 == 0 {
                continue;
            }
            let rowid = i64::from_le_bytes(rowids[slot * 8..slot * 8 + 8].try_into().expect("8 bytes"));
            each(rowid, &vectors[slot * width..(slot + 1) * width]);
        }
    }
    Ok(true)
}

/// Every live vector of `scope`, in chunk order; `None` when the chunk tables do not have
/// the layout this reads.
pub(super) fn read(conn: &Connection, scope: &str, dimension: usize) -> rusqlite::Result<Option<Vec<RowVector>>> {
    let mut out = Vec::new();
    let readable = visit(conn, scope, dimension, |rowid, bytes| {
        let vector = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        out.push((rowid, vector));
    })?;
    Ok(readable.then_some(out))
}
