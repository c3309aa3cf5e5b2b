//! Who may see the pages, and the checks every request passes before a page is made:
//!
//! - The Host header must name the loopback address served (a page of another site that
//!   resolves its own name to 127.0.0.1, DNS rebinding, is refused).
//! - A login link's token is traded for a session cookie (HttpOnly, SameSite=Strict) and
//!   the browser is sent on to a URL without it. The owner's link of `ash-memory ui` works
//!   once; a caller token (`serve --ui`) is checked again at every request, so that
//!   revoking it ends its sessions.
//! - Every change is a POST carrying the session's form token, from this origin.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ash_memory::Caller;

use crate::server::tokens::{TokenBook, TokenError};

/// The cookie that holds a session's id.
pub const COOKIE: &str = "ash_ui";
/// How long a session lasts without a request.
const IDLE: Duration = Duration::from_secs(12 * 60 * 60);
/// The most sessions at once. When full, a token's login ends the least recently used
/// session of the token that holds the most, never the owner's: a token holder who logs
/// in again and again ends only their own.
const MAX_SESSIONS: usize = 64;
/// The most sessions one caller token holds; its next login ends its least recently used.
const SESSIONS_PER_TOKEN: usize = 8;

/// A logged-in browser.
#[derive(Clone)]
pub struct UiSession {
    /// Whose memory it sees.
    pub caller: Caller,
    /// The owner's session (`ash-memory ui`) may choose whose memory to see.
    pub owner: bool,
    /// The caller token it logged in with, checked again at every request.
    pub token_id: Option<String>,
    /// The form token every change must carry.
    pub csrf: String,
    /// A note for the next page.
    pub flash: Option<String>,
    last_seen: Instant,
}

/// Why a request gets no page.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No session, or one that ended.
    NotLoggedIn(String),
    /// A change without this session's form token, or from another origin.
    Forged,
}

/// The sessions of one listener, and the owner's one-time login.
pub struct Guard {
    /// The Host headers that name the address served; an Origin is `http://` and one.
    hosts: Vec<String>,
    owner_login: Mutex<Option<String>>,
    sessions: Mutex<HashMap<String, UiSession>>,
}

impl Guard {
    /// A guard for a listener on `addr`; `owner_login` is the secret of the owner's link,
    /// if there is one.
    pub fn new(addr: SocketAddr, owner_login: Option<String>) -> Self {
        let port = addr.port();
        let mut hosts = vec![format!("localhost:{port}")];
        hosts.push(match addr {
            SocketAddr::V4(a) => format!("{}:{port}", a.ip()),
            SocketAddr::V6(a) => format!("[{}]:{port}", a.ip()),
        });
        Guard {
            hosts,
            owner_login: Mutex::new(owner_login),
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `host` (the Host header) is the address served.
    pub fn host_ok(&self, host: Option<&str>) -> bool {
        host.is_some_and(|h| self.hosts.iter().any(|ok| ok.eq_ignore_ascii_case(h)))
    }

    /// Whether a change comes from a page of ours: an `Origin`, when the browser sends
    /// one, must be this server, and `Sec-Fetch-Site`, when sent, same-origin.
    pub fn same_origin(&self, origin: Option<&str>, fetch_site: Option<&str>) -> bool {
        let origin_ok = origin.is_none_or(|o| o.strip_prefix("http://").is_some_and(|h| self.host_ok(Some(h))));
        let site_ok = fetch_site.is_none_or(|s| s == "same-origin" || s == "none");
        origin_ok && site_ok
    }

    /// Whether a login link was opened by the person: typed, pasted or opened from outside
    /// the browser (`Sec-Fetch-Site: none`), or followed from a page of ours. Another
    /// site's page that sends the browser to a login link, to log it in as someone else,
    /// is refused before the link is used; a browser that sends no such header is let in.
    pub fn login_opened_here(&self, fetch_site: Option<&str>) -> bool {
        fetch_site.is_none_or(|s| s == "none" || s == "same-origin")
    }

    /// Trades a login token for a new session's id. `user` and `chat` choose whose memory
    /// the owner sees (default the CLI's user); a caller token decides it itself.
    pub fn login(
        &self,
        token: &str,
        user: Option<&str>,
        chat: Option<&str>,
        tokens: &TokenBook,
    ) -> Result<String, Refusal> {
        let owner = {
            let mut pending = self.owner_login.lock().unwrap_or_else(|p| p.into_inner());
            let matches = pending.as_deref().is_some_and(|secret| same(secret, token));
            if matches {
                *pending = None;
            }
            matches
        };
        let (caller, token_id) = if owner {
            (owner_caller(user, chat)?, None)
        } else {
            let issued = tokens.verify(token).map_err(refused)?;
            (issued.caller(), Some(issued.id))
        };
        let id = random_token()?;
        let session = UiSession {
            caller,
            owner,
            token_id,
            csrf: random_token()?,
            flash: None,
            last_seen: Instant::now(),
        };
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.retain(|_, s| s.last_seen.elapsed() < IDLE);
        make_room(&mut sessions, session.token_id.as_deref());
        sessions.insert(id.clone(), session);
        Ok(id)
    }

    /// The session the cookie names, if it is live (and its token still valid); its
    /// flash note is handed over once.
    pub fn session(&self, cookie_header: Option<&str>, tokens: &TokenBook) -> Result<(String, UiSession), Refusal> {
        let id = cookie_header
            .into_iter()
            .flat_map(|h| h.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE)
            .map(|(_, value)| value.to_owned())
            .ok_or_else(|| Refusal::NotLoggedIn("not logged in: open the link that started the browser".into()))?;
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let Some(session) = sessions.get_mut(&id).filter(|s| s.last_seen.elapsed() < IDLE) else {
            sessions.remove(&id);
            return Err(Refusal::NotLoggedIn(
                "this session has ended: open a new login link".into(),
            ));
        };
        if let Some(token) = &session.token_id
            && let Err(e) = tokens.verify_id(token)
        {
            sessions.remove(&id);
            return Err(refused(e));
        }
        session.last_seen = Instant::now();
        let seen = session.clone();
        session.flash = None;
        Ok((id, seen))
    }

    /// Leaves a note for the session's next page.
    pub fn flash(&self, id: &str, note: String) {
        if let Some(s) = self.sessions.lock().unwrap_or_else(|p| p.into_inner()).get_mut(id) {
            s.flash = Some(note);
        }
    }

    /// Points the owner's session at another user and chat.
    pub fn switch(&self, id: &str, user: Option<&str>, chat: Option<&str>) -> Result<(), Refusal> {
        let caller = owner_caller(user, chat)?;
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        match sessions.get_mut(id) {
            Some(s) if s.owner => {
                s.caller = caller;
                Ok(())
            }
            _ => Err(Refusal::Forged),
        }
    }

    /// Ends a session.
    pub fn logout(&self, id: &str) {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
    }
}

/// Ends sessions before a login of `token` (`None` for the owner's) so that the limits
/// hold after it: first the token's own beyond its share, then, when all are taken, one
/// of the token that holds the most. The owner's session is never ended for a token's.
fn make_room(sessions: &mut HashMap<String, UiSession>, token: Option<&str>) {
    let oldest_of = |sessions: &HashMap<String, UiSession>, of: &str| {
        sessions
            .iter()
            .filter(|(_, s)| s.token_id.as_deref() == Some(of))
            .min_by_key(|(_, s)| s.last_seen)
            .map(|(k, _)| k.clone())
    };
    if let Some(token) = token {
        while sessions
            .values()
            .filter(|s| s.token_id.as_deref() == Some(token))
            .count()
            >= SESSIONS_PER_TOKEN
        {
            match oldest_of(sessions, token) {
                Some(k) => sessions.remove(&k),
                None => break,
            };
        }
    }
    while sessions.len() >= MAX_SESSIONS {
        let mut held: HashMap<&str, usize> = HashMap::new();
        for t in sessions.values().filter_map(|s| s.token_id.as_deref()) {
            *held.entry(t).or_default() += 1;
        }
        let Some(most) = held.into_iter().max_by_key(|(_, n)| *n).map(|(t, _)| t.to_owned()) else {
            break;
        };
        match oldest_of(sessions, &most) {
            Some(k) => sessions.remove(&k),
            None => break,
        };
    }
}

/// Whether a form's token is the session's.
pub fn csrf_ok(session: &UiSession, presented: Option<&str>) -> bool {
    presented.is_some_and(|p| same(&session.csrf, p))
}

/// A new session id or form token.
fn random_token() -> Result<String, Refusal> {
    crate::server::tokens::random_secret().map_err(|e| {
        tracing::error!("{e:#}");
        Refusal::NotLoggedIn("no session can be made now; the log says why".into())
    })
}

fn owner_caller(user: Option<&str>, chat: Option<&str>) -> Result<Caller, Refusal> {
    let id = |what: &str, v: Option<&str>| -> Result<Option<String>, Refusal> {
        match v.map(str::trim).filter(|v| !v.is_empty()) {
            None => Ok(None),
            Some(v) => crate::server::tokens::check_id(what, v)
                .map(|()| Some(v.to_owned()))
                .map_err(|e| Refusal::NotLoggedIn(e.to_string())),
        }
    };
    Ok(Caller {
        user_id: Some(id("user", user)?.unwrap_or_else(|| crate::server::session::DEFAULT_USER.to_owned())),
        chat_id: id("chat", chat)?,
    })
}

fn refused(e: TokenError) -> Refusal {
    if let TokenError::Unreadable(why) = &e {
        tracing::error!("tokens cannot be checked: {why}");
        return Refusal::NotLoggedIn("tokens cannot be checked now; the server's log says why".into());
    }
    Refusal::NotLoggedIn(format!("{e}: ask the owner for a new token"))
}

/// Compares two secrets in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard() -> (Guard, tempfile::TempDir) {
        let home = tempfile::tempdir().unwrap();
        (
            Guard::new("127.0.0.1:4000".parse().unwrap(), Some("secret".into())),
            home,
        )
    }

    #[test]
    fn only_the_loopback_address_served_is_a_host() {
        let (g, _home) = guard();
        assert!(g.host_ok(Some("127.0.0.1:4000")));
        assert!(g.host_ok(Some("LOCALHOST:4000")));
        assert!(!g.host_ok(Some("evil.example:4000")));
        assert!(!g.host_ok(Some("127.0.0.1:4001")));
        assert!(!g.host_ok(None));
    }

    #[test]
    fn changes_from_another_origin_are_forged() {
        let (g, _home) = guard();
        assert!(g.same_origin(Some("http://127.0.0.1:4000"), Some("same-origin")));
        assert!(g.same_origin(None, None));
        assert!(!g.same_origin(Some("http://evil.example"), None));
        assert!(!g.same_origin(None, Some("cross-site")));
    }

    #[test]
    fn the_owner_link_works_once_and_a_session_sees_its_caller() {
        let (g, home) = guard();
        let tokens = TokenBook::new(home.path());
        assert!(g.login("wrong", None, None, &tokens).is_err());
        let id = g.login("secret", Some("alice"), Some("team"), &tokens).unwrap();
        assert!(g.login("secret", None, None, &tokens).is_err(), "a second use");
        let (_, s) = g.session(Some(&format!("x=1; {COOKIE}={id}")), &tokens).unwrap();
        assert_eq!(s.caller, Caller::user("alice").in_chat("team"));
        assert!(s.owner);
        assert!(g.session(Some("ash_ui=nope"), &tokens).is_err());
        g.logout(&id);
        assert!(g.session(Some(&format!("{COOKIE}={id}")), &tokens).is_err());
    }

    #[test]
    fn a_token_logging_in_again_and_again_ends_only_its_own_sessions() {
        let (g, home) = guard();
        let tokens = TokenBook::new(home.path());
        let owner = g.login("secret", None, None, &tokens).unwrap();
        let (carol, _) = tokens.issue("carol", None, None).unwrap();
        let carols = g.login(&carol, None, None, &tokens).unwrap();
        let (bob, _) = tokens.issue("bob", None, None).unwrap();
        let bobs: Vec<String> = (0..3 * MAX_SESSIONS)
            .map(|_| g.login(&bob, None, None, &tokens).unwrap())
            .collect();
        let live = |id: &str| g.session(Some(&format!("{COOKIE}={id}")), &tokens).is_ok();
        assert!(live(&owner), "the owner's session outlives a token's logins");
        assert!(live(&carols), "another token's session too");
        let bobs_live = bobs.iter().filter(|id| live(id)).count();
        assert_eq!(bobs_live, SESSIONS_PER_TOKEN);
        assert!(
            bobs[bobs.len() - SESSIONS_PER_TOKEN..].iter().all(|id| live(id)),
            "the latest are kept"
        );

        // Many tokens fill the sessions: the one that holds the most gives way.
        for user in 0..MAX_SESSIONS {
            let (t, _) = tokens.issue(&format!("user{user}"), None, None).unwrap();
            g.login(&t, None, None, &tokens).unwrap();
        }
        assert!(live(&owner));
        assert!(g.sessions.lock().unwrap().len() <= MAX_SESSIONS);
    }

    #[test]
    fn a_login_link_sent_by_another_site_is_refused() {
        let (g, _home) = guard();
        assert!(g.login_opened_here(None));
        assert!(g.login_opened_here(Some("none")));
        assert!(g.login_opened_here(Some("same-origin")));
        assert!(!g.login_opened_here(Some("cross-site")));
        assert!(!g.login_opened_here(Some("same-site")));
    }

    #[test]
    fn a_revoked_token_ends_its_sessions() {
        let (g, home) = guard();
        let tokens = TokenBook::new(home.path());
        let (token, issued) = tokens.issue("bob", None, None).unwrap();
        let id = g.login(&token, Some("alice"), None, &tokens).unwrap();
        let (_, s) = g.session(Some(&format!("{COOKIE}={id}")), &tokens).unwrap();
        assert_eq!(s.caller, Caller::user("bob"), "a token's caller is its own");
        assert!(!s.owner);
        assert!(g.switch(&id, Some("alice"), None).is_err());
        tokens.revoke(&issued.id).unwrap();
        assert!(g.session(Some(&format!("{COOKIE}={id}")), &tokens).is_err());
    }
}
