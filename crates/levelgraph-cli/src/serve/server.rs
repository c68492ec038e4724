//! The connection layer under `http.rs`: accepts connections on the
//! loopback listener, reads one HTTP/1.1 request from each (parsed by
//! `httparse`), hands it to the routes and writes the answer. One request
//! per connection (`Connection: close`); a thread per connection, at most
//! [`Limits::connections`] of them.
//!
//! Every wait is bounded, so no client can hold the server: the request
//! head must arrive whole within [`Limits::head_time`] and the body within
//! [`Limits::body_time`] (a deadline, not a per-read timeout, so a client
//! sending a byte at a time is cut off too); writes give up after
//! [`Limits::write_time`]; a connection beyond the cap is answered 503 at
//! once and closed. The accept loop never ends on an error (running out of
//! file descriptors included): it waits a moment and accepts again.
//!
//! Why not an HTTP crate's server: the small synchronous one tried first
//! (tiny_http 0.12) starts a thread per connection with no maximum, sets no
//! read timeout, and stops accepting for good at the first `accept` error —
//! so a flood of half-sent requests could exhaust threads or file
//! descriptors and end the server. Parsing stays with a library
//! (`httparse`); what is ours is the accept loop and these bounds.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What bounds the server.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Connections open at once (each on a thread of its own, event
    /// streams included); more are answered 503 and closed.
    pub(crate) connections: usize,
    /// Bytes of a request head (request line and headers); more: 431.
    pub(crate) head_bytes: usize,
    /// Bytes of a request body, as its `Content-Length` says; more: 413,
    /// before any of it is read.
    pub(crate) body_bytes: usize,
    /// Time from the connection's start to the head's last byte; after
    /// it: 408 and the connection closed.
    pub(crate) head_time: Duration,
    /// Time for the body after the head; after it: 408.
    pub(crate) body_time: Duration,
    /// Time a single write may block (a client that does not read).
    pub(crate) write_time: Duration,
}

/// One request, read whole.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) method: String,
    /// The request target as sent: path and query (`/api/level?seed=3`).
    pub(crate) target: String,
    headers: Vec<(String, Vec<u8>)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    /// The first header of that name (case-insensitive), when its value is
    /// text.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| std::str::from_utf8(v).ok())
    }
}

/// A whole answer: status, headers beside `Content-Length` and
/// `Connection`, and the body.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    /// A plain-text answer.
    pub(crate) fn text(status: u16, body: &str) -> Response {
        Response {
            status,
            headers: vec![("Content-Type", "text/plain; charset=utf-8".to_owned())],
            body: body.as_bytes().to_vec(),
        }
    }
}

/// A stream writer: it writes its own head and then the stream, on the
/// connection's thread, until it returns (a write failed: the client went
/// away, or did not read for [`Limits::write_time`]).
pub(crate) type Streamer = Box<dyn FnOnce(&mut TcpStream) -> io::Result<()> + Send>;

/// What the routes give back for a request.
pub(crate) enum Reply {
    Whole(Response),
    Stream(Streamer),
}

/// Accepts connections for ever, answering each with `route`.
pub(crate) fn run<F>(listener: TcpListener, limits: Limits, route: F) -> !
where
    F: Fn(Request) -> Reply + Send + Sync + 'static,
{
    let route = Arc::new(route);
    let open = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors or memory, or a connection reset
                // before it was accepted: none of them ends the server.
                if e.kind() != io::ErrorKind::ConnectionAborted {
                    std::thread::sleep(Duration::from_millis(50));
                }
                continue;
            }
        };
        let slot = Slot::take(&open, limits.connections);
        let Some(slot) = slot else {
            turn_away(stream);
            continue;
        };
        let route = Arc::clone(&route);
        // When no thread can be started the closure is dropped with its
        // slot and stream: the count goes back down, the connection closes.
        let _ = std::thread::Builder::new()
            .name("serve-connection".into())
            .spawn(move || {
                let _slot = slot;
                connection(stream, &limits, &*route);
            });
    }
}

/// A place among at most `cap` of something open at once (connections,
/// event streams), counted in a shared counter; given back when dropped,
/// so a place is never lost, however its holder ends.
pub(crate) struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A place, when fewer than `cap` are taken.
    pub(crate) fn take(open: &Arc<AtomicUsize>, cap: usize) -> Option<Slot> {
        if open.fetch_add(1, Ordering::AcqRel) >= cap {
            open.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot(Arc::clone(open)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A connection over the cap: 503 and closed, from the accept loop, which
/// must not wait on it (a fresh socket's send buffer takes the few bytes
/// at once; the short timeout is for the impossible case). What the
/// client has already sent is read first without waiting, as closing with
/// unread bytes would reset the connection and could lose the answer.
fn turn_away(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let mut busy = Response::text(503, "too many connections open; try again\n");
    busy.headers.push(("Retry-After", "1".to_owned()));
    let _ = write_response(&mut stream, &busy);
    let _ = stream.shutdown(Shutdown::Write);
    if stream.set_nonblocking(true).is_ok() {
        let _ = io::copy(&mut (&mut stream).take(16 << 10), &mut io::sink());
    }
}

fn connection(mut stream: TcpStream, limits: &Limits, route: &dyn Fn(Request) -> Reply) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(limits.write_time));
    let reply = match read_request(&mut stream, limits) {
        Ok(request) => route(request),
        Err(Some(refusal)) => Reply::Whole(refusal),
        // The client closed before sending a request: nothing to answer.
        Err(None) => return,
    };
    match reply {
        Reply::Whole(response) => {
            if write_response(&mut stream, &response).is_ok() {
                linger(stream);
            }
        }
        Reply::Stream(streamer) => {
            let _ = streamer(&mut stream);
        }
    }
}

/// Closes the sending side and reads what the client still sends (say,
/// the rest of a body refused for its size) for a short while, so that
/// closing does not reset the connection before the answer is read. The
/// while is a deadline: a client that keeps sending does not keep it.
fn linger(mut stream: TcpStream) {
    const LINGER: Duration = Duration::from_millis(200);
    const LINGER_BYTES: usize = 4 << 20;
    if stream.shutdown(Shutdown::Write).is_err() {
        return;
    }
    let deadline = Instant::now() + LINGER;
    let mut scratch = Vec::with_capacity(8192);
    let mut drained = 0;
    while drained < LINGER_BYTES {
        scratch.clear();
        match read_some(&mut stream, &mut scratch, 8192, deadline) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// Reads one request: its head within the head's time and size limits,
/// its body by `Content-Length` within the body's. `Err(Some(_))` is the
/// answer to a request refused; `Err(None)` a client gone.
fn read_request(stream: &mut TcpStream, limits: &Limits) -> Result<Request, Option<Response>> {
    let head_deadline = Instant::now() + limits.head_time;
    let mut buffer = Vec::with_capacity(2048);
    // Where the search for the head's end starts: what was searched
    // before, less the three bytes a split "\r\n\r\n" may have begun in
    // (a head sent a byte at a time is searched once, not once per byte).
    let mut searched = 0;
    let head_end = loop {
        if let Some(end) = find_head_end(&buffer, searched) {
            break end;
        }
        searched = buffer.len().saturating_sub(3);
        if buffer.len() >= limits.head_bytes {
            return Err(Some(Response::text(
                431,
                &format!(
                    "a request head is at most {} KiB\n",
                    limits.head_bytes >> 10
                ),
            )));
        }
        let room = limits.head_bytes - buffer.len();
        read_more(stream, &mut buffer, room, head_deadline)?;
    };
    let mut request = parse_head(&buffer[..head_end])?;
    if request.header("Transfer-Encoding").is_some() {
        return Err(Some(Response::text(
            411,
            "a request body needs a Content-Length\n",
        )));
    }
    let length = match request.header("Content-Length") {
        None => 0,
        Some(n) => n
            .trim()
            .parse::<usize>()
            .map_err(|_| Some(Response::text(400, "Content-Length is not a number\n")))?,
    };
    if length > limits.body_bytes {
        return Err(Some(Response::text(
            413,
            &format!(
                "a request body is at most {} MiB\n",
                limits.body_bytes >> 20
            ),
        )));
    }
    let mut body = buffer.split_off(head_end);
    body.truncate(length);
    if body.len() < length {
        if request
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
        {
            stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .map_err(|_| None)?;
        }
        let body_deadline = Instant::now() + limits.body_time;
        while body.len() < length {
            let room = length - body.len();
            read_more(stream, &mut body, room, body_deadline)?;
        }
    }
    request.body = body;
    Ok(request)
}

/// [`read_some`] while a request is read: `Err(Some(408))` when the
/// deadline passed, `Err(None)` when the client closed or failed.
fn read_more(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
    room: usize,
    deadline: Instant,
) -> Result<(), Option<Response>> {
    match read_some(stream, buffer, room, deadline) {
        Ok(0) => Err(None),
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(Some(Response::text(
                408,
                "the request did not arrive in time\n",
            )))
        }
        Err(_) => Err(None),
    }
}

/// Appends what one read gives, at most `room` bytes, waiting no later
/// than `deadline` (a timed-out error once it has passed).
fn read_some(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
    room: usize,
    deadline: Instant,
) -> io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::ErrorKind::TimedOut.into());
    }
    stream.set_read_timeout(Some(left))?;
    let mut chunk = [0u8; 8192];
    let want = room.min(chunk.len());
    let n = stream.read(&mut chunk[..want])?;
    buffer.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// The length of the head (through its blank line), once it is all there;
/// the blank line is looked for from `from` on.
fn find_head_end(buffer: &[u8], from: usize) -> Option<usize> {
    buffer
        .get(from..)?
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| from + i + 4)
}

/// The most headers a request may have; more: 431.
const MAX_HEADERS: usize = 64;

fn parse_head(head: &[u8]) -> Result<Request, Option<Response>> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => {
            return Err(Some(Response::text(400, "an incomplete request head\n")))
        }
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Some(Response::text(
                431,
                &format!("a request has at most {MAX_HEADERS} headers\n"),
            )))
        }
        Err(e) => return Err(Some(Response::text(400, &format!("bad request: {e}\n")))),
    }
    Ok(Request {
        method: parsed.method.unwrap_or_default().to_owned(),
        target: parsed.path.unwrap_or_default().to_owned(),
        headers: parsed
            .headers
            .iter()
            .map(|h| (h.name.to_owned(), h.value.to_vec()))
            .collect(),
        body: Vec::new(),
    })
}

fn write_response(stream: &mut TcpStream, response: &Response) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        response.status,
        reason(response.status),
        response.body.len()
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut whole = head.into_bytes();
    whole.extend_from_slice(&response.body);
    stream.write_all(&whole)?;
    stream.flush()
}

/// The reason phrase of the statuses this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_ends_at_its_blank_line() {
        let whole = b"GET / HTTP/1.1\r\nHost: a\r\n\r\nbody";
        assert_eq!(find_head_end(whole, 0), Some(27));
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n", 0), None);
        // Searched again from where a split blank line may have begun.
        for from in 0..=23 {
            assert_eq!(find_head_end(whole, from), Some(27), "from {from}");
        }
        assert_eq!(find_head_end(whole, 24), None);
        assert_eq!(find_head_end(whole, 99), None);
    }

    #[test]
    fn heads_are_parsed_and_refused() {
        let request =
            parse_head(b"PUT /api/grammar?x=1 HTTP/1.1\r\nhost: a:1\r\nContent-Length: 3\r\n\r\n")
                .unwrap();
        assert_eq!(request.method, "PUT");
        assert_eq!(request.target, "/api/grammar?x=1");
        assert_eq!(request.header("Host"), Some("a:1"));
        assert_eq!(request.header("content-length"), Some("3"));
        assert_eq!(request.header("Expect"), None);
        let status = |head: &[u8]| parse_head(head).unwrap_err().unwrap().status;
        assert_eq!(status(b"GET / HTTP/1.1\r\nbad header\r\n\r\n"), 400);
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(status(many.as_bytes()), 431);
    }
}
