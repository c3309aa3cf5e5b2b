//! `serve --ui`: holders of caller tokens log in with their token and see their own
//! caller only; no page, search, memory or person of another scope reaches them, and a
//! revoked token ends its sessions.

use super::{http, login, with_browser};
use crate::support::ctx::{Ctx, contents};
use crate::support::fixtures::free_port;
use crate::support::server::{Server, issue_token};

#[test]
fn a_token_sees_its_own_caller_and_nothing_of_another_scope() {
    let ctx = Ctx::new();
    let alice_secret = ctx.add("alice", "Alice's bank PIN hint is her first cat");
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "--subject",
        "Marco",
        "Marco is Alice's brother",
    ]);
    ctx.add("bob", "Bob plays the cello on Sundays");
    ctx.ok(&[
        "--user",
        "bob",
        "--chat",
        "band",
        "add",
        "--shared",
        "The band rehearses at Kim's garage",
    ]);
    let marco = ctx.json(&["--user", "alice", "people", "show", "Marco"])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (bob_token, bob_id) = issue_token(&ctx, "bob", None, &[]);
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let _server = Server::start(&ctx, &["--ui", &listen]);
    let base = format!("http://{listen}");

    // The owner's link does not exist here: a made-up token logs in no one.
    let (status, _) = http(
        port,
        &format!("GET /?token=made-up HTTP/1.1\r\nHost: {listen}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 401);
    let link = format!("{base}/?token={bob_token}&user=alice");
    let cli = &ctx;
    {
        let (link, base, alice_secret, marco) = (link.clone(), base.clone(), alice_secret.clone(), marco.clone());
        with_browser(|b| async move {
            b.goto(&link).await;
            assert_eq!(b.path().await, "/");
            assert!(
                b.text("p.who").await.contains("Memory of user bob"),
                "the token's caller, not ?user="
            );
            assert_eq!(
                b.texts("table.memories tbody td:first-child a").await,
                contents(&cli.json(&["--user", "bob", "list"]))
            );
            assert!(
                !b.source().await.contains("See another user"),
                "a token cannot switch callers"
            );
            for path in [
                "/".to_owned(),
                "/search?q=hint".to_owned(),
                "/search?q=brother".to_owned(),
                format!("/memory/{alice_secret}"),
                format!("/person/{marco}"),
                "/people".to_owned(),
                "/stats".to_owned(),
                "/conversations".to_owned(),
            ] {
                b.goto(&format!("{base}{path}")).await;
                let page = b.source().await;
                for theirs in ["PIN", "Marco", "Alice", "garage"] {
                    assert!(!page.contains(theirs), "{path} shows {theirs}");
                }
            }
            b.goto(&format!("{base}/memory/{alice_secret}")).await;
            assert!(b.text(".problem").await.starts_with("no memory"));
        });
    }

    // Revoking the token ends the session at its next request.
    let cookie = login(port, &link);
    let get = |cookie: &str| {
        http(
            port,
            &format!("GET / HTTP/1.1\r\nHost: {listen}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"),
        )
    };
    assert_eq!(get(&cookie).0, 200);
    ctx.ok(&["token", "revoke", &bob_id]);
    let (status, answer) = get(&cookie);
    assert_eq!(status, 401, "{answer}");
    assert!(!answer.contains("cello"));
}
