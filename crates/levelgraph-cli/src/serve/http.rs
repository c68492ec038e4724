//! The routes: the page, its event stream and two JSON endpoints. Paths
//! are matched exactly — nothing is read from disk by a request's path, so
//! there is nothing to traverse — and requests whose `Host` is not this
//! server's loopback address are refused (a web page elsewhere cannot
//! reach it through a DNS name that resolves to 127.0.0.1).

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::render::{self, Cache, Drawn, StepView};
use super::server::{Reply, Request, Response, Slot};
use super::state::{Shown, State};

/// Event streams open at once; more are refused with 503 (each holds a
/// thread and a connection, and counts among the server's connections).
pub(crate) const MAX_STREAMS: usize = 16;

/// How often an idle event stream sends a comment, so that a closed tab's
/// connection is noticed and its thread ends.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

const PAGE: &str = include_str!("page.html");

/// What every request thread shares.
pub(crate) struct Site {
    pub(crate) state: Arc<State>,
    pub(crate) cache: Cache,
    /// `127.0.0.1:PORT`, the only `Host` answered.
    pub(crate) host: String,
    /// The seed the page shows first.
    pub(crate) seed: u64,
    /// Event streams open now (their [`Slot`]s).
    pub(crate) streams: Arc<AtomicUsize>,
}

/// Answers one request (the body, when there is one, already read whole
/// and within the server's limit).
pub(crate) fn handle(site: &Arc<Site>, request: Request) -> Reply {
    if request.header("Host") != Some(site.host.as_str()) {
        return Reply::Whole(text(421, "this server answers 127.0.0.1 only\n"));
    }
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let answer = match (request.method.as_str(), path) {
        ("GET", "/") => Ok(page()),
        ("GET", "/events") => return open_stream(site),
        ("GET", "/api/level") => level(site, query),
        ("GET", "/api/grammar") => Ok(grammar_text(site)),
        ("PUT", "/api/grammar") => save_grammar(site, &request.body),
        (_, "/" | "/events" | "/api/level" | "/api/grammar") => {
            Err(text(405, "method not allowed\n"))
        }
        _ => Err(text(404, "not found\n")),
    };
    Reply::Whole(answer.unwrap_or_else(|e| e))
}

fn with_type(body: Vec<u8>, status: u16, content_type: &str) -> Response {
    Response {
        status,
        headers: vec![
            ("Content-Type", content_type.to_owned()),
            ("Cache-Control", "no-store".to_owned()),
            // The page's own scripts and styles, pictures as data: URLs,
            // and nothing from elsewhere.
            (
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'".to_owned(),
            ),
            ("X-Content-Type-Options", "nosniff".to_owned()),
        ],
        body,
    }
}

fn text(status: u16, body: &str) -> Response {
    with_type(
        body.as_bytes().to_vec(),
        status,
        "text/plain; charset=utf-8",
    )
}

fn json(value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => with_type(body, 200, "application/json"),
        Err(e) => text(500, &format!("{e}\n")),
    }
}

fn page() -> Response {
    with_type(PAGE.as_bytes().to_vec(), 200, "text/html; charset=utf-8")
}

/// The answer of `/api/level`.
#[derive(Serialize)]
struct LevelAnswer<'a> {
    generation: u64,
    grammar_file: &'a str,
    /// The generation of the grammar the level is of (older than
    /// `generation` when the file's last reading has errors).
    level_generation: Option<u64>,
    grammar_name: Option<&'a str>,
    diagnostics: &'a [Shown],
    level: Option<&'a Drawn>,
    step: Option<StepView>,
}

/// `GET /api/level?seed=N&step=K`: the level of seed N (the first seed
/// when absent) of the last good grammar, the graph after K applications
/// when asked, and the current diagnostics.
fn level(site: &Arc<Site>, query: &str) -> Result<Response, Response> {
    let mut seed = site.seed;
    let mut step = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("seed", v)) => {
                seed = crate::parse_seed(v).map_err(|e| text(400, &format!("{e}\n")))?
            }
            Some(("step", v)) => {
                step = Some(
                    v.parse::<usize>()
                        .map_err(|_| text(400, "a step is a whole number\n"))?,
                )
            }
            _ => return Err(text(400, "the parameters are seed and step\n")),
        }
    }
    let snapshot = site.state.snapshot();
    let drawn = snapshot.good.as_ref().map(|g| site.cache.level(g, seed));
    let step_view = match (&snapshot.good, &drawn, step) {
        (Some(good), Some(d), Some(k)) => render::step_view(good, d, k),
        _ => None,
    };
    Ok(json(&LevelAnswer {
        generation: snapshot.generation,
        grammar_file: &site.state.shown_name,
        level_generation: snapshot.good.as_ref().map(|g| g.generation),
        grammar_name: snapshot.good.as_ref().map(|g| g.grammar.name()),
        diagnostics: &snapshot.problems,
        level: drawn.as_deref(),
        step: step_view,
    }))
}

/// `GET /api/grammar`: the file's text as last read.
fn grammar_text(site: &Arc<Site>) -> Response {
    match site.state.snapshot().text {
        Some(t) => with_type(t.as_bytes().to_vec(), 200, "text/plain; charset=utf-8"),
        None => text(404, "the grammar file could not be read\n"),
    }
}

/// `PUT /api/grammar`: saves the body as the grammar file, atomically
/// (a temporary file in the same folder, then renamed over it); the
/// watcher then reloads it as after any save. PUT, not POST: a page on
/// another site cannot send one here without a CORS preflight, which this
/// server never grants. The server has refused bodies over its limit
/// (1 MiB, 413) before reading them.
fn save_grammar(site: &Arc<Site>, body: &[u8]) -> Result<Response, Response> {
    let body =
        std::str::from_utf8(body).map_err(|_| text(400, "the grammar is not UTF-8 text\n"))?;
    super::save::atomically(&site.state.path, body.as_bytes()).map_err(|e| {
        text(
            500,
            &format!("cannot save {}: {e}\n", site.state.shown_name),
        )
    })?;
    Ok(text(200, "saved\n"))
}

/// `GET /events`: server-sent events, `data: GENERATION` after every
/// reload (and once at once), on the connection's thread; at most
/// [`MAX_STREAMS`] at a time.
fn open_stream(site: &Arc<Site>) -> Reply {
    match Slot::take(&site.streams, MAX_STREAMS) {
        None => Reply::Whole(text(503, "too many event streams open\n")),
        Some(slot) => {
            let site = Arc::clone(site);
            Reply::Stream(Box::new(move |connection: &mut TcpStream| {
                let _slot = slot;
                stream_events(&site, connection)
            }))
        }
    }
}

/// Writes the stream until the client goes away: a write fails, or blocks
/// longer than the server's write limit (a client that stopped reading).
/// The stream has no length, so it ends with the connection.
fn stream_events(site: &Site, w: &mut TcpStream) -> std::io::Result<()> {
    w.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
    )?;
    let mut seen = site.state.snapshot().generation;
    writeln!(w, "retry: 500\ndata: {seen}\n")?;
    w.flush()?;
    loop {
        let now = site.state.wait_past(seen, KEEP_ALIVE);
        if now > seen {
            seen = now;
            writeln!(w, "data: {seen}\n")?;
        } else {
            w.write_all(b": keep-alive\n\n")?;
        }
        w.flush()?;
    }
}
