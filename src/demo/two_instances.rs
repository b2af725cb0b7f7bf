//! Chapter: two instances behind a load balancer, one shared store. Claimed in the store, the
//! key holds across instances (one payment); claimed under a lock in each process
//! (`--mode local-lock`), each instance lets its own duplicate through (two payments), and
//! `idem race --also`, which spreads the duplicates over both, catches it.
//!
//! The store is a `redis-server` started here on a free port when one is installed; otherwise a
//! SQLite file in a temporary folder, which shares the same way.
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::race::{KeyMode, Spread, SyncMode, race_round_spread};
use crate::idem::request::RequestSpec;
use crate::idem::serve::{self, Mode, ServeConfig, StoreLocation};
use crate::idem::verdict::{Verdict, status_counts};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":45}"#;
const DUPLICATES: usize = 10;

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 6: two instances, one store")?;
    narrator.say("In production the API runs as several instances behind a load balancer, and the key table")?;
    narrator.say("lives in a store they share. A claim guarded by a mutex inside one process is safe on one")?;
    narrator.say("instance and charges twice as soon as two duplicates land on two instances.")?;

    let folder = Scratch::create()?;
    let store = SharedStore::start(&folder.0)?;
    narrator.say(&format!("\n{}", store.description))?;

    let correct = race_pair(narrator, Mode::Correct, &store.location(0, &folder.0)).await?;
    let broken = race_pair(narrator, Mode::LocalLock, &store.location(1, &folder.0)).await?;
    let expected = correct == (Verdict::Consistent, 1) && broken.0 == Verdict::ExecutedMoreThanOnce && broken.1 > 1;
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Two servers in `mode` on `store`, raced with the duplicates spread over both; the verdict and
/// the payments they made together.
async fn race_pair(narrator: &mut Narrator, mode: Mode, store: &StoreLocation) -> anyhow::Result<(Verdict, usize)> {
    let palette = narrator.palette;
    let config = ServeConfig { store: store.clone(), ..ServeConfig::local(mode) };
    let first = serve::start_quiet(&config).await?;
    let second = serve::start_quiet(&config).await?;
    let (url, also) = (first.url("/payments"), second.url("/payments"));
    let description = match mode {
        Mode::LocalLock => "--mode local-lock (claims under a lock in its own process)",
        _ => "--mode correct (claims the key in the shared store)",
    };
    narrator.say(&format!("\n{} two reference servers, {description}", palette.cyan("▸")))?;
    narrator.command(&format!("idem serve --store {store} --mode {}   # twice, on two ports", mode.as_str()))?;
    narrator.command(&format!("idem race {url} --also {also} -d '{PAYMENT}' -n {DUPLICATES} --http2"))?;

    let mut spec = RequestSpec::new(Method::POST, &url, PAYMENT)?;
    spec.http2 = true;
    let also_url = crate::http::url::parse_url(&also)?;
    let round = race_round_spread(
        &spec,
        DUPLICATES,
        SyncMode::Auto,
        KeyMode::Same,
        &Spread { also: vec![also_url], ..Spread::default() },
    )
    .await
    .context("the demo could not race its own reference servers")?;
    let answers = status_counts(round.answers.iter().map(|answer| &answer.observed));
    narrator.say(&format!("    {DUPLICATES} via {}, spread over both instances: {answers}", round.sync.as_str()))?;
    let verdict = crate::idem::print::render_judgement(&round.judgement, round.answers.len(), palette);
    narrator.say(&crate::output::indent(&verdict, 4))?;
    let payments = first.shutdown().await.payments_created + second.shutdown().await.payments_created;
    let consequence = match payments {
        1 => palette.green("The two instances hold 1 payment between them: the store's claim is the only lock."),
        n => palette.red(&format!("The two instances hold {n} payments: each one's lock let its own duplicate in.")),
    };
    narrator.say(&format!("  {consequence}"))?;
    Ok((round.judgement.verdict, payments))
}

/// A folder of the chapter's own (Redis's working folder, or the SQLite files), removed after.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn create() -> anyhow::Result<Scratch> {
        let folder = std::env::temp_dir().join(format!("idem-demo-{}-{}", std::process::id(), uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {} for the demo's store", folder.display()))?;
        Ok(Scratch(folder))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The store both instances share for the chapter.
struct SharedStore {
    redis: Option<(Child, u16)>,
    description: String,
}

impl SharedStore {
    fn start(folder: &std::path::Path) -> anyhow::Result<SharedStore> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .context("cannot find a free port for redis-server")?
            .port();
        let spawned = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--loglevel", "warning"])
            .arg("--dir")
            .arg(folder)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = spawned else {
            return Ok(SharedStore {
                redis: None,
                description: "redis-server is not installed here, so the instances share a SQLite file instead \
                              (the same story; install Redis to see it on Redis)."
                    .to_string(),
            });
        };
        let store = SharedStore {
            redis: Some((child, port)),
            description: format!("A redis-server of the demo's own on port {port}, no persistence."),
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                anyhow::bail!("the demo's redis-server did not start listening on port {port} within 5s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(store)
    }

    /// A store for one pair of servers, apart from the other pair's (database `db` on Redis).
    fn location(&self, db: u32, folder: &std::path::Path) -> StoreLocation {
        match &self.redis {
            Some((_, port)) => StoreLocation::Redis(serve::RedisAddress { host: "127.0.0.1".into(), port: *port, db }),
            None => StoreLocation::Sqlite(folder.join(format!("pair-{db}.db"))),
        }
    }
}

impl Drop for SharedStore {
    fn drop(&mut self) {
        if let Some((child, _)) = &mut self.redis {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
