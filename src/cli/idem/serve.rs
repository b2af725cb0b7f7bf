//! `idem serve`: its flags, and what they become.
use std::net::SocketAddr;
use std::time::Duration;

use crate::idem::serve::{Mode, ServeConfig, StoreLocation};
use crate::output::{ColorChoice, Format, Palette};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen; port 0 picks a free port and prints it
    #[arg(long, default_value = "127.0.0.1:8080", env = "IDEM_ADDR")]
    pub addr: SocketAddr,

    /// How keys are handled: correct, or one of the deliberately broken modes
    #[arg(long, value_enum, default_value_t = Mode::Correct)]
    pub mode: Mode,

    /// Simulated time a payment takes, so duplicates can overlap (at most 10m)
    #[arg(long, default_value = "50ms", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, value_name = "DUR")]
    pub work: Duration,

    /// How long a completed key's response is kept for replay (at most 168h, a week)
    #[arg(long, default_value = "24h", value_parser = crate::cli::duration_at_most(crate::cli::DAY * 7), allow_hyphen_values = true, value_name = "DUR")]
    pub ttl: Duration,

    /// Answer a POST without an idempotency key with 400
    #[arg(long)]
    pub require_key: bool,

    /// Answer a POST to any path as POST /payments (each path its own key scope), e.g. to try
    /// `idem check --openapi` on a whole spec
    #[arg(long)]
    pub any_path: bool,

    /// Apply --mode to this endpoint only (/customers, /payments or /refunds); every other
    /// endpoint is correct, so a customers → payments → refunds flow breaks one step at a time
    #[arg(long, value_name = "PATH")]
    pub mode_on: Option<String>,

    /// Largest request body accepted (at most 1GiB)
    #[arg(long, default_value = "1MiB", value_parser = crate::cli::bounded_size, value_name = "SIZE")]
    pub max_body: u64,

    /// Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up
    #[arg(long)]
    pub tls: bool,

    /// Log format: a colored line per request, or JSON lines
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    #[command(flatten)]
    pub shared: ServeStoreArgs,
}

/// Where `idem serve` keeps keys and payments; instances given the same shared store act as one API.
#[derive(Debug, clap::Args)]
pub struct ServeStoreArgs {
    /// Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]
    #[arg(long, default_value = "memory", env = "IDEM_STORE", value_name = "STORE")]
    pub store: StoreLocation,

    /// How long a claim holds without renewal; a duplicate after a crashed owner's lease takes the key over (at most 24h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub lease: Duration,
}

impl ServeArgs {
    pub(crate) fn into_config(self, color: ColorChoice) -> ServeConfig {
        let args = self;
        ServeConfig {
            addr: args.addr,
            mode: args.mode,
            work: args.work,
            ttl: args.ttl,
            store: args.shared.store,
            lease: args.shared.lease,
            require_key: args.require_key,
            any_path: args.any_path,
            mode_on: args.mode_on,
            max_body: args.max_body,
            tls: args.tls,
            log_format: args.format,
            palette: Palette::for_stdout(color),
        }
    }
}
