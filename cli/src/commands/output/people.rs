//! Printing people: `people list`, `show`, `add`, `alias`, `merge` and `forget`.

use ash_memory::{Forgotten, Person};

use super::{Output, emit, print_json};
use crate::wire;

impl Output {
    pub fn people(&self, people: &[Person]) {
        if self.json {
            return print_json(&wire::people(people));
        }
        if people.is_empty() {
            say!("No people yet.");
            return;
        }
        say!("{:<36}  {:<20}  {:<12}  ALIASES", "ID", "NAME", "RELATION");
        for p in people {
            let relation = p.relation.as_deref().unwrap_or("-");
            say!(
                "{:<36}  {:<20}  {:<12}  {}",
                p.id,
                p.name,
                relation,
                p.aliases.join(", ")
            );
        }
    }

    pub fn person(&self, p: &Person) {
        if self.json {
            return print_json(&wire::person(p));
        }
        say!("{:>13}: {}", "id", p.id);
        say!("{:>13}: {}", "name", p.name);
        say!("{:>13}: {}", "relation", p.relation.as_deref().unwrap_or("-"));
        say!(
            "{:>13}: {}",
            "aliases",
            if p.aliases.is_empty() {
                "-".to_owned()
            } else {
                p.aliases.join(", ")
            }
        );
        for (id, relation) in &p.relationships {
            say!("{:>13}: {relation} is {id}", "relationship");
        }
    }

    pub fn forgotten(&self, f: &Forgotten, purge: bool) {
        if self.json {
            return print_json(&wire::forgotten(f));
        }
        let fate = if purge { "removed" } else { "archived" };
        say!("Forgot {} ({})", f.person.name, f.person.id);
        say!("  {} memories about them alone {fate}", f.archived.len());
        say!(
            "  {} memories about them and others kept, without them",
            f.unlinked.len()
        );
        if purge {
            say!("  {} older archive entries about them removed", f.purged);
        }
    }
}
