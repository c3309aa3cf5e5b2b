//! The home's file names: where each collection and its companions live, as paths relative
//! to the home with `/` between their parts, and the few path operations they need.

use crate::Collection;

/// The file behind a collection.
pub fn collection(c: Collection) -> &'static str {
    match c {
        Collection::Memories => "memory/memories.jsonl",
        Collection::People => "people.jsonl",
        Collection::Archive => "memory/archive.jsonl",
        Collection::Sessions => "memory/sessions.jsonl",
        Collection::Messages => "memory/messages.jsonl",
    }
}

/// The journal of the call under way.
pub const JOURNAL: &str = "memory/.journal";

/// Where a collection's unparseable lines are kept (`memory/memories.quarantine.jsonl`).
pub fn quarantine(c: Collection) -> String {
    sibling(c, ".quarantine.jsonl", false)
}

/// The file that holds the random part of a collection's generation
/// (`memory/.memories.generation`).
pub fn token(c: Collection) -> String {
    sibling(c, ".generation", true)
}

fn sibling(c: Collection, suffix: &str, hidden: bool) -> String {
    let path = collection(c);
    let dot = if hidden { "." } else { "" };
    with_file_name(path, &format!("{dot}{}{suffix}", file_stem(path)))
}

/// The folder a path is in (`""` for the home itself).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// The last part of a path.
pub fn file_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

/// The file name without its extension: `memories` of `memories.jsonl`, all of `.journal`.
pub fn file_stem(path: &str) -> &str {
    let name = file_name(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

/// A name in a folder (`""` is the home itself).
pub fn join(dir: &str, name: &str) -> String {
    match dir {
        "" => name.to_owned(),
        dir => format!("{dir}/{name}"),
    }
}

/// The path with another last part.
pub fn with_file_name(path: &str, name: &str) -> String {
    join(parent(path), name)
}

/// The path with its extension replaced (`.memories.tmp-7` for `.memories.generation`).
pub fn with_extension(path: &str, extension: &str) -> String {
    with_file_name(path, &format!("{}.{extension}", file_stem(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_homes_own() {
        assert_eq!(quarantine(Collection::Memories), "memory/memories.quarantine.jsonl");
        assert_eq!(quarantine(Collection::People), "people.quarantine.jsonl");
        assert_eq!(token(Collection::Archive), "memory/.archive.generation");
        assert_eq!(token(Collection::People), ".people.generation");
        assert_eq!(
            with_extension(&token(Collection::Memories), "tmp-7"),
            "memory/.memories.tmp-7"
        );
        assert_eq!(with_extension(JOURNAL, "tmp-7"), "memory/.journal.tmp-7");
        assert_eq!((parent("people.jsonl"), parent(JOURNAL)), ("", "memory"));
    }
}
