//! Who gets a page: the one-time link and its cookie, no page without a session, no
//! answer to a foreign Host, and no change without the session's form token from its
//! own origin; a refused change leaves the home as it was.

use super::{Ui, http, login, with_browser};
use crate::support::ctx::Ctx;

#[test]
fn the_link_logs_in_once_and_its_token_leaves_the_address_bar() {
    let ctx = Ctx::new();
    ctx.add("local", "I keep bees on the roof");
    let ui = Ui::start(&ctx, &[]);
    let link = ui.link.clone();
    let base = ui.base();
    with_browser(|b| async move {
        b.goto(&link).await;
        assert_eq!(b.path().await, "/", "the token is gone from the address bar");
        assert!(
            b.texts("table.memories tbody td:first-child")
                .await
                .contains(&"I keep bees on the roof".to_owned()),
            "the memory list shows after login"
        );
        let cookie = b.client.get_named_cookie("ash_ui").await.expect("the session cookie");
        assert_eq!(cookie.http_only(), Some(true), "scripts cannot read the session");
        assert_eq!(format!("{:?}", cookie.same_site()), "Some(Strict)");
        // A page of this server holds no script, and the policy allows none.
        assert!(!b.source().await.contains("<script"));

        // The link does not work twice: a second browser with it gets nothing.
        b.client.delete_all_cookies().await.expect("cookies cleared");
        b.goto(&link).await;
        assert!(b.source().await.contains("not logged in") || b.source().await.contains("unknown token"));
        assert!(!b.source().await.contains("bees"));
        b.goto(&format!("{base}/")).await;
        assert!(
            !b.source().await.contains("bees"),
            "without the cookie nothing is served"
        );
    });
}

#[test]
fn without_a_session_or_from_a_foreign_host_nothing_is_served() {
    let ctx = Ctx::new();
    ctx.add("local", "My locker code is behind the blue door");
    let ui = Ui::start(&ctx, &[]);
    let port = ui.port;
    for path in [
        "/",
        "/style.css",
        "/people",
        "/search?q=locker",
        "/stats",
        "/memory/abc",
    ] {
        let (status, answer) = http(
            port,
            &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
        );
        assert_eq!(status, 401, "{path}: {answer}");
        assert!(!answer.contains("locker code"), "{path}");
    }
    let cookie = login(port, &ui.link);
    let page = |host: &str| {
        http(
            port,
            &format!("GET / HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"),
        )
    };
    let (status, answer) = page(&format!("127.0.0.1:{port}"));
    assert_eq!(status, 200);
    assert!(answer.contains("My locker code is behind the blue door"));
    assert!(
        answer.contains("content-security-policy: default-src 'none'"),
        "{answer}"
    );
    // DNS rebinding: a name of another site that resolves to loopback.
    for host in [
        format!("attacker.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port + 1),
    ] {
        let (status, answer) = page(&host);
        assert_eq!(status, 421, "{host}: {answer}");
        assert!(!answer.contains("locker"), "{host}");
    }
}

#[test]
fn a_change_without_the_form_token_or_from_another_origin_changes_nothing() {
    let ctx = Ctx::new();
    let id = ctx.add("local", "I take the 7:40 train to work");
    let ui = Ui::start(&ctx, &[]);
    let port = ui.port;
    let cookie = login(port, &ui.link);
    // The form token, as the page holds it.
    let (_, page) = http(
        port,
        &format!(
            "GET /memory/{id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
        ),
    );
    let csrf = page
        .split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a form token")
        .to_owned();
    let before = ctx.snapshot();
    let post = |origin: &str, body: &str| {
        http(
            port,
            &format!(
                "POST /memory/{id}/delete HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n{origin}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    assert_eq!(post("", "").0, 403, "no form token");
    assert_eq!(post("", "csrf=guessed").0, 403, "a wrong form token");
    assert_eq!(
        post("Origin: http://attacker.example\r\n", &format!("csrf={csrf}")).0,
        403,
        "another origin"
    );
    assert_eq!(
        post("Sec-Fetch-Site: cross-site\r\n", &format!("csrf={csrf}")).0,
        403,
        "a cross-site fetch"
    );
    // A GET never changes anything, whatever it is sent to.
    let (status, _) = http(
        port,
        &format!(
            "GET /memory/{id}/delete?csrf={csrf} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert_eq!(status, 200, "the confirmation page");
    assert_eq!(ctx.snapshot(), before, "nothing changed on disk");
    assert_eq!(
        crate::support::ctx::contents(&ctx.json(&["list"])),
        ["I take the 7:40 train to work"]
    );

    // The same request with the token, from the page's own origin, deletes.
    let (status, answer) = post(&format!("Origin: http://127.0.0.1:{port}\r\n"), &format!("csrf={csrf}"));
    assert_eq!(status, 303, "{answer}");
    assert!(crate::support::ctx::contents(&ctx.json(&["list"])).is_empty());
}

#[test]
fn a_malformed_or_huge_change_is_refused_with_a_reason_and_changes_nothing() {
    let ctx = Ctx::new();
    let id = ctx.add("local", "The gym opens at six");
    let bob = ctx.add("bob", "Bob's locker is number 12");
    let ui = Ui::start(&ctx, &[]);
    let port = ui.port;
    let cookie = login(port, &ui.link);
    let (_, page) = http(
        port,
        &format!(
            "GET /memory/{id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
        ),
    );
    let csrf = page
        .split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a form token")
        .to_owned();
    let post = |path: &str, body: &str| {
        http(
            port,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let before = ctx.snapshot();
    let correct = format!("/memory/{id}/correct");
    for (path, body, status, says) in [
        (
            correct.as_str(),
            format!("csrf={csrf}&content=x&expires_days=soon"),
            400,
            "whole number",
        ),
        (
            correct.as_str(),
            format!("csrf={csrf}&content=x&type=feeling"),
            400,
            "unknown type",
        ),
        (correct.as_str(), format!("csrf={csrf}&content=+++"), 400, "empty"),
        (
            correct.as_str(),
            format!("csrf={csrf}&content=%FF%FE"),
            400,
            "not UTF-8",
        ),
        (
            &format!("/memory/{bob}/delete"),
            format!("csrf={csrf}"),
            404,
            "no memory",
        ),
        ("/person/nobody/merge", format!("csrf={csrf}&other=x"), 404, ""),
        ("/memory/x/unheard-of", format!("csrf={csrf}"), 400, "no such change"),
        (
            correct.as_str(),
            format!("csrf={csrf}&content={}", "a".repeat(70 * 1024)),
            413,
            "too large",
        ),
    ] {
        let (got, answer) = post(path, &body);
        assert_eq!(got, status, "{path} {}: {answer}", &body[..body.len().min(80)]);
        assert!(answer.contains(says), "{path}: {answer}");
        assert!(!answer.contains("locker"), "another user's memory is never shown");
    }
    assert_eq!(ctx.snapshot(), before, "nothing changed on disk");
}

#[test]
fn a_login_link_from_another_site_is_refused_and_stays_unused() {
    let ctx = Ctx::new();
    ctx.add("local", "My spare key is under the third plant pot");
    let ui = Ui::start(&ctx, &[]);
    let port = ui.port;
    let target = &ui.link[ui.link.find("/?token=").expect("a login link")..];
    let get = |site: &str| {
        http(
            port,
            &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{site}Connection: close\r\n\r\n"),
        )
    };
    // A page of another site that sends the browser to the link, to log it in.
    for site in ["Sec-Fetch-Site: cross-site\r\n", "Sec-Fetch-Site: same-site\r\n"] {
        let (status, answer) = get(site);
        assert_eq!(status, 403, "{site}: {answer}");
        assert!(answer.contains("address bar"), "{answer}");
        assert!(!answer.contains("set-cookie"), "{answer}");
    }
    // The link was not used up: pasted into the address bar, it logs in.
    let (status, answer) = get("Sec-Fetch-Site: none\r\n");
    assert_eq!(status, 303, "{answer}");
    assert!(answer.contains("set-cookie: ash_ui="), "{answer}");
}

#[test]
fn a_token_holder_logging_in_again_and_again_logs_out_no_one_else() {
    let ctx = Ctx::new();
    ctx.add("local", "The boiler manual is in the kitchen drawer");
    ctx.add("bob", "Bob's bike is the red one");
    let ui = Ui::start(&ctx, &[]);
    let port = ui.port;
    let owner = login(port, &ui.link);
    let (bob_token, _) = crate::support::server::issue_token(&ctx, "bob", None, &[]);
    let bob_link = format!("http://127.0.0.1:{port}/?token={bob_token}");
    let page = |cookie: &str| {
        http(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"),
        )
    };
    // More logins than the browser keeps sessions.
    let bobs: Vec<String> = (0..80).map(|_| login(port, &bob_link)).collect();
    let (status, answer) = page(&owner);
    assert_eq!(status, 200, "the owner is still logged in: {answer}");
    assert!(answer.contains("boiler manual"));
    let (status, answer) = page(bobs.last().unwrap());
    assert_eq!(status, 200);
    assert!(answer.contains("red one") && !answer.contains("boiler"));
    assert_eq!(page(&bobs[0]).0, 401, "bob's own oldest session gave way");
}
