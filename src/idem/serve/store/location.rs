//! `--store`: which store, written as `memory`, `sqlite:PATH` or `redis://HOST:PORT[/DB]`.
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where the key table and the ledger live.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StoreLocation {
    /// This process's memory: one instance, gone on restart.
    #[default]
    Memory,
    /// One SQLite file, shared by every process that opens it.
    Sqlite(PathBuf),
    /// A Redis server, shared by every process that connects to it.
    Redis(RedisAddress),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisAddress {
    pub host: String,
    pub port: u16,
    pub db: u32,
}

impl fmt::Display for RedisAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "redis://[{}]:{}/{}", self.host, self.port, self.db)
        } else {
            write!(f, "redis://{}:{}/{}", self.host, self.port, self.db)
        }
    }
}

impl fmt::Display for StoreLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreLocation::Memory => f.write_str("memory"),
            StoreLocation::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            StoreLocation::Redis(address) => address.fmt(f),
        }
    }
}

const EXPECTED: &str = "expected `memory`, `sqlite:PATH` or `redis://HOST:PORT[/DB]`";

impl FromStr for StoreLocation {
    type Err = String;

    fn from_str(text: &str) -> Result<StoreLocation, String> {
        if text == "memory" {
            return Ok(StoreLocation::Memory);
        }
        if let Some(path) = text.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err(format!("`{text}` names no file; {EXPECTED}, e.g. sqlite:idem.db"));
            }
            return Ok(StoreLocation::Sqlite(PathBuf::from(path)));
        }
        if let Some(rest) = text.strip_prefix("redis://") {
            return parse_redis(rest).map(StoreLocation::Redis).map_err(|reason| format!("`{text}`: {reason}"));
        }
        Err(format!("`{text}` is not a store; {EXPECTED}"))
    }
}

fn parse_redis(rest: &str) -> Result<RedisAddress, String> {
    let (authority, db) = match rest.split_once('/') {
        Some((authority, "")) => (authority, 0),
        Some((authority, db)) => {
            let db = db.parse::<u32>().map_err(|_| format!("the database `{db}` is not a number such as 0"))?;
            (authority, db)
        }
        None => (rest, 0),
    };
    if authority.contains('@') {
        return Err("user names and passwords are not supported; use a Redis without AUTH".to_string());
    }
    let (host, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) = bracketed.split_once(']').ok_or("an IPv6 host needs its closing `]`")?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("no host; write redis://127.0.0.1:6379".to_string());
    }
    let port = match port {
        None => 6379,
        Some(port) => port.parse::<u16>().map_err(|_| format!("the port `{port}` is not a number from 1 to 65535"))?,
    };
    Ok(RedisAddress { host: host.to_string(), port, db })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redis(host: &str, port: u16, db: u32) -> StoreLocation {
        StoreLocation::Redis(RedisAddress { host: host.into(), port, db })
    }

    #[test]
    fn every_form_parses() {
        assert_eq!("memory".parse(), Ok(StoreLocation::Memory));
        assert_eq!("sqlite:idem.db".parse(), Ok(StoreLocation::Sqlite("idem.db".into())));
        assert_eq!("sqlite:///tmp/x.db".parse(), Ok(StoreLocation::Sqlite("/tmp/x.db".into())));
        assert_eq!("redis://127.0.0.1:6390".parse(), Ok(redis("127.0.0.1", 6390, 0)));
        assert_eq!("redis://localhost/2".parse(), Ok(redis("localhost", 6379, 2)));
        assert_eq!("redis://[::1]:7000/1".parse(), Ok(redis("::1", 7000, 1)));
        assert_eq!(redis("::1", 7000, 1).to_string(), "redis://[::1]:7000/1");
    }

    #[test]
    fn mistakes_say_what_is_expected() {
        for (text, says) in [
            ("mysql://x", "memory"),
            ("sqlite:", "names no file"),
            ("redis://h:port", "port"),
            ("redis://h:1/x", "database"),
            ("redis://:pw@h:1", "passwords"),
            ("redis://:1", "no host"),
        ] {
            let err = text.parse::<StoreLocation>().unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
