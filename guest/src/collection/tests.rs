use super::lines::removal;
use super::*;
use crate::tests::fake::FakePorts;

fn person(id: &str, name: &str) -> PersonRecord {
    PersonRecord::parse(&format!(
        r#"{{"id":"{id}","version":1,"name":"{name}","owner_user_id":"alice","created_at":"2026-03-01T12:00:00+00:00"}}"#
    ))
    .unwrap()
}

fn names(people: &People) -> Vec<&str> {
    people.iter().map(|p| p.name.as_str()).collect()
}

#[test]
fn removal_lines_fold_in_order_and_count_as_stale() {
    let ports = FakePorts::new();
    let mut people = People::default();
    people.refresh(&ports).unwrap();
    people
        .append(&ports, vec![person("a", "Ann"), person("b", "Bea"), person("c", "Cy")])
        .unwrap();
    people
        .remove(
            &ports,
            &["b".into(), "b".into(), "nobody".into()],
            "2026-01-01T00:00:00+00:00",
        )
        .unwrap();
    assert_eq!(names(&people), ["Ann", "Cy"]);
    assert_eq!((people.len(), people.stale_lines()), (2, 2));
    let file = ports.file(Collection::People);
    assert_eq!(
        file.lines().last(),
        Some(r#"{"id":"b","version":1,"removed_at":"2026-01-01T00:00:00+00:00"}"#),
        "one line, once"
    );
    // The same id written again after its removal comes back, last in order.
    people
        .append(&ports, vec![person("b", "Bea again"), person("a", "Ann B.")])
        .unwrap();
    assert_eq!(names(&people), ["Ann B.", "Cy", "Bea again"]);
    // A reader starting from nothing folds the file to the same records.
    let mut fresh = People::default();
    fresh.refresh(&ports).unwrap();
    assert_eq!(names(&fresh), names(&people));
    assert_eq!(fresh.stale_lines(), 3, "b's first line, its removal, Ann's first line");
    assert!(ports.quarantined.borrow().is_empty());
    fresh.rewrite(&ports).unwrap();
    assert_eq!(fresh.stale_lines(), 0);
    assert_eq!(ports.file(Collection::People).lines().count(), 3);
}

#[test]
fn a_line_over_the_bound_is_quarantined_unread() {
    let ports = FakePorts::new();
    let huge = person("h", &"x".repeat(MAX_LINE_BYTES));
    ports.write_raw(
        Collection::People,
        &format!("{}\n{}\n", person("a", "Ann").to_line(), huge.to_line()),
    );
    let mut people = People::default();
    assert_eq!(people.refresh(&ports), Ok(1));
    assert_eq!(names(&people), ["Ann"]);
    assert_eq!(*ports.quarantined.borrow(), [huge.to_line()]);
    assert_eq!(
        ports.file(Collection::People).lines().count(),
        1,
        "rewritten without it"
    );
    // A record just under the bound is read as usual.
    let big = person("b", &"y".repeat(MAX_LINE_BYTES - 200));
    ports.write_raw(Collection::People, &format!("{}\n", big.to_line()));
    assert_eq!(people.refresh(&ports), Ok(0));
    assert_eq!(people.len(), 2);
}

#[test]
fn a_record_over_the_bound_is_refused_before_it_is_written() {
    let ports = FakePorts::new();
    let mut people = People::default();
    people.refresh(&ports).unwrap();
    people.append(&ports, vec![person("a", "Ann")]).unwrap();
    let before = ports.file(Collection::People);
    let huge = person("h", &"x".repeat(MAX_LINE_BYTES));
    let refused = people.append(&ports, vec![person("b", "Bea"), huge.clone()]);
    assert!(
        matches!(&refused, Err(crate::ports::FileError::Oversized(why)) if why.contains("the record h would take")),
        "{refused:?}"
    );
    assert_eq!(ports.file(Collection::People), before, "nothing of the batch written");
    assert_eq!(names(&people), ["Ann"]);
    assert!(people.rewrite_with(&ports, vec![huge], &[]).is_err());
    assert_eq!(ports.file(Collection::People), before);
}

#[test]
fn ids_named_reads_records_and_removals_once_each() {
    let data = format!(
        "{}\n{{\"id\":\"a\",\"version\":1,\"removed_at\":\"2026-01-01T00:00:00+00:00\"}}\n{}\nnot json\n",
        person("a", "Ann").to_line(),
        person("b", "Bea").to_line()
    );
    assert_eq!(ids_named::<PersonRecord>(&data), ["a", "b"]);
    // Only exactly the removal shape counts: an extra field or a newer version is not one.
    assert_eq!(
        removal(r#"{"id":"a","version":1,"removed_at":"2026-01-01T00:00:00+00:00","x":1}"#),
        None
    );
    assert_eq!(
        removal(r#"{"id":"a","version":2,"removed_at":"2026-01-01T00:00:00+00:00"}"#),
        None
    );
    assert_eq!(
        removal(r#"{"id":"a","version":1,"removed_at":"2026-01-01T00:00:00+00:00"}"#).as_deref(),
        Some("a")
    );
    // A stamp that is not a time: not a removal, so the line is quarantined.
    assert_eq!(removal(r#"{"id":"a","version":1,"removed_at":"never"}"#), None);
}

#[test]
fn an_append_after_another_writers_lines_reads_only_what_it_missed() {
    let ports = FakePorts::new();
    let mut people = People::default();
    people.refresh(&ports).unwrap();
    people.append(&ports, vec![person("a", "Ann")]).unwrap();
    // Another host's write of another scope lands between this instance's read and its
    // append.
    let bea = person("b", "Bea").to_line();
    ports.write_raw(Collection::People, &format!("{bea}\n"));
    let reads_before = ports.reads.borrow().len();
    let cy = person("c", "Cy");
    let state = people.append(&ports, vec![cy.clone()]).unwrap();
    assert_eq!(names(&people), ["Ann", "Bea", "Cy"], "in the file's order");
    assert!(people.in_step());
    assert_eq!(people.state(), state);
    let whole = ports.file(Collection::People).len();
    assert_eq!(
        ports.reads.borrow()[reads_before..],
        [(Collection::People, bea.len() + 1 + cy.to_line().len() + 1)],
        "one read from where the cache stood, not of the file's {whole} bytes"
    );
    assert_eq!(people.stale_lines(), 0, "its own line is not folded twice");
    people.refresh(&ports).unwrap();
    assert_eq!(ports.reads.borrow().last(), Some(&(Collection::People, 0)));

    // A line it cannot fold leaves the cache to read everything again, which sets the
    // line aside as any refresh does.
    ports.write_raw(Collection::People, "not a record\n");
    people.append(&ports, vec![person("d", "Dee")]).unwrap();
    assert!(!people.in_step());
    assert_eq!(people.refresh(&ports), Ok(1));
    assert_eq!(names(&people), ["Ann", "Bea", "Cy", "Dee"]);
}

#[test]
fn an_append_of_a_record_another_writer_changed_meanwhile_fails() {
    let ports = FakePorts::new();
    let mut people = People::default();
    people.refresh(&ports).unwrap();
    people.append(&ports, vec![person("a", "Ann")]).unwrap();
    // Another host writes a new version of Ann between this instance's read and its own
    // new version of her: this one was decided on the old Ann.
    ports.write_raw(Collection::People, &format!("{}\n", person("a", "Ann Lee").to_line()));
    let failed = people.append(&ports, vec![person("a", "Ann B."), person("c", "Cy")]);
    assert!(
        matches!(&failed, Err(crate::ports::FileError::Failed(why)) if why.contains("another writer changed a")),
        "{failed:?}"
    );
    assert!(!people.in_step(), "the cache reads the file again");
    // (A host undoes the call's lines; these fakes keep them.)
    people.refresh(&ports).unwrap();
    let whole = ports.file(Collection::People).len();
    assert_eq!(ports.reads.borrow().last(), Some(&(Collection::People, whole)));
}
