//! The memory browser: pages on loopback where a person sees what the agent remembers
//! about them and corrects it. `ash-memory ui` serves it to the home's owner through a
//! login link that works once; `serve --ui ADDR` serves it beside the other listeners to
//! holders of caller tokens, each of whom sees their own caller only.
//!
//! The pages are made on the server and hold no script (the Content-Security-Policy
//! allows none): links, forms and buttons work with the keyboard and without a network
//! beyond loopback. `guard` decides who may see a page; `pages` shows, `changes` changes;
//! `html` escapes and lays out.

mod changes;
mod guard;
mod html;
mod pages;
mod parts;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use ash_memory::{Error, ErrorKind};
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::Shared;
use super::loopback_http::Body;
use guard::{COOKIE, Guard, Refusal, UiSession};
use html::Frame;

const STYLE: &str = include_str!("style.css");
/// The largest form accepted: a memory's text is at most a few KiB.
const MAX_FORM_BYTES: usize = 64 * 1024;
const MAX_CONNECTIONS: usize = 64;
/// Every answer's headers: no script, nothing from elsewhere, not framed, not cached, no
/// referrer to other sites. (Not `no-referrer`: under it a browser sends `Origin: null`
/// with the page's own forms, and the origin check could not tell them from a forgery.)
const SECURITY_HEADERS: [(&str, &str); 6] = [
    (
        "content-security-policy",
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("cache-control", "no-store"),
    ("cross-origin-opener-policy", "same-origin"),
];

/// One listener's browser: the store's worker and the listener's sessions.
pub struct Ui {
    shared: Arc<Shared>,
    guard: Guard,
}

impl Ui {
    /// A browser on `addr` for `shared`'s store; `owner_login` is the secret of the
    /// owner's one-time link (`ash-memory ui`), `None` when only tokens log in.
    pub fn new(shared: Arc<Shared>, addr: SocketAddr, owner_login: Option<String>) -> Self {
        Ui {
            shared,
            guard: Guard::new(addr, owner_login),
        }
    }
}

/// What `ash-memory ui` serves on.
pub struct UiOptions {
    pub listen: SocketAddr,
    /// Whether to open the login link in the default browser.
    pub open: bool,
    /// Whose memory the link shows (`--user`, `--chat`); the CLI's user by default.
    pub user: Option<String>,
    pub chat: Option<String>,
}

/// `ash-memory ui`: serves the browser to the owner until SIGINT or SIGTERM, and prints
/// the one-time login link on stdout.
pub fn run(home: &std::path::Path, options: UiOptions, builder: ash_memory::MemoryStoreBuilder) -> Result<()> {
    if !options.listen.ip().is_loopback() {
        bail!(
            "--listen {}: the memory browser is served on loopback only",
            options.listen
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("ash-ui")
        .build()
        .context("starting the browser's runtime")?;
    let mut signals = {
        let _entered = runtime.enter();
        super::Signals::install()?
    };
    let (worker, store_thread) = super::worker::Worker::start(builder, 2, 1)?;
    let shared = Arc::new(Shared {
        worker,
        tokens: super::tokens::TokenBook::new(home),
    });
    let served = runtime.block_on(async {
        let listener = TcpListener::bind(options.listen)
            .await
            .with_context(|| format!("listening on {}", options.listen))?;
        let addr = listener.local_addr()?;
        let secret = super::tokens::random_secret()?;
        let mut link = format!("http://{addr}/?token={secret}");
        for (key, value) in [("user", &options.user), ("chat", &options.chat)] {
            if let Some(value) = value {
                link.push_str(&format!("&{key}={}", html::url_part(value)));
            }
        }
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            writeln!(out, "{link}")?;
            out.flush()?;
        }
        eprintln!(
            "The memory browser of {} is at the link above (it logs in once). Ctrl-C stops it.",
            home.display()
        );
        if options.open {
            open_in_browser(&link);
        }
        let (stop, stopped) = watch::channel(false);
        let ui = Arc::new(Ui::new(shared, addr, Some(secret)));
        let task = tokio::spawn(serve(listener, ui, stopped));
        signals.wait().await;
        let _ = stop.send(true);
        let _ = task.await;
        anyhow::Ok(())
    });
    runtime.shutdown_timeout(Duration::from_secs(1));
    store_thread.join();
    served
}

/// Opens `link` in the default browser, if there is one to open it with.
fn open_in_browser(link: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let opened = std::process::Command::new(opener)
        .arg(link)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if opened.is_err() {
        eprintln!("No browser could be opened ({opener}); open the link yourself.");
    }
}

/// Serves `ui` on `listener` until shutdown.
pub async fn serve(listener: TcpListener, ui: Arc<Ui>, stopped: watch::Receiver<bool>) {
    let answer = move |request: Request<Incoming>| {
        let ui = ui.clone();
        async move { secured(ui.answer(request).await) }
    };
    super::loopback_http::serve(listener, MAX_CONNECTIONS, "browser", answer, stopped).await;
}

impl Ui {
    async fn answer(&self, request: Request<Incoming>) -> Response<Body> {
        let headers = request.headers();
        if !self.guard.host_ok(text(headers, header::HOST)) {
            return plain(
                StatusCode::MISDIRECTED_REQUEST,
                "refused: this server answers only to its own loopback address",
            );
        }
        let query = parse_form(request.uri().query().unwrap_or(""));
        let path: Vec<String> = request
            .uri()
            .path()
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned())
            .collect();
        let path: Vec<&str> = path.iter().map(String::as_str).collect();

        if request.method() == Method::GET
            && path.is_empty()
            && let Some(token) = query.get("token")
        {
            if !self.guard.login_opened_here(text(headers, "sec-fetch-site")) {
                return plain(
                    StatusCode::FORBIDDEN,
                    "refused: a login link works when pasted into the address bar, not from another site's page",
                );
            }
            return match self.guard.login(
                token,
                query.get("user").map(String::as_str),
                query.get("chat").map(String::as_str),
                &self.shared.tokens,
            ) {
                // The token leaves the address bar (and the history) at once.
                Ok(id) => {
                    let mut response = redirect("/");
                    response.headers_mut().insert(
                        header::SET_COOKIE,
                        HeaderValue::from_str(&format!("{COOKIE}={id}; HttpOnly; SameSite=Strict; Path=/"))
                            .expect("a valid cookie"),
                    );
                    response
                }
                Err(refusal) => refused(refusal),
            };
        }
        let (sid, session) = match self.guard.session(text(headers, header::COOKIE), &self.shared.tokens) {
            Ok(found) => found,
            Err(refusal) => return refused(refusal),
        };
        if path == ["style.css"] {
            let mut response = Response::new(Full::new(Bytes::from_static(STYLE.as_bytes())).boxed());
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/css; charset=utf-8"),
            );
            return response;
        }
        if request.method() == Method::POST {
            return self.post(request, &path, &sid, &session).await;
        }
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and POST");
        }
        let q = query.get("q").map(String::as_str).unwrap_or("");
        let frame = Frame {
            caller: &session.caller,
            owner: session.owner,
            csrf: &session.csrf,
            flash: session.flash.clone(),
            query: q,
        };
        let page = match path.as_slice() {
            [] => self.memories(&frame, query.contains_key("all")).await,
            ["search"] => self.search(&frame, q).await,
            ["memory", id] => self.memory(&frame, id).await,
            ["memory", id, "delete"] => self.confirm_delete(&frame, id).await,
            ["people"] => self.people(&frame).await,
            ["person", id] => self.person(&frame, id).await,
            ["person", id, "forget"] => self.confirm_forget(&frame, id).await,
            ["conversations"] => self.conversations(&frame).await,
            ["conversation"] => {
                self.conversation(&frame, query.get("name").map_or("", String::as_str))
                    .await
            }
            ["stats"] => self.stats(&frame).await,
            _ => {
                return html(
                    StatusCode::NOT_FOUND,
                    frame.page("Not found", &html::problem("No such page.")),
                );
            }
        };
        match page {
            Ok((title, body)) => html(StatusCode::OK, frame.page(&title, &body)),
            Err(e) => {
                let (status, text) = shown(&e);
                html(status, frame.page("Not possible", &html::problem(&text)))
            }
        }
    }

    async fn post(&self, request: Request<Incoming>, path: &[&str], sid: &str, session: &UiSession) -> Response<Body> {
        let headers = request.headers();
        if !self
            .guard
            .same_origin(text(headers, header::ORIGIN), text(headers, "sec-fetch-site"))
        {
            return refused(Refusal::Forged);
        }
        let form_type =
            text(headers, header::CONTENT_TYPE).is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
        if !form_type {
            return plain(StatusCode::UNSUPPORTED_MEDIA_TYPE, "changes are sent as forms");
        }
        let body = match Limited::new(request.into_body(), MAX_FORM_BYTES).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "the form is too large"),
        };
        // A change's text is stored: bytes that are not UTF-8 are refused, not replaced.
        let Some(form) = std::str::from_utf8(&body).ok().and_then(parse_change) else {
            return plain(StatusCode::BAD_REQUEST, "the form is not UTF-8 text");
        };
        if !guard::csrf_ok(session, form.get("csrf").map(String::as_str)) {
            return refused(Refusal::Forged);
        }
        match path {
            ["logout"] => {
                self.guard.logout(sid);
                let mut response = html(
                    StatusCode::OK,
                    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Logged out · ash-memory</title></head><body><main><h1>Logged out</h1><p>Run <code>ash-memory ui</code> again for a new link.</p></main></body></html>".into(),
                );
                response.headers_mut().insert(
                    header::SET_COOKIE,
                    HeaderValue::from_str(&format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"))
                        .expect("a valid cookie"),
                );
                response
            }
            ["as"] => match self.guard.switch(
                sid,
                form.get("user").map(String::as_str),
                form.get("chat").map(String::as_str),
            ) {
                Ok(()) => redirect("/"),
                Err(refusal) => refused(refusal),
            },
            _ => match self.change(&session.caller, path, &form).await {
                Ok(done) => {
                    self.guard.flash(sid, done.note);
                    redirect(&done.location)
                }
                Err(e) => {
                    let (status, text) = shown(&e);
                    let frame = Frame {
                        caller: &session.caller,
                        owner: session.owner,
                        csrf: &session.csrf,
                        flash: None,
                        query: "",
                    };
                    html(status, frame.page("Not possible", &html::problem(&text)))
                }
            },
        }
    }
}

/// The status and text a store error is shown with; failures of the store itself are
/// logged in full and shown without their details (paths, the component's words).
fn shown(e: &Error) -> (StatusCode, String) {
    match e.kind() {
        ErrorKind::NotFound => (StatusCode::NOT_FOUND, e.to_string()),
        ErrorKind::InvalidInput | ErrorKind::SecretRefused | ErrorKind::Unauthorized => {
            (StatusCode::BAD_REQUEST, e.to_string())
        }
        ErrorKind::Busy => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        _ => {
            tracing::error!("browser: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the store failed; the log of ash-memory says why".into(),
            )
        }
    }
}

fn refused(refusal: Refusal) -> Response<Body> {
    match refusal {
        Refusal::NotLoggedIn(why) => plain(StatusCode::UNAUTHORIZED, &why),
        Refusal::Forged => plain(
            StatusCode::FORBIDDEN,
            "refused: a change must come from this browser's own page",
        ),
    }
}

fn text<K: header::AsHeaderName>(headers: &HeaderMap, name: K) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// A query string's fields; bytes that are not UTF-8 read as U+FFFD (a page shows them).
fn parse_form(text: &str) -> HashMap<String, String> {
    form_urlencoded::parse(text.as_bytes()).into_owned().collect()
}

/// A change's fields, or none when one of them is not UTF-8 once decoded.
fn parse_change(text: &str) -> Option<HashMap<String, String>> {
    let decode = |part: &str| {
        percent_encoding::percent_decode_str(&part.replace('+', " "))
            .decode_utf8()
            .ok()
            .map(|s| s.into_owned())
    };
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(name)?, decode(value)?))
        })
        .collect()
}

fn html(status: StatusCode, page: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(page)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// See Other: after a login or a change, the browser asks for the next page by GET.
fn redirect(location: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = StatusCode::SEE_OTHER;
    response.headers_mut().insert(
        header::LOCATION,
        HeaderValue::from_str(location).unwrap_or_else(|_| HeaderValue::from_static("/")),
    );
    response
}

fn secured(mut response: Response<Body>) -> Response<Body> {
    for (name, value) in SECURITY_HEADERS {
        response.headers_mut().insert(name, HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::parse_change;

    #[test]
    fn a_change_decodes_as_a_form_and_refuses_bytes_that_are_not_utf8() {
        let form = parse_change("csrf=a%2Bb&content=I+moved+to+S%C3%A3o+Paulo&empty=&flag").unwrap();
        assert_eq!(form["csrf"], "a+b");
        assert_eq!(form["content"], "I moved to São Paulo");
        assert_eq!((form["empty"].as_str(), form["flag"].as_str()), ("", ""));
        assert!(parse_change("content=%FF%FE").is_none());
        assert!(parse_change("%FF=x").is_none());
    }
}
