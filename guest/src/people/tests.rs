use super::*;

fn person(name: &str, relation: Option<&str>, aliases: &[&str]) -> PersonRecord {
    PersonRecord {
        id: format!("p-{name}"),
        version: 1,
        owner_user_id: "u".into(),
        name: name.into(),
        relation: relation.map(str::to_owned),
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
        created_at: "2026-01-01T00:00:00+00:00".into(),
        updated_at: None,
        metadata: None,
        relationships: Vec::new(),
        merged_into: None,
        purge_requested_at: None,
        extra: Default::default(),
    }
}

#[test]
fn references_parse_into_name_relation_and_edge() {
    let r = parse_reference("my wife");
    assert_eq!((r.name, r.relation), (None, Some("wife".into())));
    let r = parse_reference("my wife Sarah");
    assert_eq!(
        (r.name.as_deref(), r.relation.as_deref()),
        (Some("Sarah"), Some("wife"))
    );
    let r = parse_reference("my best friend Anna Lee");
    assert_eq!(
        (r.name.as_deref(), r.relation.as_deref()),
        (Some("Anna Lee"), Some("best friend"))
    );
    let r = parse_reference("Sarah's brother Tom");
    assert_eq!(
        (r.name.as_deref(), r.via),
        (Some("Tom"), Some(("Sarah".into(), "brother".into())))
    );
    assert_eq!(parse_reference("Mike").name.as_deref(), Some("Mike"));
}

#[test]
fn finding_by_relation_name_and_alias() {
    let sarah = person("Sarah", Some("wife"), &["my wife"]);
    let mike = person("Michael", Some("boss"), &["Mike"]);
    let people = [&sarah, &mike];
    for r in ["my wife", "Sarah", "sarah", "my wife Sarah", "SARAH"] {
        assert_eq!(
            find(&people, &parse_reference(r)).map(|p| p.id.as_str()),
            Some("p-Sarah"),
            "{r}"
        );
    }
    assert_eq!(
        find(&people, &parse_reference("mike")).map(|p| p.id.as_str()),
        Some("p-Michael")
    );
    assert!(
        find(&people, &parse_reference("my wife Anna")).is_none(),
        "a named wife is not another name"
    );
    assert!(find(&people, &parse_reference("Tom")).is_none());
}

#[test]
fn introductions_in_content() {
    assert_eq!(
        introduced("My wife's name is Sarah"),
        Some(("Sarah".into(), "wife".into()))
    );
    assert_eq!(
        introduced("My boss is called Mike."),
        Some(("Mike".into(), "boss".into()))
    );
    assert_eq!(introduced("Sarah is my wife"), Some(("Sarah".into(), "wife".into())));
    assert_eq!(introduced("My wife likes Italian food"), None);
    assert_eq!(introduced("The sky is my limit"), None);
}

#[test]
fn names_in_content_link_only_whole_capitalized_words() {
    let sarah = person("Sarah", Some("wife"), &[]);
    let placeholder = person("my boss", Some("boss"), &[]);
    let people = [&sarah, &placeholder];
    assert_eq!(named_in("Sarah likes Italian food", &people).len(), 1);
    assert_eq!(named_in("Dinner at Sarah's place", &people).len(), 1);
    assert!(named_in("Sarahville is a town", &people).is_empty());
    assert!(named_in("my boss likes golf", &people).is_empty());
}

#[test]
fn bare_and_capitalized_relations_parse_as_relations() {
    for r in ["my wife", "My Wife", "the wife", "The wife", "MY WIFE"] {
        let parsed = parse_reference(r);
        assert_eq!(
            (parsed.relation.as_deref(), parsed.name.as_deref()),
            (Some("wife"), None),
            "{r}"
        );
    }
    let r = parse_reference("My Wife Sarah");
    assert_eq!(
        (r.relation.as_deref(), r.name.as_deref()),
        (Some("wife"), Some("Sarah"))
    );
    let r = parse_reference("wife");
    assert_eq!(
        (r.name.as_deref(), r.bare_relation.as_deref()),
        (Some("wife"), Some("wife"))
    );
    let r = parse_reference("The Beatles");
    assert_eq!(r.name.as_deref(), Some("The Beatles"));
    assert!(r.relation.is_none());
}

#[test]
fn a_bare_relation_finds_the_person_but_a_name_wins() {
    let sarah = person("Sarah", Some("wife"), &["my wife"]);
    let coach = person("Coach", None, &[]);
    let dan = person("Dan", Some("coach"), &[]);
    let people = [&sarah, &coach, &dan];
    for r in ["wife", "Wife", "my wife", "the wife", "My Wife", "the Wife"] {
        assert_eq!(
            find(&people, &parse_reference(r)).map(|p| p.id.as_str()),
            Some("p-Sarah"),
            "{r}"
        );
    }
    // "Coach" is a name here, and a name wins over Dan's relation.
    assert_eq!(
        find(&people, &parse_reference("coach")).map(|p| p.id.as_str()),
        Some("p-Coach")
    );
    assert_eq!(
        find(&people, &parse_reference("my coach")).map(|p| p.id.as_str()),
        Some("p-Dan")
    );
    assert!(find(&people, &parse_reference("Mike")).is_none());
    assert!(find(&people, &parse_reference("husband")).is_none());
    // What a bare word means, for creating: "wife" is a relation, "Mike" a name.
    assert_eq!(
        parse_reference("husband").relation_meant(&people).as_deref(),
        Some("husband")
    );
    assert_eq!(parse_reference("Mike").relation_meant(&people), None);
    assert_eq!(parse_reference("coach").relation_meant(&people), None);
}

#[test]
fn handles_find_by_name_or_alias() {
    let bob = person("Bob", None, &[]);
    let carol = person("Carol Diaz", None, &["@cdiaz"]);
    let people = [&bob, &carol];
    let r = parse_reference("@bob");
    assert_eq!((r.handle.as_deref(), r.name.as_deref()), (Some("@bob"), Some("bob")));
    assert_eq!(find(&people, &r).map(|p| p.id.as_str()), Some("p-Bob"));
    assert_eq!(
        find(&people, &parse_reference("@CDiaz")).map(|p| p.id.as_str()),
        Some("p-Carol Diaz")
    );
    assert!(find(&people, &parse_reference("@dave")).is_none());
    assert!(parse_reference("@ bob").handle.is_none());
}

#[test]
fn possessive_chains_split_at_the_last_possessive() {
    let r = parse_reference("Sarah's brother");
    assert_eq!((r.via, r.name), (Some(("Sarah".into(), "brother".into())), None));
    let r = parse_reference("Sarah's brother's wife");
    assert_eq!(r.via, Some(("Sarah's brother".into(), "wife".into())));
    let r = parse_reference("Sarah’s brother’s wife Anna");
    assert_eq!(
        (r.via, r.name.as_deref()),
        (Some(("Sarah's brother".into(), "wife".into())), Some("Anna"))
    );
    let r = parse_reference("my wife's brother");
    assert_eq!(r.via, Some(("my wife".into(), "brother".into())));
    assert_eq!(parse_reference("Sarah's").name.as_deref(), Some("Sarah"));
    assert_eq!(nesting("Sarah"), 0);
    assert_eq!(nesting("Sarah's"), 0);
    assert_eq!(nesting("Sarah's brother's wife"), 2);
    let deep: Vec<String> = (0..200).map(|i| format!("P{i}'s")).collect();
    assert_eq!(nesting(&format!("{} friend", deep.join(" "))), 200);
}

#[test]
fn relations_of_others_are_found_along_edges() {
    let mut sarah = person("Sarah", Some("wife"), &[]);
    let tom = person("Tom", None, &[]);
    let mut anna = person("Anna", None, &[]);
    sarah.relationships.push(Relationship {
        person_id: "p-Tom".into(),
        relation: "brother".into(),
    });
    anna.relationships.push(Relationship {
        person_id: "p-Sarah".into(),
        relation: "friend".into(),
    });
    let mut tom = tom;
    tom.relationships.push(Relationship {
        person_id: "p-Anna".into(),
        relation: "wife".into(),
    });
    let people = [&sarah, &tom, &anna];
    let found = |r: &str| find(&people, &parse_reference(r)).map(|p| p.id.clone());
    assert_eq!(found("Sarah's brother").as_deref(), Some("p-Tom"));
    assert_eq!(found("my wife's brother").as_deref(), Some("p-Tom"));
    assert_eq!(found("Sarah's brother's wife").as_deref(), Some("p-Anna"));
    assert_eq!(found("Sarah's brother's wife's friend").as_deref(), Some("p-Sarah"));
    assert_eq!(found("Sarah's sister"), None);
    assert_eq!(found("Nobody's brother"), None);
    let deep: Vec<String> = (0..200)
        .map(|_| "Sarah's brother's wife's friend's".to_owned())
        .collect();
    assert_eq!(found(&format!("{} brother", deep.join(" "))), None);
}

#[test]
fn placeholders_are_relations_waiting_for_a_name() {
    assert!(person("my wife", Some("wife"), &[]).has_placeholder_name());
    assert!(person("Sarah's brother", None, &[]).has_placeholder_name());
    assert!(person("Sarah's brother's wife", None, &[]).has_placeholder_name());
    assert!(!person("Sarah", None, &[]).has_placeholder_name());
    assert!(!person("Mary O'Neil's Bakery", None, &[]).has_placeholder_name());
}

#[test]
fn the_content_names_a_relation() {
    let cases = [
        ("My wife Sarah loves hiking", "wife", Some("Sarah")),
        ("my wife, Sarah, loves hiking", "wife", Some("Sarah")),
        ("Yesterday my wife Sarah Connor called", "wife", Some("Sarah Connor")),
        (
            "My best friend Anna Lee moved to Porto",
            "best friend",
            Some("Anna Lee"),
        ),
        ("My wife Sarah's birthday is in May", "wife", Some("Sarah")),
        ("My wife loves hiking", "wife", None),
        ("My wife's sister Anna is here", "wife", None),
        ("My wife I adore", "wife", None),
        ("My boss Mike is strict", "wife", None),
        ("My Wife Sarah is kind", "wife", Some("Sarah")),
        ("", "wife", None),
        ("my wife", "", None),
    ];
    for (content, relation, name) in cases {
        assert_eq!(name_in_content(content, relation).as_deref(), name, "{content:?}");
    }
}
