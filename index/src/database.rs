//! What the index needs of a database: one SQLite file with sqlite-vec and FTS5, reached
//! through a handful of calls. The Rust host supplies it with rusqlite ([`crate::native`]);
//! the index component (`index/wasm`) supplies it through the `ash:memory/sql` import,
//! which the JavaScript and Python hosts implement over their own SQLite bindings.

use crate::IndexError;

/// A statement parameter, or a column of a row as read: SQLite's five storage classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// SQL NULL.
    Null,
    /// A 64-bit integer.
    Integer(i64),
    /// A 64-bit float.
    Real(f64),
    /// UTF-8 text.
    Text(&'a str),
    /// Bytes.
    Blob(&'a [u8]),
}

impl From<i64> for Value<'_> {
    fn from(v: i64) -> Self {
        Value::Integer(v)
    }
}

impl From<bool> for Value<'_> {
    fn from(v: bool) -> Self {
        Value::Integer(i64::from(v))
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

/// One row of a query's answer.
pub trait Row {
    /// Column `i` (from 0).
    fn value(&self, i: usize) -> Result<Value<'_>, IndexError>;

    /// Column `i` as an integer.
    fn int(&self, i: usize) -> Result<i64, IndexError> {
        match self.value(i)? {
            Value::Integer(v) => Ok(v),
            other => Err(mismatch(i, "an integer", other)),
        }
    }

    /// Column `i` as an integer, or none for NULL.
    fn opt_int(&self, i: usize) -> Result<Option<i64>, IndexError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Integer(v) => Ok(Some(v)),
            other => Err(mismatch(i, "an integer or NULL", other)),
        }
    }

    /// Column `i` as a float (an integer is widened, as SQLite would).
    fn real(&self, i: usize) -> Result<f64, IndexError> {
        match self.value(i)? {
            Value::Real(v) => Ok(v),
            Value::Integer(v) => Ok(v as f64),
            other => Err(mismatch(i, "a number", other)),
        }
    }

    /// Column `i` as a float, or none for NULL.
    fn opt_real(&self, i: usize) -> Result<Option<f64>, IndexError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            _ => self.real(i).map(Some),
        }
    }

    /// Column `i` as text.
    fn text(&self, i: usize) -> Result<&str, IndexError> {
        match self.value(i)? {
            Value::Text(v) => Ok(v),
            other => Err(mismatch(i, "text", other)),
        }
    }

    /// Column `i` as text, or none for NULL.
    fn opt_text(&self, i: usize) -> Result<Option<&str>, IndexError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Text(v) => Ok(Some(v)),
            other => Err(mismatch(i, "text or NULL", other)),
        }
    }

    /// Column `i` as bytes.
    fn blob(&self, i: usize) -> Result<&[u8], IndexError> {
        match self.value(i)? {
            Value::Blob(v) => Ok(v),
            other => Err(mismatch(i, "bytes", other)),
        }
    }

    /// Column `i` as bytes, or none for NULL.
    fn opt_blob(&self, i: usize) -> Result<Option<&[u8]>, IndexError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Blob(v) => Ok(Some(v)),
            other => Err(mismatch(i, "bytes or NULL", other)),
        }
    }
}

fn mismatch(i: usize, wanted: &str, got: Value<'_>) -> IndexError {
    IndexError::Sql(format!("column {i}: expected {wanted}, found {got:?}"))
}

/// What a statement that writes changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Rows inserted, updated or deleted.
    pub changes: u64,
    /// The rowid of the connection's most recent insert.
    pub last_rowid: i64,
}

/// The index's database: one SQLite file, with sqlite-vec's `vec0` and FTS5, opened by the
/// implementation (owner-only, where it is a file of its own).
///
/// Errors are the index's own: `Unavailable` when the file cannot be opened, is not a
/// database or is corrupt (the index is then cleared and rebuilt); `ReadOnly` from
/// [`Database::execute`] in a call the host began as a read; `Sql` for anything else.
pub trait Database {
    /// Opens the connection if it is not open; true when it was opened by this call (the
    /// index then makes its tables and forgets what it cached).
    fn open(&mut self) -> Result<bool, IndexError>;

    /// [`Database::open`], but only a file that exists: none is made. For a reader that
    /// holds no lock, which must not make a file a writer has just deleted to make anew.
    fn open_existing(&mut self) -> Result<bool, IndexError> {
        self.open()
    }

    /// Closes the connection; the next statement opens it again.
    fn close(&mut self);

    /// Whether a transaction is open on the connection; false when it cannot tell.
    fn in_transaction(&mut self) -> bool {
        false
    }

    /// Closes the connection and deletes the file (and its journals): `clear` of a file
    /// SQLite cannot use.
    fn reset(&mut self) -> Result<(), IndexError>;

    /// Runs a statement that reads (or a pragma), calling `each` with every row in order.
    fn query(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Result<(), IndexError>,
    ) -> Result<(), IndexError>;

    /// Runs a statement that writes, transactions' `BEGIN`, `COMMIT` and `ROLLBACK`
    /// included: the calls a host refuses in a call it began as a read.
    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Written, IndexError>;

    /// Runs one statement that writes once for every `width` values of `params`, in order,
    /// and returns how many rows they changed in all: a statement for many entries in one
    /// call, which the index component makes across the sandbox once. Nothing is run when
    /// `params` is empty.
    ///
    /// Errors: as for [`Database::execute`]; `Sql` when `params` does not divide into rows
    /// of `width`. The rows run before a failure stay written (the caller's transaction
    /// takes them back).
    fn execute_each(&mut self, sql: &str, width: usize, params: &[Value<'_>]) -> Result<u64, IndexError> {
        check_width(width, params.len())?;
        let mut changes = 0;
        for row in params.chunks(width) {
            changes += self.execute(sql, row)?.changes;
        }
        Ok(changes)
    }

    /// Runs statements without parameters or answers, outside any transaction (Python's
    /// `executescript` commits one first): the tables made on every open.
    fn batch(&mut self, sql: &str) -> Result<(), IndexError>;

    /// A named point before a write, where a test may make the process fail or stop
    /// (the Rust host's fault injection); nothing elsewhere.
    fn fault_point(&mut self, _name: &str) -> Result<(), IndexError> {
        Ok(())
    }
}

/// Refuses parameters that do not divide into rows of `width` (`execute_each`).
pub fn check_width(width: usize, values: usize) -> Result<(), IndexError> {
    if width == 0 || !values.is_multiple_of(width) {
        return Err(IndexError::Sql(format!(
            "{values} parameters do not make rows of {width}"
        )));
    }
    Ok(())
}

/// `sql` followed by ` LIMIT n`: the count written in, not bound. SQLite (3.50.2) prepares
/// a statement again whenever the parameter of its LIMIT is bound, even to the same value,
/// so a statement with a bound LIMIT was parsed and planned anew at every run; written in,
/// each count used keeps its own statement prepared (the native connection keeps 64).
pub(crate) fn limited(sql: &str, n: i64) -> String {
    format!("{sql} LIMIT {n}")
}

/// Every row of `sql`, each made by `make`.
pub(crate) fn rows<T>(
    db: &mut dyn Database,
    sql: &str,
    params: &[Value<'_>],
    mut make: impl FnMut(&dyn Row) -> Result<T, IndexError>,
) -> Result<Vec<T>, IndexError> {
    let mut out = Vec::new();
    db.query(sql, params, &mut |r| {
        out.push(make(r)?);
        Ok(())
    })?;
    Ok(out)
}

/// The first row of `sql`, made by `make`; none when there is none.
pub(crate) fn row<T>(
    db: &mut dyn Database,
    sql: &str,
    params: &[Value<'_>],
    mut make: impl FnMut(&dyn Row) -> Result<T, IndexError>,
) -> Result<Option<T>, IndexError> {
    let mut out = None;
    db.query(sql, params, &mut |r| {
        if out.is_none() {
            out = Some(make(r)?);
        }
        Ok(())
    })?;
    Ok(out)
}

/// The single integer `sql` answers (a count).
pub(crate) fn count(db: &mut dyn Database, sql: &str, params: &[Value<'_>]) -> Result<i64, IndexError> {
    row(db, sql, params, |r| r.int(0))?.ok_or_else(|| IndexError::Sql(format!("no row from {sql}")))
}

/// Runs `body` in one transaction: committed when it succeeds, rolled back when it fails.
/// Inside a transaction already open (`SqliteIndex::begin_write`), a savepoint of it.
pub(crate) fn transaction<T>(
    db: &mut dyn Database,
    body: impl FnOnce(&mut dyn Database) -> Result<T, IndexError>,
) -> Result<T, IndexError> {
    if db.in_transaction() {
        db.execute("SAVEPOINT body", &[])?;
        return match body(&mut *db) {
            Ok(out) => db.execute("RELEASE body", &[]).map(|_| out),
            Err(e) => {
                let _ = db.execute("ROLLBACK TO body", &[]);
                let _ = db.execute("RELEASE body", &[]);
                Err(e)
            }
        };
    }
    db.execute("BEGIN", &[])?;
    match body(&mut *db) {
        Ok(out) => {
            if let Err(e) = db.execute("COMMIT", &[]) {
                let _ = db.execute("ROLLBACK", &[]);
                return Err(e);
            }
            Ok(out)
        }
        Err(e) => {
            let _ = db.execute("ROLLBACK", &[]);
            Err(e)
        }
    }
}
