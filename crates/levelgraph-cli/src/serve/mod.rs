//! `levelgraph serve GRAMMAR`: a live preview. A web server on 127.0.0.1
//! serves one page showing a seed's level of the grammar — mission graph,
//! layout and tile map, play verdict, stop reason and trace, or the
//! grammar's errors beside the last good level — and the page follows the
//! grammar file: every save re-derives, and an event stream tells the page
//! to redraw.
//!
//! `state.rs` holds the grammar and its diagnostics, `watch.rs` reloads it
//! on a change, `render.rs` draws a level, `http.rs` routes requests,
//! `save.rs` saves the text edited in the page, `page.html` is the page
//! (its script and style inline: nothing is fetched from elsewhere).

mod http;
mod render;
mod save;
mod state;
mod watch;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use crate::Failure;

/// Threads answering requests (event streams have their own): a slow
/// level (a large layout) holds one, the others keep answering.
const REQUEST_THREADS: usize = 4;

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
    let server = tiny_http::Server::http(address).map_err(|e| {
        eprintln!("error: cannot listen on {address}: {e}");
        if options.port != 0 {
            eprintln!("  hint: another program may use port {}; pick another with --port, or --port 0 for any free one", options.port);
        }
        Failure::BadInput
    })?;
    let bound = server.server_addr().to_ip().unwrap_or(address);
    let site = Arc::new(http::Site {
        state,
        cache: render::Cache::default(),
        host: bound.to_string(),
        seed: options.seed,
        streams: AtomicUsize::new(0),
    });
    crate::output::say(format_args!(
        "levelgraph serve: {shown} at http://{bound}/ (Ctrl-C stops)"
    ))?;
    let server = Arc::new(server);
    let workers: Vec<_> = (0..REQUEST_THREADS)
        .map(|i| {
            let (server, site) = (Arc::clone(&server), Arc::clone(&site));
            std::thread::Builder::new()
                .name(format!("serve-{i}"))
                .spawn(move || {
                    // `recv` fails only when the server is closing.
                    while let Ok(request) = server.recv() {
                        http::handle(&site, request);
                    }
                })
        })
        .collect();
    for worker in workers {
        match worker {
            Ok(handle) => {
                let _ = handle.join();
            }
            Err(e) => {
                eprintln!("error: cannot start a request thread: {e}");
                return Err(Failure::BadInput);
            }
        }
    }
    Ok(())
}
