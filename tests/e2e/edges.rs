//! Inputs at the edges, through the CLI and the server: every limit has one meaning, every
//! input a bound, and every refusal says what is wrong and what to do.

use serde_json::json;

use crate::ctx::Ctx;
use crate::server::Server;

#[test]
fn a_limit_of_zero_is_refused_by_search_list_and_the_server_alike() {
    let ctx = Ctx::new();
    ctx.add("u", "I prefer dark mode");
    for args in [
        &["--user", "u", "search", "dark mode", "--limit", "0"][..],
        &["--user", "u", "list", "--limit", "0"],
    ] {
        let err = ctx.fails(args);
        assert!(err.contains("the limit is 0; give 1 or more"), "{args:?}: {err}");
    }
    // No limit still means each command's own: search's default, and every memory.
    assert_eq!(ctx.search("u", "dark mode"), ["I prefer dark mode"]);
    assert_eq!(ctx.json(&["--user", "u", "list"]).as_array().unwrap().len(), 1);
    assert_eq!(
        ctx.json(&["--user", "u", "list", "--limit", "1"])
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    for (method, params) in [
        (
            "memory.search",
            json!({"user_id": "u", "query": "dark mode", "limit": 0}),
        ),
        ("memory.list", json!({"user_id": "u", "limit": 0})),
    ] {
        let answer = rpc.call(method, params);
        assert_eq!(answer["error"]["data"]["kind"], "invalid_input", "{method}: {answer}");
    }
}
