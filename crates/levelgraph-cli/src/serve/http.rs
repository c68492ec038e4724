//! The routes: the page, its event stream and two JSON endpoints. Paths
//! are matched exactly — nothing is read from disk by a request's path, so
//! there is nothing to traverse — and requests whose `Host` is not this
//! server's loopback address are refused (a web page elsewhere cannot
//! reach it through a DNS name that resolves to 127.0.0.1).

use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tiny_http::{Header, Method, Request, Response};

use super::render::{self, Cache, Drawn, StepView};
use super::state::{Shown, State};

/// The largest request body read (a grammar saved from the page), in
/// bytes: larger is refused with 413 before it is read.
pub(crate) const MAX_BODY_BYTES: u64 = 1 << 20;

/// Event streams open at once; more are refused with 503 (each holds a
/// thread and a connection).
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
    pub(crate) streams: AtomicUsize,
}

/// Answers one request. Errors writing the answer are the client's (it
/// went away) and are dropped.
pub(crate) fn handle(site: &Arc<Site>, mut request: Request) {
    if !host_is_ours(&request, &site.host) {
        let _ = request.respond(text(421, "this server answers 127.0.0.1 only\n"));
        return;
    }
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    let response = match (&method, path) {
        (Method::Get, "/") => Ok(page()),
        (Method::Get, "/events") => return open_stream(site, request),
        (Method::Get, "/api/level") => level(site, query),
        (Method::Get, "/api/grammar") => Ok(grammar_text(site)),
        (Method::Put, "/api/grammar") => save_grammar(site, &mut request),
        (_, "/" | "/events" | "/api/level" | "/api/grammar") => {
            Err(text(405, "method not allowed\n"))
        }
        _ => Err(text(404, "not found\n")),
    };
    let _ = request.respond(response.unwrap_or_else(|e| e));
}

fn host_is_ours(request: &Request, host: &str) -> bool {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .is_some_and(|h| h.value.as_str() == host)
}

type Answer = Response<std::io::Cursor<Vec<u8>>>;

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn with_type(body: Vec<u8>, status: u16, content_type: &str) -> Answer {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        // The page's own scripts and styles, pictures as data: URLs, and
        // nothing from elsewhere.
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'",
        ))
        .with_header(header("X-Content-Type-Options", "nosniff"))
}

fn text(status: u16, body: &str) -> Answer {
    with_type(
        body.as_bytes().to_vec(),
        status,
        "text/plain; charset=utf-8",
    )
}

fn json(value: &impl Serialize) -> Answer {
    match serde_json::to_vec(value) {
        Ok(body) => with_type(body, 200, "application/json"),
        Err(e) => text(500, &format!("{e}\n")),
    }
}

fn page() -> Answer {
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
fn level(site: &Arc<Site>, query: &str) -> Result<Answer, Answer> {
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
fn grammar_text(site: &Arc<Site>) -> Answer {
    match site.state.snapshot().text {
        Some(t) => with_type(t.as_bytes().to_vec(), 200, "text/plain; charset=utf-8"),
        None => text(404, "the grammar file could not be read\n"),
    }
}

/// `PUT /api/grammar`: saves the body as the grammar file, atomically
/// (a temporary file in the same folder, then renamed over it); the
/// watcher then reloads it as after any save. PUT, not POST: a page on
/// another site cannot send one here without a CORS preflight, which this
/// server never grants.
fn save_grammar(site: &Arc<Site>, request: &mut Request) -> Result<Answer, Answer> {
    let too_large = || {
        text(
            413,
            &format!(
                "a grammar saved from the page is at most {} MiB\n",
                MAX_BODY_BYTES >> 20
            ),
        )
    };
    if request
        .body_length()
        .is_some_and(|n| n as u64 > MAX_BODY_BYTES)
    {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut body)
        .map_err(|e| text(400, &format!("{e}\n")))?;
    if body.len() as u64 > MAX_BODY_BYTES {
        return Err(too_large());
    }
    let body = String::from_utf8(body).map_err(|_| text(400, "the grammar is not UTF-8 text\n"))?;
    super::save::atomically(&site.state.path, body.as_bytes()).map_err(|e| {
        text(
            500,
            &format!("cannot save {}: {e}\n", site.state.shown_name),
        )
    })?;
    Ok(text(200, "saved\n"))
}

/// Counts an open event stream; the count goes down when it is dropped.
struct StreamSlot<'a>(&'a AtomicUsize);

impl Drop for StreamSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `GET /events`: server-sent events, `data: GENERATION` after every
/// reload (and once at once), on a thread of its own; at most
/// [`MAX_STREAMS`] at a time.
fn open_stream(site: &Arc<Site>, request: Request) {
    let open = site.streams.fetch_add(1, Ordering::AcqRel);
    if open >= MAX_STREAMS {
        site.streams.fetch_sub(1, Ordering::AcqRel);
        let _ = request.respond(text(503, "too many event streams open\n"));
        return;
    }
    let mine = Arc::clone(site);
    let spawned = std::thread::Builder::new()
        .name("serve-events".into())
        .spawn(move || {
            let _slot = StreamSlot(&mine.streams);
            let _ = stream_events(&mine, request.into_writer());
        });
    if spawned.is_err() {
        // No thread, so no slot guard: the count is given back here (the
        // request, dropped with the closure, closes its connection).
        site.streams.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Writes the stream until the client goes away (a write fails).
fn stream_events(site: &Site, mut w: Box<dyn Write + Send>) -> std::io::Result<()> {
    // The response is written by hand: a body read from a `Read` would be
    // sent chunk-encoded and buffered, and an event must go at once.
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
