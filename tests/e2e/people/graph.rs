//! People and the person graph: references that converge on one person, memories about
//! several, one hop of the graph, merges, and people kept private between users.

use super::{people, subjects_of};
use crate::support::ctx::{Ctx, contents};

#[test]
fn my_wife_sarah_is_one_person_and_her_likes_come_back_attributed() {
    let ctx = Ctx::new();
    ctx.add("u", "My wife's name is Sarah");
    let m = ctx.json(&["--user", "u", "add", "She likes Italian food", "--subject", "my wife"]);
    let everyone = people(&ctx, "u");
    assert_eq!(everyone.len(), 1, "{everyone:?}");
    assert_eq!(
        (everyone[0]["name"].as_str(), everyone[0]["relation"].as_str()),
        (Some("Sarah"), Some("wife"))
    );
    assert_eq!(m["subject_person_ids"], serde_json::json!([everyone[0]["id"]]));

    let about = ctx.json(&["--user", "u", "search", "food", "--about", "Sarah"]);
    let italian = about["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["content"] == "She likes Italian food")
        .unwrap();
    assert_eq!(subjects_of(italian), ["Sarah"]);

    let context = ctx.json(&["--user", "u", "context", "What does my wife like?"]);
    let md = context["markdown"].as_str().unwrap();
    assert!(
        md.contains("## Known People") && md.contains("- **Sarah** (wife)"),
        "{md}"
    );
    assert!(md.contains("## Relevant Context from Memory"), "{md}");
    assert!(md.contains("- [Memory (about Sarah)] She likes Italian food"), "{md}");
    let human = ctx.ok(&["--user", "u", "context", "What does my wife like?"]);
    assert_eq!(human.trim_end(), md.trim_end());
    // Further mentions find her rather than creating anyone.
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah's birthday is in May",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&["--user", "u", "add", "She runs marathons", "--subject", "sarah"]);
    assert_eq!(people(&ctx, "u").len(), 1);
}

#[test]
fn names_aliases_and_relations_converge_on_one_person() {
    let ctx = Ctx::new();
    let michael = ctx.json(&[
        "--user",
        "u",
        "people",
        "add",
        "Michael",
        "--relation",
        "boss",
        "--alias",
        "Mike",
    ]);
    let id = michael["id"].as_str().unwrap();
    ctx.ok(&["--user", "u", "people", "alias", "my boss", "The Chief"]);
    for reference in ["Michael", "mike", "my boss", "The Chief", id] {
        let m = ctx.json(&[
            "--user",
            "u",
            "add",
            &format!("Fact via {reference}"),
            "--subject",
            reference,
        ]);
        assert_eq!(m["subject_person_ids"], serde_json::json!([id]), "{reference}");
        assert_eq!(ctx.json(&["--user", "u", "people", "show", reference])["id"], id);
    }
    assert_eq!(people(&ctx, "u").len(), 1);
    // An alias cannot mean two people.
    ctx.json(&["--user", "u", "people", "add", "Sarah"]);
    let err = ctx.fails(&["--user", "u", "people", "alias", "Sarah", "Mike"]);
    assert!(err.contains("already means Michael"), "{err}");
}

#[test]
fn a_memory_about_two_people_names_both() {
    let ctx = Ctx::new();
    let m = ctx.json(&[
        "--user",
        "u",
        "add",
        "Sarah and John are getting married",
        "--subject",
        "Sarah",
        "--subject",
        "John",
    ]);
    assert_eq!(m["subject_person_ids"].as_array().unwrap().len(), 2);
    let found = ctx.json(&["--user", "u", "search", "wedding plans married"]);
    let mut names = subjects_of(&found["hits"][0]);
    names.sort();
    assert_eq!(names, ["John", "Sarah"]);
    let md = ctx.json(&["--user", "u", "context", "Who is getting married?"])["markdown"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        md.contains("(about Sarah and John)") || md.contains("(about John and Sarah)"),
        "{md}"
    );
    // Either person finds it.
    for who in ["Sarah", "John"] {
        let about = ctx.json(&["--user", "u", "search", "married", "--about", who]);
        assert_eq!(contents(&about["hits"]), ["Sarah and John are getting married"]);
    }
}

#[test]
fn the_graph_follows_one_hop_and_an_unknown_person_gives_a_notice() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah loves gardening",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Tom plays the cello",
        "--subject",
        "Sarah's brother Tom",
    ]);
    ctx.ok(&["--user", "u", "add", "The car needs new tires"]);
    let tom = ctx.json(&["--user", "u", "people", "show", "Tom"]);
    assert!(
        tom["aliases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "Sarah's brother")
    );
    let sarah = ctx.json(&["--user", "u", "people", "show", "Sarah"]);
    assert_eq!(sarah["relationships"][0]["person_id"], tom["id"]);
    assert_eq!(sarah["relationships"][0]["relation"], "brother");

    let about = contents(&ctx.json(&["--user", "u", "search", "hobbies", "--about", "my wife"])["hits"]);
    assert!(about.contains(&"Sarah loves gardening".to_owned()) && about.contains(&"Tom plays the cello".to_owned()));
    assert!(
        !about.contains(&"The car needs new tires".to_owned()),
        "filtered to the neighbourhood: {about:?}"
    );

    let unknown = ctx.json(&["--user", "u", "search", "tires", "--about", "Zelda"]);
    assert!(unknown["notices"][0].as_str().unwrap().contains("Zelda"));
    assert_eq!(contents(&unknown["hits"])[0], "The car needs new tires", "unfiltered");
    // Naming a person in the query brings their memories in without filtering.
    let named = contents(&ctx.json(&["--user", "u", "search", "What does Tom do?"])["hits"]);
    assert_eq!(named[0], "Tom plays the cello");
}

#[test]
fn people_merge_relinks_memories() {
    if crate::support::ctx::files_only("reads memories.jsonl itself") {
        return;
    }
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sally takes her coffee black",
        "--subject",
        "Sally",
    ]);
    ctx.ok(&["--user", "u", "add", "Sarah is a nurse", "--subject", "Sarah"]);
    assert_eq!(people(&ctx, "u").len(), 2);
    let merged = ctx.json(&["--user", "u", "people", "merge", "Sarah", "Sally"]);
    assert!(merged["aliases"].as_array().unwrap().iter().any(|a| a == "Sally"));
    assert_eq!(people(&ctx, "u").len(), 1);
    let about = ctx.json(&["--user", "u", "search", "coffee", "--about", "Sally"]);
    assert_eq!(subjects_of(&about["hits"][0]), ["Sarah"]);
    let lines = std::fs::read_to_string(ctx.home().join("people.jsonl")).unwrap();
    assert!(
        lines.contains("\"merged_into\""),
        "the merged entry is kept, marked: {lines}"
    );
}

#[test]
fn a_merge_through_a_merged_person_is_refused_and_names_whom_they_became() {
    let ctx = Ctx::new();
    let add = |name: &str| {
        ctx.json(&["--user", "u", "people", "add", name])["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (sarah, sks, charlie) = (add("Sarah"), add("Sksembhi"), add("Charlie"));
    ctx.ok(&["--user", "u", "people", "merge", "SARAH", "SKSEMBHI"]);
    // The merged id still shows the person kept.
    assert_eq!(ctx.json(&["--user", "u", "people", "show", &sks])["id"], sarah);
    let before = ctx.snapshot();
    for through in [sks.as_str(), "SKSEMBHI"] {
        let err = ctx.fails(&["--user", "u", "people", "merge", "CHARLIE", through]);
        assert!(
            err.contains("Sksembhi") && err.contains("merged into Sarah") && err.contains(&sarah),
            "{err}"
        );
        let err = ctx.fails(&["--user", "u", "people", "merge", through, &charlie]);
        assert!(err.contains("merged into Sarah"), "{err}");
    }
    assert_eq!(ctx.snapshot(), before, "the refused merges changed nothing");
    let names: Vec<String> = people(&ctx, "u")
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 2, "Sarah and Charlie stay two people: {names:?}");
    // Merging by the names people have now still works.
    let merged = ctx.json(&["--user", "u", "people", "merge", "Charlie", "Sarah"]);
    assert_eq!(merged["id"], charlie);
}

#[test]
fn people_stay_private_between_users() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Sarah likes Italian food",
        "--subject",
        "my wife Sarah",
    ]);
    let sarah = ctx.json(&["--user", "alice", "people", "show", "Sarah"])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = ctx.snapshot();

    assert!(people(&ctx, "bob").is_empty());
    ctx.fails(&["--user", "bob", "people", "show", "Sarah"]);
    ctx.fails(&["--user", "bob", "people", "show", &sarah]);
    ctx.fails(&["--user", "bob", "people", "alias", "Sarah", "Sis"]);
    ctx.fails(&["--user", "bob", "people", "alias", &sarah, "Sis"]);
    ctx.fails(&["--user", "bob", "people", "merge", &sarah, "Sarah"]);
    let err = ctx.fails(&["--user", "bob", "add", "She is lovely", "--subject", &sarah]);
    // Another user's person id reads like an id that does not exist: nothing confirms it.
    assert!(err.contains("is known to you") && !err.contains("not allowed"), "{err}");
    assert_eq!(ctx.snapshot(), before, "bob's attempts changed nothing");

    let bob_search = ctx.json(&["--user", "bob", "search", "Italian food", "--about", "Sarah"]);
    assert!(bob_search["hits"].as_array().unwrap().is_empty());
    let md = ctx.json(&["--user", "bob", "context", "What does Sarah like?"])["markdown"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!md.contains("Sarah") && !md.contains("Italian"), "{md}");
    // Bob's own Sarah is another person.
    ctx.ok(&["--user", "bob", "people", "add", "Sarah", "--relation", "sister"]);
    assert_eq!(
        ctx.json(&["--user", "alice", "people", "show", "Sarah"])["relation"],
        "wife"
    );
}

/// What a probe found: "My son is called Sam" after "My brother is called Sam" was taken
/// for the brother told again, and never stored; "our dog is called Priya" replaced "My
/// wife is called Priya". A name is many people's: two kinds of kin are two people.
#[test]
fn two_people_of_one_name_and_two_relations_stay_two() {
    let ctx = Ctx::new();
    for (user, first, second) in [
        ("a", "My brother is called Sam", "My son is called Sam"),
        ("b", "My wife is called Priya", "our dog is called Priya, long story"),
        (
            "c",
            "My wife is called Priya",
            "My boss is called Priya too, funnily enough",
        ),
    ] {
        ctx.json(&["--user", user, "add", first]);
        let added = ctx.json(&["--user", user, "add", second]);
        assert_eq!(added["restated"], false, "{added}");
        assert!(added["superseded"].as_array().unwrap().is_empty(), "{added}");
        let mut listed = contents(&ctx.json(&["--user", user, "list"]));
        listed.sort();
        let mut want = vec![first.to_owned(), second.to_owned()];
        want.sort();
        assert_eq!(listed, want);
        let relations: Vec<String> = people(&ctx, user)
            .iter()
            .map(|p| p["relation"].as_str().unwrap_or("").to_owned())
            .collect();
        assert_eq!(relations.len(), 2, "{relations:?}");
    }
    // One relation told in other words, or a partner's that changed, is one person.
    ctx.json(&["--user", "d", "add", "My girlfriend is called Anna"]);
    ctx.json(&["--user", "d", "add", "My wife Anna loves tulips"]);
    ctx.json(&["--user", "d", "add", "My mum is called Rose"]);
    ctx.json(&["--user", "d", "add", "My mother Rose lives in Cork"]);
    assert_eq!(people(&ctx, "d").len(), 2, "{:?}", people(&ctx, "d"));
}

/// What a probe found: "My wife is called Anna" after "My wife is called Priya" left two
/// wives. A relation one person holds at a time gets a new holder: the old fact is
/// replaced, and what was said of the old holder stays. A brother is not such a relation.
#[test]
fn a_new_holder_of_a_one_holder_relation_replaces_the_old() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "add", "My wife is called Priya"]);
    ctx.json(&["--user", "u", "add", "Priya loves tulips"]);
    let anna = ctx.json(&["--user", "u", "add", "My wife is called Anna"]);
    assert_eq!(contents(&anna["superseded"]), ["My wife is called Priya"], "{anna}");
    let mut listed = contents(&ctx.json(&["--user", "u", "list"]));
    listed.sort();
    assert_eq!(listed, ["My wife is called Anna", "Priya loves tulips"]);
    // Two brothers are two brothers.
    ctx.json(&["--user", "b", "add", "My brother is called Sam"]);
    let tom = ctx.json(&["--user", "b", "add", "My brother is called Tom"]);
    assert!(contents(&tom["superseded"]).is_empty(), "{tom}");
    // Another user's wife is theirs.
    let other = ctx.json(&["--user", "c", "add", "My wife is called Jo"]);
    assert!(contents(&other["superseded"]).is_empty(), "{other}");
    assert_eq!(contents(&ctx.json(&["--user", "u", "list"])).len(), 2);
}

/// What a probe found: "Karen left, my new boss is Dev" left "My manager is Karen" live.
/// A holder told plainly ("my <relation> is <Name>") is replaced by one told as a change,
/// found by the relation in other words; "My mum is English" names no holder to replace.
#[test]
fn a_new_boss_told_in_passing_replaces_the_old_one() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "add", "My manager is Karen"]);
    ctx.json(&["--user", "u", "add", "My mum is English"]);
    let dev = ctx.json(&["--user", "u", "add", "Karen left, my new boss is Dev"]);
    assert_eq!(contents(&dev["superseded"]), ["My manager is Karen"], "{dev}");
    let sarah = ctx.json(&["--user", "u", "add", "My mum is Sarah"]);
    assert!(contents(&sarah["superseded"]).is_empty(), "{sarah}");
    let mut listed = contents(&ctx.json(&["--user", "u", "list"]));
    listed.sort();
    assert_eq!(
        listed,
        ["Karen left, my new boss is Dev", "My mum is English", "My mum is Sarah"]
    );
    // Another user's boss is theirs.
    ctx.json(&["--user", "v", "add", "My boss is Karen"]);
    let other = ctx.json(&["--user", "u", "add", "my boss is now Priya"]);
    assert_eq!(
        contents(&other["superseded"]),
        ["Karen left, my new boss is Dev"],
        "{other}"
    );
    assert_eq!(contents(&ctx.json(&["--user", "v", "list"])), ["My boss is Karen"]);
}

/// What a third blind probe found: a new coach, landlord or boss told with "now" or as "a
/// guy called ..." left the old one live. Someone else's coach replaces nothing.
#[test]
fn a_new_coach_or_landlord_told_with_now_replaces_the_old_one() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "add", "my swim coach is Lauren"]);
    let other = ctx.json(&["--user", "u", "add", "my sister's coach is Mike now"]);
    assert!(contents(&other["superseded"]).is_empty(), "{other}");
    let mike = ctx.json(&[
        "--user",
        "u",
        "add",
        "lauren moved to perth so my coach is Mike from the aquatic centre now",
    ]);
    assert_eq!(contents(&mike["superseded"]), ["my swim coach is Lauren"], "{mike}");
    ctx.json(&["--user", "u", "add", "my manager is Karen Doyle"]);
    let dev = ctx.json(&[
        "--user",
        "u",
        "add",
        "Karen left the company, my new boss is a guy called Dev",
    ]);
    assert_eq!(contents(&dev["superseded"]), ["my manager is Karen Doyle"], "{dev}");
}
