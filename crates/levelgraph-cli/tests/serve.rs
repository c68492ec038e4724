//! `levelgraph serve`: the server's limits and refusals over plain HTTP,
//! and the page in a real browser (headless Chromium driven by
//! chromedriver through the WebDriver protocol): it draws the level,
//! follows edits of the grammar file, shows a broken edit's error beside
//! the last good level, and its seed and step controls work.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_levelgraph");

/// How long any wait in these tests may take before it fails.
const PATIENCE: Duration = Duration::from_secs(30);

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Waits until `probe` gives a value, polling every 25 ms, for at most
/// [`PATIENCE`]; fails naming `what`.
fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A running `levelgraph serve`, stopped when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    address: String,
}

impl Server {
    fn start(grammar: &Path) -> Server {
        let mut command = Command::new(BIN);
        command.args(["serve", "--port", "0"]).arg(grammar);
        Server::spawn(command)
    }

    /// `serve` allowed at most `files` open file descriptors (the shell's
    /// `ulimit -n`, then `exec`, so the child is the server itself).
    fn start_with_file_limit(grammar: &Path, files: u32) -> Server {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
            .arg(BIN)
            .args(["serve", "--port", "0"])
            .arg(grammar);
        Server::spawn(command)
    }

    fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(PATIENCE).expect("serve prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, address }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Whether the process is still running.
    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request over a fresh connection: the status and the body.
fn request(address: &str, head: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.set_write_timeout(Some(PATIENCE)).unwrap();
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    read_response(&mut stream)
}

/// Reads a response: by its Content-Length, else to the end.
fn read_response(stream: &mut TcpStream) -> (u16, Vec<u8>) {
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let code = status
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut length = None;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            reader.read_exact(&mut body).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    (code, body)
}

fn get(server: &Server, path: &str) -> (u16, Vec<u8>) {
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.address
    );
    request(&server.address, &head, b"")
}

fn level(server: &Server, query: &str) -> Value {
    let (code, body) = get(server, &format!("/api/level{query}"));
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    serde_json::from_slice(&body).unwrap()
}

fn grammar_file(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let path = dir.join("g.lg");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn only_its_own_paths_are_served() {
    let (_dir, path) = grammar_file("paths", &example("default.lg"));
    let server = Server::start(&path);
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    assert_eq!(get(&server, "/").0, 200);
    for bad in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2e%2e/",
        "/api/grammar/../..",
        "/api/grammar/../../Cargo.toml",
        "//etc/passwd",
        "/g.lg",
        "/index.html",
        "/api/level/../grammar",
    ] {
        let (code, body) = get(&server, bad);
        assert_eq!(code, 404, "{bad}");
        assert!(
            !String::from_utf8_lossy(&body).contains("[package]"),
            "{bad}"
        );
    }
    // Another Host (a DNS name made to resolve to 127.0.0.1): refused.
    let head = "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n";
    assert_eq!(request(&server.address, head, b"").0, 421);
    // Saving is PUT only.
    let head = format!(
        "POST /api/grammar HTTP/1.1\r\nHost: {}\r\nContent-Length: 1\r\nConnection: close\r\n\r\n",
        server.address
    );
    assert_eq!(request(&server.address, &head, b"x").0, 405);
}

#[test]
fn malformed_requests_are_answered_not_fatal() {
    let (_dir, path) = grammar_file("malformed", &example("default.lg"));
    let mut server = Server::start(&path);
    let address = server.address.clone();
    let put = |extra: &str| {
        format!("PUT /api/grammar HTTP/1.1\r\nHost: {address}\r\n{extra}Connection: close\r\n\r\n")
    };
    // A head over 16 KiB.
    let long = put(&format!("X-Long: {}\r\n", "a".repeat(20 << 10)));
    assert_eq!(request(&address, &long, b"").0, 431);
    // More than 64 headers.
    let many = put(&"X-Many: 1\r\n".repeat(65));
    assert_eq!(request(&address, &many, b"").0, 431);
    // Not HTTP, and a length that is not a number.
    assert_eq!(request(&address, "\x01\x02 nonsense\r\n\r\n", b"").0, 400);
    assert_eq!(
        request(&address, &put("Content-Length: many\r\n"), b"").0,
        400
    );
    // A chunked body: a length is required (the page always sends one).
    let chunked = put("Transfer-Encoding: chunked\r\n");
    assert_eq!(request(&address, &chunked, b"3\r\nabc\r\n0\r\n\r\n").0, 411);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        example("default.lg")
    );
    // `Expect: 100-continue` (curl's way with a large body): told to go on.
    let text = example("default.lg").replace("keys-and-cycles", "after-continue");
    let head = put(&format!(
        "Content-Length: {}\r\nExpect: 100-continue\r\n",
        text.len()
    ));
    let mut s = TcpStream::connect(&address).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut interim = [0u8; 25];
    s.read_exact(&mut interim).unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    s.write_all(text.as_bytes()).unwrap();
    assert_eq!(read_response(&mut s).0, 200);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // A client that goes on sending after its answer does not keep the
    // connection: the server reads on only briefly, then closes it (the
    // writes here then fail).
    let mut s = TcpStream::connect(&address).unwrap();
    let head = format!("GET /api/grammar HTTP/1.1\r\nHost: {address}\r\n\r\n");
    s.write_all(head.as_bytes()).unwrap();
    let start = Instant::now();
    while s.write_all(b"x").is_ok() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still connected after 5 s of sending"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // A body that stops halfway: 408 when the body's time is up (10 s);
    // the grammar is not touched.
    let head = put("Content-Length: 100\r\n");
    let mut s = TcpStream::connect(&address).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(b"# half").unwrap();
    assert_eq!(read_response(&mut s).0, 408);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert!(server.alive());
    assert_eq!(get(&server, "/").0, 200);
}

#[test]
fn it_listens_on_loopback_only() {
    // No option names another address.
    for flag in ["--host", "--bind", "--address"] {
        let out = Command::new(BIN)
            .args(["serve", flag, "0.0.0.0", "--port", "0", "g.lg"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
    }
    let (_dir, path) = grammar_file("loopback", &example("default.lg"));
    let server = Server::start(&path);
    let port = server.address.rsplit(':').next().unwrap();
    // The machine's own address on its way out (a UDP "connection" sends
    // nothing): the server must not answer there.
    let outward = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("10.255.255.255:9").map(|()| s))
        .and_then(|s| s.local_addr());
    match outward {
        Ok(a) if !a.ip().is_loopback() && !a.ip().is_unspecified() => {
            let there = format!("{}:{port}", a.ip());
            let connected =
                TcpStream::connect_timeout(&there.parse().unwrap(), Duration::from_secs(5));
            assert!(connected.is_err(), "serve answers on {there}");
        }
        _ => eprintln!("note: no address besides loopback; only the printed address is checked"),
    }
}

/// Opens an event stream: the connection and its status line's first 12
/// bytes (`HTTP/1.1 200` or `HTTP/1.1 503`).
fn open_events(address: &str) -> (TcpStream, [u8; 12]) {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let head = format!("GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n");
    s.write_all(head.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    s.read_exact(&mut first).unwrap();
    (s, first)
}

#[test]
fn a_storm_of_requests_leaves_it_answering() {
    let (_dir, path) = grammar_file("storm", &example("default.lg"));
    let mut server = Server::start(&path);
    let address = server.address.clone();
    let threads: Vec<_> = (0..500)
        .map(|i| {
            let address = address.clone();
            std::thread::spawn(move || {
                let path = match i % 4 {
                    0 => "/".to_owned(),
                    1 => format!("/api/level?seed={}", i % 7),
                    2 => "/api/grammar".to_owned(),
                    _ => "/nothing".to_owned(),
                };
                let head =
                    format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
                // A connection the server closed early is no failure here:
                // what is tested is that it still answers afterwards.
                if let Ok(mut s) = TcpStream::connect(&address) {
                    let _ = s.set_read_timeout(Some(PATIENCE));
                    let _ = s.write_all(head.as_bytes());
                    let mut sink = Vec::new();
                    let _ = s.read_to_end(&mut sink);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    // Event streams beyond the cap are refused, the others held.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..24 {
        let (s, first) = open_events(&address);
        match &first {
            b"HTTP/1.1 200" => held.push(s),
            b"HTTP/1.1 503" => refused += 1,
            other => panic!("{}", String::from_utf8_lossy(other)),
        }
    }
    assert_eq!((held.len(), refused), (16, 8));
    drop(held);
    assert!(server.alive());
    assert_eq!(get(&server, "/").0, 200);
    let answer = level(&server, "?seed=3");
    assert!(answer["level"]["vertices"].as_u64().unwrap() > 0);
    // Closed streams give their places back (noticed at the next write,
    // a keep-alive or an event: a reload writes one to every stream).
    std::fs::write(&path, example("default.lg") + "\n").unwrap();
    wait_for("a stream place to come back", || {
        (&open_events(&address).1 == b"HTTP/1.1 200").then_some(())
    });
}

#[test]
fn oversized_saves_and_grammars_are_refused_not_fatal() {
    let (_dir, path) = grammar_file("sizes", &example("default.lg"));
    let mut server = Server::start(&path);
    // A body over 1 MiB: 413, refused by its length before it is read.
    let head = format!(
        "PUT /api/grammar HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.address,
        2 << 20
    );
    let (code, _) = request(&server.address, &head, &[b'#'; 4096]);
    assert_eq!(code, 413);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        example("default.lg")
    );
    // A grammar file of 5 MiB: an error in the page, the last good level kept.
    let before = level(&server, "?seed=1");
    let huge = format!("{}\n# {}\n", example("default.lg"), "x".repeat(5 << 20));
    std::fs::write(&path, huge).unwrap();
    // The 5 MiB write may be seen half done (a reload of the part written
    // so far); wait for the reload that reads it whole.
    let answer = wait_for("the size error", || {
        let a = level(&server, "?seed=1");
        let newer = a["generation"].as_u64() > before["generation"].as_u64();
        (newer && a["diagnostics"][0]["message"].is_string()).then_some(a)
    });
    let message = answer["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("more than the 4 MiB"), "{message}");
    assert_eq!(
        answer["level"]["mission_svg"],
        before["level"]["mission_svg"]
    );
    assert!(server.alive());
    // A save through the page within the cap: written whole, reloaded.
    let text = example("default.lg").replace("keys-and-cycles", "saved-from-page");
    let head = format!(
        "PUT /api/grammar HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.address,
        text.len()
    );
    assert_eq!(request(&server.address, &head, text.as_bytes()).0, 200);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    wait_for("the saved grammar", || {
        (level(&server, "?seed=1")["grammar_name"] == "saved-from-page").then_some(())
    });
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["g.lg"], "no temporary file left");
}

/// A line from the server process's `/proc/PID/status` (Linux).
fn proc_status(server: &Server, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

fn open_files(server: &Server) -> usize {
    std::fs::read_dir(format!("/proc/{}/fd", server.child.id()))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// Connects and sends the start of a request, never its end.
fn half_sent(address: &str) -> TcpStream {
    let mut s = TcpStream::connect(address).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: {address}\r\n");
    s.write_all(head.as_bytes()).unwrap();
    s
}

/// The status a connection was answered with; 0 when it was closed or
/// reset without one.
fn status_of(stream: &mut TcpStream) -> u16 {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    answer
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3)?.parse().ok())
        .unwrap_or(0)
}

/// What `serve` allows: 64 connections at once, a request head within 5 s.
const CONNECTIONS: usize = 64;
const HEAD_TIME: Duration = Duration::from_secs(5);

#[cfg(target_os = "linux")]
#[test]
fn a_flood_of_slow_connections_is_bounded() {
    let (_dir, path) = grammar_file("flood", &example("default.lg"));
    let mut server = Server::start(&path);
    let address = server.address.clone();
    let threads_before = proc_status(&server, "Threads:");

    // A client sending its head a byte at a time is cut off at the head
    // deadline, not kept alive by each byte.
    let trickler = {
        let address = address.clone();
        std::thread::spawn(move || {
            let mut s = TcpStream::connect(&address).unwrap();
            let start = Instant::now();
            s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
            s.set_read_timeout(Some(Duration::from_millis(200)))
                .unwrap();
            let mut first = [0u8; 12];
            while start.elapsed() < PATIENCE {
                if s.write_all(b"a").is_err() {
                    break;
                }
                match s.read(&mut first) {
                    Ok(_) => break,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                    Err(_) => break,
                }
            }
            (start.elapsed(), first)
        })
    };
    // The trickler's connection is accepted first.
    wait_for("the trickling client", || {
        (proc_status(&server, "Threads:") > threads_before).then_some(())
    });
    // 200 half-sent requests, held open: the first ones fill the places,
    // the rest are turned away at once.
    let mut held: Vec<TcpStream> = (0..200).map(|_| half_sent(&address)).collect();
    let busy = wait_for("a full server to say so", || {
        let (code, _) = get(&server, "/");
        (code == 503).then_some(code)
    });
    assert_eq!(busy, 503);
    let threads = proc_status(&server, "Threads:");
    assert!(
        threads <= threads_before + CONNECTIONS as u64,
        "{threads} threads with {threads_before} before: one per connection, at most {CONNECTIONS}"
    );

    // The held requests that got a place are answered 408 at the head
    // deadline and closed; the others were answered 503 (or reset).
    let statuses: Vec<u16> = held.iter_mut().map(status_of).collect();
    let timed_out = statuses.iter().filter(|&&c| c == 408).count();
    assert_eq!(timed_out, CONNECTIONS - 1, "{statuses:?}");
    assert!(
        statuses.iter().all(|&c| matches!(c, 408 | 503 | 0)),
        "{statuses:?}"
    );
    let (took, first) = trickler.join().unwrap();
    assert_eq!(
        &first,
        b"HTTP/1.1 408",
        "{}",
        String::from_utf8_lossy(&first)
    );
    assert!(
        took >= HEAD_TIME && took < HEAD_TIME + Duration::from_secs(3),
        "the trickler was cut off after {took:?}"
    );

    // Free again: answering, and the threads are gone.
    assert!(server.alive());
    assert_eq!(get(&server, "/").0, 200);
    wait_for("the connection threads to end", || {
        (proc_status(&server, "Threads:") <= threads_before).then_some(())
    });
}

#[cfg(target_os = "linux")]
#[test]
fn running_out_of_file_descriptors_does_not_end_it() {
    let (_dir, path) = grammar_file("descriptors", &example("default.lg"));
    let mut server = Server::start_with_file_limit(&path, 32);
    assert_eq!(get(&server, "/").0, 200);
    // More half-sent requests than the process may open files: `accept`
    // fails for lack of descriptors while they are held.
    let held: Vec<TcpStream> = (0..60).map(|_| half_sent(&server.address)).collect();
    wait_for("the descriptors to run out", || {
        (open_files(&server) >= 31).then_some(())
    });
    drop(held);
    // Accepting again: the server did not stop at the failed accepts.
    assert!(server.alive());
    assert_eq!(get(&server, "/").0, 200);
    let answer = level(&server, "?seed=2");
    assert!(answer["level"]["vertices"].as_u64().unwrap() > 0);
}

#[test]
fn the_step_view_replays_the_derivation() {
    let (_dir, path) = grammar_file("steps", &example("default.lg"));
    let server = Server::start(&path);
    let full = level(&server, "?seed=5");
    let n = full["level"]["applications"].as_u64().unwrap();
    assert!(n > 3);
    let first = level(&server, "?seed=5&step=1");
    let step = &first["step"];
    assert_eq!(step["step"], 1);
    assert!(step["vertices"].as_u64() < full["level"]["vertices"].as_u64());
    let rule = full["level"]["trace"][0]["rule"].as_str().unwrap();
    let svg = step["mission_svg"].as_str().unwrap();
    assert!(
        svg.contains(&format!("Step 1: rule {rule}")),
        "the legend names the step's rule"
    );
    assert!(svg.contains("#43a047"), "created vertices are ringed");
    let last = level(&server, &format!("?seed=5&step={n}"));
    assert_eq!(last["step"]["vertices"], full["level"]["vertices"]);
    // Same grammar and seed, same page content.
    assert_eq!(level(&server, "?seed=5")["level"], full["level"]);
    // Bad parameters: 400, not a level of some other seed.
    for bad in ["?seed=-1", "?seed=x", "?step=-2", "?other=1"] {
        assert_eq!(get(&server, &format!("/api/level{bad}")).0, 400, "{bad}");
    }
}

/// A geometric grammar's steps are replayed with its drawing: the last
/// step is the level's graph, an earlier one smaller.
#[test]
fn a_geometric_grammar_has_a_step_view_too() {
    let (_dir, path) = grammar_file("geometric-steps", &example("wheel.lg"));
    let server = Server::start(&path);
    let full = level(&server, "?seed=2");
    assert!(
        full["level"]["no_steps"].is_null(),
        "{}",
        full["level"]["no_steps"]
    );
    let n = full["level"]["applications"].as_u64().unwrap();
    assert!(n > 2);
    let last = level(&server, &format!("?seed=2&step={n}"));
    assert_eq!(last["step"]["vertices"], full["level"]["vertices"]);
    assert_eq!(last["step"]["edges"], full["level"]["edges"]);
    let early = level(&server, "?seed=2&step=2");
    assert!(early["step"]["vertices"].as_u64() < full["level"]["vertices"].as_u64());
}

// ---------------------------------------------------------------------
// The page in a browser.

/// Chromium and chromedriver, when installed (`.ci/run` installs Debian's
/// `chromium` and `chromium-driver` and sets LEVELGRAPH_REQUIRE_BROWSER=1,
/// so CI cannot skip this).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .map(|name| Path::new("/usr/bin").join(name))
        .find(|p| p.exists());
    let driver = Path::new("/usr/bin/chromedriver");
    match chromium {
        Some(c) if driver.exists() => Some((c, driver.to_path_buf())),
        _ => {
            assert!(
                std::env::var_os("LEVELGRAPH_REQUIRE_BROWSER").is_none(),
                "LEVELGRAPH_REQUIRE_BROWSER is set and Chromium or chromedriver is missing"
            );
            eprintln!("note: no Chromium or chromedriver in /usr/bin; the browser test is skipped");
            None
        }
    }
}

/// A chromedriver process and one headless Chromium session.
struct Browser {
    driver: Child,
    address: String,
    session: String,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path, profile: &Path) -> Browser {
        // A port that was free a moment ago (chromedriver takes no port 0).
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let address = format!("127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            address,
            session: String::new(),
        };
        wait_for("chromedriver", || {
            TcpStream::connect(&browser.address).ok().map(|_| ())
        });
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1200",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium.display().to_string(), "args": args}}}});
        let answer = browser.call("POST", "/session", &caps);
        browser.session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_owned();
        browser
    }

    /// A WebDriver command; the answer's JSON.
    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        );
        let (_, answer) = request(&self.address, &head, body.as_bytes());
        serde_json::from_slice(&answer).unwrap_or(Value::Null)
    }

    fn open(&self, url: &str) {
        self.call(
            "POST",
            &format!("/session/{}/url", self.session),
            &json!({"url": url}),
        );
    }

    /// Runs `script` (a function body) in the page; its return value.
    fn js(&self, script: &str) -> Value {
        let answer = self.call(
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            &json!({"script": script, "args": []}),
        );
        answer["value"].clone()
    }

    fn click(&self, id: &str) {
        self.js(&format!("document.getElementById('{id}').click();"));
    }

    /// Saves a screenshot of the page as `path` (PNG).
    fn screenshot(&self, path: &Path) {
        let answer = self.call(
            "GET",
            &format!("/session/{}/screenshot", self.session),
            &Value::Null,
        );
        let png = decode_base64(answer["value"].as_str().expect("a screenshot"));
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            self.call(
                "DELETE",
                &format!("/session/{}", self.session),
                &Value::Null,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// What the page shows, read in one script. `editorMarks` are the marks in
/// the editor's gutter and `editorRows` the highlighted rows behind its
/// text, each with its line, where it is on screen (`top`, px) and where
/// that line of the textarea is (`rowTop`: its padding, line height and
/// scroll); `editorLines` is the textarea's text by line and `editorBox`
/// its top and bottom on screen.
fn page_state(browser: &Browser) -> Value {
    browser.js(
        "const img = (id) => { const e = document.getElementById(id); \
           return e.closest('[hidden]') ? null : { w: e.naturalWidth, h: e.naturalHeight, src: e.getAttribute('src') || '' }; };\
         const text = (id) => { const e = document.getElementById(id); return e.closest('[hidden]') ? null : e.textContent; };\
         const editor = document.getElementById('editor'); \
         const style = getComputedStyle(editor); \
         const rowTop = (line) => editor.getBoundingClientRect().top + parseFloat(style.paddingTop) \
           + (line - 1) * parseFloat(style.lineHeight) - editor.scrollTop; \
         const marked = (sel) => [...document.querySelectorAll(sel)].map((e) => ({ line: Number(e.dataset.line), \
           text: e.textContent, from: e.querySelector('.from')?.textContent ?? null, title: e.title, top: e.getBoundingClientRect().top, rowTop: rowTop(Number(e.dataset.line)) })); \
         return { generation: Number(document.body.dataset.generation ?? -1), \
           renderedAt: Number(document.body.dataset.renderedAt ?? 0), \
           status: document.getElementById('status').textContent, \
           seed: document.getElementById('seed').value, \
           counts: document.getElementById('counts').textContent, \
           stepVerdict: text('step-verdict'), verdict: text('verdict'), \
           stop: document.getElementById('stop').parentElement.textContent, \
           editorLines: editor.value.split('\\n'), \
           editorMarks: marked('#editor-gutter .mark'), editorRows: marked('#editor-marked .marked'), \
           editorStale: text('editor-stale'), \
           editorBox: { top: editor.getBoundingClientRect().top, bottom: editor.getBoundingClientRect().bottom }, \
           stepLabel: document.getElementById('step-label').textContent, \
           stepMax: document.getElementById('step').max, \
           errorsShown: !document.getElementById('diagnostics-panel').hidden, \
           errors: document.getElementById('diagnostics').textContent, \
           mission: img('mission'), layout: img('layout'), tiles: img('tiles'), \
           traceRows: document.querySelectorAll('#trace li').length };",
    )
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[test]
fn the_page_follows_the_grammar_file() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let original = example("dungeon-rooms.lg");
    let (dir, path) = grammar_file("browser", &original);
    let server = Server::start(&path);
    let browser = Browser::start(&chromium, &chromedriver, &dir.join("profile"));
    browser.open(&server.url("/"));
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"));

    // The level: all three pictures drawn, with a size.
    let first = wait_for("the first level", || {
        let s = page_state(&browser);
        let drawn = |k: &str| s[k]["w"].as_u64().is_some_and(|w| w > 0);
        (drawn("mission") && drawn("layout") && drawn("tiles")).then_some(s)
    });
    assert_eq!(first["seed"], "0");
    assert!(!first["errorsShown"].as_bool().unwrap());
    assert!(first["traceRows"].as_u64().unwrap() > 0);
    // The finished level: its verdict unlabelled, no step's verdict.
    assert!(first["verdict"].as_str().unwrap().starts_with("play: "));
    assert!(first["stop"].as_str().unwrap().starts_with("stopped: "));
    assert!(first["stepVerdict"].is_null());
    browser.screenshot(&shots.join("serve-1-level.png"));

    // Next seed: another level.
    browser.click("next");
    let next = wait_for("seed 1", || {
        let s = page_state(&browser);
        (s["seed"] == "1" && s["mission"]["src"] != first["mission"]["src"]).then_some(s)
    });
    // The step slider: an earlier, smaller graph, then back to the end.
    browser.js(
        "const s = document.getElementById('step'); s.value = '2'; s.dispatchEvent(new Event('input'));",
    );
    let stepped = wait_for("step 2", || {
        let s = page_state(&browser);
        s["stepLabel"]
            .as_str()
            .unwrap()
            .starts_with("2 /")
            .then_some(s)
    });
    assert_ne!(stepped["mission"]["src"], next["mission"]["src"]);
    assert_ne!(stepped["counts"], next["counts"]);
    assert!(stepped["counts"]
        .as_str()
        .unwrap()
        .starts_with("after 2 of "));
    // At a step, the finished level's verdict and stop reason say whose
    // they are, and the step's graph has a verdict of its own.
    let said = |k: &str| stepped[k].as_str().unwrap_or_default().to_owned();
    assert!(
        said("verdict").starts_with("finished level — play: "),
        "{}",
        said("verdict")
    );
    assert_eq!(
        said("verdict").trim_start_matches("finished level — "),
        next["verdict"].as_str().unwrap()
    );
    assert!(
        said("stop").starts_with("finished derivation — stopped: "),
        "{}",
        said("stop")
    );
    assert!(
        said("stepVerdict").starts_with("this graph (step 2) — play: "),
        "{}",
        said("stepVerdict")
    );
    browser.screenshot(&shots.join("serve-2-step.png"));

    // An edit in the editor of one's choice: the page follows.
    let renamed = original.replace("keys-and-cycles-rooms", "edited-in-my-editor");
    let written_at = now_ms();
    std::fs::write(&path, &renamed).unwrap();
    let edited = wait_for("the edited grammar", || {
        let s = page_state(&browser);
        s["status"]
            .as_str()
            .unwrap()
            .contains("edited-in-my-editor")
            .then_some(s)
    });
    let latency = edited["renderedAt"]
        .as_u64()
        .unwrap()
        .saturating_sub(written_at);
    eprintln!("save to page redrawn: {latency} ms");
    assert_ne!(edited["mission"]["src"], next["mission"]["src"]);
    assert_eq!(edited["seed"], "1", "the seed stays");

    // The editor open, with the file's text and nothing marked.
    browser.js("document.getElementById('edit-panel').open = true;");
    let opened = wait_for("the editor's text", || {
        let s = page_state(&browser);
        (s["editorLines"].as_array().unwrap().len() > 1).then_some(s)
    });
    assert_eq!(opened["editorMarks"], json!([]));

    // A broken edit: the error with its line, the last good level kept,
    // and in the editor (reloaded, as it is not being typed in) that line
    // marked.
    let broken = format!("{renamed}\nrule oops {{\n");
    std::fs::write(&path, &broken).unwrap();
    let error = wait_for("the error, marked in the editor", || {
        let s = page_state(&browser);
        let marked = !s["editorMarks"].as_array().unwrap().is_empty()
            && s["editorLines"].as_array().unwrap().len() > broken.lines().count();
        (s["errorsShown"].as_bool().unwrap() && marked).then_some(s)
    });
    let line = broken.lines().count();
    let errors = error["errors"].as_str().unwrap();
    assert!(errors.contains("g.lg:"), "{errors}");
    assert!(errors.contains('^'), "a caret under the place: {errors}");
    let at = (line - 1..=line + 1)
        .find(|l| errors.contains(&format!("g.lg:{l}:")))
        .unwrap_or_else(|| panic!("the error names line {line}: {errors}"));
    assert_eq!(error["mission"]["src"], edited["mission"]["src"]);
    assert!(error["layout"]["w"].as_u64().unwrap() > 0);
    assert_eq!(error["editorStale"], Value::Null, "the text is the file's");
    browser.screenshot(&shots.join("serve-3-error.png"));
    check_marks(&error, at);

    // Scrolled to the end, as one scrolls to the error: the mark and the
    // highlighted row move with the text.
    browser.js(
        "const e = document.getElementById('edit-panel'); e.scrollIntoView(); \
         const t = document.getElementById('editor'); t.scrollTop = t.scrollHeight;",
    );
    let scrolled = wait_for("the marks scrolled with the text", || {
        let s = page_state(&browser);
        let row = &s["editorRows"][0];
        let followed = (row["top"].as_f64()? - row["rowTop"].as_f64()?).abs() < 0.5;
        (followed && row["top"] != error["editorRows"][0]["top"]).then_some(s)
    });
    check_marks(&scrolled, at);
    let top = scrolled["editorRows"][0]["top"].as_f64().unwrap();
    let box_ = &scrolled["editorBox"];
    assert!(
        box_["top"].as_f64().unwrap() <= top && top < box_["bottom"].as_f64().unwrap(),
        "line {at} is in view: {top} in {box_}"
    );
    browser.screenshot(&shots.join("serve-4-editor-error.png"));

    // Typing a line above it: the mark stays at the line number (it is the
    // file's as last read, and the page says so), the row shows what is there now.
    browser.js(
        "const t = document.getElementById('editor'); t.value = '# a new first line\\n' + t.value; \
         t.dispatchEvent(new Event('input'));",
    );
    let typed = page_state(&browser);
    check_marks(&typed, at);
    assert!(typed["editorStale"].as_str().is_some(), "{typed}");
    assert_ne!(
        typed["editorRows"][0]["text"],
        scrolled["editorRows"][0]["text"]
    );

    // An error inside a line (a misspelt tag): its row is marked from the
    // column on, and a click on the mark selects the line in view.
    let typo = renamed.replacen("(d:goal)", "(d:gaol)", 1);
    let at = typo.lines().position(|l| l.contains("(d:gaol)")).unwrap() + 1;
    std::fs::write(&path, &typo).unwrap();
    let misspelt = wait_for("the misspelt tag marked", || {
        let s = page_state(&browser);
        (s["editorMarks"][0]["line"] == at
            && s["editorLines"][at - 1] != typed["editorLines"][at - 1])
            .then_some(s)
    });
    check_marks(&misspelt, at);
    assert!(
        misspelt["editorStale"].is_null(),
        "the text is the file's again"
    );
    browser.js(
        "const t = document.getElementById('editor'); t.scrollTop = 0; \
         document.querySelector('#editor-gutter .mark').click(); t.blur();",
    );
    let clicked = wait_for("the clicked line in view", || {
        let s = page_state(&browser);
        let row = &s["editorRows"][0];
        let followed = (row["top"].as_f64()? - row["rowTop"].as_f64()?).abs() < 0.5;
        let top = row["top"].as_f64()?;
        let shown =
            s["editorBox"]["top"].as_f64()? <= top && top < s["editorBox"]["bottom"].as_f64()?;
        (followed && shown).then_some(s)
    });
    check_marks(&clicked, at);
    let selected = browser.js(
        "const t = document.getElementById('editor'); return t.value.slice(t.selectionStart, t.selectionEnd);",
    );
    assert_eq!(selected, clicked["editorLines"][at - 1]);
    let from = clicked["editorRows"][0]["from"].as_str().unwrap();
    assert!(
        from.starts_with("(d:gaol)"),
        "underlined from the column: {from}"
    );
    browser.screenshot(&shots.join("serve-5-editor-typo.png"));

    // Fixed: the level is back, the error gone.
    std::fs::write(&path, &original).unwrap();
    let fixed = wait_for("the fixed grammar", || {
        let s = page_state(&browser);
        let back = !s["errorsShown"].as_bool().unwrap()
            && s["status"]
                .as_str()
                .unwrap()
                .contains("keys-and-cycles-rooms");
        back.then_some(s)
    });
    assert_eq!(
        fixed["mission"]["src"], next["mission"]["src"],
        "seed 1's level again"
    );
    let unmarked = wait_for("the editor unmarked", || {
        let s = page_state(&browser);
        s["editorMarks"].as_array().unwrap().is_empty().then_some(s)
    });
    assert_eq!(unmarked["editorRows"], json!([]));
    browser.screenshot(&shots.join("serve-6-fixed.png"));
}

/// The editor marks line `line` only, in the gutter and behind the text,
/// both where the textarea shows that line, the row holding its text.
fn check_marks(state: &Value, line: usize) {
    let (marks, rows) = (&state["editorMarks"], &state["editorRows"]);
    assert_eq!(marks.as_array().unwrap().len(), 1, "{marks}");
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");
    assert_eq!(marks[0]["line"], line);
    assert_eq!(rows[0]["line"], line);
    assert!(
        marks[0]["title"]
            .as_str()
            .unwrap()
            .contains(&format!("line {line}:")),
        "the message is the mark's tooltip: {marks}"
    );
    for e in [&marks[0], &rows[0]] {
        let (top, row_top) = (e["top"].as_f64().unwrap(), e["rowTop"].as_f64().unwrap());
        assert!(
            (top - row_top).abs() < 0.5,
            "at {top}, its line at {row_top}"
        );
    }
    let text = state["editorLines"][line - 1].as_str().unwrap();
    let shown = rows[0]["text"].as_str().unwrap();
    assert_eq!(
        shown.trim_end(),
        text.trim_end(),
        "the row is line {line}'s"
    );
}
