//! `--store redis://HOST:PORT[/DB]`: the key table and the ledger in Redis, shared by every
//! instance that points at it.
//!
//! - claim: `SET idem:key:<key> <in-flight entry> NX PX <lease> GET`, one atomic command: nil
//!   means this request created the key and owns it; otherwise Redis hands back what is there.
//!   The lease is Redis's own expiry, so an owner that crashed loses the key without anyone
//!   cleaning up; a live owner renews it (`PEXPIRE`, only if the entry is still its own).
//! - commit: one Lua script records the payment and replaces the owner's in-flight entry with
//!   the answer, expiring after `--ttl`, so the charge and the replay are stored together.
use std::time::Duration;

use serde_json::Value;

use super::entry::SharedEntry;
use super::location::RedisAddress;
use super::resp::{Pool, Reply, excerpt};
use super::{Claim, Completion, Fingerprint, Lookup, ScopedKey, Store, StoreError, StoreFuture};
use crate::idem::serve::payments::Payment;

const PAYMENTS_BY_ID: &str = "idem:payments";
const PAYMENTS_IN_ORDER: &str = "idem:payment-list";

/// Whether the entry (a JSON string, or false when absent) is in flight for `owner`; shared by
/// the scripts below so each compares ownership the same way.
const OWNED_BY: &str = r"
local function owned_by(current, owner)
  if not current then return false end
  local entry = cjson.decode(current)
  return entry.state == 'in-flight' and entry.owner == owner
end
";

/// KEYS[1] the entry; ARGV[1] the owner, ARGV[2] the lease in ms.
const RENEW: &str = r"
if owned_by(redis.call('GET', KEYS[1]), ARGV[1]) then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0";

/// KEYS[1] the entry; ARGV[1] the owner.
const RELEASE: &str = r"
if owned_by(redis.call('GET', KEYS[1]), ARGV[1]) then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// KEYS[1] payments by id, KEYS[2] payments in order, KEYS[3] the entry (absent without a key);
/// ARGV[1] payment id, ARGV[2] payment JSON, ARGV[3] the owner ('' when the broken modes write
/// unconditionally), ARGV[4] the completed entry, ARGV[5] the TTL in ms. The answer is stored
/// unless another owner took the key over after this one's lease ran out (that owner will store
/// its own).
const COMMIT: &str = r"
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
if #KEYS == 3 then
  local current = redis.call('GET', KEYS[3])
  if ARGV[3] == '' or not current or owned_by(current, ARGV[3]) then
    redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
    return 1
  end
end
return 0";

/// A Lua script sent by its SHA-1, and in full the first time Redis has not seen it.
struct Script {
    source: String,
    sha: String,
}

impl Script {
    fn new(body: &str) -> Script {
        let source = format!("{OWNED_BY}{body}");
        let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, source.as_bytes());
        Script { source, sha: hex::encode(digest.as_ref()) }
    }
}

pub(super) struct RedisStore {
    pool: Pool,
    ttl_ms: String,
    renew: Script,
    release: Script,
    commit: Script,
}

fn millis(duration: Duration) -> String {
    // Redis refuses an expiry of 0.
    duration.as_millis().max(1).to_string()
}

fn entry_key(key: &ScopedKey) -> String {
    format!("idem:key:{}", key.joined())
}

impl RedisStore {
    /// Connects once, so a wrong address fails at start-up rather than on the first request.
    pub(super) async fn connect(address: RedisAddress, ttl: Duration) -> anyhow::Result<RedisStore> {
        let pool = Pool::new(address.clone());
        match pool.call(&[b"PING"]).await {
            Ok(Reply::Status(_)) => {}
            Ok(other) => anyhow::bail!("{address} answered PING with {}; is it a Redis server?", other.describe()),
            Err(failure) if failure.bad_reply => {
                anyhow::bail!("{address} answered PING: {failure}; is it a Redis server?")
            }
            Err(failure) => anyhow::bail!("{failure} (start redis-server, or point --store at a running one)"),
        }
        Ok(RedisStore {
            pool,
            ttl_ms: millis(ttl),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            commit: Script::new(COMMIT),
        })
    }

    async fn call(&self, args: &[&[u8]]) -> Result<Reply, StoreError> {
        match self.pool.call(args).await? {
            Reply::Error(message) => {
                Err(StoreError(format!("{} refused a command: {}", self.pool.address(), said(&message))))
            }
            reply => Ok(reply),
        }
    }

    async fn eval(&self, script: &Script, keys: &[&[u8]], args: &[&[u8]]) -> Result<Reply, StoreError> {
        let count = keys.len().to_string();
        let mut command: Vec<&[u8]> = vec![b"EVALSHA", script.sha.as_bytes(), count.as_bytes()];
        command.extend_from_slice(keys);
        command.extend_from_slice(args);
        match self.pool.call(&command).await? {
            Reply::Error(message) if message.starts_with("NOSCRIPT") => {
                command[0] = b"EVAL";
                command[1] = script.source.as_bytes();
                self.call(&command).await
            }
            Reply::Error(message) => {
                Err(StoreError(format!("{} refused a script: {}", self.pool.address(), said(&message))))
            }
            reply => Ok(reply),
        }
    }

    fn judge(reply: Reply, fingerprint: &Fingerprint) -> Result<Lookup, StoreError> {
        match reply {
            Reply::Bulk(None) | Reply::Status(_) => Ok(Lookup::Fresh),
            Reply::Bulk(Some(existing)) => SharedEntry::decode(&existing)?.judge(fingerprint),
            other => Err(StoreError(format!("Redis answered a claim with {}", other.describe()))),
        }
    }
}

impl Store for RedisStore {
    fn claim<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint, claim: &'a Claim) -> StoreFuture<'a, Lookup> {
        Box::pin(async move {
            let entry = SharedEntry::in_flight(claim, &fingerprint).encode();
            let lease = millis(claim.lease);
            let key = entry_key(key);
            let command: [&[u8]; 7] =
                [b"SET", key.as_bytes(), entry.as_bytes(), b"NX", b"PX", lease.as_bytes(), b"GET"];
            match self.pool.call(&command).await? {
                Reply::Error(message) if message.contains("syntax") => Err(StoreError(format!(
                    "{} does not accept SET … NX GET ({}); the Redis store needs Redis 7.0 or later",
                    self.pool.address(),
                    said(&message)
                ))),
                Reply::Error(message) => {
                    Err(StoreError(format!("{} refused a claim: {}", self.pool.address(), said(&message))))
                }
                reply => Self::judge(reply, &fingerprint),
            }
        })
    }

    fn lookup<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint) -> StoreFuture<'a, Lookup> {
        Box::pin(async move {
            let key = entry_key(key);
            let reply = self.call(&[b"GET", key.as_bytes()]).await?;
            Self::judge(reply, &fingerprint)
        })
    }

    fn renew<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let (key, lease) = (entry_key(key), millis(claim.lease));
            let reply = self.eval(&self.renew, &[key.as_bytes()], &[claim.owner.as_bytes(), lease.as_bytes()]).await?;
            Ok(reply == Reply::Integer(1))
        })
    }

    fn release<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let key = entry_key(key);
            self.eval(&self.release, &[key.as_bytes()], &[claim.owner.as_bytes()]).await?;
            Ok(())
        })
    }

    fn commit<'a>(&'a self, payment: &'a Payment, completion: Option<Completion<'a>>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let json = serde_json::to_string(payment).map_err(|err| StoreError::new("cannot encode a payment", err))?;
            let mut keys: Vec<&[u8]> = vec![PAYMENTS_BY_ID.as_bytes(), PAYMENTS_IN_ORDER.as_bytes()];
            let mut args: Vec<&[u8]> = vec![payment.id.as_bytes(), json.as_bytes()];
            let (entry_key, completed);
            if let Some(completion) = completion {
                entry_key = self::entry_key(completion.key);
                completed = SharedEntry::completed(&completion.fingerprint, completion.response).encode();
                let owner = completion.claim.map_or("", |claim| claim.owner.as_str());
                keys.push(entry_key.as_bytes());
                args.extend([owner.as_bytes(), completed.as_bytes(), self.ttl_ms.as_bytes()]);
            }
            self.eval(&self.commit, &keys, &args).await?;
            Ok(())
        })
    }

    fn payment<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Value>> {
        Box::pin(async move {
            match self.call(&[b"HGET", PAYMENTS_BY_ID.as_bytes(), id.as_bytes()]).await? {
                Reply::Bulk(Some(json)) => parse_payment(&json).map(Some),
                _ => Ok(None),
            }
        })
    }

    fn payments(&self) -> StoreFuture<'_, Vec<Value>> {
        Box::pin(async move {
            match self.call(&[b"LRANGE", PAYMENTS_IN_ORDER.as_bytes(), b"0", b"-1"]).await? {
                Reply::Array(Some(items)) => items
                    .into_iter()
                    .filter_map(|item| match item {
                        Reply::Bulk(Some(json)) => Some(parse_payment(&json)),
                        _ => None,
                    })
                    .collect(),
                _ => Ok(Vec::new()),
            }
        })
    }
}

/// An error message from Redis, cut to a length that fits a log line (a server that is not
/// Redis may send a long one).
fn said(message: &str) -> String {
    excerpt(message.as_bytes(), 200)
}

fn parse_payment(json: &[u8]) -> Result<Value, StoreError> {
    serde_json::from_slice(json).map_err(|err| StoreError::new("a payment in Redis is unreadable", err))
}
