//! Moving many facts in: reading them from a file ([`FactFile`]) and storing them in calls
//! of a few thousand ([`MemoryStore::import`]), each call one write. The policy, which
//! facts are refused, present already or replace older ones, is the component's
//! `import-facts` (see `wit/memories.wit`).

use std::path::Path;

use serde::Deserialize;

use crate::bindings::exports::ash::memory::memories;
use crate::contract::{Caller, MemoryType, NewMemory};
use crate::error::Error;
use crate::store::MemoryStore;

/// Facts per `import-facts` call. Big enough that each call's fixed costs (the journal, a
/// pass over the collection) are small beside its facts, small enough that a progress
/// bar moves and a call's records stay far inside the sandbox's memory cap.
pub const IMPORT_CHUNK: usize = 2_000;

/// Bytes of content and context per `import-facts` call, beside [`IMPORT_CHUNK`]: the
/// policy reads every word of a new fact, so a call's fuel goes with its text. Forty
/// facts of 15 KB (600 KB) used up the default budget in one call; 2,000 facts of a
/// typical line are under this.
pub(crate) const IMPORT_CHUNK_BYTES: usize = 256 * 1024;

/// `facts` cut into the runs one `import-facts` call takes, each with the position of its
/// first fact: at most [`IMPORT_CHUNK`] facts and [`IMPORT_CHUNK_BYTES`] of text, and
/// always at least one fact.
pub(crate) fn import_chunks(facts: &[NewMemory]) -> Vec<(usize, &[NewMemory])> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < facts.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < facts.len() && end - start < IMPORT_CHUNK {
            let size = facts[end].content.len() + facts[end].context.as_ref().map_or(0, String::len);
            if end > start && bytes + size > IMPORT_CHUNK_BYTES {
                break;
            }
            bytes += size;
            end += 1;
        }
        chunks.push((start, &facts[start..end]));
        start = end;
    }
    chunks
}

/// Largest file `FactFile::read` reads: a million facts of a line each is far less.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// Facts read from a file, each with the line it starts on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FactFile {
    /// The facts, in file order.
    pub facts: Vec<NewMemory>,
    /// For each fact, the line of the file it came from (from 1).
    pub lines: Vec<usize>,
    /// For each fact, the user it names as its owner (mem0's `user_id`), if any.
    pub user_ids: Vec<Option<String>>,
}

/// What an import did, summed over its calls.
#[derive(Debug, Default)]
pub struct Imported {
    /// Facts stored as new memories.
    pub added: usize,
    /// Facts already stored (the same text, scope and subjects), not stored again.
    pub present: usize,
    /// Memories the new ones replace: older ones and facts of the file.
    pub superseded: usize,
    /// Memories archived to stay within `max_entries`.
    pub evicted: usize,
    /// Facts not stored, with why.
    pub refused: Vec<RefusedFact>,
}

/// A fact an import did not store.
#[derive(Debug)]
pub struct RefusedFact {
    /// Its position in the list given (from 0).
    pub position: usize,
    /// Why: what `add` would have answered.
    pub error: Error,
}

/// One fact of a JSON list or a JSON line, as an object.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FactObject {
    #[serde(alias = "memory", alias = "text")]
    content: String,
    #[serde(rename = "type", default)]
    memory_type: Option<String>,
    #[serde(default)]
    subjects: Vec<String>,
    #[serde(default)]
    expires_in_days: Option<u32>,
    #[serde(default)]
    shared: bool,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    observed_at: Option<String>,
    #[serde(default)]
    context: Option<String>,
    /// mem0's export: whose memory it is (an import takes only the caller's), when it
    /// was made (read as when it was observed), and fields with no counterpart here.
    #[serde(default)]
    user_id: Option<String>,
    #[serde(default)]
    created_at: Option<String>,
    #[serde(default, rename = "metadata")]
    _metadata: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "id")]
    _id: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "hash")]
    _hash: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "updated_at")]
    _updated_at: Option<serde::de::IgnoredAny>,
}

impl FactFile {
    /// Reads facts from a file, by its shape: a JSON array (`[...]`), JSON lines (each
    /// line a string or an object), or plain text with one fact per line. A JSON fact is
    /// a string or `{"content": ..., "type", "subjects", "expires_in_days", "shared",
    /// "source", "observed_at", "context"}` (`memory` or `text` may stand for `content`). Blank
    /// lines are skipped. Facts read as text get `source` "import".
    ///
    /// Errors: [`Error::Io`] when the file cannot be read; [`Error::InvalidInput`], naming
    /// the line, for malformed JSON, an unknown field or type, or a file that is not text.
    pub fn read(path: &Path) -> Result<FactFile, Error> {
        Self::parse(&read_import_text(path)?)
    }

    /// Reads facts from text, as [`FactFile::read`] does.
    pub fn parse(text: &str) -> Result<FactFile, Error> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut file = FactFile::default();
        match text.trim_start().chars().next() {
            Some('[') => {
                let list: Vec<serde_json::Value> = serde_json::from_str(text)
                    .map_err(|e| Error::InvalidInput(format!("line {}: not a JSON list of facts: {e}", e.line())))?;
                for (i, value) in list.into_iter().enumerate() {
                    let fact = to_new_memory(value).map_err(|m| Error::InvalidInput(format!("fact {}: {m}", i + 1)))?;
                    file.push(fact, i + 1);
                }
            }
            Some('{' | '"') => {
                for (n, line) in (1..).zip(text.lines()) {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let fact = serde_json::from_str(line)
                        .map_err(|e| describe(&e))
                        .and_then(to_new_memory)
                        .map_err(|m| Error::InvalidInput(format!("line {n}: {m}")))?;
                    file.push(fact, n);
                }
            }
            _ => {
                for (n, line) in (1..).zip(text.lines()) {
                    if !line.trim().is_empty() {
                        let mut fact = NewMemory::text(line.trim());
                        fact.source = Some("import".to_owned());
                        file.push((fact, None), n);
                    }
                }
            }
        }
        Ok(file)
    }

    fn push(&mut self, (fact, user_id): (NewMemory, Option<String>), line: usize) {
        self.facts.push(fact);
        self.lines.push(line);
        self.user_ids.push(user_id);
    }
}

/// Reads a file to import as text: at most 1 GiB, and UTF-8.
///
/// Errors: [`Error::Io`] when it cannot be read; [`Error::InvalidInput`] when it is too
/// large or not text.
pub fn read_import_text(path: &Path) -> Result<String, Error> {
    let io = |e: std::io::Error| Error::io(path, e);
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_FILE_BYTES {
        return Err(Error::InvalidInput(format!(
            "{} is {size} bytes; an import file holds at most {MAX_FILE_BYTES}",
            path.display()
        )));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    String::from_utf8(bytes).map_err(|e| Error::InvalidInput(format!("{} is not UTF-8 text: {e}", path.display())))
}

/// A serde error without its position, which the caller gives as a line or a fact number.
fn describe(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// A fact as JSON: a string, or an object of [`FactObject`]'s fields; with the user it
/// names, if any.
fn to_new_memory(value: serde_json::Value) -> Result<(NewMemory, Option<String>), String> {
    let o: FactObject = match value {
        serde_json::Value::String(text) => {
            let mut fact = NewMemory::text(text);
            fact.source = Some("import".to_owned());
            return Ok((fact, None));
        }
        object @ serde_json::Value::Object(_) => serde_json::from_value(object).map_err(|e| describe(&e))?,
        _ => return Err("a fact is a string or an object with a \"content\"".to_owned()),
    };
    let fact = NewMemory {
        content: o.content,
        memory_type: match o.memory_type {
            Some(name) => Some(MemoryType::parse(&name).ok_or_else(|| format!("unknown type {name:?}"))?),
            None => None,
        },
        expires_in_days: o.expires_in_days,
        subjects: o.subjects,
        shared: o.shared,
        source: Some(o.source.unwrap_or_else(|| "import".to_owned())),
        observed_at: o.observed_at.or(o.created_at),
        context: o.context,
    };
    Ok((fact, o.user_id))
}

impl MemoryStore {
    /// Stores many facts for one caller, in the calls [`import_chunks`] cuts (up to
    /// [`IMPORT_CHUNK`] facts), each call one write;
    /// see `import-facts` in `wit/memories.wit`. A refused fact is reported, not stored,
    /// and the others are; call [`MemoryStore::import_check`] first to refuse a whole list
    /// instead. `progress` is told how many facts are done after each call.
    ///
    /// An import cut short (a crash, a full disk) keeps the calls that finished; running
    /// it again stores only what is missing, as facts already present are not stored twice.
    ///
    /// Errors: those of `import-facts` for the call that failed; the calls before it stay.
    pub fn import(
        &mut self,
        caller: &Caller,
        facts: &[NewMemory],
        mut progress: impl FnMut(usize),
    ) -> Result<Imported, Error> {
        let mut total = Imported::default();
        let options = memories::ImportOptions { check_only: false };
        for (first, chunk) in import_chunks(facts) {
            let done = self.call_in(caller, |p, s| {
                p.ash_memory_memories().call_import_facts(s, caller, chunk, options)
            })?;
            total.added += done.added as usize;
            total.present += done.present as usize;
            total.superseded += done.superseded as usize;
            total.evicted += done.evicted as usize;
            total.refused.extend(refused(done.refused, first));
            progress(first + chunk.len());
        }
        Ok(total)
    }

    /// The facts [`MemoryStore::import`] would refuse, and why; writes nothing.
    pub fn import_check(&mut self, caller: &Caller, facts: &[NewMemory]) -> Result<Vec<RefusedFact>, Error> {
        let options = memories::ImportOptions { check_only: true };
        let mut out = Vec::new();
        for (first, chunk) in import_chunks(facts) {
            let done = self.call_in(caller, |p, s| {
                p.ash_memory_memories().call_import_facts(s, caller, chunk, options)
            })?;
            out.extend(refused(done.refused, first));
        }
        Ok(out)
    }
}

fn refused(list: Vec<memories::RefusedFact>, offset: usize) -> impl Iterator<Item = RefusedFact> {
    list.into_iter().map(move |r| RefusedFact {
        position: offset + r.position as usize,
        error: r.error.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_is_cut_by_count_and_by_bytes() {
        let short = vec![NewMemory::text("I live in Lisbon"); IMPORT_CHUNK + 5];
        let cuts: Vec<(usize, usize)> = import_chunks(&short).iter().map(|(f, c)| (*f, c.len())).collect();
        assert_eq!(cuts, [(0, IMPORT_CHUNK), (IMPORT_CHUNK, 5)]);
        let mut long = vec![NewMemory::text("x".repeat(100 * 1024)); 5];
        long[1].context = Some("y".repeat(60 * 1024));
        let cuts: Vec<(usize, usize)> = import_chunks(&long).iter().map(|(f, c)| (*f, c.len())).collect();
        assert_eq!(cuts, [(0, 1), (1, 1), (2, 2), (4, 1)], "the context counts too");
        let huge = vec![NewMemory::text("z".repeat(IMPORT_CHUNK_BYTES + 1)); 2];
        assert_eq!(import_chunks(&huge).len(), 2, "one fact a call at least");
        assert!(import_chunks(&[]).is_empty());
    }

    #[test]
    fn plain_text_is_one_fact_per_line() {
        let file = FactFile::parse("I live in Lisbon\n\n  My favorite color is blue  \n").unwrap();
        let contents: Vec<&str> = file.facts.iter().map(|f| f.content.as_str()).collect();
        assert_eq!(contents, ["I live in Lisbon", "My favorite color is blue"]);
        assert_eq!(file.lines, [1, 3]);
        assert_eq!(file.facts[0].source.as_deref(), Some("import"));
    }

    #[test]
    fn a_json_list_holds_strings_and_objects() {
        let file = FactFile::parse(
            r#"[ "I live in Lisbon",
                {"memory": "Sarah likes jazz", "subjects": ["Sarah"], "type": "preference", "source": "mem0"} ]"#,
        )
        .unwrap();
        assert_eq!(file.facts.len(), 2);
        assert_eq!(file.facts[1].content, "Sarah likes jazz");
        assert_eq!(file.facts[1].subjects, ["Sarah"]);
        assert_eq!(file.facts[1].memory_type, Some(MemoryType::Preference));
        assert_eq!(file.facts[1].source.as_deref(), Some("mem0"));
        assert_eq!(file.lines, [1, 2]);
    }

    #[test]
    fn json_lines_name_the_line_that_is_wrong() {
        let good = FactFile::parse("{\"content\": \"a\"}\n\n\"b\"\n").unwrap();
        assert_eq!(good.lines, [1, 3]);
        for (text, want) in [
            (
                "{\"content\": \"a\"}\n{\"content\": \"b\", \"colour\": 1}\n",
                "line 2: ",
            ),
            ("{\"content\": \"a\"}\n{\"content\": \"b\"\n", "line 2: "),
            (
                "\"a\"\n{\"content\": \"b\", \"type\": \"mood\"}\n",
                "line 2: unknown type \"mood\"",
            ),
            ("[\"a\", 3]", "fact 2: "),
        ] {
            let e = FactFile::parse(text).unwrap_err();
            assert!(matches!(e, Error::InvalidInput(_)), "{e:?}");
            assert!(e.to_string().starts_with(want), "{text:?}: {e}");
        }
    }
}
