//! URLs that carry their own secret: chat and automation webhooks, and connection URLs with a
//! password in them.

use super::SecretKind;
use super::text::Text;
use super::values::is_placeholder;

/// Chat and automation webhooks: whoever has the URL can post, so the URL is the secret.
pub(super) fn webhook(t: &Text) -> Option<SecretKind> {
    const HOSTS: &[&str] = &[
        "slack.com",
        "office.com",
        "zapier.com",
        "ifttt.com",
        "discord",
        "googleapis.com",
    ];
    if !HOSTS.iter().any(|h| t.hay.contains(h)) {
        return None;
    }
    // (host and path, least number of path characters after it)
    const HOOKS: &[(&str, usize)] = &[
        ("hooks.slack.com/services/", 20),
        ("hooks.slack.com/workflows/", 20),
        ("hooks.slack.com/triggers/", 20),
        ("webhook.office.com/webhookb2/", 20),
        ("outlook.office.com/webhook/", 20),
        ("hooks.zapier.com/hooks/catch/", 6),
        ("maker.ifttt.com/use/", 10),
        ("maker.ifttt.com/trigger/", 20),
    ];
    for i in 0..t.len() {
        let c = t.low[i];
        if !matches!(c, 'h' | 'w' | 'o' | 'm' | 'd' | 'c') {
            continue;
        }
        for (needle, min) in HOOKS {
            if let Some(e) = t.match_at(i, needle)
                && url_chars(t, e, *min) >= *min
            {
                return Some(SecretKind::Webhook);
            }
        }
        if c == 'd' && discord_webhook(t, i) {
            return Some(SecretKind::Webhook);
        }
        if c == 'c'
            && let Some(e) = t.match_at(i, "chat.googleapis.com/v1/spaces/")
        {
            // Google Chat: the key and token ride in the query string.
            let end = (e..(e + 300).min(t.len()))
                .find(|&j| t.c[j].is_whitespace())
                .unwrap_or(t.len().min(e + 300));
            if (e..end).any(|j| t.match_at(j, "token=").is_some()) {
                return Some(SecretKind::Webhook);
            }
        }
    }
    None
}

/// discord.com/api/[v10/]webhooks/<id>/<token>
fn discord_webhook(t: &Text, i: usize) -> bool {
    let Some(mut e) = t
        .match_at(i, "discord.com/api/")
        .or_else(|| t.match_at(i, "discordapp.com/api/"))
    else {
        return false;
    };
    if t.lo(e) == 'v' {
        let mut j = e + 1;
        while t.at(j).is_ascii_digit() && j - e < 4 {
            j += 1;
        }
        if t.at(j) == '/' {
            e = j + 1;
        }
    }
    let Some(mut j) = t.match_at(e, "webhooks/") else {
        return false;
    };
    let id = j;
    while t.at(j).is_ascii_digit() && j - id < 24 {
        j += 1;
    }
    j - id >= 5 && t.at(j) == '/' && url_chars(t, j + 1, 20) >= 20
}

/// How many URL path characters follow `from`, counting up to `cap`.
fn url_chars(t: &Text, from: usize, cap: usize) -> usize {
    let mut j = from;
    while j - from < cap
        && (t.at(j).is_ascii_alphanumeric() || matches!(t.at(j), '/' | '_' | '-' | '.' | '~' | '%' | '@'))
    {
        j += 1;
    }
    j - from
}

/// `scheme://user:password@host`: a database, broker or HTTP URL with the password in it.
pub(super) fn connection_url(t: &Text) -> Option<SecretKind> {
    if !t.hay.contains("://") {
        return None;
    }
    for i in 0..t.len() {
        if t.c[i] != ':' || t.at(i + 1) != '/' || t.at(i + 2) != '/' {
            continue;
        }
        let mut s = i;
        while s > 0 && i - s < 32 && (t.c[s - 1].is_ascii_alphanumeric() || matches!(t.c[s - 1], '+' | '-' | '.')) {
            s -= 1;
        }
        if s == i {
            continue;
        }
        let a = i + 3;
        let mut e = a;
        while e - a < 512 {
            let c = t.at(e);
            if c == '\0' || c.is_whitespace() || matches!(c, '/' | '?' | '#' | '"' | '\'' | '`' | '<' | '>') {
                break;
            }
            e += 1;
        }
        let Some(at) = (a..e).rev().find(|&j| t.c[j] == '@') else {
            continue;
        };
        let Some(colon) = (a..at).find(|&j| t.c[j] == ':') else {
            continue;
        };
        let password = t.string(colon + 1, at);
        if !password.is_empty() && !is_placeholder(&password) {
            return Some(SecretKind::ConnectionString);
        }
    }
    None
}
