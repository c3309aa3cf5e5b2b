//! The index's database in the Rust host: rusqlite on a bundled SQLite, with sqlite-vec
//! registered for every connection.

use std::path::PathBuf;
use std::sync::Once;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};

use crate::database::{Database, Row, Value, Written};
use crate::{IndexError, SqliteIndex};

/// Files the index creates are readable by their owner only.
pub const FILE_MODE: u32 = 0o600;

/// The statements one index runs, all kept prepared.
const PREPARED_STATEMENTS: usize = 64;

/// A hook called at each of the index's named write points (see
/// [`Database::fault_point`]).
pub type FaultHook = fn(&str) -> Result<(), String>;

/// The index file at a path, opened on first use.
pub struct NativeSqlite {
    path: PathBuf,
    conn: Option<Connection>,
    faults: Option<FaultHook>,
}

impl NativeSqlite {
    /// The file at `path`; nothing is opened until first use.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        register_sqlite_vec();
        NativeSqlite {
            path: path.into(),
            conn: None,
            faults: None,
        }
    }

    /// Calls `hook` at each named write point, to fail or stop the process there.
    pub fn with_fault_points(mut self, hook: FaultHook) -> Self {
        self.faults = Some(hook);
        self
    }

    /// The open connection, for tests that look at the file or tamper with it.
    #[cfg(test)]
    pub(crate) fn connection(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("opened")
    }

    fn conn(&mut self) -> Result<&mut Connection, IndexError> {
        self.open()?;
        Ok(self.conn.as_mut().expect("opened"))
    }
}

impl SqliteIndex<NativeSqlite> {
    /// The index file at `path`; nothing is opened until first use.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        SqliteIndex::over(NativeSqlite::new(path))
    }
}

/// Registers sqlite-vec with SQLite, once per process: every connection opened afterwards
/// has it.
pub fn register_sqlite_vec() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_vec_init has the signature of an SQLite extension entry point;
        // auto_extension runs it for every connection opened afterwards.
        unsafe {
            rusqlite::ffi::sqlite3_auto_extension(Some(std::mem::transmute::<
                *const (),
                unsafe extern "C" fn(
                    *mut rusqlite::ffi::sqlite3,
                    *mut *mut std::os::raw::c_char,
                    *const rusqlite::ffi::sqlite3_api_routines,
                ) -> std::os::raw::c_int,
            >(sqlite_vec::sqlite3_vec_init as *const ())));
        }
    });
}

fn sql(e: rusqlite::Error) -> IndexError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
            IndexError::Unavailable(e.to_string())
        }
        _ => IndexError::Sql(e.to_string()),
    }
}

impl ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Integer(v) => ValueRef::Integer(v),
            Value::Real(v) => ValueRef::Real(v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Blob(v) => ValueRef::Blob(v),
        }))
    }
}

impl Row for rusqlite::Row<'_> {
    fn value(&self, i: usize) -> Result<Value<'_>, IndexError> {
        Ok(match self.get_ref(i).map_err(sql)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(v) => Value::Integer(v),
            ValueRef::Real(v) => Value::Real(v),
            ValueRef::Text(v) => {
                Value::Text(std::str::from_utf8(v).map_err(|e| IndexError::Sql(format!("column {i}: {e}")))?)
            }
            ValueRef::Blob(v) => Value::Blob(v),
        })
    }
}

impl Database for NativeSqlite {
    fn open(&mut self) -> Result<bool, IndexError> {
        if self.conn.is_some() {
            return Ok(false);
        }
        // Created owner-only; SQLite gives its -wal and -shm files the same mode.
        if !self.path.exists() {
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(FILE_MODE)
                .open(&self.path);
        }
        let conn = Connection::open(&self.path).map_err(|e| IndexError::Unavailable(e.to_string()))?;
        conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
        self.conn = Some(conn);
        Ok(true)
    }

    fn open_existing(&mut self) -> Result<bool, IndexError> {
        if self.conn.is_some() {
            return Ok(false);
        }
        // The flags `Connection::open` passes, without the one that makes the file.
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
            | rusqlite::OpenFlags::SQLITE_OPEN_URI
            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn =
            Connection::open_with_flags(&self.path, flags).map_err(|e| IndexError::Unavailable(e.to_string()))?;
        conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
        self.conn = Some(conn);
        Ok(true)
    }

    fn close(&mut self) {
        self.conn = None;
    }

    fn in_transaction(&mut self) -> bool {
        self.conn.as_ref().is_some_and(|c| !c.is_autocommit())
    }

    fn reset(&mut self) -> Result<(), IndexError> {
        self.conn = None;
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
        Ok(())
    }

    fn query(
        &mut self,
        sql_text: &str,
        params: &[Value<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let mut stmt = self.conn()?.prepare_cached(sql_text).map_err(sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params)).map_err(sql)?;
        while let Some(row) = rows.next().map_err(sql)? {
            each(row)?;
        }
        Ok(())
    }

    fn execute(&mut self, sql_text: &str, params: &[Value<'_>]) -> Result<Written, IndexError> {
        let conn = self.conn()?;
        let changes = conn
            .prepare_cached(sql_text)
            .map_err(sql)?
            .execute(rusqlite::params_from_iter(params))
            .map_err(sql)?;
        Ok(Written {
            changes: changes as u64,
            last_rowid: conn.last_insert_rowid(),
        })
    }

    fn batch(&mut self, sql_text: &str) -> Result<(), IndexError> {
        self.conn()?.execute_batch(sql_text).map_err(sql)
    }

    fn fault_point(&mut self, name: &str) -> Result<(), IndexError> {
        match self.faults {
            Some(hook) => hook(name).map_err(IndexError::Sql),
            None => Ok(()),
        }
    }
}
