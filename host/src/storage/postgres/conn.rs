//! One connection with its prepared statements: each SQL text is prepared once per
//! connection, so that a call costs one round trip per statement instead of two.
//! Postgres re-plans a prepared statement by itself when a table it names is made anew
//! (`clear` recreates `entries`).

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{Client, Row, Statement};

/// Parameters of a statement.
pub(super) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// A connection and the statements prepared on it.
pub(super) struct Conn {
    client: Client,
    statements: HashMap<&'static str, Statement>,
}

impl Conn {
    /// Wraps a new connection.
    pub(super) fn new(client: Client) -> Self {
        Conn {
            client,
            statements: HashMap::new(),
        }
    }

    /// Whether the connection is gone (the server closed it, or the network did).
    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    fn prepared(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql)?;
        self.statements.insert(sql, statement.clone());
        Ok(statement)
    }

    /// The rows of a statement.
    pub(super) fn query(&mut self, sql: &'static str, params: Params<'_>) -> Result<Vec<Row>, postgres::Error> {
        let statement = self.prepared(sql)?;
        let t = std::time::Instant::now();
        let rows = self.client.query(&statement, params);
        tracing::debug!("postgres: {:?} in {:?}", &sql[..sql.len().min(60)], t.elapsed());
        rows
    }

    /// The one row of a statement.
    pub(super) fn query_one(&mut self, sql: &'static str, params: Params<'_>) -> Result<Row, postgres::Error> {
        let statement = self.prepared(sql)?;
        let t = std::time::Instant::now();
        let row = self.client.query_one(&statement, params);
        tracing::debug!("postgres: {:?} in {:?}", &sql[..sql.len().min(60)], t.elapsed());
        row
    }

    /// Runs a statement; returns how many rows it changed.
    pub(super) fn execute(&mut self, sql: &'static str, params: Params<'_>) -> Result<u64, postgres::Error> {
        let statement = self.prepared(sql)?;
        self.client.execute(&statement, params)
    }

    /// Runs statements built at run time (no parameters), in one round trip.
    pub(super) fn batch_execute(&mut self, sql: &str) -> Result<(), postgres::Error> {
        self.client.batch_execute(sql)
    }
}
