//! The pages' HTML: one escape for every text that is not ours, and the layout around
//! each page. Nothing is built from a string that holds user text without `esc`.

use std::fmt::Write as _;

use ash_memory::Caller;

/// `text` made safe inside an element or a quoted attribute.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What a URL component keeps as it is: letters, digits and `-._~` (RFC 3986's
/// unreserved characters), so that ids read as ids.
const COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `text` as one component of a URL's path or query.
pub fn url_part(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, COMPONENT).to_string()
}

/// What the layout shows of the session: whose memory it is, and the form token.
pub struct Frame<'a> {
    pub caller: &'a Caller,
    pub owner: bool,
    pub csrf: &'a str,
    /// A note left by the last change ("Deleted ..."), shown once.
    pub flash: Option<String>,
    /// What the search box holds.
    pub query: &'a str,
}

impl Frame<'_> {
    /// The hidden field every form that changes something carries.
    pub fn csrf_field(&self) -> String {
        format!(r#"<input type="hidden" name="csrf" value="{}">"#, esc(self.csrf))
    }

    /// A form posting to `action` with one button; `fields` is more HTML inside it.
    pub fn post_button(&self, action: &str, label: &str, fields: &str) -> String {
        format!(
            r#"<form method="post" action="{}" class="inline">{}{fields}<button type="submit">{}</button></form>"#,
            esc(action),
            self.csrf_field(),
            esc(label)
        )
    }

    /// The whole page.
    pub fn page(&self, title: &str, body: &str) -> String {
        let mut who = String::new();
        match (&self.caller.user_id, &self.caller.chat_id) {
            (Some(u), Some(c)) => {
                let _ = write!(who, "user <b>{}</b> in chat <b>{}</b>", esc(u), esc(c));
            }
            (Some(u), None) => {
                let _ = write!(who, "user <b>{}</b>", esc(u));
            }
            (None, Some(c)) => {
                let _ = write!(who, "chat <b>{}</b>", esc(c));
            }
            (None, None) => who.push_str("nobody"),
        }
        let switch = if self.owner {
            format!(
                r#"<details class="switch"><summary>See another user's memory</summary><form method="post" action="/as">{}<label>User <input name="user" value="{}" required></label> <label>Chat <input name="chat" value="{}"></label> <button type="submit">Switch</button></form></details>"#,
                self.csrf_field(),
                esc(self.caller.user_id.as_deref().unwrap_or("")),
                esc(self.caller.chat_id.as_deref().unwrap_or(""))
            )
        } else {
            String::new()
        };
        let flash = self
            .flash
            .as_deref()
            .map(|f| format!(r#"<p class="flash" role="status">{}</p>"#, esc(f)))
            .unwrap_or_default();
        format!(
            r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{title} · ash-memory</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header>
<nav aria-label="Main"><a href="/">Memories</a> <a href="/people">People</a> <a href="/conversations">Conversations</a> <a href="/stats">Stats</a></nav>
<form role="search" method="get" action="/search"><label for="q">Search memories</label> <input id="q" name="q" type="search" value="{query}"> <button type="submit">Search</button></form>
<p class="who">Memory of {who}. {logout}</p>
{switch}
</header>
<main>
<h1>{title}</h1>
{flash}
{body}
</main>
</body>
</html>
"#,
            title = esc(title),
            query = esc(self.query),
            logout = self.post_button("/logout", "Log out", ""),
        )
    }
}

/// An error page's body.
pub fn problem(text: &str) -> String {
    format!(r#"<p class="problem" role="alert">{}</p>"#, esc(text))
}

/// A timestamp as a person reads it: the date and the minute, in UTC.
pub fn when(stamp: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(stamp) {
        Ok(t) => t.with_timezone(&chrono::Utc).format("%Y-%m-%d %H:%M").to_string(),
        Err(_) => stamp.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_is_shown_as_text() {
        assert_eq!(
            esc(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
    }

    #[test]
    fn url_parts_keep_nothing_that_ends_a_component() {
        assert_eq!(url_part("a b/c?d&e#f"), "a%20b%2Fc%3Fd%26e%23f");
    }
}
