//! The memory browser (`ash-memory ui`, `serve --ui`) driven by a real headless Chromium
//! through chromedriver (Debian's `chromium` and `chromium-driver`, which `.ci/run`
//! installs) and the fantoccini WebDriver client, each page checked against the CLI's view
//! of the same home; and its guard spoken to over raw HTTP, as a hostile page or process
//! would.
//!
//! Without a chromedriver the browser tests say so and stop, unless
//! `ASH_TEST_REQUIRE_BROWSER=1` (as in CI), when they fail.

mod guard;
mod pages;
mod tokens;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::support::ctx::Ctx;
use crate::support::fixtures::free_port;

/// A running `ash-memory ui`, killed when dropped.
pub struct Ui {
    child: Child,
    /// The one-time login link it printed.
    pub link: String,
    pub port: u16,
}

impl Ui {
    /// `ash-memory ui --no-open` on a free port of loopback, with `args` before `ui`.
    pub fn start(ctx: &Ctx, args: &[&str]) -> Ui {
        let mut child = ctx
            .command()
            .args(args)
            .args(["ui", "--no-open", "--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the link");
        let link = line.trim().to_owned();
        assert!(link.starts_with("http://127.0.0.1:"), "not a link: {link:?}");
        let port = link["http://127.0.0.1:".len()..]
            .split('/')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port");
        Ui { child, link, port }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver, if this machine has one.
fn chromedriver() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("ASH_TEST_CHROMEDRIVER") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// One browser at a time: two Chromiums on two cores only slow each other down.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// A headless Chromium behind its own chromedriver, closed when `run` returns.
pub struct Browser {
    pub client: Client,
}

/// Runs `test` with a fresh browser, or returns without running it when there is no
/// chromedriver (and the run does not require one).
pub fn with_browser<F, Fut>(test: F)
where
    F: FnOnce(Browser) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let Some(driver_path) = chromedriver() else {
        if std::env::var("ASH_TEST_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
            panic!("no chromedriver: install Debian's chromium and chromium-driver");
        }
        eprintln!("no chromedriver on this machine: the browser test is not run");
        return;
    };
    let _one = ONE_BROWSER.lock().unwrap_or_else(|p| p.into_inner());
    // Chromium's profile and scratch folders go here, not into /tmp, where a killed browser
    // leaves them behind; the folder goes when the run ends, after the driver (dropped first).
    let scratch = tempfile::tempdir().expect("a scratch folder for the browser");
    let port = free_port();
    let mut driver = Driver(
        Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .env("TMPDIR", scratch.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    wait_for_port(port, &mut driver.0);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let mut options = json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"] });
        // More flags for a look at the pages (`--force-dark-mode` for the dark scheme).
        if let Ok(extra) = std::env::var("ASH_TEST_BROWSER_ARGS") {
            for arg in extra.split_whitespace() {
                options["args"].as_array_mut().expect("args").push(json!(arg));
            }
        }
        if Path::new("/usr/bin/chromium").exists() {
            options["binary"] = json!("/usr/bin/chromium");
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a browser session");
        let closer = client.clone();
        test(Browser { client }).await;
        let _ = closer.close().await;
    });
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for_port(port: u16, child: &mut Child) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if let Some(status) = child.try_wait().expect("chromedriver's state") {
            panic!("chromedriver exited: {status}");
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("chromedriver did not listen within 30 s");
}

impl Browser {
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("opening {url}: {e}"));
    }

    /// The text of the first element `css` finds.
    pub async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .text()
            .await
            .expect("its text")
    }

    /// The texts of every element `css` finds.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for e in self.client.find_all(Locator::Css(css)).await.expect("a search") {
            out.push(e.text().await.expect("its text"));
        }
        out
    }

    /// Clicks the link or button `css` finds, and waits for the page it leads to.
    pub async fn click(&self, css: &str) {
        let element = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        self.navigating(element).await;
    }

    /// Clicks what `css` finds (an option of a select) without leaving the page.
    pub async fn choose(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("clicking {css}: {e}"));
    }

    /// Clicks the button whose text is `label` inside the first element `css` finds, and
    /// waits for the page it leads to.
    pub async fn press(&self, css: &str, label: &str) {
        let scope = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        for button in scope.find_all(Locator::Css("button")).await.expect("buttons") {
            if button.text().await.expect("a label") == label {
                self.navigating(button).await;
                return;
            }
        }
        panic!("no button {label:?} in {css}");
    }

    /// Clicks `element` and waits until the page it was on is gone (its root element
    /// stale) and the next one has loaded: a click returns before a form's answer.
    async fn navigating(&self, element: fantoccini::elements::Element) {
        let old = self.client.find(Locator::Css("html")).await.expect("a page");
        element.click().await.expect("a click");
        let start = Instant::now();
        while old.tag_name().await.is_ok() {
            assert!(start.elapsed() < Duration::from_secs(30), "the click led nowhere");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.client
            .wait()
            .for_element(Locator::Css("body"))
            .await
            .expect("the next page");
    }

    /// Types into the field `css` finds, after clearing it.
    pub async fn fill(&self, css: &str, text: &str) {
        let field = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        field.clear().await.expect("cleared");
        field.send_keys(text).await.expect("typed");
    }

    /// Types `text` into the field `css` finds and presses Enter, as a person at the
    /// keyboard submits a form, and waits for the page it leads to.
    pub async fn enter(&self, css: &str, text: &str) {
        self.fill(css, text).await;
        let field = self.client.find(Locator::Css(css)).await.expect("the field");
        let old = self.client.find(Locator::Css("html")).await.expect("a page");
        field.send_keys("\u{E007}").await.expect("Enter");
        let start = Instant::now();
        while old.tag_name().await.is_ok() {
            assert!(start.elapsed() < Duration::from_secs(30), "Enter led nowhere");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Saves a screenshot of the page as `name`.png in `ASH_TEST_SCREENSHOTS`, when set
    /// (for the pictures a change's description shows).
    pub async fn picture(&self, name: &str) {
        if let Ok(dir) = std::env::var("ASH_TEST_SCREENSHOTS") {
            let png = self.client.screenshot().await.expect("a screenshot");
            std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).expect("saved");
        }
    }

    pub async fn path(&self) -> String {
        let url = self.client.current_url().await.expect("a URL");
        match url.query().filter(|q| !q.is_empty()) {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        }
    }

    pub async fn source(&self) -> String {
        self.client.source().await.expect("the page's source")
    }
}

/// One raw HTTP/1.1 exchange: what a hostile page, a rebinding DNS name or a curious
/// process would send. Returns the status and the whole answer.
pub fn http(port: u16, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    stream.write_all(request.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    (status, answer)
}

/// Logs in with `link` over raw HTTP and returns the session cookie.
pub fn login(port: u16, link: &str) -> String {
    let target = &link[link.find(&format!(":{port}")).expect("the port") + format!(":{port}").len()..];
    let (status, answer) = http(
        port,
        &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 303, "{answer}");
    let cookie = answer
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .expect("a cookie");
    cookie.split(';').next().expect("name=value").to_owned()
}
