//! `tools.call`: runs the agent tools `remember` (an add), `recall` (a search) and
//! `correct` and words the answer for the model. Their schemas and argument parsing are
//! `crate::tools`'s.

use serde_json::{Value, json};

use super::MemoryService;
use crate::api::{Correction, Error, SearchQuery};
use crate::ports::Ports;
use crate::scope::Caller;
use crate::tools::{bad, fact, only};

impl<P: Ports> MemoryService<P> {
    /// Runs a tool call; see `call` in `wit/tools.wit`.
    pub fn tool_call(&mut self, caller: &Caller, name: &str, arguments: &str) -> Result<String, Error> {
        self.tool_run(caller, name, arguments).map(|(text, _)| text)
    }

    /// Runs a tool call and answers as text and as data (the tool's `output_schema`); see
    /// `run` in `wit/tools.wit`.
    pub fn tool_run(&mut self, caller: &Caller, name: &str, arguments: &str) -> Result<(String, Value), Error> {
        if !matches!(name, "remember" | "recall" | "correct") {
            return Err(Error::UnknownTool(name.to_owned()));
        }
        let args: Value =
            serde_json::from_str(arguments).map_err(|e| bad(format!("the arguments are not JSON: {e}")))?;
        if !args.is_object() {
            return Err(bad("the arguments must be a JSON object"));
        }
        let named: &[&str] = match name {
            "remember" => &["content", "facts", "subjects", "expires_in_days", "shared"],
            "recall" => &["query", "about"],
            _ => &["id", "content"],
        };
        only(&args, named, "")?;
        match name {
            "remember" => self.remember(caller, &args),
            "recall" => self.recall(caller, &args),
            _ => self.correct_tool(caller, &args),
        }
    }

    fn correct_tool(&mut self, caller: &Caller, args: &Value) -> Result<(String, Value), Error> {
        let text = |field: &str| {
            args[field]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| bad(format!("correct needs an `{field}` string")))
        };
        let (id, content) = (text("id")?, text("content")?);
        let correction = Correction {
            content,
            ..Default::default()
        };
        let added = self.correct(caller, &id, correction)?;
        let new = &added.memories[0];
        let replaced = added.superseded.first().map(|(old, _)| old);
        let text = match replaced {
            Some(old) => format!(
                "Corrected: \"{}\" replaces \"{}\" (id {}).",
                new.content, old.content, new.id
            ),
            None => format!("Nothing to correct: memory {} already says that.", new.id),
        };
        let data = json!({
            "memory": brief(&new.id, &new.content),
            "replaced": replaced.map(|old| brief(&old.id, &old.content)),
        });
        Ok((text, data))
    }

    fn remember(&mut self, caller: &Caller, args: &Value) -> Result<(String, Value), Error> {
        let mut items = Vec::new();
        if !args["content"].is_null() {
            items.push(fact(args, "")?);
        }
        match &args["facts"] {
            Value::Null => {}
            Value::Array(facts) => {
                for (i, f) in facts.iter().enumerate() {
                    items.push(fact(f, &format!("facts[{i}]."))?);
                }
            }
            _ => return Err(bad("facts must be a list of objects")),
        }
        if items.is_empty() {
            return Err(bad("remember needs `content` or a non-empty `facts` list"));
        }
        let added = self.add_batch(caller, items)?;
        let mut ids: Vec<&str> = added.memories.iter().map(|m| m.id.as_str()).collect();
        ids.dedup();
        let known = ids.iter().filter(|id| added.restated.iter().any(|r| r == *id)).count();
        let n = ids.len() - known;
        let mut text = format!("Remembered {n} fact{}.", if n == 1 { "" } else { "s" });
        if known > 0 {
            text.push_str(&format!(" Already known: {known}."));
        }
        for (old, _) in &added.superseded {
            text.push_str(&format!(" It replaces: \"{}\".", old.content));
        }
        let (mut remembered, mut already_known, mut seen) = (Vec::new(), Vec::new(), Vec::new());
        for m in &added.memories {
            if seen.contains(&m.id) {
                continue;
            }
            seen.push(m.id.clone());
            let to = if added.restated.contains(&m.id) {
                &mut already_known
            } else {
                &mut remembered
            };
            to.push(brief(&m.id, &m.content));
        }
        let replaced: Vec<Value> = added
            .superseded
            .iter()
            .map(|(old, _)| brief(&old.id, &old.content))
            .collect();
        let data = json!({ "remembered": remembered, "already_known": already_known, "replaced": replaced });
        Ok((text, data))
    }

    fn recall(&mut self, caller: &Caller, args: &Value) -> Result<(String, Value), Error> {
        let query = args["query"]
            .as_str()
            .ok_or_else(|| bad("recall needs a `query` string"))?;
        let about = match &args["about"] {
            Value::Null => None,
            v => Some(v.as_str().ok_or_else(|| bad("about must be a string"))?.to_owned()),
        };
        let results = self.search(
            caller,
            &SearchQuery {
                text: query.to_owned(),
                limit: Some(10),
                about,
            },
        )?;
        let mut lines: Vec<String> = results.notices.iter().map(|n| format!("(note: {n})")).collect();
        if results.hits.is_empty() {
            lines.push("No matching memories.".to_owned());
        }
        for h in &results.hits {
            let id = &h.memory.id;
            match h.subjects.as_slice() {
                [] => lines.push(format!("- {} (id {id})", h.memory.content)),
                names => lines.push(format!("- {} (about {}; id {id})", h.memory.content, names.join(", "))),
            }
        }
        let memories: Vec<Value> = results
            .hits
            .iter()
            .map(|h| {
                json!({
                    "id": h.memory.id,
                    "content": h.memory.content,
                    "memory_type": h.memory.memory_type.as_str(),
                    "subjects": h.subjects,
                    "score": h.score,
                })
            })
            .collect();
        Ok((
            lines.join("\n"),
            json!({ "memories": memories, "notices": results.notices }),
        ))
    }
}

/// A memory in a tool's data.
fn brief(id: &str, content: &str) -> Value {
    json!({ "id": id, "content": content })
}
