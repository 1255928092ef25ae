//! Which browser origins may open the WebSocket: loopback pages only (any page the user
//! visits can reach a localhost WebSocket; its Origin says whose page it is).

/// True for `http(s)://127.0.0.1[:port]`, `localhost` and `[::1]`.
pub fn loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, tail)) if tail.is_empty() || is_port(tail) => return h == "::1",
            _ => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((h, port)) if is_port(&format!(":{port}")) => h,
            Some(_) => return false,
            None => rest,
        }
    };
    host == "127.0.0.1" || host.eq_ignore_ascii_case("localhost")
}

fn is_port(tail: &str) -> bool {
    tail.strip_prefix(':')
        .is_some_and(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::loopback_origin as ok;

    #[test]
    fn only_loopback_pages_pass() {
        assert!(ok("http://localhost:5173"));
        assert!(ok("http://127.0.0.1"));
        assert!(ok("https://[::1]:8080"));
        assert!(!ok("http://evil.example"));
        assert!(!ok("http://localhost.evil.example"));
        assert!(!ok("http://127.0.0.1.evil.example:80"));
        assert!(!ok("http://localhost:80/path"));
        assert!(!ok("null"));
        assert!(!ok("file://"));
    }
}
