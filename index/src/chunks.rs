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
//! copies each chunk blob to a temporary file. The chunks' descriptions (a bitmap and a
//! kilobyte of rowids each) are read first, then each chunk's vectors, so that one
//! statement is open at a time.

use crate::IndexError;
use crate::database::{self, Database, Value};

/// A vector and the rowid it has in `vecs` (and `items`).
pub(crate) type RowVector = (i64, Vec<f32>);

/// One chunk of a scope as `vecs_chunks` describes it: its id, how many slots it has,
/// which of them are live, and their rowids.
struct Chunk {
    id: i64,
    size: usize,
    validity: Vec<u8>,
    rowids: Vec<u8>,
}

/// Calls `each` with the rowid and vector of every live slot of `scope`, in chunk order,
/// the vector as stored: `dimension` little-endian f32s, not decoded (a search scores the
/// bytes where they lie).
/// `false` when the chunk tables do not have the layout this reads; `each` may have been
/// called for the chunks before the one that showed it, so the caller drops what it
/// gathered.
pub(crate) fn visit(
    db: &mut dyn Database,
    scope: &str,
    dimension: usize,
    mut each: impl FnMut(i64, &[u8]),
) -> Result<bool, IndexError> {
    let chunks = database::rows(
        db,
        "SELECT chunk_id, size, validity, rowids FROM vecs_chunks WHERE partition00 = ?1 ORDER BY chunk_id",
        &[Value::Text(scope)],
        |r| {
            Ok(Chunk {
                id: r.int(0)?,
                size: usize::try_from(r.int(1)?).map_err(|e| IndexError::Sql(e.to_string()))?,
                validity: r.blob(2)?.to_vec(),
                rowids: r.blob(3)?.to_vec(),
            })
        },
    );
    let chunks = match chunks {
        Ok(chunks) => chunks,
        // No such table or column, or columns of other types: not the layout this reads.
        // (Another failure shows again on the slower path.)
        Err(IndexError::Sql(why)) => {
            tracing::debug!("index: the chunks of {scope} are not read directly: {why}");
            return Ok(false);
        }
        Err(e) => return Err(e),
    };
    let width = dimension * 4;
    for chunk in chunks {
        let Chunk {
            id,
            size,
            validity,
            rowids,
        } = chunk;
        // Sizes from the file are checked without overflow: usize is 32 bits in the index
        // component, and a wrapped product would pass the check and then slice past the end.
        let (Some(rowid_bytes), Some(vector_bytes), Some(bits)) = (
            size.checked_mul(8),
            size.checked_mul(width),
            validity.len().checked_mul(8),
        ) else {
            return Ok(false);
        };
        if bits < size || rowids.len() != rowid_bytes {
            return Ok(false);
        }
        let mut laid_out = false;
        db.query(
            "SELECT vectors FROM vecs_vector_chunks00 WHERE rowid = ?1",
            &[Value::Integer(id)],
            &mut |r| {
                let Ok(vectors) = r.blob(0) else {
                    return Ok(());
                };
                if laid_out || vectors.len() != vector_bytes {
                    return Ok(());
                }
                laid_out = true;
                for slot in 0..size {
                    if validity[slot / 8] >> (slot % 8) & 1 == 0 {
                        continue;
                    }
                    let rowid = i64::from_le_bytes(rowids[slot * 8..slot * 8 + 8].try_into().expect("8 bytes"));
                    each(rowid, &vectors[slot * width..(slot + 1) * width]);
                }
                Ok(())
            },
        )?;
        if !laid_out {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Every live vector of `scope`, in chunk order; `None` when the chunk tables do not have
/// the layout this reads.
pub(crate) fn read(db: &mut dyn Database, scope: &str, dimension: usize) -> Result<Option<Vec<RowVector>>, IndexError> {
    let mut out = Vec::new();
    let readable = visit(db, scope, dimension, |rowid, bytes| {
        out.push((rowid, crate::records::floats(bytes)));
    })?;
    Ok(readable.then_some(out))
}
