//! The changes a page asks for, each a POST that the guard has checked (session, form
//! token, origin). Each runs one store call for the session's caller, in turn with the
//! other writes, and answers with where the browser goes next and a note for that page.

use std::collections::HashMap;

use ash_memory::{Correction, Error, MemoryType};

use super::Ui;
use super::html::url_part;

/// Where to go after a change, and the note to show there.
pub struct Done {
    pub location: String,
    pub note: String,
}

type Form = HashMap<String, String>;

impl Ui {
    /// Runs the change `path` names for `caller`.
    pub(super) async fn change(&self, caller: &ash_memory::Caller, path: &[&str], form: &Form) -> Result<Done, Error> {
        let caller = caller.clone();
        match path {
            ["memory", id, "correct"] => {
                let correction = Correction {
                    content: field(form, "content")?.to_owned(),
                    memory_type: optional(form, "type")
                        .map(|t| MemoryType::parse(t).ok_or_else(|| invalid(format!("unknown type {t:?}"))))
                        .transpose()?,
                    expires_in_days: optional(form, "expires_days")
                        .map(|d| {
                            d.parse::<u32>()
                                .map_err(|_| invalid(format!("expires in days is a whole number, not {d:?}")))
                        })
                        .transpose()?,
                    subjects: None,
                };
                let id = (*id).to_owned();
                let added = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| s.correct(&caller, &id, &correction))
                    .await?;
                let new = added.memories.first().map(|m| m.id.clone());
                Ok(Done {
                    location: format!("/memory/{}", url_part(new.as_deref().unwrap_or(path[1]))),
                    note: if new.is_some() {
                        "Saved as a new memory that replaces the old one; the history below shows both.".into()
                    } else {
                        "Nothing changed.".into()
                    },
                })
            }
            ["memory", id, "confirm"] => {
                let id = (*id).to_owned();
                let memory = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| s.confirm(&caller, &id))
                    .await?;
                Ok(Done {
                    location: format!("/memory/{}", url_part(&memory.id)),
                    note: "Confirmed: this memory no longer fades.".into(),
                })
            }
            ["memory", id, "delete"] => {
                let id = (*id).to_owned();
                let content = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| {
                        let memory = s.get(&caller, &id)?;
                        s.delete(&caller, &memory.id)?;
                        Ok(memory.content)
                    })
                    .await?;
                Ok(Done {
                    location: "/".into(),
                    note: format!("Deleted \u{201c}{content}\u{201d}. Its history keeps it, marked deleted."),
                })
            }
            ["person", id, "alias"] => {
                let alias = field(form, "alias")?.to_owned();
                let id = (*id).to_owned();
                let person = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| s.people_alias(&caller, &id, &alias))
                    .await?;
                Ok(Done {
                    location: format!("/person/{}", url_part(&person.id)),
                    note: format!("{} is also called {}.", person.name, person.aliases.join(", ")),
                })
            }
            ["person", id, "merge"] => {
                let other = field(form, "other")?.to_owned();
                let id = (*id).to_owned();
                let person = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| s.people_merge(&caller, &id, &other))
                    .await?;
                Ok(Done {
                    location: format!("/person/{}", url_part(&person.id)),
                    note: format!("Merged into {}.", person.name),
                })
            }
            ["person", id, "forget"] => {
                let id = (*id).to_owned();
                let forgotten = self
                    .shared
                    .worker
                    .run_for(&caller.clone(), move |s| s.people_forget(&caller, &id, false))
                    .await?;
                Ok(Done {
                    location: "/people".into(),
                    note: format!(
                        "Forgot {}: {} memories about them alone archived, {} others no longer name them.",
                        forgotten.person.name,
                        forgotten.archived.len(),
                        forgotten.unlinked.len()
                    ),
                })
            }
            _ => Err(invalid("no such change".into())),
        }
    }
}

fn invalid(text: String) -> Error {
    Error::InvalidInput(text)
}

/// A field the form must fill.
fn field<'a>(form: &'a Form, name: &str) -> Result<&'a str, Error> {
    optional(form, name).ok_or_else(|| invalid(format!("the form's {name} is empty")))
}

/// A field the form may leave empty.
fn optional<'a>(form: &'a Form, name: &str) -> Option<&'a str> {
    form.get(name).map(String::as_str).filter(|v| !v.trim().is_empty())
}
