//! Caller tokens: what lets a sandboxed tool reach memory as one user and no other.
//!
//! `ash-memory token issue --user alice` mints a random token and records only its
//! SHA-256 in `$ASH_HOME/tokens.jsonl` (0600), with the caller it is bound to and an
//! optional expiry. A connection that presents the token is pinned to that caller. The
//! file is append-only: issuing appends the token's line, revoking appends a revocation,
//! and the last line for an id wins, so two processes issuing at once cannot lose each
//! other's tokens. Reading fails closed: a line that does not parse (other than a torn
//! last line, which was never acknowledged) stops every token from working rather than
//! perhaps hiding a revocation.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use anyhow::{Context as _, Result, bail};
use base64::Engine as _;
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use ash_memory::Caller;

/// Every token starts with this, so that a leaked one is recognisable (and a secret
/// scanner can find it).
const PREFIX: &str = "ash_";

/// One line of `tokens.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum Line {
    Issued(Issued),
    Revoked { id: String, revoked_at: String },
}

/// A token as recorded: never the token itself, only its hash.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issued {
    /// The first 12 hex digits of the hash: what `token list` shows and `revoke` takes.
    pub id: String,
    sha256: String,
    /// The caller the token is pinned to.
    pub user_id: String,
    pub chat_id: Option<String>,
    pub created_at: String,
    pub expires_at: Option<String>,
}

/// A token's state, as `token list` shows it.
#[derive(Debug, Clone)]
pub struct TokenInfo {
    pub issued: Issued,
    pub revoked_at: Option<String>,
}

impl Issued {
    /// The caller this token acts as.
    pub fn caller(&self) -> Caller {
        Caller {
            user_id: Some(self.user_id.clone()),
            chat_id: self.chat_id.clone(),
        }
    }
}

/// Why a presented token is not accepted. The message never repeats the token.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("unknown token")]
    Unknown,
    #[error("token {0} has been revoked")]
    Revoked(String),
    #[error("token {0} expired at {1}")]
    Expired(String, String),
    #[error("tokens cannot be checked: {0}")]
    Unreadable(String),
    #[error("token {0} names an id with spaces at an end, which acts for the id without them: issue a new one")]
    Spaced(String),
}

/// The tokens of one home, re-read whenever the file changes, so that a revocation
/// takes effect on the next request of every connection.
pub struct TokenBook {
    path: PathBuf,
    cache: Mutex<Option<(FileStamp, Tokens)>>,
}

/// What tells a changed file: length, modification time and inode.
type FileStamp = (u64, Option<SystemTime>, u64);

/// The tokens by id as last read, or why they could not be.
type Tokens = Result<HashMap<String, TokenInfo>, String>;

impl TokenBook {
    /// The tokens of the home at `home`.
    pub fn new(home: &Path) -> Self {
        TokenBook {
            path: home.join("tokens.jsonl"),
            cache: Mutex::new(None),
        }
    }

    /// Mints a token for `caller`, valid for `ttl` (or until revoked), and returns the
    /// token (shown once) with its record.
    pub fn issue(&self, user_id: &str, chat_id: Option<&str>, ttl: Option<Duration>) -> Result<(String, Issued)> {
        check_id("user", user_id)?;
        if let Some(chat) = chat_id {
            check_id("chat", chat)?;
        }
        let token = format!("{PREFIX}{}", random_secret()?);
        let sha256 = hash(&token);
        let now = Utc::now();
        let expires_at = match ttl {
            Some(ttl) => Some(stamp(
                now.checked_add_signed(ttl)
                    .context("the expiry is too far in the future")?,
            )),
            None => None,
        };
        let issued = Issued {
            id: sha256[..12].to_owned(),
            sha256,
            user_id: user_id.to_owned(),
            chat_id: chat_id.map(str::to_owned),
            created_at: stamp(now),
            expires_at,
        };
        self.append(&Line::Issued(issued.clone()))?;
        Ok((token, issued))
    }

    /// Revokes the token with this id (or id prefix, or the token itself).
    pub fn revoke(&self, reference: &str) -> Result<Issued> {
        let tokens = self.read().map_err(anyhow::Error::msg)?;
        let wanted = if reference.starts_with(PREFIX) {
            hash(reference)[..12].to_owned()
        } else {
            reference.to_ascii_lowercase()
        };
        if wanted.len() < 4 && !reference.starts_with(PREFIX) {
            bail!("give at least 4 characters of the token id");
        }
        let matches: Vec<&TokenInfo> = tokens.values().filter(|t| t.issued.id.starts_with(&wanted)).collect();
        let info = match matches.as_slice() {
            [] => bail!("no token {reference:?} in {}", self.path.display()),
            [one] => *one,
            _ => bail!("{reference:?} starts several token ids; give more characters"),
        };
        self.append(&Line::Revoked {
            id: info.issued.id.clone(),
            revoked_at: stamp(Utc::now()),
        })?;
        Ok(info.issued.clone())
    }

    /// Every token ever issued, oldest first.
    pub fn list(&self) -> Result<Vec<TokenInfo>> {
        let mut all: Vec<TokenInfo> = self.read().map_err(anyhow::Error::msg)?.into_values().collect();
        all.sort_by(|a, b| a.issued.created_at.cmp(&b.issued.created_at));
        Ok(all)
    }

    /// The record of a valid presented token: known, not revoked, not expired.
    pub fn verify(&self, token: &str) -> Result<Issued, TokenError> {
        let sha256 = hash(token.trim());
        let tokens = self.read().map_err(TokenError::Unreadable)?;
        let info = tokens.get(&sha256[..12]).filter(|t| t.issued.sha256 == sha256);
        valid(info)
    }

    /// Whether the token with this id is still valid (a connection that presented it
    /// asks again at every request, so that revocation and expiry take effect at once).
    pub fn verify_id(&self, id: &str) -> Result<Issued, TokenError> {
        let tokens = self.read().map_err(TokenError::Unreadable)?;
        valid(tokens.get(id))
    }

    /// The tokens by id, from the cache while the file is unchanged.
    fn read(&self) -> Tokens {
        let stamp = match std::fs::metadata(&self.path) {
            Ok(m) => {
                use std::os::unix::fs::MetadataExt as _;
                (m.len(), m.modified().ok(), m.ino())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
            Err(e) => return Err(format!("{}: {e}", self.path.display())),
        };
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((seen, tokens)) = cache.as_ref()
            && *seen == stamp
        {
            return tokens.clone();
        }
        let tokens = std::fs::read_to_string(&self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))
            .and_then(|text| parse(&self.path, &text));
        *cache = Some((stamp, tokens.clone()));
        tokens
    }

    fn append(&self, line: &Line) -> Result<()> {
        let mut text = serde_json::to_string(line).expect("token lines serialize");
        text.push('\n');
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&self.path)
            .with_context(|| format!("opening {}", self.path.display()))?;
        // Exclusive while appending. A torn last line (a writer died mid-line) was never
        // acknowledged: it is cut off, so that it cannot become a malformed line that
        // stops every token.
        file.lock()
            .with_context(|| format!("locking {}", self.path.display()))?;
        let bytes = std::fs::read(&self.path).with_context(|| format!("reading {}", self.path.display()))?;
        if bytes.last().is_some_and(|b| *b != b'\n') {
            let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |end| end + 1);
            file.set_len(whole as u64)
                .with_context(|| format!("cutting a torn line off {}", self.path.display()))?;
        }
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

fn valid(info: Option<&TokenInfo>) -> Result<Issued, TokenError> {
    let Some(info) = info else {
        return Err(TokenError::Unknown);
    };
    if info.revoked_at.is_some() {
        return Err(TokenError::Revoked(info.issued.id.clone()));
    }
    // Issued by a build that let such an id through.
    let mut ids = std::iter::once(&info.issued.user_id).chain(&info.issued.chat_id);
    if ids.any(|id| id.trim() != id) {
        return Err(TokenError::Spaced(info.issued.id.clone()));
    }
    if let Some(expires) = &info.issued.expires_at {
        let at = DateTime::parse_from_rfc3339(expires).map_err(|e| TokenError::Unreadable(e.to_string()))?;
        if at <= Utc::now() {
            return Err(TokenError::Expired(info.issued.id.clone(), expires.clone()));
        }
    }
    Ok(info.issued.clone())
}

fn parse(path: &Path, text: &str) -> Result<HashMap<String, TokenInfo>, String> {
    let mut tokens: HashMap<String, TokenInfo> = HashMap::new();
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    for (n, raw) in complete.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(raw)
            .map_err(|e| format!("{} line {} is malformed ({e}); fix or remove it", path.display(), n + 1))?;
        match line {
            Line::Issued(issued) => {
                tokens.insert(
                    issued.id.clone(),
                    TokenInfo {
                        issued,
                        revoked_at: None,
                    },
                );
            }
            Line::Revoked { id, revoked_at } => {
                if let Some(t) = tokens.get_mut(&id) {
                    t.revoked_at = Some(revoked_at);
                }
            }
        }
    }
    Ok(tokens)
}

fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Milliseconds, so that a token lives its whole lifetime, not up to a second less.
fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A new secret: 32 bytes from the system's generator, base64 without padding, URL-safe.
pub fn random_secret() -> Result<String> {
    let mut secret = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut secret))
        .context("reading /dev/urandom")?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret))
}

/// Refuses a user or chat id that is empty, over 256 characters, or holds control
/// characters.
pub fn check_id(what: &str, id: &str) -> Result<()> {
    // The memory trims the ids it is given (Unicode spaces too): "alice\u{a0}" would pin a
    // connection to a caller of its own and yet act for "alice".
    if id.trim().is_empty() || id.trim() != id || id.len() > 256 || id.chars().any(char::is_control) {
        bail!("a {what} id is 1 to 256 characters, without control characters or spaces at either end");
    }
    Ok(())
}

/// Parses a lifetime such as `30d`, `12h`, `90m` or `3600s`.
pub fn parse_ttl(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: i64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a lifetime; for example 30d, 12h, 90m or 3600s"))?;
    let ttl = match unit {
        "d" => Duration::try_days(n),
        "h" => Duration::try_hours(n),
        "m" => Duration::try_minutes(n),
        "s" | "" => Duration::try_seconds(n),
        _ => None,
    };
    match ttl {
        Some(t) if n > 0 && t <= Duration::days(36_500) => Ok(t),
        _ => Err(format!(
            "{text:?} is not a lifetime between 1 second and 100 years; for example 30d, 12h, 90m or 3600s"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> (tempfile::TempDir, TokenBook) {
        let dir = tempfile::tempdir().unwrap();
        let book = TokenBook::new(dir.path());
        (dir, book)
    }

    #[test]
    fn an_issued_token_verifies_as_its_caller_until_revoked() {
        let (_dir, book) = book();
        let (token, issued) = book.issue("alice", Some("team"), None).unwrap();
        assert!(token.starts_with(PREFIX));
        let found = book.verify(&token).unwrap();
        assert_eq!(found.caller(), Caller::user("alice").in_chat("team"));
        book.revoke(&issued.id[..6]).unwrap();
        assert!(matches!(book.verify(&token), Err(TokenError::Revoked(_))));
    }

    #[test]
    fn an_id_with_spaces_at_an_end_gets_no_token_and_an_old_one_acts_for_no_one() {
        let (dir, book) = book();
        for (user, chat) in [("alice\u{a0}", None), ("\u{3000}bob", None), ("alice", Some(" team"))] {
            let err = book.issue(user, chat, None).unwrap_err();
            assert!(err.to_string().contains("spaces at either end"), "{user:?}: {err}");
        }
        // A line as a build before this check wrote it.
        let (token, _) = book.issue("alice", None, None).unwrap();
        let path = dir.path().join("tokens.jsonl");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("\"alice\"", "\"alice\\u00a0\"")).unwrap();
        assert!(matches!(book.verify(&token), Err(TokenError::Spaced(_))));
    }

    #[test]
    fn only_the_hash_is_stored_and_a_near_miss_is_unknown() {
        let (dir, book) = book();
        let (token, _) = book.issue("alice", None, None).unwrap();
        let text = std::fs::read_to_string(dir.path().join("tokens.jsonl")).unwrap();
        assert!(!text.contains(&token[PREFIX.len()..]));
        let mut wrong = token.clone();
        wrong.pop();
        assert!(matches!(book.verify(&wrong), Err(TokenError::Unknown)));
    }

    #[test]
    fn a_malformed_line_fails_closed_but_a_torn_last_line_is_ignored_and_cut_off() {
        let (dir, book) = book();
        let (token, _) = book.issue("alice", None, None).unwrap();
        let path = dir.path().join("tokens.jsonl");
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"id\":\"abc").unwrap();
        assert!(book.verify(&token).is_ok(), "a torn last line was never acknowledged");
        let (second, _) = book.issue("bob", None, None).unwrap();
        assert!(
            book.verify(&token).is_ok() && book.verify(&second).is_ok(),
            "the torn line was cut off"
        );
        f.write_all(b"not json\n").unwrap();
        assert!(matches!(book.verify(&token), Err(TokenError::Unreadable(_))));
    }

    #[test]
    fn lifetimes_parse_with_units_and_bounds() {
        assert_eq!(parse_ttl("30d").unwrap(), Duration::days(30));
        assert_eq!(parse_ttl("90m").unwrap(), Duration::minutes(90));
        assert_eq!(parse_ttl("5").unwrap(), Duration::seconds(5));
        for bad in ["0s", "x", "10y", "", "99999999d"] {
            assert!(parse_ttl(bad).is_err(), "{bad}");
        }
    }
}
