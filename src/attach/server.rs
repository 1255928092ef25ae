//! The listener: TCP and WebSocket on one port, token and Origin checks, one client at a time.

use super::{CHANNEL_BOUND, Incoming, feed_lines, loopback_origin};
use crate::session::recording::{MAX_LINE_BYTES, Record};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// Where to listen and what to require.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    pub bind: IpAddr,
    pub port: u16,
    pub token: String,
}

/// A running listener.
pub struct Server {
    pub addr: SocketAddr,
    pub events: Receiver<Incoming>,
}

/// How long a new client waits for the previous one to finish before it is refused.
const BUSY_GRACE: Duration = Duration::from_secs(2);

/// How long a new client has to send its hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

impl Server {
    /// Binds and starts accepting on a background thread.
    pub fn start(opts: ServerOptions) -> std::io::Result<Server> {
        let listener = TcpListener::bind((opts.bind, opts.port))?;
        let addr = listener.local_addr()?;
        let (tx, rx) = sync_channel(CHANNEL_BOUND);
        let busy = Arc::new(AtomicBool::new(false));
        let token: Arc<str> = opts.token.into();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                // A game that reconnects right after closing may arrive before the last
                // client's thread let go: give the slot a moment before refusing.
                let mut waited = Duration::ZERO;
                let mut acquired = !busy.swap(true, Ordering::SeqCst);
                while !acquired && waited < BUSY_GRACE {
                    std::thread::sleep(Duration::from_millis(20));
                    waited += Duration::from_millis(20);
                    acquired = !busy.swap(true, Ordering::SeqCst);
                }
                if !acquired {
                    let _ = stream.write_all(b"bonescope: busy, one client at a time\n");
                    continue;
                }
                let (tx, busy, token) = (tx.clone(), busy.clone(), token.clone());
                std::thread::spawn(move || {
                    let reason = serve(stream, &token, &tx);
                    let _ = tx.send(Incoming::Closed { reason });
                    busy.store(false, Ordering::SeqCst);
                });
            }
        });
        Ok(Server { addr, events: rx })
    }
}

fn peer(s: &TcpStream) -> String {
    s.peer_addr().map_or("?".into(), |a| a.to_string())
}

/// Serves one client; returns why it ended.
// The handshake callback's error type is tungstenite's (an HTTP response), large by design.
#[allow(clippy::result_large_err)]
fn serve(stream: TcpStream, token: &str, tx: &SyncSender<Incoming>) -> String {
    let who = peer(&stream);
    let _ = stream.set_read_timeout(Some(HELLO_TIMEOUT));
    let mut first = [0u8; 4];
    let websocket = match stream.peek(&mut first) {
        Ok(n) => {
            n >= 4 && &first == b"GET " || (n > 0 && n < 4 && b"GET ".starts_with(&first[..n]))
        }
        Err(e) => return format!("{who}: {e}"),
    };
    if websocket {
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_LINE_BYTES + 1))
            .max_frame_size(Some(MAX_LINE_BYTES + 1));
        let check = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
            let refuse = |why: &str| {
                let mut r = ErrorResponse::new(Some(why.to_string()));
                *r.status_mut() = tungstenite::http::StatusCode::FORBIDDEN;
                r
            };
            if let Some(o) = req.headers().get("origin") {
                let o = o.to_str().unwrap_or("");
                if !loopback_origin(o) {
                    return Err(refuse("origin is not a loopback page"));
                }
            }
            let query = req.uri().query().unwrap_or("");
            let given = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("token="))
                .unwrap_or("");
            if given != token {
                return Err(refuse("wrong or missing token"));
            }
            Ok(resp)
        };
        match tungstenite::accept_hdr_with_config(stream, check, Some(config)) {
            Ok(ws) => lines(BufReader::new(WsRead::new(ws)), &who, true, token, tx),
            Err(e) => {
                let m = format!("{who}: WebSocket refused: {e}");
                let _ = tx.send(Incoming::Problem(crate::text::sanitize(&m).into_owned()));
                m
            }
        }
    } else {
        let reader = match stream.try_clone() {
            Ok(s) => s,
            Err(e) => return e.to_string(),
        };
        lines(BufReader::new(reader), &who, false, token, tx)
    }
}

/// Checks the hello's token, then forwards every line.
fn lines(
    mut input: impl BufRead + SetTimeout,
    who: &str,
    websocket: bool,
    token: &str,
    tx: &SyncSender<Incoming>,
) -> String {
    // The hello: one bounded line.
    let mut hello = Vec::new();
    let mut limited = (&mut input).take(MAX_LINE_BYTES as u64 + 1);
    if let Err(e) = limited.read_until(b'\n', &mut hello) {
        return format!("{who}: no hello ({e})");
    }
    let ok = match Record::parse(hello.trim_ascii()) {
        Ok(Record::Hello(h)) => h.token == token,
        _ => false,
    };
    if !ok {
        let m = format!("{who}: refused: the first line is not a hello with the token");
        let _ = tx.send(Incoming::Problem(m.clone()));
        return m;
    }
    input.clear_timeout();
    if tx
        .send(Incoming::Connected {
            peer: who.to_string(),
            websocket,
        })
        .is_err()
        || tx
            .send(Incoming::Line {
                line: 1,
                bytes: hello.trim_ascii().to_vec(),
            })
            .is_err()
    {
        return "bonescope stopped reading".into();
    }
    feed_from_line_two(input, tx)
}

fn feed_from_line_two(input: impl BufRead, tx: &SyncSender<Incoming>) -> String {
    // A relay renumbers lines: the reader counts from 1 again after the hello.
    let (rtx, rrx) = sync_channel(CHANNEL_BOUND);
    let out = tx.clone();
    let relay = std::thread::spawn(move || {
        for ev in rrx {
            let ev = match ev {
                Incoming::Line { line, bytes } => Incoming::Line {
                    line: line + 1,
                    bytes,
                },
                Incoming::Problem(m) => Incoming::Problem(renumber(&m)),
                other => other,
            };
            if out.send(ev).is_err() {
                break;
            }
        }
    });
    let reason = feed_lines(input, &rtx);
    drop(rtx);
    let _ = relay.join();
    reason
}

/// `line N: ...` -> `line N+1: ...` (the hello was line 1).
fn renumber(m: &str) -> String {
    if let Some(rest) = m.strip_prefix("line ")
        && let Some((n, tail)) = rest.split_once(':')
        && let Ok(n) = n.parse::<u64>()
    {
        return format!("line {}:{tail}", n + 1);
    }
    m.to_string()
}

/// Readers whose hello timeout can be lifted once the client is accepted.
trait SetTimeout {
    fn clear_timeout(&mut self);
}

impl SetTimeout for BufReader<TcpStream> {
    fn clear_timeout(&mut self) {
        let _ = self.get_ref().set_read_timeout(None);
    }
}

impl SetTimeout for BufReader<WsRead> {
    fn clear_timeout(&mut self) {
        let _ = self.get_ref().ws.get_ref().set_read_timeout(None);
    }
}

/// WebSocket text (or binary) messages as a byte stream, each followed by a newline.
struct WsRead {
    ws: WebSocket<TcpStream>,
    buf: Vec<u8>,
    pos: usize,
}

impl WsRead {
    fn new(ws: WebSocket<TcpStream>) -> WsRead {
        WsRead {
            ws,
            buf: Vec::new(),
            pos: 0,
        }
    }
}

impl Read for WsRead {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    self.buf.extend_from_slice(t.as_bytes());
                    self.buf.push(b'\n');
                }
                Ok(Message::Binary(b)) => {
                    self.buf.extend_from_slice(&b);
                    self.buf.push(b'\n');
                }
                Ok(Message::Close(_)) => return Ok(0),
                Ok(_) => {}
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    return Ok(0);
                }
                Err(tungstenite::Error::Io(e)) => return Err(e),
                Err(e) => return Err(std::io::Error::other(e.to_string())),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
