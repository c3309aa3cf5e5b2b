//! Reading the language model's answer. Strict about meaning, tolerant about form: local
//! models wrap JSON in fences, add a sentence after it, use single quotes, leave keys
//! unquoted, write `True` or a trailing comma. Those are read; anything that is still not
//! an object of facts (or a list of them) is refused whole, so that a broken answer
//! stores nothing rather than something half-read.

use serde_json::{Map, Value};

use super::{Fact, MAX_FACT_CHARS, MAX_FACTS_PER_EXCHANGE};
use crate::memory_type::{MemoryType, classify};

/// The longest answer read, in bytes; a longer one is not an answer to this prompt.
pub const MAX_ANSWER_BYTES: usize = 32 * 1024;

/// The facts in an answer, or why it was refused. Facts the model gave without a
/// confidence count as unsure (0): they are then below any threshold.
pub fn parse_facts(answer: &str) -> Result<Vec<Fact>, String> {
    if answer.len() > MAX_ANSWER_BYTES {
        return Err(format!(
            "the answer is {} bytes, more than {MAX_ANSWER_BYTES}",
            answer.len()
        ));
    }
    let value = find_json(answer).ok_or("the answer holds no JSON object or list")?;
    let list = match value {
        Value::Array(items) => items,
        Value::Object(mut o) => match o.remove("facts").or_else(|| o.remove("memories")) {
            Some(Value::Array(items)) => items,
            Some(Value::Null) => Vec::new(),
            _ => return Err("the answer's object has no list of facts".into()),
        },
        _ => return Err("the answer is not an object or a list".into()),
    };
    if list.len() > MAX_FACTS_PER_EXCHANGE * 4 {
        return Err(format!("the answer lists {} facts for one exchange", list.len()));
    }
    let mut facts = Vec::new();
    for item in list {
        let Value::Object(o) = item else {
            return Err("a fact is not an object".into());
        };
        facts.push(fact(&o)?);
    }
    Ok(facts)
}

fn fact(o: &Map<String, Value>) -> Result<Fact, String> {
    let content = match o.get("content").or_else(|| o.get("fact")).or_else(|| o.get("text")) {
        Some(Value::String(s)) if !s.trim().is_empty() => s.split_whitespace().collect::<Vec<_>>().join(" "),
        _ => return Err("a fact has no content".into()),
    };
    if content.chars().count() > MAX_FACT_CHARS {
        return Err(format!("a fact is longer than {MAX_FACT_CHARS} characters"));
    }
    let memory_type = match o.get("type").or_else(|| o.get("memory_type")) {
        Some(Value::String(t)) => {
            let t = t.trim().to_lowercase();
            match MemoryType::parse(&t) {
                Some(MemoryType::Reflection) => return Err("a fact claims to be a reflection".into()),
                Some(t) => t,
                None => classify(&content),
            }
        }
        _ => classify(&content),
    };
    let subjects = match o.get("subjects") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.chars().count() <= 100)
            .map(str::to_owned)
            .take(8)
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_owned()],
        _ => Vec::new(),
    };
    let confidence = match o.get("confidence") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => s.trim().trim_end_matches('%').parse::<f64>().unwrap_or(0.0),
        _ => 0.0,
    };
    // "90" or "90%" for 0.9.
    let confidence = if confidence > 1.0 && confidence <= 100.0 {
        confidence / 100.0
    } else {
        confidence
    };
    let confidence = if confidence.is_finite() {
        confidence.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let expires_in_days = match o.get("expires_in_days") {
        Some(Value::Number(n)) => n.as_u64().filter(|d| (1..=3650).contains(d)).map(|d| d as u32),
        _ => None,
    };
    Ok(Fact {
        content,
        memory_type,
        subjects,
        confidence,
        expires_in_days,
    })
}

/// The first JSON object or list in the text that reads, strictly or leniently.
fn find_json(text: &str) -> Option<Value> {
    let text = strip_fences(text);
    for (start, _) in text.char_indices().filter(|(_, c)| matches!(c, '{' | '[')) {
        let mut reader = Lenient {
            chars: text[start..].chars().collect(),
            at: 0,
            depth: 0,
        };
        if let Some(v) = reader.value()
            && matches!(v, Value::Object(_) | Value::Array(_))
        {
            return Some(v);
        }
    }
    None
}

/// The inside of the first ``` fence, when there is one.
fn strip_fences(text: &str) -> &str {
    let Some(open) = text.find("```") else { return text };
    let after = &text[open + 3..];
    // Skip a language tag on the fence's line.
    let body = after.find('\n').map_or(after, |i| &after[i + 1..]);
    match body.find("```") {
        Some(close) => &body[..close],
        None => body,
    }
}

/// A reader of JSON and its near relatives. Depth-bounded, so a hostile answer of
/// nested brackets cannot exhaust the stack.
struct Lenient {
    chars: Vec<char>,
    at: usize,
    depth: u32,
}

const MAX_DEPTH: u32 = 32;

impl Lenient {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.skip_space();
        match self.peek()? {
            '{' => self.nested(Self::object),
            '[' => self.nested(Self::array),
            '"' | '\'' => self.string().map(Value::String),
            c if c == '-' || c.is_ascii_digit() => self.number(),
            _ => match self.word()?.as_str() {
                "true" | "True" => Some(Value::Bool(true)),
                "false" | "False" => Some(Value::Bool(false)),
                "null" | "None" => Some(Value::Null),
                _ => None,
            },
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Option<Value>) -> Option<Value> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn object(&mut self) -> Option<Value> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.skip_space();
            match self.peek()? {
                '}' => {
                    self.at += 1;
                    return Some(Value::Object(map));
                }
                ',' => self.at += 1,
                '"' | '\'' => {
                    let key = self.string()?;
                    self.colon_then_value(&mut map, key)?;
                }
                c if c.is_alphabetic() || c == '_' => {
                    let key = self.word()?;
                    self.colon_then_value(&mut map, key)?;
                }
                _ => return None,
            }
        }
    }

    fn colon_then_value(&mut self, map: &mut Map<String, Value>, key: String) -> Option<()> {
        self.skip_space();
        if self.peek()? != ':' {
            return None;
        }
        self.at += 1;
        let v = self.value()?;
        map.insert(key, v);
        Some(())
    }

    fn array(&mut self) -> Option<Value> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.peek()? {
                ']' => {
                    self.at += 1;
                    return Some(Value::Array(items));
                }
                ',' => self.at += 1,
                _ => items.push(self.value()?),
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.at += 1;
        let mut out = String::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            match c {
                '\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    out.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        'u' => {
                            let hex: String = self.chars.get(self.at..self.at + 4)?.iter().collect();
                            self.at += 4;
                            char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('\u{FFFD}')
                        }
                        other => other,
                    });
                }
                // A single-quoted string may hold an apostrophe between letters ("wife's").
                '\'' if quote == '\''
                    && out.chars().last().is_some_and(char::is_alphanumeric)
                    && self.peek().is_some_and(char::is_alphanumeric) =>
                {
                    out.push('\'')
                }
                c if c == quote => return Some(out),
                c => out.push(c),
            }
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        serde_json::from_str::<serde_json::Number>(&text)
            .ok()
            .map(Value::Number)
    }

    fn word(&mut self) -> Option<String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.at += 1;
        }
        (self.at > start).then(|| self.chars[start..self.at].iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(answer: &str) -> Vec<String> {
        parse_facts(answer).unwrap().into_iter().map(|f| f.content).collect()
    }

    #[test]
    fn reads_plain_fenced_and_chatty_answers() {
        let plain = r#"{"facts": [{"content": "I am allergic to peanuts", "type": "identity", "subjects": [], "confidence": 0.95}]}"#;
        let f = parse_facts(plain).unwrap();
        assert_eq!(f[0].memory_type, MemoryType::Identity);
        assert!((f[0].confidence - 0.95).abs() < 1e-9);
        let fenced = format!("Sure! Here are the facts:\n```json\n{plain}\n```\nLet me know if you need more.");
        assert_eq!(contents(&fenced), ["I am allergic to peanuts"]);
        let trailing = format!("{plain}\n\nI hope this helps.");
        assert_eq!(contents(&trailing), ["I am allergic to peanuts"]);
    }

    #[test]
    fn reads_a_local_models_near_json() {
        let near = "{facts: [{'content': 'My wife's name is Sarah', 'type': 'relationship', \
                    'subjects': ['my wife Sarah'], 'confidence': '90%',},], }";
        let f = parse_facts(near).unwrap();
        assert_eq!(f[0].content, "My wife's name is Sarah");
        assert_eq!(f[0].subjects, ["my wife Sarah"]);
        assert!((f[0].confidence - 0.9).abs() < 1e-9);
        assert_eq!(
            contents("[{\"content\": \"I live in Porto\", \"confidence\": 1, \"ok\": True}]"),
            ["I live in Porto"]
        );
        assert!(parse_facts("{\"facts\": []}").unwrap().is_empty());
    }

    #[test]
    fn refuses_what_is_not_an_answer() {
        for bad in [
            "",
            "I could not find any facts.",
            "{\"facts\": \"none\"}",
            "{\"facts\": [\"I live in Porto\"]}",
            "{\"facts\": [{\"type\": \"identity\"}]}",
            "{\"facts\": [{\"content\": \"x\", \"type\": \"reflection\", \"confidence\": 1}]}",
            "{\"facts\": [{\"content\": \"I live",
        ] {
            assert!(parse_facts(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100_000);
        assert!(parse_facts(&deep).is_err());
        let huge = format!("{{\"facts\": [{{\"content\": \"{}\"}}]}}", "a".repeat(MAX_ANSWER_BYTES));
        assert!(parse_facts(&huge).is_err());
    }

    /// A fact given without a usable confidence counts as 0, below any threshold above 0,
    /// while a fact that gives one keeps it (so the default is not the value read). Its
    /// type, when it gives none, comes from its words.
    #[test]
    fn a_fact_without_confidence_is_unsure() {
        for confidence in [
            "",
            ", \"confidence\": null",
            ", \"confidence\": \"high\"",
            ", \"confidence\": [0.9]",
        ] {
            let answer = format!("{{\"facts\": [{{\"content\": \"I live in Porto\"{confidence}}}]}}");
            let f = parse_facts(&answer).unwrap();
            assert_eq!(f[0].confidence, 0.0, "{answer}");
            assert_eq!(f[0].memory_type, MemoryType::Identity, "{answer}");
        }
        let sure = parse_facts("{\"facts\": [{\"content\": \"I live in Porto\", \"confidence\": 0.8}]}").unwrap();
        assert!((sure[0].confidence - 0.8).abs() < 1e-9);
        let untyped = parse_facts("{\"facts\": [{\"content\": \"Porto is on the Douro\"}]}").unwrap();
        assert_eq!(untyped[0].memory_type, MemoryType::Knowledge);
    }
}
