//! Nearest neighbours by vector: `knn`, and the ways it reads a scope (the module
//! documentation of `index` tells when each is used).

use std::collections::HashMap;

use crate::database::{self, Database, Value};
use crate::scan::{self, ScopeVectors};
use crate::stopwatch::Stopwatch;
use crate::{Hit, IndexError, MAX_K, ScopeFilter, SqliteIndex, chunks, coarse, f32_bytes, usable};

/// Searches of a scope that read from the file (by codes, or streaming its chunks) before
/// its vectors are read into memory.
const SCANS_BEFORE_LOADING: u32 = 2;

/// How many vectors streaming reads in the time one is fetched by rowid: a scope with fewer
/// codes than this many times the candidates a search wants is streamed whole instead.
pub(crate) const STREAMED_PER_FETCHED: usize = 8;

/// A knn's question and answer.
pub(crate) struct LastKnn {
    query: Vec<f32>,
    k: u32,
    scopes: Vec<String>,
    hits: Vec<Hit>,
}

impl<D: Database> SqliteIndex<D> {
    /// The `k` nearest vectors within the scopes, by cosine similarity, best first (equal
    /// scores in the order they were indexed). A query without a direction finds nothing;
    /// a stored vector without one (written by an older version) is skipped.
    ///
    /// A scope's first two searches read from the file: candidates by their coarse codes,
    /// scored again from their vectors (`coarse_knn`), or, in a scope too small for that
    /// to pay, every vector streamed past the scorer (`streamed_knn`, or sqlite-vec's own
    /// knn over chunks laid out otherwise). Every score is exact, as sqlite-vec gives it;
    /// which vectors a search by codes looks at is not, and the bench prints its recall.
    /// From its third search on, a scope's vectors are read into memory once and all
    /// scanned there (`scan`), and read again after another connection writes. The same
    /// search again before anything is written is answered by the last (`last_knn`).
    pub fn knn(&mut self, query: &[f32], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
        let dim = self.dimension()?;
        if query.len() != dim as usize {
            return Err(IndexError::DimensionMismatch((dim, query.len() as u32)));
        }
        let k = k.min(MAX_K);
        if k == 0 || !usable(query) {
            return Ok(Vec::new());
        }
        let scopes = scope.keys();
        if let Some(last) = &self.last_knn
            && last.query == query
            && last.k == k
            && last.scopes == scopes
        {
            return Ok(last.hits.clone());
        }
        let unit = scan::unit(query);
        let mut hits = Vec::new();
        for key in &scopes {
            if !self.vectors.contains_key(key) {
                let scans = self.searched.entry(key.clone()).or_insert(0);
                *scans += 1;
                if *scans <= SCANS_BEFORE_LOADING {
                    let found = match self.coarse_knn(query, &unit, k, key)? {
                        Some(found) => Some(found),
                        None => self.streamed_knn(query, k, key, dim as usize)?,
                    };
                    match found {
                        Some(found) => hits.extend(found),
                        None => hits.extend(self.sqlite_vec_knn(query, k, key)?),
                    }
                    continue;
                }
                let t = Stopwatch::start();
                let loaded = self.load_scope(key, dim as usize)?;
                tracing::debug!(
                    "index: read {} vectors of scope {key} into memory in {:?}",
                    loaded.len(),
                    t.elapsed()
                );
                self.vectors.insert(key.clone(), loaded);
            }
            hits.extend(
                self.vectors[key]
                    .nearest(&unit, k as usize)
                    .into_iter()
                    .map(|(id, score)| Hit {
                        id: id.to_owned(),
                        score,
                    }),
            );
        }
        // Stable: with two scopes, equal scores keep personal before group.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(k as usize);
        self.last_knn = Some(LastKnn {
            query: query.to_vec(),
            k,
            scopes,
            hits: hits.clone(),
        });
        Ok(hits)
    }

    /// Forgets the cached vectors when another connection has committed since they were
    /// read: it may have changed any of them.
    pub(crate) fn drop_if_written_elsewhere(&mut self) -> Result<(), IndexError> {
        let version = database::count(self.conn()?, "PRAGMA data_version", &[])?;
        if version != self.data_version {
            self.forget_cached();
            self.data_version = version;
        }
        Ok(())
    }

    /// One scope's nearest by a single pass over its chunks (`chunks::visit`), keeping
    /// nothing but the best `k`, scored as sqlite-vec's knn scores them (`scan::Streamed`);
    /// `None` when the chunks are not laid out as `chunks` reads. sqlite-vec's own knn
    /// reads the same chunks, more slowly (docs/performance.md, "Figures behind the code").
    pub(crate) fn streamed_knn(
        &mut self,
        query: &[f32],
        k: u32,
        key: &str,
        dimension: usize,
    ) -> Result<Option<Vec<Hit>>, IndexError> {
        let db = self.conn()?;
        let t = Stopwatch::start();
        let mut nearest = scan::Streamed::new(query, k as usize);
        let mut seen = 0usize;
        let readable = chunks::visit(db, key, dimension, |rowid, vector| {
            seen += 1;
            nearest.offer(rowid, vector)
        })?;
        if !readable {
            return Ok(None);
        }
        tracing::debug!("index: streamed {seen} vectors of scope {key} in {:?}", t.elapsed());
        ids_of(db, key, nearest.best_first()).map(Some)
    }

    /// One scope's nearest found by their coarse codes (`coarse`): the best
    /// `coarse::candidates(k)` by code, scored again from their vectors as `streamed_knn`
    /// scores them. `None` when the scope is small enough that streaming all its vectors
    /// costs no more than fetching the candidates one by one.
    fn coarse_knn(&mut self, query: &[f32], unit: &[f32], k: u32, key: &str) -> Result<Option<Vec<Hit>>, IndexError> {
        let db = self.conn()?;
        let t = Stopwatch::start();
        let wanted = coarse::candidates(k as usize);
        let (candidates, read) = coarse::nearest(db, key, &coarse::Query::new(unit), wanted)?;
        if read < wanted.saturating_mul(STREAMED_PER_FETCHED) {
            return Ok(None);
        }
        let coded = t.elapsed();
        let mut nearest = scan::Streamed::new(query, k as usize);
        // The candidates' vectors in one statement, each looked up by rowid.
        let rowids = crate::json_list(candidates.iter());
        db.query(
            "SELECT j.value, (SELECT embedding FROM vecs WHERE rowid = j.value) FROM json_each(?1) j",
            &[Value::Text(&rowids)],
            &mut |r| {
                let rowid = r.int(0)?;
                match r.opt_blob(1)? {
                    Some(bytes) if bytes.len() == query.len() * 4 => nearest.offer(rowid, bytes),
                    _ => tracing::warn!("index: the code of rowid {rowid} in {key} has no vector beside it"),
                }
                Ok(())
            },
        )?;
        tracing::debug!(
            "index: scored {} of {read} vectors of scope {key} again, by their codes, in {:?} ({coded:?} reading codes)",
            candidates.len(),
            t.elapsed()
        );
        ids_of(db, key, nearest.best_first()).map(Some)
    }

    /// sqlite-vec's knn over one scope (the partition key makes it a scan of that scope
    /// only). A row whose distance is not a number is skipped.
    fn sqlite_vec_knn(&mut self, query: &[f32], k: u32, key: &str) -> Result<Vec<Hit>, IndexError> {
        let bytes = f32_bytes(query);
        let mut hits = Vec::new();
        self.conn()?.query(
            "SELECT items.id, v.distance FROM
               (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
             JOIN items ON items.rowid = v.rowid",
            &[Value::Blob(&bytes), Value::Integer(i64::from(k)), Value::Text(key)],
            &mut |r| {
                if let Some(d) = r.opt_real(1)?.filter(|d| d.is_finite()) {
                    hits.push(Hit {
                        id: r.text(0)?.to_owned(),
                        score: 1.0 - d as f32,
                    });
                }
                Ok(())
            },
        )?;
        Ok(hits)
    }

    /// Reads one scope's vectors, from sqlite-vec's chunks when their layout is the one
    /// `chunks` reads, else row by row.
    pub(crate) fn load_scope(&mut self, key: &str, dimension: usize) -> Result<ScopeVectors, IndexError> {
        match self.load_scope_from_chunks(key, dimension)? {
            Some(vectors) => Ok(vectors),
            None => self.load_scope_by_row(key, dimension),
        }
    }

    /// Reads one scope's vectors a chunk at a time (see `chunks`), with their ids from
    /// `items`; `None` when the chunks are not laid out as expected or name a rowid that
    /// is not an item of this scope.
    pub(crate) fn load_scope_from_chunks(
        &mut self,
        key: &str,
        dimension: usize,
    ) -> Result<Option<ScopeVectors>, IndexError> {
        let db = self.conn()?;
        let Some(mut found) = chunks::read(db, key, dimension)? else {
            return Ok(None);
        };
        let ids: HashMap<i64, String> = database::rows(
            db,
            "SELECT rowid, id FROM items WHERE scope = ?1",
            &[Value::Text(key)],
            |r| Ok((r.int(0)?, r.text(1)?.to_owned())),
        )?
        .into_iter()
        .collect();
        found.sort_unstable_by_key(|(rowid, _)| *rowid);
        let mut vectors = ScopeVectors::new(dimension);
        for (rowid, vector) in found {
            let Some(id) = ids.get(&rowid) else {
                tracing::warn!("index: sqlite-vec's chunks hold rowid {rowid}, which is no item of {key}");
                return Ok(None);
            };
            if usable(&vector) {
                vectors.insert(id, rowid, &vector);
            }
        }
        Ok(Some(vectors))
    }

    /// Reads one scope's vectors through the vector table, in rowid order.
    pub(crate) fn load_scope_by_row(&mut self, key: &str, dimension: usize) -> Result<ScopeVectors, IndexError> {
        let mut vectors = ScopeVectors::new(dimension);
        let mut vector = Vec::with_capacity(dimension);
        self.conn()?.query(
            "SELECT items.rowid, items.id, vecs.embedding FROM items JOIN vecs ON vecs.rowid = items.rowid
             WHERE items.scope = ?1 ORDER BY items.rowid",
            &[Value::Text(key)],
            &mut |r| {
                let bytes = r.blob(2)?;
                if bytes.len() != dimension * 4 {
                    return Ok(());
                }
                vector.clear();
                vector.extend(
                    bytes
                        .chunks_exact(4)
                        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                );
                if usable(&vector) {
                    vectors.insert(r.text(1)?, r.int(0)?, &vector);
                }
                Ok(())
            },
        )?;
        Ok(vectors)
    }
}

/// The ids of `best` (rowid, score) in scope `key`, in its order; a rowid that is no item
/// of the scope is left out.
fn ids_of(db: &mut dyn Database, key: &str, best: Vec<(i64, f32)>) -> Result<Vec<Hit>, IndexError> {
    let rowids = crate::json_list(best.iter().map(|(rowid, _)| rowid));
    let mut ids: HashMap<i64, String> = database::rows(
        db,
        "SELECT rowid, id FROM items WHERE scope = ?2 AND rowid IN (SELECT value FROM json_each(?1))",
        &[Value::Text(&rowids), Value::Text(key)],
        |r| Ok((r.int(0)?, r.text(1)?.to_owned())),
    )?
    .into_iter()
    .collect();
    let mut hits = Vec::with_capacity(best.len());
    for (rowid, score) in best {
        match ids.remove(&rowid) {
            Some(id) => hits.push(Hit { id, score }),
            None => tracing::warn!("index: the vectors hold rowid {rowid}, which is no item of {key}"),
        }
    }
    Ok(hits)
}
