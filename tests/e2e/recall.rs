//! Remembering and recalling: semantic search, typing, expiry.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};
use crate::support::fixtures::CHATTER;

#[test]
fn allergy_is_the_top_hit_for_what_to_avoid_eating() {
    let ctx = Ctx::new();
    for fact in [
        "My favorite color is blue",
        "I work as a software engineer",
        "I'm allergic to peanuts",
        "The car needs new tires",
        "My sister lives in Berlin",
        "I prefer dark mode in every app",
        "The wifi router is in the hallway closet",
    ] {
        ctx.add("alice", fact);
    }
    let found = ctx.json(&["--user", "alice", "search", "What should I avoid eating?"]);
    let hits = contents(&found["hits"]);
    assert_eq!(hits[0], "I'm allergic to peanuts", "{found:#}");
    let top = &found["hits"][0];
    assert!(top["similarity"].as_f64().unwrap() > 0.25, "{top}");
    assert!(top["score"].as_f64().unwrap() > 0.0);
    // Unrelated facts do not pad the answer just because every vector is "nearest".
    assert!(!hits.contains(&"The car needs new tires".to_owned()), "{hits:?}");
}

#[test]
fn a_weak_match_by_meaning_alone_is_not_shown_as_an_answer() {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "alice", "--chat", "team", "add", "I'm allergic to peanuts"]);
    ctx.ok(&["--user", "bob", "--chat", "team", "add", "I love spicy Thai food"]);
    let ask = |user: &str| {
        ctx.json(&[
            "--user",
            user,
            "--chat",
            "team",
            "search",
            "What should I avoid eating?",
        ])
    };
    assert_eq!(contents(&ask("alice")["hits"]), ["I'm allergic to peanuts"]);
    let bob = ask("bob");
    assert_eq!(
        bob["hits"],
        serde_json::json!([]),
        "Thai food does not answer what to avoid: {bob:#}"
    );
    // A word of the query still finds a memory however weak its meaning is (and beside
    // it, the margin decides as for any search).
    ctx.ok(&[
        "--user",
        "bob",
        "--chat",
        "team",
        "add",
        "Avoid the night bus after midnight",
    ]);
    assert_eq!(contents(&ask("bob")["hits"])[0], "Avoid the night bus after midnight");
    // The context block still ranks without a floor: its best memories are worth showing.
    let block = ctx.json(&[
        "--user",
        "bob",
        "--chat",
        "team",
        "context",
        "What should I avoid eating?",
    ]);
    assert!(
        block["markdown"].as_str().unwrap().contains("spicy Thai food"),
        "{block:#}"
    );

    // The tour shows bob nothing rather than noise.
    let demo = ctx.ok(&["demo"]);
    let bob = demo.split("bob (same chat, other user) asks").nth(1).unwrap();
    let answer = bob.split("\n\n").next().unwrap();
    assert!(answer.contains("(nothing)") && !answer.contains("Thai"), "{demo}");
}

#[test]
fn types_are_inferred_or_taken_as_given() {
    let ctx = Ctx::new();
    let m = ctx.json(&["--user", "u", "add", "I prefer dark mode"]);
    assert_eq!(m["memory_type"], "preference");
    let m = ctx.json(&["--user", "u", "add", "Project X uses Python"]);
    assert_eq!(m["memory_type"], "knowledge");
    let m = ctx.json(&["--user", "u", "add", "Call the plumber", "--type", "task"]);
    assert_eq!(m["memory_type"], "task");
    let err = ctx.fails(&["--user", "u", "add", "x", "--type", "opinion"]);
    assert!(err.contains("unknown type"), "{err}");
    let listed = ctx.json(&["--user", "u", "list", "--type", "preference"]);
    assert_eq!(contents(&listed), ["I prefer dark mode"]);
}

#[test]
fn expired_memories_are_never_returned() {
    let ctx = Ctx::new();
    let t0 = "2026-03-01T12:00:00Z";
    let at = |args: &[&str], now: &str| {
        let mut all = vec!["--now", now, "--user", "u"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    at(
        &["add", "The gate code is changing on Friday", "--expires-days", "2"],
        t0,
    );
    // Observed eight days before now: past a context memory's seven days already.
    at(
        &[
            "add",
            "Working on the Q1 report",
            "--type",
            "context",
            "--observed-at",
            "2026-02-21T12:00:00Z",
        ],
        t0,
    );
    at(&["add", "Working on the Q2 report", "--type", "context"], t0);

    let found = contents(&at(&["search", "gate code"], t0)["hits"]);
    assert_eq!(found[0], "The gate code is changing on Friday");
    let found = contents(&at(&["search", "report I am working on"], t0)["hits"]);
    assert_eq!(found[0], "Working on the Q2 report");
    assert!(
        !found.contains(&"Working on the Q1 report".to_owned()),
        "decayed by observed_at: {found:?}"
    );

    let later = "2026-03-04T12:00:00Z";
    let found = contents(&at(&["search", "gate code"], later)["hits"]);
    assert!(
        !found.contains(&"The gate code is changing on Friday".to_owned()),
        "expired: {found:?}"
    );
    let listed = contents(&at(&["list"], later));
    assert_eq!(listed, ["Working on the Q2 report"]);
    let all = contents(&at(&["list", "--include-expired"], later));
    assert_eq!(all.len(), 3);
    // Ten days on, the Q2 context has decayed too.
    assert!(contents(&at(&["list"], "2026-03-09T12:00:01Z")).is_empty());
}

/// A type's lifetime is a default: an event kept for 60 days on purpose outlives the
/// event's 30 (it passed at 30 before), and `gc` leaves it until then.
#[test]
fn an_expiry_asked_for_outlasts_the_types_lifetime() {
    let ctx = Ctx::new();
    let at = |args: &[&str], now: &str| {
        let mut all = vec!["--now", now, "--user", "u"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    let t0 = "2026-03-01T12:00:00Z";
    let kept = ["add", "The design review runs all spring", "--type", "event"];
    at(&[&kept[..], &["--expires-days", "60"]].concat(), t0);
    let offsite = at(&["add", "The team offsite is in the mountains", "--type", "event"], t0);
    let day_45 = "2026-04-15T12:00:00Z";
    assert_eq!(contents(&at(&["list"], day_45)), ["The design review runs all spring"]);
    assert_eq!(
        contents(&at(&["search", "design review"], day_45)["hits"])[0],
        "The design review runs all spring"
    );
    let gc = at(&["gc"], day_45);
    assert_eq!(
        gc["archived"].as_array().map(Vec::len),
        Some(1),
        "the offsite alone, at 30 days: {gc:#}"
    );
    assert_eq!(gc["archived"][0]["id"], offsite["id"], "{gc:#}");
    assert_eq!(contents(&at(&["list"], day_45)), ["The design review runs all spring"]);
    assert!(contents(&at(&["list"], "2026-05-01T12:00:01Z")).is_empty());
}

/// The relevance floor: what meaning alone finds well below the best hit is noise and is
/// not shown by search ("Where do I live?" once showed the dark-mode preference and the
/// standup under the answer), while the context block still fills its top N.
#[test]
fn search_shows_the_answer_without_the_noise_under_it_and_the_context_still_fills() {
    let ctx = Ctx::new();
    for fact in [
        "I'm allergic to peanuts",
        "My favorite color is blue",
        "I prefer dark mode",
        "I live in Lisbon",
        "Our standup is at 9am",
        "I live in Porto",
    ] {
        ctx.add("alice", fact);
    }
    assert_eq!(ctx.search("alice", "Where do I live?"), ["I live in Porto"]);
    // A word of the query is evidence of its own, however far its meaning: shown.
    let standup = ctx.search("alice", "When is standup?");
    assert_eq!(standup[0], "Our standup is at 9am", "{standup:?}");
    // The context block ranks without the floor: the standup, noise to search, still
    // fills its "relevant" list.
    let context = ctx.json(&["--user", "alice", "context", "Where do I live?"]);
    let markdown = context["markdown"].as_str().expect("markdown");
    assert!(markdown.contains("- [Memory] Our standup is at 9am"), "{markdown}");
}

#[test]
fn a_stored_question_ranks_below_the_answer_it_got() {
    let ctx = Ctx::new();
    for turn in [
        "Caroline: Which books do you read to the kids at bedtime?",
        "Melanie: We read Charlotte's Web every night this month",
        "Melanie: Roasting marshmallows around the campfire with the kids",
    ] {
        ctx.add("mel", turn);
    }
    let found = ctx.json(&["--user", "mel", "search", "Which books does Melanie read to her kids?"]);
    let hits = contents(&found["hits"]);
    assert_eq!(
        hits[0], "Melanie: We read Charlotte's Web every night this month",
        "{found:#}"
    );
    // Still found: a question is weighed down, not hidden.
    assert!(
        hits.contains(&"Caroline: Which books do you read to the kids at bedtime?".to_owned()),
        "{hits:?}"
    );
}

#[test]
fn a_question_that_names_a_time_finds_what_was_said_then_first() {
    let ctx = Ctx::new();
    let add = |text: &str, extra: &[&str]| {
        let mut args = vec!["--user", "mel", "add", text];
        args.extend_from_slice(extra);
        ctx.ok(&args);
    };
    // When it was said: the observed time, or a date in its context.
    add("Went hiking with my sister", &["--observed-at", "2023-05-14T10:00:00Z"]);
    add(
        "Went hiking in the hills near Sintra with Joana",
        &["--observed-at", "2023-08-20T10:00:00Z"],
    );
    add(
        "Melanie: Took the family camping in the mountains for a few nights",
        &["--context", "20 July 2023"],
    );
    add(
        "Melanie: We pitched our tent at the beach, the kids loved it",
        &["--context", "12 June 2023"],
    );
    let top = |query: &str| contents(&ctx.json(&["--user", "mel", "search", query])["hits"])[0].clone();
    assert_eq!(
        top("Who did I go hiking with in August?"),
        "Went hiking in the hills near Sintra with Joana"
    );
    assert_eq!(
        top("Who did I go hiking with in May 2023?"),
        "Went hiking with my sister"
    );
    assert_eq!(
        top("Where did Melanie go camping in June?"),
        "Melanie: We pitched our tent at the beach, the kids loved it"
    );
    assert_eq!(
        top("Where did Melanie go camping on 20 July, 2023?"),
        "Melanie: Took the family camping in the mountains for a few nights"
    );
}

#[test]
fn a_question_that_names_a_season_finds_what_was_said_in_its_months() {
    let ctx = Ctx::new();
    // Told alike, and observed in other seasons.
    for (text, at) in [
        (
            "Mel: The wedding was out in the countryside, in a barn by a lake.",
            "2023-07-15T10:00:00Z",
        ),
        (
            "Mel: The wedding was in the city centre, at the old town hall.",
            "2023-11-18T10:00:00Z",
        ),
        (
            "Mel: The wedding was down at the harbour, right beside the boats.",
            "2024-04-20T10:00:00Z",
        ),
    ] {
        ctx.ok(&["--user", "mel", "add", text, "--observed-at", at]);
    }
    let top = |query: &str| contents(&ctx.json(&["--user", "mel", "search", query])["hits"])[0].clone();
    for (query, wanted) in [
        ("Where was the wedding Mel went to in summer 2023?", "countryside"),
        ("Where was the wedding Mel went to in the autumn?", "city centre"),
        ("Where was the wedding Mel went to in the fall of 2023?", "city centre"),
        ("Where was the wedding Mel went to last spring?", "harbour"),
    ] {
        let found = top(query);
        assert!(found.contains(wanted), "{query}: {found}");
    }
}

#[test]
fn a_question_that_names_a_time_finds_what_was_told_of_it_as_last_night_or_last_month() {
    let ctx = Ctx::new();
    // Each told when it was said, as an agent stores what it hears.
    let said = |at: &str, text: &str| {
        ctx.ok(&["--user", "jo", "--now", at, "add", text, "--observed-at", at]);
    };
    // Each pair is told alike and said on other days, so that only the day its words of
    // relative time count from tells which one a question's time is about.
    said(
        "2023-05-02T11:54:00Z",
        "Watched the Lord of the Rings trilogy last night",
    );
    said("2023-05-09T11:54:00Z", "Watched the Matrix trilogy last night");
    said(
        "2023-04-18T19:00:00Z",
        "Went to a robotics convention with my colleagues last month",
    );
    // A Sunday: last weekend was the 22nd and 23rd.
    said(
        "2023-04-30T19:00:00Z",
        "Went to a comics convention with my cousins last weekend",
    );
    // A conversation stored later: the day it was held is its context's date (a Monday and
    // a Sunday; "last Saturday" is the 5th and the 19th).
    for (text, held) in [
        ("Nate: I won the Valorant tournament last Saturday!", "7 November 2022"),
        (
            "Nate: I won the Hearthstone tournament last Saturday!",
            "20 November 2022",
        ),
    ] {
        ctx.ok(&[
            "--user",
            "jo",
            "--now",
            "2023-05-12T10:00:00Z",
            "add",
            text,
            "--context",
            held,
        ]);
    }
    let top = |query: &str| {
        let found = ctx.json(&["--user", "jo", "--now", "2023-05-13T10:00:00Z", "search", query]);
        contents(&found["hits"])[0].clone()
    };
    assert_eq!(
        top("Which trilogy did I watch on 1 May, 2023?"),
        "Watched the Lord of the Rings trilogy last night"
    );
    assert_eq!(
        top("Which trilogy did I watch on 8 May, 2023?"),
        "Watched the Matrix trilogy last night"
    );
    assert_eq!(
        top("Which convention did I go to in March 2023?"),
        "Went to a robotics convention with my colleagues last month"
    );
    assert_eq!(
        top("Which convention did I go to on 22 April, 2023?"),
        "Went to a comics convention with my cousins last weekend"
    );
    assert_eq!(
        top("Which tournament did Nate win on 5 November, 2022?"),
        "Nate: I won the Valorant tournament last Saturday!"
    );
    assert_eq!(
        top("Which tournament did Nate win on 19 November, 2022?"),
        "Nate: I won the Hearthstone tournament last Saturday!"
    );
}

#[test]
fn a_word_held_by_over_a_thousand_memories_leaves_the_choice_to_rarer_words() {
    let ctx = Ctx::new();
    ctx.config("[embedder]\nprovider = \"static\"\n");
    const PEOPLE: [&str; 6] = ["Priya", "Tom", "Ana", "Marek", "Lena", "Joss"];
    const WORK: [&str; 8] = [
        "fixed the login page",
        "reviewed the invoice export",
        "paired on the search bug",
        "wrote the release notes",
        "cleaned up the dashboards",
        "tested the mobile build",
        "met the design agency",
        "updated the on-call rota",
    ];
    // The oldest memory is the shortest that holds "standup": the best match by its words.
    let mut lines = vec![serde_json::json!({"content": "Standup: travel budget cut"}).to_string()];
    for n in 0..1_200 {
        let said = format!(
            "At standup {} said they {} (item {n})",
            PEOPLE[n % PEOPLE.len()],
            WORK[(n / PEOPLE.len()) % WORK.len()]
        );
        lines.push(serde_json::json!({ "content": said }).to_string());
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("standups.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let report = ctx.json(&["--user", "u", "import", file.to_str().unwrap()]);
    assert_eq!(report["added"], 1_201, "{report}");

    // "standup" is in every memory: "budget", in one, chooses.
    let found = ctx.json(&["--user", "u", "search", "standup budget"]);
    let top = &found["hits"][0];
    assert_eq!(top["content"], "Standup: travel budget cut", "{found}");
    assert!(top["reasons"].to_string().contains("words"), "{top}");

    // The common word alone: its matches are ranked among the newest thousand, not all
    // 1,201 of them (the oldest, best by its words, is not among those).
    let found = ctx.json(&["--user", "u", "search", "standup", "--limit", "20"]);
    let by_words: Vec<&Value> = found["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["reasons"].to_string().contains("words"))
        .collect();
    assert!(!by_words.is_empty(), "{found}");
    for hit in by_words {
        let content = hit["content"].as_str().unwrap();
        let item: usize = content
            .rsplit_once("(item ")
            .and_then(|(_, n)| n.trim_end_matches(')').parse().ok())
            .unwrap_or_else(|| panic!("not among the newest thousand: {content}"));
        assert!(item >= 200, "not among the newest thousand: {content}");
    }
}

#[test]
fn a_name_most_memories_hold_does_not_pull_the_query_toward_all_of_them() {
    let ctx = Ctx::new();
    // 31 of 33 memories name Caroline mid-sentence: past 20 and 5% of them, her name tells
    // them apart no better than a stop word, and is left out of what the lists search.
    for said in CHATTER {
        ctx.add("mel", &format!("Talked to Caroline: {said}"));
    }
    let painting = "Talked to Caroline: On Saturdays I usually paint landscapes down by the lake";
    ctx.add("mel", painting);
    ctx.add("mel", "Melanie: On Sundays we go swimming at the community pool");
    ctx.add("mel", "Melanie: The kids started piano lessons");

    // With her name in the query's vector, the short chatter that is little but her name
    // came first for each of these.
    let found = ctx.search("mel", "What hobby does Caroline have?");
    assert_eq!(found.first().map(String::as_str), Some(painting), "{found:#?}");
    for question in [
        "What does Caroline enjoy doing on weekends?",
        "What does Caroline like to do in her free time?",
    ] {
        let found = ctx.search("mel", question);
        assert!(
            found.iter().take(3).any(|hit| hit == painting),
            "{question}: {found:#?}"
        );
    }
}

/// What the one-topic conversations showed: a speaker asked about beside a place or a
/// friend few lines name ("Who did Priya travel to Portugal with?") kept her name in the
/// query's vector, since only a query whose every name was common left them out, and the
/// lines that were little but her label came up beside the answer.
#[test]
fn a_common_name_is_left_out_beside_a_name_that_still_tells_memories_apart() {
    let ctx = Ctx::new();
    // Each speaker labels about half of the 67 lines: past 20 and 5% of them.
    for round in 0..2 {
        for (i, said) in CHATTER.iter().enumerate() {
            let speaker = if (i + round) % 2 == 0 { "Priya" } else { "Tomasz" };
            ctx.add("priya", &format!("{speaker}: {said}"));
        }
    }
    let trip = "Priya: I'm off to Lisbon with my sister Hannah next week, five days of sun and running by the river.";
    for said in [
        "Tomasz: Welcome back from Portugal! How was it?",
        "Tomasz: I have never been to Portugal, is the food good?",
        trip,
        "Priya: I ran the Bath Half in March and got a new best time.",
        "Priya: My new trainers gave me a blister on the first outing.",
        "Tomasz: The physio wants me doing calf raises twice a day.",
        "Priya: Work has been hectic, three deadlines this week.",
    ] {
        ctx.add("priya", said);
    }

    for question in [
        "Who did Priya travel to Portugal with?",
        "Who went to Portugal with Priya?",
        "Which relative joined Priya in Portugal?",
    ] {
        let found = ctx.search("priya", question);
        assert!(found.iter().take(2).any(|hit| hit == trip), "{question}: {found:#?}");
        // With her name in the vector, two of her "Hugs!" and the like came next.
        let chatter: Vec<&String> = found
            .iter()
            .filter(|hit| CHATTER.iter().any(|said| hit.ends_with(said)))
            .collect();
        assert!(chatter.is_empty(), "{question}: {chatter:#?} in {found:#?}");
    }
}

/// What a probe found: "what does she do for a living?" put "We live in Harpenden"
/// first, "living" being "live" to the full-text stemmer. It asks for work.
#[test]
fn a_living_done_for_finds_the_job_not_the_home() {
    let ctx = Ctx::new();
    for fact in [
        "I work as a physiotherapist at the Royal Free",
        "We live in Harpenden",
        "My husband is called Mark",
        "I play netball on Wednesday evenings",
        "I bank with First Direct",
    ] {
        ctx.add("u", fact);
    }
    let found = ctx.json(&["--user", "u", "search", "what does she do for a living?"]);
    let hits = contents(&found["hits"]);
    assert_eq!(hits[0], "I work as a physiotherapist at the Royal Free", "{found:#}");
}

/// What the one-topic conversations showed: a stored transcript labels each line with its
/// speaker, who is rarely named in the words. Counted only where a line addressed him
/// ("Oh Marcus, that's awful."), a speaker was held by too few memories to be common, and
/// a question about him ranked the lines that said his name above the lines he said.
#[test]
fn a_speaker_labelled_on_every_line_is_as_common_as_a_name_said_in_every_line() {
    let ctx = Ctx::new();
    // Each speaker says more than 20 lines (`entities::COMMON_FLOOR`) and half of them.
    let addressed = [
        "Gwen: Oh Marcus, that's awful.",
        "Gwen: You're a good neighbour, Marcus.",
        "Gwen: Well done, Marcus! First prize!",
        "Gwen: Honestly Marcus, you are full of surprises.",
    ];
    for (i, said) in CHATTER.iter().enumerate() {
        let speaker = if i % 2 == 0 { "Marcus" } else { "Gwen" };
        ctx.add("gwen", &format!("{speaker}: {said}"));
    }
    for said in addressed {
        ctx.add("gwen", said);
    }
    let dog = "Marcus: About two, they think. Brindle, skinny, terrified of the washing machine.";
    let seeds = "Gwen: I brought you back some seeds from Italy! A big ribbed tomato, from a shop by the lake.";
    for said in [
        "Marcus: Got the keys to plot 14 on Monday, after nearly three years on the list.",
        "Marcus: The shed roof leaks, so that's the first job.",
        dog,
        "Marcus: Derek came up to help with the digging, bad knee and all.",
        seeds,
        "Gwen: The rhubarb is coming up nicely this year.",
        "Gwen: The committee meets on the first Tuesday of the month.",
        "Gwen: My runner beans are up to the top of the canes already.",
        "Gwen: We had frost on the water butts this morning.",
        "Gwen: The new tenant on plot 9 has put in raised beds.",
    ] {
        ctx.add("gwen", said);
    }

    for (question, answer) in [
        ("What household appliance is Marcus's dog afraid of?", dog),
        ("What did Gwen bring back from Italy for Marcus?", seeds),
    ] {
        let found = ctx.search("gwen", question);
        let at = found.iter().position(|hit| hit == answer);
        let chatter_above = found[..at.unwrap_or(found.len())]
            .iter()
            .filter(|hit| addressed.contains(&hit.as_str()))
            .count();
        assert!(
            at.is_some_and(|at| at < 3) && chatter_above == 0,
            "{question}: {found:#?}"
        );
    }
}

#[test]
fn a_question_that_asks_when_finds_the_line_that_says_when() {
    let ctx = Ctx::new();
    let left = "Ines: No one yet. Kat flew out on Tuesday and the rehearsal room already feels too quiet.";
    let back = "Gwen: Thursday night, very late. I've spent the days since just catching up.";
    // Each shares more of its question's words than the line that says when.
    let kat = [
        "Ines: Kat's new band in Berlin is a sort of noisy krautrock thing.",
        "Leon: Berlin! Good for Kat. Will you go and see her in Berlin?",
    ];
    let gwen = [
        "Leon: Gwen's away in Italy, seeing the gardens at the lakes.",
        "Leon: How was Italy, Gwen? Did you see all the gardens you wanted?",
    ];
    for said in [
        "Ines: Kat's moving to Berlin to play in a new band. She's been going on about Berlin forever.",
        kat[1],
        "Ines: I want to see Kat play in Berlin once her band has a gig.",
        kat[0],
        left,
        gwen[0],
        "Ines: Gwen loves Italy. She goes back to the Italian lakes whenever she can.",
        back,
        gwen[1],
    ] {
        ctx.add("ines", said);
    }
    for (question, answer, sharing_more) in [
        ("When did Kat leave for Berlin?", left, kat),
        ("When did Gwen get back from Italy?", back, gwen),
    ] {
        let hits = ctx.search("ines", question);
        let at = |line: &str| hits.iter().position(|hit| hit == line).unwrap_or(usize::MAX);
        assert!(
            sharing_more.iter().all(|line| at(answer) < at(line)),
            "{question}: {hits:#?}"
        );
    }
    // A question that does not ask when is left as it was: the line that says when
    // shares one of its words and comes below those that share more.
    let hits = ctx.search("ines", "Where did Kat move to play in a band?");
    let at = |line: &str| hits.iter().position(|hit| hit == line).unwrap_or(usize::MAX);
    assert!(at(kat[0]) < at(left), "{hits:#?}");
}
