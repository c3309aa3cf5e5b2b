//! `encoded-values` and `encoded-rows` (`wit/sql.wit`): a statement's parameters as the
//! index component sends them, and a query's answer as the hosts that supply `sql` send it.

use crate::IndexError;
use crate::database::{Row, Value};

/// One row of the import's answer, decoded (see `encoded-rows` in `wit/sql.wit`).
struct Columns<'r, 'a>(&'r [Value<'a>]);

impl Row for Columns<'_, '_> {
    fn value(&self, i: usize) -> Result<Value<'_>, IndexError> {
        self.0
            .get(i)
            .copied()
            .ok_or_else(|| IndexError::Sql(format!("no column {i} in a row of {}", self.0.len())))
    }
}

/// Reads `encoded-rows`, calling `each` with every row of `columns` values. Bytes that
/// end inside a value, an unknown tag or text that is not UTF-8 are an error.
pub fn decode(
    mut bytes: &[u8],
    columns: usize,
    each: &mut dyn FnMut(&dyn Row) -> Result<(), IndexError>,
) -> Result<(), IndexError> {
    let bad = || IndexError::Sql("the host's rows are malformed".into());
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }
    if columns == 0 {
        // A statement without columns gives rows of nothing, which encode as nothing.
        return if bytes.is_empty() { Ok(()) } else { Err(bad()) };
    }
    // Every column takes a byte at least: a count beyond that is a lie, and is not
    // allocated for.
    if !bytes.is_empty() && columns > bytes.len() {
        return Err(bad());
    }
    let mut row = Vec::with_capacity(columns);
    while !bytes.is_empty() {
        row.clear();
        for _ in 0..columns {
            let tag = take(&mut bytes, 1).ok_or_else(bad)?[0];
            let value = match tag {
                0 => Value::Null,
                1 => Value::Integer(i64::from_le_bytes(
                    take(&mut bytes, 8).ok_or_else(bad)?.try_into().expect("8"),
                )),
                2 => Value::Real(f64::from_le_bytes(
                    take(&mut bytes, 8).ok_or_else(bad)?.try_into().expect("8"),
                )),
                3 | 4 => {
                    let len = u32::from_le_bytes(take(&mut bytes, 4).ok_or_else(bad)?.try_into().expect("4"));
                    let body = take(&mut bytes, len as usize).ok_or_else(bad)?;
                    if tag == 3 {
                        Value::Text(std::str::from_utf8(body).map_err(|_| bad())?)
                    } else {
                        Value::Blob(body)
                    }
                }
                _ => return Err(bad()),
            };
            row.push(value);
        }
        each(&Columns(&row))?;
    }
    Ok(())
}

/// Writes values as `encoded-values`: a statement's parameters, or (one row after
/// another) a query's rows.
pub fn encode_values(values: &[Value<'_>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 9);
    for value in values {
        match *value {
            Value::Null => out.push(0),
            Value::Integer(n) => {
                out.push(1);
                out.extend(n.to_le_bytes());
            }
            Value::Real(r) => {
                out.push(2);
                out.extend(r.to_le_bytes());
            }
            Value::Text(t) => {
                out.push(3);
                out.extend((t.len() as u32).to_le_bytes());
                out.extend(t.as_bytes());
            }
            Value::Blob(b) => {
                out.push(4);
                out.extend((b.len() as u32).to_le_bytes());
                out.extend(b);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8], columns: usize) -> Result<Vec<String>, IndexError> {
        let mut rows = Vec::new();
        decode(bytes, columns, &mut |r| {
            rows.push(
                (0..columns)
                    .map(|i| format!("{:?}", r.value(i).unwrap()))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            Ok(())
        })?;
        Ok(rows)
    }

    #[test]
    fn rows_read_back_as_written_and_malformed_bytes_are_an_error() {
        let rows = [
            vec![Value::Null, Value::Integer(-7), Value::Real(0.25)],
            vec![Value::Text("é"), Value::Blob(&[1, 2, 3]), Value::Integer(i64::MAX)],
        ];
        let bytes: Vec<u8> = rows.iter().flat_map(|row| encode_values(row)).collect();
        assert_eq!(
            decoded(&bytes, 3).unwrap(),
            [
                "Null Integer(-7) Real(0.25)",
                "Text(\"é\") Blob([1, 2, 3]) Integer(9223372036854775807)"
            ]
        );
        assert!(decoded(&[], 3).unwrap().is_empty());
        assert!(decoded(&[], 0).unwrap().is_empty());
        // Cut short, an unknown tag, a length past the end, text that is not UTF-8, and
        // bytes for a statement without columns.
        for bad in [
            &bytes[..bytes.len() - 1],
            &[9][..],
            &[3, 9, 0, 0, 0, b'a'][..],
            &[3, 1, 0, 0, 0, 0xff][..],
        ] {
            assert!(decoded(bad, 1).is_err(), "{bad:?}");
        }
        assert!(decoded(&[0], 0).is_err());
        // A column count no row could have.
        assert!(decoded(&[0, 0], u32::MAX as usize).is_err());
    }
}
