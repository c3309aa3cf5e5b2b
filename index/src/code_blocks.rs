//! Where the coarse codes are kept: a scope's codes packed many to a row.
//!
//! A search run once (a CLI call) reads every code of its scope. Kept one to a row, SQLite
//! spent more on stepping through the rows than on their bytes: at 100,000 memories 11 of
//! a CLI search's 27 ms went to 90,000 rows (docs/performance.md). So the codes of the items
//! whose rowids share all but their last [`BLOCK_BITS`] bits are one row of `code_blocks`,
//! found from an item's rowid without a lookup: (scope, block, dimension, data), `data`
//! being each code as its item (i64), its scale (f64), both little-endian, and its levels
//! (one byte a component), in the order of the items.
//!
//! A block is written whole, which an add would pay for at every write (0.2 ms at 10,000
//! memories). So a new code goes to `codes`, one a row, as before, and a scope's rows are
//! packed into blocks once they are [`PACK_AT`] or more, all but the newest block's: an add
//! writes one small row, and one in about 64 packs 64 codes. A search reads both.
//!
//! Indexes written before the blocks kept every code in `codes`; the memories' and
//! messages' reflects keys moved with the blocks (`EntryKind::reflects_key`), so such an
//! index is built again, and an older host sharing the file builds again one of these.

use std::collections::BTreeMap;

use crate::IndexError;
use crate::database::{self, Database, Value};

/// An item's block is its rowid without its last six bits: 64 codes a row, about 17 KB on
/// the static model (256 dimensions) and 26 KB on the transformer (384). Blocks of 16 read
/// 4 ms slower at 100,000 memories (docs/performance.md).
pub(crate) const BLOCK_BITS: u32 = 6;

/// How many of a scope's codes may wait in rows before they are packed: two blocks' worth,
/// so that a pack always fills at least one.
pub(crate) const PACK_AT: i64 = 2 << BLOCK_BITS;

/// The bytes before a code's levels: its item and its scale.
const HEAD: usize = 16;

/// One code, as written: (scope, item, scale, levels).
pub(crate) type Code<'a> = (&'a str, i64, f64, &'a [u8]);

/// One code, as read back: (scope, item, scale, levels).
type OwnedCode = (String, i64, f64, Vec<u8>);

/// Each code of `scope` with `dimension` levels, to `each`: (item, scale, levels). One
/// statement, so one snapshot: a write between two would show a code moved from a row into
/// its block twice, or not at all.
pub(crate) fn read(
    db: &mut dyn Database,
    scope: &str,
    dimension: usize,
    each: &mut dyn FnMut(i64, f64, &[u8]),
) -> Result<(), IndexError> {
    db.query(
        "SELECT NULL, dimension, data FROM code_blocks WHERE scope = ?1
         UNION ALL SELECT item, scale, code FROM codes WHERE scope = ?1",
        &[Value::Text(scope)],
        &mut |row| {
            match row.opt_int(0)? {
                // A block: its dimension, its codes.
                None => {
                    if usize::try_from(row.int(1)?).ok() == Some(dimension) {
                        for (item, scale, levels) in entries(row.blob(2)?, dimension) {
                            each(item, scale, levels);
                        }
                    }
                }
                Some(item) => {
                    let levels = row.blob(2)?;
                    if levels.len() == dimension {
                        each(item, row.real(1)?, levels);
                    }
                }
            }
            Ok(())
        },
    )
}

/// Takes the codes of `erased` (scope, item) out and writes `written` (as rows), then packs
/// the rows of each scope written that holds [`PACK_AT`] or more. An item written that had
/// a code must be erased in the same change (a new item has none: its rowid is past every
/// item there is, or one whose codes left with it). A fixed number of statements whatever
/// the number of codes (each is a call out of the sandbox in the other hosts).
pub(crate) fn change(db: &mut dyn Database, erased: &[(&str, i64)], written: &[Code<'_>]) -> Result<(), IndexError> {
    if !erased.is_empty() {
        let rows: Vec<Value<'_>> = erased
            .iter()
            .flat_map(|(scope, item)| [Value::Text(scope), Value::Integer(*item)])
            .collect();
        db.execute_each("DELETE FROM codes WHERE scope = ?1 AND item = ?2", 2, &rows)?;
        rewrite_blocks(db, erased, &[])?;
    }
    if written.is_empty() {
        return Ok(());
    }
    let rows: Vec<Value<'_>> = written
        .iter()
        .flat_map(|(scope, item, scale, levels)| {
            [
                Value::Text(scope),
                Value::Integer(*item),
                Value::Real(*scale),
                Value::Blob(levels),
            ]
        })
        .collect();
    db.execute_each(
        "INSERT OR REPLACE INTO codes (scope, item, scale, code) VALUES (?1, ?2, ?3, ?4)",
        4,
        &rows,
    )?;
    pack(db, written)
}

/// Packs the rows of each scope in `written` that holds [`PACK_AT`] or more, all but those
/// of its newest block, which more adds are still filling.
fn pack(db: &mut dyn Database, written: &[Code<'_>]) -> Result<(), IndexError> {
    let mut scopes: Vec<&str> = written.iter().map(|(scope, ..)| *scope).collect();
    scopes.sort_unstable();
    scopes.dedup();
    // Each full scope, with where its newest block begins: an add's one scope by its key.
    let newest = |r: &dyn database::Row| Ok((r.text(0)?.to_owned(), (r.int(1)? >> BLOCK_BITS) << BLOCK_BITS));
    let full: BTreeMap<String, i64> = match scopes.as_slice() {
        [scope] => database::rows(
            db,
            "SELECT scope, max(item) FROM codes WHERE scope = ?1 GROUP BY scope HAVING count(*) >= ?2",
            &[Value::Text(scope), Value::Integer(PACK_AT)],
            newest,
        )?,
        _ => database::rows(
            db,
            "SELECT scope, max(item) FROM codes WHERE scope IN (SELECT value FROM json_each(?1))
             GROUP BY scope HAVING count(*) >= ?2",
            &[
                Value::Text(&serde_json::Value::from(scopes).to_string()),
                Value::Integer(PACK_AT),
            ],
            newest,
        )?,
    }
    .into_iter()
    .collect();
    if full.is_empty() {
        return Ok(());
    }
    let names = serde_json::Value::from(full.keys().map(String::as_str).collect::<Vec<_>>()).to_string();
    let rows: Vec<OwnedCode> = database::rows(
        db,
        "SELECT scope, item, scale, code FROM codes WHERE scope IN (SELECT value FROM json_each(?1))",
        &[Value::Text(&names)],
        |r| Ok((r.text(0)?.to_owned(), r.int(1)?, r.real(2)?, r.blob(3)?.to_vec())),
    )?;
    // Of the newest code's dimension: a row of another (a model being switched) stays a row.
    let mut newest_code: BTreeMap<&str, (i64, usize)> = BTreeMap::new();
    for (scope, item, _, levels) in &rows {
        let newest = newest_code.entry(scope.as_str()).or_insert((*item, levels.len()));
        if *item >= newest.0 {
            *newest = (*item, levels.len());
        }
    }
    let packed: Vec<Code<'_>> = rows
        .iter()
        .filter(|(scope, item, _, levels)| {
            full.get(scope).is_some_and(|newest| item < newest)
                && newest_code
                    .get(scope.as_str())
                    .is_some_and(|(_, length)| *length == levels.len())
        })
        .map(|(scope, item, scale, levels)| (scope.as_str(), *item, *scale, levels.as_slice()))
        .collect();
    rewrite_blocks(db, &[], &packed)?;
    let taken: Vec<Value<'_>> = packed
        .iter()
        .flat_map(|(scope, item, ..)| [Value::Text(scope), Value::Integer(*item)])
        .collect();
    db.execute_each("DELETE FROM codes WHERE scope = ?1 AND item = ?2", 2, &taken)?;
    Ok(())
}

/// Takes the codes of `erased` (scope, item) out of their blocks and writes `written` into
/// theirs, one rewrite of each block that changes, in three statements. A code written over
/// one of another dimension (another model) drops the block's codes of that dimension.
fn rewrite_blocks(db: &mut dyn Database, erased: &[(&str, i64)], written: &[Code<'_>]) -> Result<(), IndexError> {
    type Changes<'a> = (Vec<i64>, Vec<(i64, f64, &'a [u8])>);
    let mut blocks: BTreeMap<(&str, i64), Changes<'_>> = BTreeMap::new();
    for &(scope, item) in erased {
        blocks.entry((scope, item >> BLOCK_BITS)).or_default().0.push(item);
    }
    for &(scope, item, scale, levels) in written {
        let (_, new) = blocks.entry((scope, item >> BLOCK_BITS)).or_default();
        // An item written twice keeps its last code.
        new.retain(|(n, _, _)| *n != item);
        new.push((item, scale, levels));
    }
    if blocks.is_empty() {
        return Ok(());
    }
    let mut stored: BTreeMap<(String, i64), (usize, Vec<u8>)> = BTreeMap::new();
    let mut keep = |r: &dyn database::Row| {
        let dimension = usize::try_from(r.int(2)?).unwrap_or(0);
        stored.insert((r.text(0)?.to_owned(), r.int(1)?), (dimension, r.blob(3)?.to_vec()));
        Ok(())
    };
    match blocks.keys().collect::<Vec<_>>().as_slice() {
        // An add's one block, by its key.
        [(scope, block)] => db.query(
            "SELECT scope, block, dimension, data FROM code_blocks WHERE scope = ?1 AND block = ?2",
            &[Value::Text(scope), Value::Integer(*block)],
            &mut keep,
        )?,
        keys => {
            let keys = serde_json::Value::from(
                keys.iter()
                    .map(|(scope, block)| serde_json::json!([scope, block]))
                    .collect::<Vec<_>>(),
            )
            .to_string();
            db.query(
                "SELECT c.scope, c.block, c.dimension, c.data FROM json_each(?1) j
                 JOIN code_blocks c ON c.scope = json_extract(j.value, '$[0]') AND c.block = json_extract(j.value, '$[1]')",
                &[Value::Text(&keys)],
                &mut keep,
            )?
        }
    }
    let (mut kept, mut emptied) = (Vec::new(), Vec::new());
    for ((scope, block), (gone, new)) in &blocks {
        let old = stored.get(&((*scope).to_owned(), *block));
        let dimension = match (new.last(), old) {
            (Some((_, _, levels)), _) => levels.len(),
            (None, Some((dimension, _))) => *dimension,
            (None, None) => continue,
        };
        let mut codes: Vec<(i64, f64, &[u8])> = match old {
            Some((d, data)) if *d == dimension => entries(data, dimension).collect(),
            _ => Vec::new(),
        };
        let held = codes.len();
        codes.retain(|(item, _, _)| !gone.contains(item) && !new.iter().any(|(n, _, _)| n == item));
        if new.is_empty() && codes.len() == held {
            // Nothing of it erased: kept as it is, not written again.
            continue;
        }
        codes.extend(new.iter().copied().filter(|(_, _, levels)| levels.len() == dimension));
        codes.sort_by_key(|(item, _, _)| *item);
        if codes.is_empty() {
            emptied.push((*scope, *block));
            continue;
        }
        let mut data = Vec::with_capacity(codes.len() * (HEAD + dimension));
        for (item, scale, levels) in codes {
            data.extend_from_slice(&item.to_le_bytes());
            data.extend_from_slice(&scale.to_le_bytes());
            data.extend_from_slice(levels);
        }
        kept.push((*scope, *block, i64::try_from(dimension).unwrap_or(i64::MAX), data));
    }
    let mut params = Vec::with_capacity(kept.len() * 4);
    for (scope, block, dimension, data) in &kept {
        params.extend([
            Value::Text(scope),
            Value::Integer(*block),
            Value::Integer(*dimension),
            Value::Blob(data),
        ]);
    }
    // An upsert, not a replace: the row keeps its rowid, and the key's index its entry.
    db.execute_each(
        "INSERT INTO code_blocks (scope, block, dimension, data) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (scope, block) DO UPDATE SET dimension = excluded.dimension, data = excluded.data",
        4,
        &params,
    )?;
    let gone: Vec<Value<'_>> = emptied
        .iter()
        .flat_map(|(scope, block)| [Value::Text(scope), Value::Integer(*block)])
        .collect();
    db.execute_each("DELETE FROM code_blocks WHERE scope = ?1 AND block = ?2", 2, &gone)?;
    Ok(())
}

/// Every code, in blocks or rows, as (scope, item, scale, levels), by scope and item.
#[cfg(test)]
pub(crate) fn all(db: &mut dyn Database) -> Result<Vec<OwnedCode>, IndexError> {
    let mut out = Vec::new();
    db.query(
        "SELECT scope, dimension, data FROM code_blocks ORDER BY scope, block",
        &[],
        &mut |row| {
            let (scope, dimension) = (row.text(0)?.to_owned(), usize::try_from(row.int(1)?).unwrap_or(0));
            for (item, scale, levels) in entries(row.blob(2)?, dimension) {
                out.push((scope.clone(), item, scale, levels.to_vec()));
            }
            Ok(())
        },
    )?;
    db.query("SELECT scope, item, scale, code FROM codes", &[], &mut |row| {
        out.push((
            row.text(0)?.to_owned(),
            row.int(1)?,
            row.real(2)?,
            row.blob(3)?.to_vec(),
        ));
        Ok(())
    })?;
    out.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    Ok(out)
}

/// The codes in a block's `data`, in order. Bytes short of a whole code end it.
fn entries(data: &[u8], dimension: usize) -> impl Iterator<Item = (i64, f64, &[u8])> {
    data.chunks_exact(HEAD + dimension).map(|e| {
        let (item, rest) = e.split_at(8);
        let (scale, levels) = rest.split_at(8);
        (
            i64::from_le_bytes(item.try_into().expect("eight bytes")),
            f64::from_le_bytes(scale.try_into().expect("eight bytes")),
            levels,
        )
    })
}
