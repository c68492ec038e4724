//! `levelgraph serve GRAMMAR`: a live preview. A web server on 127.0.0.1
//! serves one page showing a seed's level of the grammar — mission graph,
//! layout and tile map, play verdict, stop reason and trace, or the
//! grammar's errors beside the last good level — and the page follows the
//! grammar file: every save re-derives, and an event stream tells the page
//! to redraw.
//!
//! `state.rs` holds the grammar and its diagnostics, `watch.rs` reloads it
//! on a change, `render.rs` draws a level, `http.rs` routes requests,
//! `server.rs` accepts connections and reads requests within its limits,
//! `save.rs` saves the text edited in the page, `page.html` is the page
//! (its script and style inline: nothing is fetched from elsewhere).

mod http;
mod render;
mod save;
mod server;
mod state;
mod watch;

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

use crate::Failure;

/// The server's bounds. A browser tab holds one connection for its event
/// stream and opens a few more at a time for requests (Chromium at most 6
/// per host); 64 leaves room for several tabs and the 16 event streams.
/// A request head arrives whole at once from a browser on the same
/// machine, so 5 s is only ever reached by a client that is stalling.
const LIMITS: server::Limits = server::Limits {
    connections: 64,
    head_bytes: 16 << 10,
    body_bytes: 1 << 20,
    head_time: Duration::from_secs(5),
    body_time: Duration::from_secs(10),
    write_time: Duration::from_secs(10),
};

/// `levelgraph serve`'s arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// Grammar file (`.lg` text or `.json`) to show and watch.
    grammar: PathBuf,
    /// Port on 127.0.0.1 (the server listens on no other address); 0
    /// picks a free one. The address is printed at start.
    #[arg(long, default_value_t = 8047)]
    port: u16,
    /// The seed the page shows first.
    #[arg(long, default_value_t = 0, value_parser = crate::parse_seed)]
    seed: u64,
}

/// Runs the server until the process is stopped (Ctrl-C).
pub(crate) fn run(options: &Options) -> Result<(), Failure> {
    let shown = options.grammar.display().to_string();
    let path = std::path::absolute(&options.grammar).map_err(|e| {
        eprintln!("error: cannot read grammar {shown}: {e}");
        Failure::BadInput
    })?;
    // A missing or unreadable file is an error now; later, while it is
    // edited, it is an error shown in the page.
    if let Err(message) = state::read_capped(&path) {
        eprintln!("error: {message}");
        return Err(Failure::BadInput);
    }
    let state = Arc::new(state::State::new(path, shown.clone()));
    state.reload();
    watch::start(Arc::clone(&state)).map_err(|message| {
        eprintln!("error: {message}");
        Failure::BadInput
    })?;
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, options.port));
    let listener = TcpListener::bind(address).map_err(|e| {
        eprintln!("error: cannot listen on {address}: {e}");
        if options.port != 0 {
            eprintln!("  hint: another program may use port {}; pick another with --port, or --port 0 for any free one", options.port);
        }
        Failure::BadInput
    })?;
    let bound = listener.local_addr().unwrap_or(address);
    let site = Arc::new(http::Site {
        state,
        cache: render::Cache::default(),
        host: bound.to_string(),
        seed: options.seed,
        streams: Arc::new(AtomicUsize::new(0)),
    });
    crate::output::say(format_args!(
        "levelgraph serve: {shown} at http://{bound}/ (Ctrl-C stops)"
    ))?;
    server::run(listener, LIMITS, move |request| {
        http::handle(&site, request)
    })
}
