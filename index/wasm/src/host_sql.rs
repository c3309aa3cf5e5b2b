//! The index's database through the `ash:memory/sql` import.

use ash_memory_index::IndexError;
use ash_memory_index::database::{Database, Row, Value, Written};
use base64::Engine as _;

use crate::ash::memory::sql;

/// The host's connection to the home's index file.
#[derive(Default)]
pub(crate) struct HostSql {
    /// Whether this instance has seen the connection open: the index asks at every call,
    /// and only `close` and `reset` (both its own) close it again.
    opened: bool,
}

impl From<sql::Error> for IndexError {
    fn from(e: sql::Error) -> Self {
        match e {
            sql::Error::Unusable(m) => IndexError::Unavailable(m),
            sql::Error::ReadOnly(m) => IndexError::ReadOnly(m),
            sql::Error::Failed(m) => IndexError::Sql(m),
        }
    }
}

/// Parameters as the import takes them: `encoded-values` in base64.
fn params(values: &[Value<'_>]) -> String {
    base64::engine::general_purpose::STANDARD.encode(ash_memory_index::encoded_rows::encode_values(values))
}

impl Database for HostSql {
    fn open(&mut self) -> Result<bool, IndexError> {
        if self.opened {
            return Ok(false);
        }
        let opened = sql::open().map_err(|e| match e {
            // Whatever keeps the file from opening makes the index unavailable.
            sql::Error::Failed(m) => IndexError::Unavailable(m),
            e => e.into(),
        })?;
        self.opened = true;
        Ok(opened)
    }

    fn close(&mut self) {
        self.opened = false;
        sql::close();
    }

    fn reset(&mut self) -> Result<(), IndexError> {
        self.opened = false;
        Ok(sql::reset()?)
    }

    fn query(
        &mut self,
        statement: &str,
        values: &[Value<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let (columns, rows) = sql::query(statement, &params(values))?;
        let rows = base64::engine::general_purpose::STANDARD
            .decode(rows)
            .map_err(|e| IndexError::Sql(format!("the host's rows are not base64: {e}")))?;
        ash_memory_index::encoded_rows::decode(&rows, columns as usize, each)
    }

    fn execute(&mut self, statement: &str, values: &[Value<'_>]) -> Result<Written, IndexError> {
        let written = sql::execute(statement, &params(values))?;
        Ok(Written {
            changes: written.changes,
            last_rowid: written.last_rowid,
        })
    }

    fn execute_each(&mut self, statement: &str, width: usize, values: &[Value<'_>]) -> Result<u64, IndexError> {
        ash_memory_index::database::check_width(width, values.len())?;
        if values.is_empty() {
            return Ok(0);
        }
        let width = u32::try_from(width).map_err(|_| IndexError::Sql(format!("{width} parameters a row")))?;
        Ok(sql::execute_each(statement, width, &params(values))?)
    }

    fn batch(&mut self, statements: &str) -> Result<(), IndexError> {
        Ok(sql::batch(statements)?)
    }
}
