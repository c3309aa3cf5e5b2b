//! The `files` import on Postgres: each collection is an append-only log of rows in
//! `lines`. Offsets are bytes, as in a file (the guest checks an append's new end against
//! the bytes it wrote): each row's `pos` is the offset just past it and its newline, a
//! file-state's `end` is the last row's `pos` (0 for none), and "read from offset" reads
//! the rows after it. Writers of a namespace append under its tail lock (or its whole
//! lock) and hold it until they commit, so a reader that resumes at `end` misses nothing.

use super::conn::Conn;

use super::schema::code;
use crate::files::{Chunk, Collection, FileError, FileState};

fn io(e: postgres::Error) -> FileError {
    FileError::Io(format!("postgres: {e}"))
}

/// Where a collection stands now.
pub(super) fn state(client: &mut Conn, c: Collection) -> Result<FileState, FileError> {
    let row = client
        .query_one(
            "SELECT generation, (SELECT coalesce(max(pos), 0) FROM lines WHERE collection = $1)
             FROM collections WHERE collection = $1",
            &[&code(c)],
        )
        .map_err(io)?;
    Ok(FileState {
        generation: row.get::<_, i64>(0) as u64,
        end: row.get::<_, i64>(1) as u64,
    })
}

/// The rows after `from`, or all of them when the generation changed or `from` is past
/// the end (see `read` in `wit/files.wit`). One round trip when the reader is in step,
/// as every call's reader is, and a second one to read from the start otherwise.
pub(super) fn read(client: &mut Conn, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
    let chunk = read_after(client, c, from)?;
    if generation.is_some_and(|g| g != chunk.generation) || from > chunk.end {
        return read_after(client, c, 0);
    }
    Ok(chunk)
}

/// The collection's state and its rows after `from`; a row with no line when there are
/// none, so that the state always comes back.
fn read_after(client: &mut Conn, c: Collection, from: u64) -> Result<Chunk, FileError> {
    let rows = client
        .query(
            "SELECT c.generation, e.end, l.line FROM collections c
             CROSS JOIN LATERAL (SELECT coalesce(max(pos), 0) AS end FROM lines WHERE collection = $1) e
             LEFT JOIN LATERAL (SELECT pos, line FROM lines WHERE collection = $1 AND pos > $2) l ON true
             WHERE c.collection = $1
             ORDER BY l.pos",
            &[&code(c), &(from as i64)],
        )
        .map_err(io)?;
    let first = rows
        .first()
        .ok_or_else(|| FileError::Io(format!("postgres: collection {c:?} has no row in collections")))?;
    let (generation, end) = (first.get::<_, i64>(0) as u64, first.get::<_, i64>(1) as u64);
    let mut data = String::new();
    for row in &rows {
        if let Some(line) = row.get::<_, Option<&str>>(2) {
            data.push_str(line);
            data.push('\n');
        }
    }
    Ok(Chunk { data, end, generation })
}

/// Appends rows in the given order.
pub(super) fn append(client: &mut Conn, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
    check_lines(lines)?;
    let before = state(client, c)?;
    // Appends keep the generation; the new end is where the last line ends.
    let end = insert(client, c, before.end, lines)?;
    Ok(FileState {
        generation: before.generation,
        end,
    })
}

/// Replaces every row, and gives the collection a new generation.
pub(super) fn replace(client: &mut Conn, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
    check_lines(lines)?;
    client
        .execute("DELETE FROM lines WHERE collection = $1", &[&code(c)])
        .map_err(io)?;
    insert(client, c, 0, lines)?;
    new_generation(client, &[c])?;
    state(client, c)
}

/// Gives collections a generation never handed out before: readers holding what they
/// read must read it again.
pub(super) fn new_generation(client: &mut Conn, collections: &[Collection]) -> Result<(), FileError> {
    let codes: Vec<i16> = collections.iter().map(|&c| code(c)).collect();
    client
        .execute(
            "UPDATE collections SET generation = nextval('generation_seq') WHERE collection = ANY($1)",
            &[&codes],
        )
        .map_err(io)?;
    Ok(())
}

/// Sets lines aside with the reason, never dropping them.
pub(super) fn quarantine(client: &mut Conn, c: Collection, lines: &[String], reason: &str) -> Result<(), FileError> {
    client
        .execute(
            "INSERT INTO quarantine (collection, line, reason)
             SELECT $1, l, $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(l, n) ORDER BY n",
            &[&code(c), &lines, &reason],
        )
        .map_err(io)?;
    Ok(())
}

/// How many lines are in quarantine.
pub(super) fn quarantined(client: &mut Conn) -> Result<u64, FileError> {
    let n: i64 = client
        .query_one("SELECT count(*) FROM quarantine", &[])
        .map_err(io)?
        .get(0);
    Ok(n as u64)
}

/// One statement for all the rows, placed after byte offset `end`; returns the offset just
/// past the last.
fn insert(client: &mut Conn, c: Collection, end: u64, lines: &[String]) -> Result<u64, FileError> {
    if lines.is_empty() {
        return Ok(end);
    }
    let positions: Vec<i64> = lines
        .iter()
        .scan(end, |at, line| {
            *at += line.len() as u64 + 1;
            Some(*at as i64)
        })
        .collect();
    client
        .execute(
            "INSERT INTO lines (collection, pos, line) SELECT $1, p, l FROM unnest($2::bigint[], $3::text[]) AS t(p, l)",
            &[&code(c), &positions, &lines],
        )
        .map_err(io)?;
    Ok(positions.last().map_or(end, |&p| p as u64))
}

/// The files backend's rule, and no NUL character, which Postgres text cannot hold.
fn check_lines(lines: &[String]) -> Result<(), FileError> {
    crate::files::check_lines(lines)?;
    match lines.iter().position(|l| l.contains('\0')) {
        Some(i) => Err(FileError::InvalidLine(format!("line {} holds a NUL character", i + 1))),
        None => Ok(()),
    }
}
