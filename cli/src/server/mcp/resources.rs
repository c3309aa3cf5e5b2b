//! What a client may read without a model asking: the caller's profile, the people memory
//! knows, and one memory by id, each as the JSON the server answers elsewhere (`wire`); and
//! one prompt, "what do you remember about me?". Every read is the caller's own: a memory
//! of another scope is not found, as it is for `get`.

use rmcp::ErrorData;
use rmcp::model::{
    ContentBlock, GetPromptResult, Prompt, PromptMessage, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate, Role,
};

use ash_memory::{Caller, Error, ErrorKind};

use crate::server::worker::Worker;
use crate::wire;

const PROFILE: &str = "memory://profile";
const PEOPLE: &str = "memory://people";
const MEMORY: &str = "memory://memories/";
const JSON: &str = "application/json";

/// The prompt a client may offer its user.
const REMEMBERED: &str = "what_you_remember";

/// The resources every caller has.
pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(PROFILE, "profile")
            .with_title("What memory has learned about you")
            .with_description("The profile notes reflection and extraction wrote about the caller.")
            .with_mime_type(JSON),
        Resource::new(PEOPLE, "people")
            .with_title("The people in your life")
            .with_description("Each person memory knows: name, relation, other names.")
            .with_mime_type(JSON),
    ]
}

/// The resources named by a parameter: one memory by its id.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{MEMORY}{{id}}"), "memory")
            .with_title("One memory")
            .with_description("A memory by its id (or an unambiguous prefix of it), with the JSONL field names.")
            .with_mime_type(JSON),
    ]
}

/// Whether `uri` names a resource this server has (a memory's id is checked when read).
pub fn known(uri: &str) -> Result<(), ErrorData> {
    let memory = uri.strip_prefix(MEMORY).is_some_and(|id| !id.is_empty());
    if uri == PROFILE || uri == PEOPLE || memory {
        Ok(())
    } else {
        Err(ErrorData::resource_not_found(format!("no resource {uri:?}"), None))
    }
}

/// Reads `uri` for `caller`.
pub async fn read(worker: &Worker, caller: Caller, uri: String) -> Result<ReadResourceResult, ErrorData> {
    let value = if uri == PROFILE {
        let profile = worker.read(move |s| s.profile(&caller)).await;
        wire::profile(&profile.map_err(|e| failed(&uri, e))?)
    } else if uri == PEOPLE {
        let people = worker.read(move |s| s.people_list(&caller)).await;
        wire::people(&people.map_err(|e| failed(&uri, e))?)
    } else if let Some(id) = uri.strip_prefix(MEMORY).filter(|id| !id.is_empty()) {
        let id = id.to_owned();
        let memory = worker.read(move |s| s.get(&caller, &id)).await;
        wire::memory(&memory.map_err(|e| failed(&uri, e))?)
    } else {
        return Err(ErrorData::resource_not_found(format!("no resource {uri:?}"), None));
    };
    let text = serde_json::to_string_pretty(&value).expect("JSON values serialize");
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type(JSON),
    ]))
}

fn failed(uri: &str, e: Error) -> ErrorData {
    match e.kind() {
        ErrorKind::NotFound => ErrorData::resource_not_found(format!("{uri}: {e}"), None),
        ErrorKind::InvalidInput => ErrorData::invalid_params(format!("{uri}: {e}"), None),
        _ => ErrorData::internal_error(format!("{uri}: {e}"), None),
    }
}

/// The prompts: one, for a user who wants to see what memory holds about them.
pub fn prompts() -> Vec<Prompt> {
    vec![
        Prompt::new(
            REMEMBERED,
            Some("Ask what memory holds about you, with a chance to correct or forget it."),
            None,
        )
        .with_title("What do you remember about me?"),
    ]
}

/// The prompt named `name`.
pub fn prompt(name: &str) -> Result<GetPromptResult, ErrorData> {
    if name != REMEMBERED {
        return Err(ErrorData::invalid_params(format!("no prompt {name:?}"), None));
    }
    let ask = "What do you remember about me? Use list_memories and people to see it all, tell me \
               each thing in plain words with where it came from, and offer to correct or forget \
               anything that is wrong or that I no longer want kept.";
    Ok(
        GetPromptResult::new(vec![PromptMessage::new(Role::User, ContentBlock::text(ask))])
            .with_description("What memory holds about you"),
    )
}
