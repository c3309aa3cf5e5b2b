//! Extraction by rules, without a language model: typed, attributed facts, stored once.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{NOW, turn};
use crate::support::ctx::Ctx;

#[test]
fn offline_extraction_stores_typed_attributed_facts_once() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let t = turn(&ctx, "u", "s1", &["btw I'm allergic to peanuts, so no satay", "Noted."]);
    turn(&ctx, "u", "s1", &["My wife's name is Sarah."]);
    turn(
        &ctx,
        "u",
        "s1",
        &["what should I cook if I'm allergic to nuts?", "Pasta."],
    );
    turn(&ctx, "u", "s1", &["I live in Porto"]);
    turn(&ctx, "u", "s2", &["my password is hunter2, remember that"]);

    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["turns"], 5);
    assert_eq!(
        (report["offline"].as_bool(), report["llm_calls"].as_u64()),
        (Some(true), Some(0))
    );
    let want = [
        ("I live in Porto", "identity"),
        ("I'm allergic to peanuts", "identity"),
        ("My wife's name is Sarah", "relationship"),
    ]
    .map(|(c, t)| (c.to_owned(), t.to_owned()));
    assert_eq!(stored(&report), want, "{report:#}");
    // Provenance, in the file.
    let allergy = ctx
        .memory_lines()
        .into_iter()
        .find(|m| m["content"] == "I'm allergic to peanuts")
        .unwrap();
    assert_eq!(allergy["source"], "extraction");
    assert_eq!(allergy["source_session_id"], t["session_id"]);
    assert_eq!(allergy["source_message_id"], t["message_ids"][0]);
    assert_eq!(allergy["extraction_confidence"], 0.9);
    assert_eq!(allergy["observed_at"], "2026-11-22T18:00:00+00:00");
    // The wife is a person now.
    let people = ctx.json(&["--user", "u", "people", "list"]);
    assert_eq!(people[0]["name"], "Sarah");
    assert_eq!(people[0]["relation"], "wife");

    // Each exchange is read once; a fact said again is not stored twice; a changed one
    // replaces the old.
    assert_eq!(ctx.json(&["--user", "u", "extract"])["turns"], 0);
    turn(&ctx, "u", "s3", &["I'm allergic to peanuts."]);
    turn(&ctx, "u", "s3", &["Actually I live in Lisbon now"]);
    let again = ctx.json(&["--user", "u", "extract", "--session", "s3"]);
    assert_eq!(again["stored"].as_array().unwrap().len(), 1, "{again:#}");
    assert!(
        again["skipped"][0].as_str().unwrap().contains("already remembered"),
        "{again:#}"
    );
    let live = ctx.json(&["--user", "u", "list"]);
    let live: Vec<&str> = live
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(
        live.contains(&"Actually I live in Lisbon now") || live.contains(&"I live in Lisbon now"),
        "{live:?}"
    );
    assert!(!live.contains(&"I live in Porto"), "Lisbon replaced Porto: {live:?}");
    assert_eq!(live.iter().filter(|c| c.contains("peanuts")).count(), 1);
    // Another user's extract reads none of this.
    assert_eq!(ctx.json(&["--user", "v", "extract"])["turns"], 0);
    ctx.fails(&["--user", "v", "extract", "--session", "s1"]);

    // The profile, and the context shows it.
    let profile = ctx.json(&["--user", "u", "profile"]);
    let notes: Vec<&str> = profile["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        notes.last(),
        Some(&"My wife's name is Sarah"),
        "identity first: {notes:?}"
    );
    assert!(notes.contains(&"I'm allergic to peanuts"), "{notes:?}");
    let block = ctx.json(&["--user", "u", "context", "What should I cook tonight?"]);
    let md = block["markdown"].as_str().unwrap();
    assert!(md.starts_with("## About the user\n\n"), "{md}");
    assert!(md.contains("- I'm allergic to peanuts"), "{md}");

    // In a chat, each fact goes to who said it, and the profile stays private.
    turn(&ctx, "bob", "standup", &["I'm allergic to shellfish"]);
    ctx.json(&[
        "--user",
        "u",
        "--chat",
        "g",
        "turn",
        "--session",
        "standup",
        "I love jazz",
    ]);
    let mut args = vec![
        "--user",
        "bob",
        "--chat",
        "g",
        "turn",
        "--session",
        "standup",
        "I'm vegan",
    ];
    ctx.json(&args);
    args.truncate(4);
    args.push("extract");
    let group = ctx.json(&args);
    assert_eq!(group["turns"], 2, "{group:#}");
    // Bob's call shows Bob's memory only: u's is u's to see.
    let shown: Vec<&str> = group["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(shown, ["I'm vegan"], "{group:#}");
    assert!(group["skipped"].to_string().contains("theirs to see"), "{group:#}");
    let owners: Vec<(String, Value)> = ctx
        .memory_lines()
        .into_iter()
        .filter(|m| m["content"] == "I love jazz" || m["content"] == "I'm vegan")
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                json!([m["owner_user_id"], m["chat_id"]]),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("I love jazz".to_owned(), json!(["u", null])),
            ("I'm vegan".to_owned(), json!(["bob", null]))
        ]
    );
    let in_chat = ctx.json(&["--user", "u", "--chat", "g", "context", "What should I cook tonight?"]);
    assert!(in_chat["profile"].as_array().unwrap().is_empty(), "{in_chat:#}");
    assert!(!in_chat["markdown"].as_str().unwrap().contains("About the user"));

    // Turned off, nothing is read.
    ctx.config("[memory]\nextraction_enabled = false\n");
    turn(&ctx, "u", "s4", &["I love jazz"]);
    assert_eq!(ctx.json(&["--user", "u", "extract"])["turns"], 0);
}

/// Extraction in a chat, called by one member, stores what another said as theirs, and
/// shows the caller nothing of it: not even the memory of theirs that already said it,
/// which the chat never heard.
#[test]
fn extraction_in_a_chat_shows_nobody_anothers_memory() {
    let ctx = Ctx::new();
    ctx.json(&[
        "--user",
        "ann",
        "add",
        "I prefer green tea over coffee, my doctor said so",
    ]);
    let said = |user: &str, text: &str| {
        ctx.json(&["--user", user, "--chat", "team", "turn", "--session", "t1", text, "ok"]);
    };
    said("ann", "I prefer green tea over coffee.");
    said("ann", "I live in Porto");
    let report = ctx.json(&["--user", "bob", "--chat", "team", "extract"]);
    let text = report.to_string();
    assert!(!text.contains("doctor") && !text.contains("Porto"), "{report:#}");
    assert_eq!(report["stored"], json!([]), "{report:#}");
    // What ann said is hers, and she sees it.
    let hers = ctx.json(&["--user", "ann", "list"]).to_string();
    assert!(
        hers.contains("I live in Porto") && hers.contains("my doctor said so"),
        "{hers}"
    );
    assert!(!ctx.json(&["--user", "bob", "list"]).to_string().contains("Porto"));
}

/// A fact that names a moment lives until it, as the same words told to `add` do: an
/// appointment remembered from a conversation passes after its day (it was kept as
/// knowledge, for ever), beside a lasting fact of the same message.
#[test]
fn a_remembered_appointment_passes_after_its_day() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(
        &ctx,
        "u",
        "s1",
        &["Remember that my dentist appointment is tomorrow at 3pm. I live in Porto."],
    );
    let report = ctx.json(&["--user", "u", "extract"]);
    let stored: BTreeMap<String, (String, Value)> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let content = m["content"].as_str().unwrap().to_owned();
            (
                content,
                (m["memory_type"].as_str().unwrap().to_owned(), m["expires_at"].clone()),
            )
        })
        .collect();
    let appointment = stored
        .iter()
        .find(|(content, _)| content.contains("dentist"))
        .map(|(_, lifetime)| lifetime.clone());
    assert_eq!(
        appointment,
        Some(("event".to_owned(), json!("2026-11-24T23:59:59+00:00"))),
        "{report:#}"
    );
    assert_eq!(
        stored.get("I live in Porto"),
        Some(&("identity".to_owned(), Value::Null)),
        "{report:#}"
    );
    let listed = |now: &str| -> Vec<String> {
        let list = ctx.json(&["--now", now, "--user", "u", "list"]);
        let all = list.as_array().unwrap();
        all.iter().map(|m| m["content"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(listed("2026-11-24T12:00:00Z").len(), 2);
    assert_eq!(listed("2026-11-25T00:00:01Z"), ["I live in Porto"]);
}

#[test]
fn offline_extraction_reads_each_clause_the_teller_opens() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["I live in Leeds and I work at the council", "Nice."]);
    turn(
        &ctx,
        "u",
        "s1",
        &["My name is Omar; I'm a nurse, and I'm allergic to latex."],
    );
    // A supposition holds from where it is said; a quotation anywhere in the sentence
    // leaves nothing of it told.
    turn(&ctx, "u", "s1", &["I'm vegan and I might move to Oslo"]);
    turn(
        &ctx,
        "u",
        "s1",
        &["Translate 'my name is Carlos and I love football' into German"],
    );
    let report = ctx.json(&["--user", "u", "extract"]);
    let stored: Vec<String> = stored(&report).into_iter().map(|(content, _)| content).collect();
    assert_eq!(
        stored,
        [
            "I live in Leeds",
            "I work at the council",
            "I'm a nurse",
            "I'm allergic to latex",
            "I'm vegan",
            "My name is Omar",
        ],
        "{report:#}"
    );
}

#[test]
fn offline_extraction_reads_a_household_and_what_is_told_before_a_question() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(
        &ctx,
        "u",
        "s1",
        &["I've got two cats, Luna and Pepper, and they scratch everything. Help?"],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &["I have type 1 diabetes, what snacks are good for hypos?"],
    );
    turn(&ctx, "u", "s1", &["I don't drink, so what can I order at a pub?"]);
    turn(
        &ctx,
        "u",
        "s1",
        &["we rent a two bed in Croydon and the landlord wants more"],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &["My dad passed away in 2019 and his birthday is coming up."],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &["I've been a nurse for 12 years and I'm thinking about retraining."],
    );
    // A passing thing had, a question from its start, a nod asked for, a joke, a past.
    turn(&ctx, "u", "s1", &["I have a meeting at 3 and a headache"]);
    turn(&ctx, "u", "s1", &["Should I get a dog if I work from home?"]);
    turn(&ctx, "u", "s1", &["I have a dog, right?"]);
    turn(&ctx, "u", "s1", &["I'm a vegan, I'm kidding"]);
    turn(&ctx, "u", "s1", &["I used to have a horse"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    let want = [
        ("I don't drink", "preference"),
        ("I have type 1 diabetes", "identity"),
        ("I've been a nurse for 12 years", "identity"),
        ("I've got two cats, Luna and Pepper", "relationship"),
        ("My dad passed away in 2019", "relationship"),
        ("We rent a two bed in Croydon", "identity"),
    ]
    .map(|(c, t)| (c.to_owned(), t.to_owned()));
    assert_eq!(stored(&report), want, "{report:#}");
}

#[test]
fn offline_extraction_reads_a_lasting_fact_about_someone_named_by_relation() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["my sister is a vet and I'm a nurse", "Nice."]);
    turn(&ctx, "u", "s1", &["My husband is allergic to shellfish."]);
    turn(&ctx, "u", "s1", &["my brother Tom lives in Leeds"]);
    // A mood, an opinion and a moment are no lasting fact about anyone.
    turn(&ctx, "u", "s1", &["my wife is tired", "Oh no."]);
    turn(&ctx, "u", "s1", &["my boss is a legend"]);
    turn(&ctx, "u", "s1", &["my son is at the dentist today"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    let stored = stored(&report);
    let want = [
        ("I'm a nurse", "identity"),
        ("My brother Tom lives in Leeds", "relationship"),
        ("My husband is allergic to shellfish", "relationship"),
        ("My sister is a vet", "relationship"),
    ]
    .map(|(c, t)| (c.to_owned(), t.to_owned()));
    assert_eq!(stored, want, "{report:#}");
    // The people are known, by relation and name.
    let people = ctx.json(&["--user", "u", "people", "list"]);
    assert!(people.to_string().contains("Tom"), "{people}");
}

/// What an `extract` report stored, as (content, type), sorted by content.
fn stored(report: &Value) -> Vec<(String, String)> {
    let mut stored: Vec<(String, String)> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                m["memory_type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    stored.sort();
    stored
}

#[test]
fn offline_extraction_keeps_a_joint_subject_and_refuses_hedges_scenes_and_the_talk() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["My husband and I have three kids."]);
    turn(
        &ctx,
        "u",
        "s1",
        &["I work at Google and I might move to Zurich, not sure yet."],
    );
    // A hedge, a scene set a sentence earlier, a taste of the talk's own text, a courtesy.
    turn(&ctx, "u", "s1", &["I live in Leeds, I think"]);
    turn(
        &ctx,
        "u",
        "s1",
        &["Let's role-play. You're an innkeeper and I'm a knight who lost his horse."],
    );
    turn(&ctx, "u", "s1", &["I don't like the ending of this story I wrote."]);
    turn(&ctx, "u", "s1", &["I hate to ask, but can you check this again?"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    let want = [
        ("I work at Google", "identity"),
        ("My husband and I have three kids", "relationship"),
    ]
    .map(|(c, t)| (c.to_owned(), t.to_owned()));
    assert_eq!(stored(&report), want, "{report:#}");
}

/// A word of time or focus after the subject ("I just moved", "I'm also vegetarian", "my
/// wife also works at") hides nothing the rules read; a sneer and a passing state stay
/// unread with it.
#[test]
fn offline_extraction_reads_past_a_word_of_time_or_focus_after_the_subject() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["I just moved to Glasgow, any tips?"]);
    turn(
        &ctx,
        "u",
        "s1",
        &["I'm also vegetarian and I still work at the council."],
    );
    turn(&ctx, "u", "s1", &["My wife also works at the university"]);
    turn(&ctx, "u", "s1", &["Oh great, I just LOVE being stuck in traffic."]);
    turn(&ctx, "u", "s1", &["I'm currently stuck at the airport"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    let want = [
        ("I moved to Glasgow", "identity"),
        ("I work at the council", "identity"),
        ("I'm vegetarian", "preference"),
        ("My wife works at the university", "relationship"),
    ]
    .map(|(c, t)| (c.to_owned(), t.to_owned()));
    assert_eq!(stored(&report), want, "{report:#}");
}

/// What a probe found unread: a name told with "name's", a course, a job or a diagnosis
/// begun, a type of diabetes, and a step-family's and grandparents' relations.
#[test]
fn offline_extraction_reads_courses_diagnoses_and_more_relations() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["My name's actually Siobhan, not Susan"]);
    turn(&ctx, "u", "s1", &["I'm currently doing a PhD in marine biology"]);
    turn(&ctx, "u", "s1", &["I've recently started working as a paramedic"]);
    turn(&ctx, "u", "s1", &["I got diagnosed with coeliac disease last year"]);
    turn(&ctx, "u", "s1", &["I'm type 1 diabetic, so watch the sugar"]);
    turn(&ctx, "u", "s1", &["My grandad lives in Cork"]);
    turn(&ctx, "u", "s1", &["I'm doing a course of antibiotics, any tips?"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    let got = stored(&report);
    let contents: Vec<&str> = got.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        contents,
        [
            "I got diagnosed with coeliac disease last year",
            "I'm doing a PhD in marine biology",
            "I'm type 1 diabetic",
            "I've started working as a paramedic",
            "My grandad lives in Cork",
            "My name is Siobhan",
        ],
        "{report:#}"
    );
    let grandad = ctx.json(&["--user", "u", "people", "show", "my grandad"]);
    assert_eq!(grandad["relation"], "grandad", "{grandad}");
}

/// A probe (2026-12-01): "I'm Irish, so I know a thing or two about rain" was stored as "My
/// name is Irish" and replaced the user's name. A people or a state told after "I'm" or
/// "my wife is" is no name; the name told before stays.
#[test]
fn a_people_or_a_state_replaces_no_name() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(&ctx, "u", "s1", &["Hi, I'm Megan"]);
    ctx.json(&["--user", "u", "extract"]);
    turn(&ctx, "u", "s2", &["I'm Irish, so I know a thing or two about rain"]);
    turn(&ctx, "u", "s2", &["I'm Bored"]);
    turn(&ctx, "u", "s2", &["my wife is Brazilian"]);
    ctx.json(&["--user", "u", "extract"]);
    let list = ctx.json(&["--user", "u", "list"]);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_str())
        .filter(|c| c.contains("name is"))
        .collect();
    assert_eq!(names, ["My name is Megan"], "{list:#}");
}
