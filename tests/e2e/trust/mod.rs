//! The promises a hostile or unlucky user tests: nothing of one scope reaches another, no
//! acknowledged write is lost, the index never poisons or diverges, and bad input is
//! refused cleanly without changing a byte. Each test names the defect it covers.

use serde_json::Value;

mod home;
mod index;
mod input;
mod scopes;
mod writes;

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|m| m["id"].as_str().expect("an id").to_owned())
        .collect()
}
