//! The index's database through the `ash:memory/sql` import.

use ash_memory_index::IndexError;
use ash_memory_index::database::{Database, Row, Value, Written};

use crate::ash::memory::sql;

/// The host's connection to the home's index file.
pub(crate) struct HostSql;

impl From<sql::Error> for IndexError {
    fn from(e: sql::Error) -> Self {
        match e {
            sql::Error::Unusable(m) => IndexError::Unavailable(m),
            sql::Error::ReadOnly(m) => IndexError::ReadOnly(m),
            sql::Error::Failed(m) => IndexError::Sql(m),
        }
    }
}

/// Parameters as the import takes them.
fn params(values: &[Value<'_>]) -> Vec<sql::Value> {
    values
        .iter()
        .map(|v| match *v {
            Value::Null => sql::Value::Null,
            Value::Integer(n) => sql::Value::Integer(n),
            Value::Real(r) => sql::Value::Real(r),
            Value::Text(s) => sql::Value::Text(s.to_owned()),
            Value::Blob(b) => sql::Value::Blob(b.to_vec()),
        })
        .collect()
}

/// One row of the import's answer.
struct Columns<'a>(&'a [sql::Value]);

impl Row for Columns<'_> {
    fn value(&self, i: usize) -> Result<Value<'_>, IndexError> {
        Ok(match self.0.get(i) {
            None => return Err(IndexError::Sql(format!("no column {i} in a row of {}", self.0.len()))),
            Some(sql::Value::Null) => Value::Null,
            Some(sql::Value::Integer(n)) => Value::Integer(*n),
            Some(sql::Value::Real(r)) => Value::Real(*r),
            Some(sql::Value::Text(s)) => Value::Text(s),
            Some(sql::Value::Blob(b)) => Value::Blob(b),
        })
    }
}

impl Database for HostSql {
    fn open(&mut self) -> Result<bool, IndexError> {
        sql::open().map_err(|e| match e {
            // Whatever keeps the file from opening makes the index unavailable.
            sql::Error::Failed(m) => IndexError::Unavailable(m),
            e => e.into(),
        })
    }

    fn close(&mut self) {
        sql::close();
    }

    fn reset(&mut self) -> Result<(), IndexError> {
        Ok(sql::reset()?)
    }

    fn query(
        &mut self,
        statement: &str,
        values: &[Value<'_>],
        each: &mut dyn FnMut(&dyn Row) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        for row in sql::query(statement, &params(values))? {
            each(&Columns(&row))?;
        }
        Ok(())
    }

    fn execute(&mut self, statement: &str, values: &[Value<'_>]) -> Result<Written, IndexError> {
        let written = sql::execute(statement, &params(values))?;
        Ok(Written {
            changes: written.changes,
            last_rowid: written.last_rowid,
        })
    }

    fn batch(&mut self, statements: &str) -> Result<(), IndexError> {
        Ok(sql::batch(statements)?)
    }
}
