//! What the pages show and change, each checked against the CLI's view of the same home:
//! the list, a search and why it found each memory, a memory's history, corrections
//! (text, type, confirmation, delete), people (one hop, alias, merge), conversations with
//! the facts taken from each turn, and a memory holding markup shown as text.

use serde_json::Value;

use super::{Ui, with_browser};
use crate::support::ctx::{Ctx, contents};

const SCRIPT: &str = "Likes <script>document.title='owned'</script> dark mode";

fn id_of(ctx: &Ctx, content: &str) -> String {
    ctx.json(&["list"])
        .as_array()
        .expect("a list")
        .iter()
        .find(|m| m["content"] == content)
        .unwrap_or_else(|| panic!("no memory {content:?}"))["id"]
        .as_str()
        .expect("an id")
        .to_owned()
}

#[test]
fn list_search_history_corrections_and_delete_agree_with_the_cli() {
    let ctx = Ctx::new();
    ctx.add("local", "I live in Berlin");
    ctx.add("local", SCRIPT);
    ctx.add("local", "The dentist appointment is on Thursday");
    ctx.add("local", "I moved to Lisbon last month");
    let lisbon = id_of(&ctx, "I moved to Lisbon last month");
    assert_eq!(
        contents(&ctx.json(&["history", &lisbon])),
        ["I live in Berlin", "I moved to Lisbon last month"],
        "the CLI sees the move replace the old city"
    );
    let ui = Ui::start(&ctx, &[]);
    let link = ui.link.clone();
    let cli = &ctx;
    with_browser(|b| async move {
        b.goto(&link).await;

        // The list is the CLI's, newest first, and markup is text.
        let shown = b.texts("table.memories tbody td:first-child a").await;
        assert_eq!(shown, contents(&cli.json(&["list"])));
        assert!(shown.contains(&SCRIPT.to_owned()));
        assert_ne!(
            b.client.title().await.unwrap(),
            "owned",
            "the memory's script did not run"
        );
        assert!(b.source().await.contains("Likes &lt;script&gt;"));

        // A search, typed into the box named "Search memories", shows why each was found.
        assert_eq!(b.text("label[for=q]").await, "Search memories");
        b.picture("list").await;
        b.enter("#q", "which city do I live in").await;
        assert!(b.path().await.starts_with("/search?q=which"), "{}", b.path().await);
        let found = b.texts("table.memories tbody td:first-child a").await;
        assert_eq!(found, cli.search("local", "which city do I live in"));
        assert_eq!(found[0], "I moved to Lisbon last month");
        b.picture("search").await;
        let why = b.texts("table.memories tbody td:nth-child(2)").await;
        assert!(
            why[0].contains(" by ") && (why[0].contains("meaning") || why[0].contains("words")),
            "the score and why: {why:?}"
        );

        // A memory opened: its history, what it replaced.
        b.click("table.memories tbody tr:first-child td:first-child a").await;
        assert_eq!(b.path().await, format!("/memory/{lisbon}"));
        let history = b.texts("ol.history > li > a").await;
        assert_eq!(history, ["I live in Berlin", "I moved to Lisbon last month"]);
        assert!(
            b.text("ol.history li:first-child")
                .await
                .contains("replaced by I moved to Lisbon last month")
        );

        // Edit the text: a new memory replaces it, and history shows the three.
        b.fill("#content", "I moved to Porto last month").await;
        b.press("main", "Save text").await;
        let porto = b.path().await.trim_start_matches("/memory/").to_owned();
        assert_ne!(porto, lisbon);
        assert!(b.text(".flash").await.starts_with("Saved as a new memory"));
        let list = contents(&cli.json(&["list"]));
        assert!(
            list.contains(&"I moved to Porto last month".to_owned())
                && !list.contains(&"I moved to Lisbon last month".to_owned())
        );
        assert_eq!(
            contents(&cli.json(&["history", &porto])),
            [
                "I live in Berlin",
                "I moved to Lisbon last month",
                "I moved to Porto last month"
            ]
        );
        assert_eq!(
            b.texts("ol.history > li > a").await,
            contents(&cli.json(&["history", &porto]))
        );

        b.picture("memory").await;
        // Change its type, then confirm it.
        b.choose("select[name=type] option[value=identity]").await;
        b.press("main", "Save type").await;
        let typed = b.path().await.trim_start_matches("/memory/").to_owned();
        let memory: Value = cli.json(&["show", &typed]);
        assert_eq!(memory["memory_type"], "identity");
        assert_eq!(memory["content"], "I moved to Porto last month");
        b.press("main", "Confirm").await;
        assert!(b.text(".flash").await.starts_with("Confirmed"));
        assert!(b.source().await.contains("100%, confirmed"));

        // Delete from the list's row, through the confirmation.
        b.goto(&format!("{}/", link.split("/?").next().unwrap())).await;
        let dentist = id_of(cli, "The dentist appointment is on Thursday");
        b.press(&format!("tr[data-id='{dentist}']"), "Delete").await;
        assert_eq!(b.path().await, format!("/memory/{dentist}/delete"));
        b.picture("delete").await;
        assert!(
            contents(&cli.json(&["list"])).contains(&"The dentist appointment is on Thursday".to_owned()),
            "asking deletes nothing"
        );
        b.press("main", "Delete").await;
        assert_eq!(b.path().await, "/", "{}", b.source().await);
        assert!(b.text(".flash").await.starts_with("Deleted"));
        assert!(!contents(&cli.json(&["list"])).contains(&"The dentist appointment is on Thursday".to_owned()));
        assert_eq!(cli.json(&["history", &dentist])[0]["archive_reason"], "deleted");
        assert_eq!(
            b.texts("table.memories tbody td:first-child a").await,
            contents(&cli.json(&["list"]))
        );
    });
}

#[test]
fn people_conversations_and_stats_agree_with_the_cli() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "add",
        "--subject",
        "Sarah",
        "--subject",
        "Tom",
        "Dinner with Sarah and Tom on Friday",
    ]);
    ctx.ok(&["add", "--subject", "Sarah", "Sarah loves tulips"]);
    ctx.ok(&["people", "add", "Sally"]);
    ctx.ok(&[
        "turn",
        "--session",
        "trip",
        "I am allergic to peanuts",
        "Noted, no peanuts",
    ]);
    let extracted = contents(&ctx.json(&["extract"])["stored"]);
    assert_eq!(
        extracted,
        ["I am allergic to peanuts"],
        "the rules read the plain statement"
    );
    let ui = Ui::start(&ctx, &[]);
    let link = ui.link.clone();
    let cli = &ctx;
    with_browser(|b| async move {
        b.goto(&link).await;
        b.click("nav a[href='/people']").await;
        let names: Vec<String> = cli
            .json(&["people", "list"])
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(b.texts("table tbody td:first-child a").await, names);
        let rows = b.texts("table tbody tr").await;
        assert!(
            rows.iter().any(|r| r.starts_with("Sarah") && r.ends_with('2')),
            "two memories about Sarah: {rows:?}"
        );

        let mut sarah_page = None;
        for a in b
            .client
            .find_all(fantoccini::Locator::Css("table tbody td:first-child a"))
            .await
            .unwrap()
        {
            if a.text().await.unwrap() == "Sarah" {
                sarah_page = a.attr("href").await.unwrap();
            }
        }
        let sarah_page = sarah_page.expect("Sarah's page");
        b.goto(&format!("{}{sarah_page}", link.split("/?").next().unwrap()))
            .await;
        assert_eq!(b.text("h1").await, "Sarah");
        assert_eq!(
            b.texts("main h2 + ul li a").await[..2],
            ["Sarah loves tulips", "Dinner with Sarah and Tom on Friday"]
        );
        assert!(b.source().await.contains("Tom (named with them)"), "one hop away");
        b.picture("person").await;

        b.fill("input[name=alias]", "Sis").await;
        b.press("main", "Add alias").await;
        assert_eq!(cli.json(&["people", "show", "Sis"])["name"], "Sarah");

        for option in b
            .client
            .find_all(fantoccini::Locator::Css("select[name=other] option"))
            .await
            .unwrap()
        {
            if option.text().await.unwrap() == "Sally" {
                option.click().await.unwrap();
            }
        }
        b.press("main", "Merge").await;
        assert!(b.text(".flash").await.starts_with("Merged into Sarah"));
        let sarah = cli.json(&["people", "show", "Sarah"]);
        assert!(
            sarah["aliases"].as_array().unwrap().iter().any(|a| a == "Sally"),
            "{sarah}"
        );
        assert!(
            cli.json(&["people", "list"])
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["name"] != "Sally")
        );

        // Forget Tom, one hop away, through the confirmation.
        b.click("main h2 + ul li a[href^='/person/']").await;
        assert_eq!(b.text("h1").await, "Tom");
        b.press("main", "Forget").await;
        assert!(b.path().await.ends_with("/forget"));
        assert!(
            cli.json(&["people", "show", "Tom"])["name"] == "Tom",
            "asking forgets no one"
        );
        b.press("main", "Forget").await;
        assert_eq!(b.path().await, "/people");
        assert!(
            b.text(".flash").await.starts_with("Forgot Tom"),
            "{}",
            b.text(".flash").await
        );
        assert!(
            cli.json(&["people", "list"])
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["name"] != "Tom")
        );
        assert!(
            contents(&cli.json(&["list"])).contains(&"Dinner with Sarah and Tom on Friday".to_owned()),
            "still about Sarah"
        );
        assert_eq!(b.texts("table tbody td:first-child a").await, ["Sarah"]);

        // Conversations: the session, its messages, and the fact taken from the turn.
        b.click("nav a[href='/conversations']").await;
        assert_eq!(b.texts("table tbody td:first-child a").await, ["trip"]);
        b.click("table tbody td:first-child a").await;
        let said = b.texts("ol.messages > li > p:nth-of-type(1)").await;
        assert_eq!(said, ["I am allergic to peanuts", "Noted, no peanuts"]);
        assert_eq!(b.texts("ol.messages li:first-child ul.facts a").await, extracted);
        b.picture("conversation").await;
        b.click("ol.messages ul.facts a").await;
        assert!(
            b.text("main dl").await.contains("extracted from trip, turn 1"),
            "{}",
            b.text("main dl").await
        );

        // Stats and doctor, as the CLI counts them.
        b.click("nav a[href='/stats']").await;
        let stats = cli.json(&["stats"]);
        let dl = b.text("main dl").await;
        assert!(dl.contains(&format!("Live memories\n{}", stats["memories"])), "{dl}");
        assert!(!b.texts("ul.findings li").await.is_empty(), "doctor's findings");
        b.picture("stats").await;
    });
}
