//! The program under test, run as a child process: `idem proxy -- CLIENT_CMD`, `webhook
//! check-sender -- SENDER_CMD` and the servers `idem check` starts and crashes.
//!
//! What it promises: whatever the child started is gone when we are done with it. The child runs
//! in its own process group (so a Ctrl-C meant for us reaches it only through `stop`, and one
//! signal reaches `sh -c`'s children too), and carries a tag in its environment
//! ([`TAG_VARIABLE`]) that its descendants inherit, so the ones that left the group (`setsid`,
//! a daemonising server) are still found. On Linux we are a child subreaper, so such orphans are
//! re-parented to us rather than to init, and we reap them. Stopping is SIGTERM to all of them,
//! then SIGKILL after a grace period; it runs on every way out: an explicit [`RunningChild::stop`],
//! a drop (an error, a panic, a returned early `?`), and Ctrl-C or SIGTERM to us, which the
//! commands catch and turn into a stop.
//!
//! When we die without a chance to stop it (SIGKILL, a crash), the child dies with us: on Linux
//! it asks the kernel for SIGKILL when its parent goes (`PR_SET_PDEATHSIG`), and a small watchdog
//! (`sh`, holding the read end of a pipe only we write to) kills the child's whole process group
//! when that pipe closes, which it does when we die however we die. Otherwise the next run would
//! meet a server left from this one on its port.
use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

/// The environment variable that marks the processes one run started, so they can be found even
/// after they left its process group.
pub(crate) const TAG_VARIABLE: &str = "IDEM_CHILD_TAG";

/// How long a stopped child has between SIGTERM and SIGKILL, unless told otherwise.
pub(crate) const DEFAULT_GRACE: Duration = Duration::from_secs(3);

/// How long to wait for processes to disappear after SIGKILL before giving up on them (a process
/// in uninterruptible sleep cannot die until its I/O ends).
const KILL_WAIT: Duration = Duration::from_secs(5);

/// How often a stop looks whether everything has gone.
const POLL: Duration = Duration::from_millis(20);

/// How much of the child's stderr is kept, from its end, for the error when it fails.
const STDERR_TAIL: usize = 2048;

/// The watchdog: reads one line from the pipe only we write to; EOF (we died) kills the group
/// named by `$1`, a line (we stopped the child ourselves) ends it quietly.
const WATCHDOG: &str = "read _ || kill -s KILL -- \"-$1\" 2>/dev/null";

/// Where the child's standard output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code, reason = "Piped is for a server that prints its URL")]
pub(crate) enum ChildOutput {
    /// Our stderr: the tools' stdout carries reports and JSON, which the child must not mix into.
    ToStderr,
    /// Our stdout.
    Inherit,
    Null,
    /// A pipe, read through [`RunningChild::take_stdout`] (a server that prints its URL).
    Piped,
}

/// A command to run; it can be spawned again (a server restarted after a crash).
#[derive(Debug, Clone)]
pub(crate) struct ChildCommand {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    stdout: ChildOutput,
    grace: Duration,
    shown: String,
    /// What the command is, for messages: `the sender`, `the client command`.
    role: &'static str,
    /// Keep the end of its stderr (still passed on to ours) for [`RunningChild::stderr_tail`].
    keep_stderr_tail: bool,
}

impl ChildCommand {
    /// `argv[0]` with the rest as arguments, `role` saying what it is in messages (`the sender`);
    /// an error for an empty command line.
    pub(crate) fn new<S: Into<OsString> + Clone>(role: &'static str, argv: &[S]) -> anyhow::Result<ChildCommand> {
        let (program, args) =
            argv.split_first().with_context(|| format!("{role}'s command line is empty; give it after --"))?;
        let args: Vec<OsString> = args.iter().cloned().map(Into::into).collect();
        let program: OsString = program.clone().into();
        // Echoed in summaries, JSON reports and errors that end up in CI logs: the credentials
        // such command lines carry are hidden.
        let shown = crate::command_line::shown_command(&std::iter::once(&program).chain(&args).collect::<Vec<_>>());
        Ok(ChildCommand {
            program,
            args,
            env: Vec::new(),
            stdout: ChildOutput::ToStderr,
            grace: DEFAULT_GRACE,
            shown,
            role,
            keep_stderr_tail: false,
        })
    }

    /// Keeps the last lines of the child's stderr, which still reaches ours, for the error that
    /// says why it failed.
    pub(crate) fn keep_stderr_tail(mut self) -> ChildCommand {
        self.keep_stderr_tail = true;
        self
    }

    pub(crate) fn env(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> ChildCommand {
        self.env.push((name.into(), value.into()));
        self
    }

    pub(crate) fn stdout(mut self, output: ChildOutput) -> ChildCommand {
        self.stdout = output;
        self
    }

    /// How long [`RunningChild::stop`] waits after SIGTERM before SIGKILL.
    pub(crate) fn grace(mut self, grace: Duration) -> ChildCommand {
        self.grace = grace;
        self
    }

    /// Shows the command line as `shown` in messages (with a secret blanked out, say).
    pub(crate) fn shown_as(mut self, shown: String) -> ChildCommand {
        self.shown = shown;
        self
    }

    /// The command line, for messages.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// Starts the command, stdin closed. Must run inside a tokio runtime.
    pub(crate) fn spawn(&self) -> anyhow::Result<RunningChild> {
        become_subreaper();
        let tag = new_tag();
        let mut command = tokio::process::Command::new(&self.program);
        command.args(&self.args).envs(self.env.iter().map(|(name, value)| (name, value))).env(TAG_VARIABLE, &tag);
        let stderr = if self.keep_stderr_tail { Stdio::piped() } else { Stdio::inherit() };
        command.stdin(Stdio::null()).stderr(stderr).stdout(match self.stdout {
            ChildOutput::ToStderr => stderr_for_child(),
            ChildOutput::Inherit => Stdio::inherit(),
            ChildOutput::Null => Stdio::null(),
            ChildOutput::Piped => Stdio::piped(),
        });
        #[cfg(unix)]
        command.process_group(0);
        die_with_us(&mut command);
        // Only a last resort: our Drop stops the whole tree before tokio's would kill the child.
        command.kill_on_drop(true);
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start {} `{}`; is it installed and on PATH?", self.role, self.shown))?;
        let pid = child.id().context("the child exited before its pid could be read")?;
        let stderr_tail = child.stderr.take().map(pass_on_and_keep_tail);
        Ok(RunningChild {
            child,
            pid,
            exited: None,
            tag,
            grace: self.grace,
            known: HashSet::new(),
            finished: false,
            stderr_tail,
            watchdog: Watchdog::start(pid),
        })
    }
}

/// A started child. Dropping it stops it (and everything it started) the way [`stop`] does,
/// blocking the thread for at most the grace period plus a few seconds.
///
/// [`stop`]: RunningChild::stop
pub(crate) struct RunningChild {
    child: tokio::process::Child,
    pid: u32,
    exited: Option<ExitStatus>,
    /// The value of [`TAG_VARIABLE`] this child and its descendants carry.
    tag: String,
    grace: Duration,
    /// Processes found to be ours, remembered so they can be reaped once they are zombies (a
    /// zombie's environment cannot be read any more).
    known: HashSet<u32>,
    /// Stopped and swept: nothing left to do on drop.
    finished: bool,
    /// The end of the child's stderr, when the command asked to keep it.
    stderr_tail: Option<std::sync::Arc<std::sync::Mutex<Vec<u8>>>>,
    /// Kills the child's process group if we die without stopping it.
    watchdog: Option<Watchdog>,
}

/// A signal to send to the child's processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    Terminate,
    Kill,
}

impl RunningChild {
    /// The child's process id, which is also its process group's id.
    #[allow(dead_code, reason = "for `idem check --server-cmd`, which starts, crashes and restarts a server")]
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// The child's stdout, when spawned with [`ChildOutput::Piped`] (once).
    #[allow(dead_code, reason = "for `idem check --server-cmd`, which starts, crashes and restarts a server")]
    pub(crate) fn take_stdout(&mut self) -> Option<tokio::process::ChildStdout> {
        self.child.stdout.take()
    }

    /// How the child exited, if it has been seen to.
    pub(crate) fn exited(&self) -> Option<ExitStatus> {
        self.exited
    }

    /// The last lines the child wrote to stderr (when the command kept them), terminal-safe;
    /// `None` when it wrote nothing.
    pub(crate) fn stderr_tail(&self) -> Option<String> {
        let tail = self.stderr_tail.as_ref()?.lock().ok()?;
        let text = String::from_utf8_lossy(&tail);
        // The first line may be cut; the tail starts at the first whole one.
        let text = match (tail.len() >= STDERR_TAIL, text.split_once('\n')) {
            (true, Some((_, rest))) => rest,
            _ => &text,
        };
        let text = crate::output::terminal_safe(text.trim());
        (!text.is_empty()).then(|| text.into_owned())
    }

    /// Waits for the child itself to exit (what it started may still run; [`stop`] ends that).
    ///
    /// [`stop`]: RunningChild::stop
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        if let Some(status) = self.exited {
            return Ok(status);
        }
        let status = self.child.wait().await?;
        self.exited = Some(status);
        Ok(status)
    }

    /// Whether the child or anything it started still runs (zombies aside): once the child has
    /// exited, whether something it left in the background could still act for it.
    pub(crate) fn anything_running(&mut self) -> bool {
        if self.exited.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.exited = Some(status);
        }
        let (alive, settling) = self.alive();
        self.exited.is_none() || !alive.is_empty() || settling
    }

    /// Stops the child and everything it started that still runs, also when the child itself has
    /// already exited: SIGTERM, then SIGKILL to whatever is left after the grace period. Returns
    /// the child's exit status (`None` if it could not be read).
    pub(crate) async fn stop(&mut self) -> Option<ExitStatus> {
        self.end(Signal::Terminate).await
    }

    /// Kills the child and everything it started with SIGKILL at once (a crash, as far as they
    /// can tell), and waits until they are gone.
    pub(crate) async fn kill(&mut self) -> Option<ExitStatus> {
        self.end(Signal::Kill).await
    }

    async fn end(&mut self, first: Signal) -> Option<ExitStatus> {
        let mut stopping = Stopping::new(first, self.grace);
        stopping.signalled = self.signal(first);
        while let Some(pause) = self.step(&mut stopping) {
            tokio::time::sleep(pause).await;
        }
        self.finished = true;
        self.release_watchdog();
        self.exited
    }

    /// The same as `end`, blocking the thread: for Drop, where there is no awaiting.
    fn end_blocking(&mut self, first: Signal) {
        let mut stopping = Stopping::new(first, self.grace);
        stopping.signalled = self.signal(first);
        while let Some(pause) = self.step(&mut stopping) {
            std::thread::sleep(pause);
        }
        self.finished = true;
        self.release_watchdog();
    }

    /// Ends the watchdog without its kill: the group is gone, and its id may be reused.
    fn release_watchdog(&mut self) {
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.release();
        }
    }

    /// One round of a stop: notes the child's exit, reaps the orphans that died, escalates to
    /// SIGKILL when the grace period is over. `None` when everything is gone (or we gave up).
    fn step(&mut self, stopping: &mut Stopping) -> Option<Duration> {
        if self.exited.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.exited = Some(status);
        }
        let (alive, settling) = self.alive();
        if alive.is_empty() && !settling && self.exited.is_some() {
            return None;
        }
        let now = Instant::now();
        if now >= stopping.deadline {
            if stopping.sent == Signal::Kill {
                return None;
            }
            stopping.sent = Signal::Kill;
            stopping.deadline = now + KILL_WAIT;
            stopping.signalled = self.signal(Signal::Kill);
        } else {
            // Processes started since the last round (a shell still forking) get the signal too,
            // once: a second SIGTERM means "hurry" to some programs.
            let new: Vec<u32> = alive.into_iter().filter(|pid| stopping.signalled.insert(*pid)).collect();
            signal_each(&new, stopping.sent);
        }
        Some(POLL)
    }

    /// Sends `signal` to the child's process group and to every process of ours outside it;
    /// returns the processes it went to.
    fn signal(&mut self, signal: Signal) -> HashSet<u32> {
        #[cfg(unix)]
        if let Ok(group) = i32::try_from(self.pid) {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative pid
            // names the process group `spawn` created, which holds only the child's processes.
            unsafe {
                libc::kill(-group, signal.number());
            }
        }
        if self.exited.is_none() && signal == Signal::Kill {
            let _ = self.child.start_kill();
        }
        let (alive, _) = self.alive();
        signal_each(&alive, signal);
        alive.into_iter().collect()
    }

    /// The child's processes that still run (zombies excluded; the ones re-parented to us are
    /// reaped here), and whether a dead one is still being re-parented to us.
    fn alive(&mut self) -> (Vec<u32>, bool) {
        descendants::alive(self.pid, &self.tag, &mut self.known)
    }
}

impl Drop for RunningChild {
    fn drop(&mut self) {
        if !self.finished {
            self.end_blocking(Signal::Terminate);
        }
    }
}

/// Where a stop is: what was last sent, and until when to wait for it to work.
struct Stopping {
    sent: Signal,
    deadline: Instant,
    /// The processes `sent` went to.
    signalled: HashSet<u32>,
}

impl Stopping {
    fn new(first: Signal, grace: Duration) -> Stopping {
        let wait = if first == Signal::Kill { KILL_WAIT } else { grace };
        Stopping { sent: first, deadline: Instant::now() + wait, signalled: HashSet::new() }
    }
}

impl Signal {
    #[cfg(unix)]
    fn number(self) -> i32 {
        match self {
            Signal::Terminate => libc::SIGTERM,
            Signal::Kill => libc::SIGKILL,
        }
    }
}

fn signal_each(pids: &[u32], signal: Signal) {
    #[cfg(unix)]
    for pid in pids {
        if let Ok(pid) = i32::try_from(*pid) {
            // SAFETY: as in `RunningChild::signal`; `pid` was just seen to be one of the child's.
            unsafe {
                libc::kill(pid, signal.number());
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (pids, signal);
}

/// Asks the kernel to SIGKILL the child when we die (Linux), checked against a parent that died
/// while it was being forked.
fn die_with_us(command: &mut tokio::process::Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and only makes the
        // async-signal-safe calls prctl and getppid; it allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // We died before the request took effect: nothing will send the signal now.
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    return Err(io::Error::other("the parent exited while the child started"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// The watchdog process of one child: `sh` reading a pipe whose write end only we hold.
struct Watchdog {
    process: std::process::Child,
}

impl Watchdog {
    /// Starts the watchdog for the process group `group`; `None` when it cannot start (then the
    /// child is stopped only by us and by `PR_SET_PDEATHSIG`).
    fn start(group: u32) -> Option<Watchdog> {
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let process = std::process::Command::new("sh")
                .args(["-c", WATCHDOG, "idem-watchdog", &group.to_string()])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                // Its own group: a Ctrl-C at the terminal is ours to handle, not its.
                .process_group(0)
                .spawn()
                .ok()?;
            Some(Watchdog { process })
        }
        #[cfg(not(unix))]
        {
            let _ = group;
            None
        }
    }

    /// Tells the watchdog the child is stopped (a line on its pipe), and reaps it.
    fn release(mut self) {
        use std::io::Write;
        if let Some(mut pipe) = self.process.stdin.take() {
            let _ = pipe.write_all(b"\n");
        }
        let _ = self.process.wait();
    }
}

/// Copies the child's stderr to ours as it comes, keeping its last `STDERR_TAIL` bytes.
fn pass_on_and_keep_tail(mut stderr: tokio::process::ChildStderr) -> std::sync::Arc<std::sync::Mutex<Vec<u8>>> {
    use tokio::io::AsyncReadExt;
    let tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = std::sync::Arc::clone(&tail);
    tokio::spawn(async move {
        let mut buffer = [0u8; 4096];
        while let Ok(read) = stderr.read(&mut buffer).await {
            if read == 0 {
                break;
            }
            let chunk = &buffer[..read];
            let _ = std::io::Write::write_all(&mut std::io::stderr(), chunk);
            if let Ok(mut tail) = kept.lock() {
                tail.extend_from_slice(chunk);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
        }
    });
    tail
}

/// A tag no other run in this process or another shares.
fn new_tag() -> String {
    format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple())
}

/// On Linux, makes this process a child subreaper: orphans of the children's trees are re-parented
/// to us, not to init, so they stay findable as our descendants and we reap them.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer flag and touches no memory.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            }
        });
    }
}

/// The child's stdout goes to our stderr.
fn stderr_for_child() -> Stdio {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
            return Stdio::from(fd);
        }
    }
    Stdio::inherit()
}

/// `exit status 0`, `killed by signal 9`.
pub(crate) fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = status.signal() {
                    return format!("killed by signal {signal}");
                }
            }
            "no exit status".to_string()
        }
    }
}

/// Finding a child's processes through /proc: the ones in its process group, and our
/// descendants that carry its tag.
#[cfg(target_os = "linux")]
mod descendants {
    use std::collections::{HashMap, HashSet};

    /// One line of /proc/PID/stat, the fields we need.
    struct Stat {
        state: u8,
        parent: u32,
        group: u32,
    }

    fn stat(pid: u32) -> Option<Stat> {
        let text = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses, so split after
        // the last `)`.
        let after = text.iter().rposition(|&byte| byte == b')')?;
        let rest = std::str::from_utf8(&text[after + 1..]).ok()?;
        let mut fields = rest.split_ascii_whitespace();
        let state = *fields.next()?.as_bytes().first()?;
        let parent = fields.next()?.parse().ok()?;
        let group = fields.next()?.parse().ok()?;
        Some(Stat { state, parent, group })
    }

    fn carries(pid: u32, tag_entry: &[u8]) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .map(|environ| environ.split(|&byte| byte == 0).any(|entry| entry == tag_entry))
            .unwrap_or(false)
    }

    /// The live processes of the child `child` (its group, and our descendants tagged `tag`), and
    /// whether a dead one still waits to be re-parented to us; zombies among them that are ours to
    /// reap are reaped. `known` remembers every process seen to be the child's.
    pub(super) fn alive(child: u32, tag: &str, known: &mut HashSet<u32>) -> (Vec<u32>, bool) {
        let me = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else { return (Vec::new(), false) };
        let mut stats = HashMap::new();
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()) else { continue };
            if let Some(stat) = stat(pid) {
                stats.insert(pid, stat);
            }
        }
        let descends_from_me = |mut pid: u32| {
            // Bounded: a pid table changing under us could make a cycle of stale parents.
            for _ in 0..stats.len() {
                match stats.get(&pid) {
                    Some(stat) if stat.parent == me => return true,
                    Some(stat) if stat.parent > 1 => pid = stat.parent,
                    _ => return false,
                }
            }
            false
        };
        let tag_entry = format!("{}={tag}", super::TAG_VARIABLE).into_bytes();
        let mut alive = Vec::new();
        let mut settling = false;
        for (&pid, stat) in &stats {
            if pid == me {
                continue;
            }
            let ours = known.contains(&pid)
                || stat.group == child
                || (descends_from_me(pid) && stat.state != b'Z' && carries(pid, &tag_entry));
            if !ours {
                continue;
            }
            known.insert(pid);
            if stat.state == b'Z' || stat.state == b'X' {
                // The child itself is tokio's to reap; orphans re-parented to us are ours. One
                // whose parent is one of ours is about to be re-parented to us: wait for it.
                if stat.parent == me && pid != child {
                    reap(pid);
                } else if stat.parent != me && known.contains(&stat.parent) {
                    settling = true;
                }
                continue;
            }
            alive.push(pid);
        }
        (alive, settling)
    }

    fn reap(pid: u32) {
        if let Ok(pid) = i32::try_from(pid) {
            let mut status = 0;
            // SAFETY: waitpid writes only to `status`, which lives for the call; WNOHANG never blocks.
            unsafe {
                libc::waitpid(pid, &mut status, libc::WNOHANG);
            }
        }
    }
}

/// Without /proc: the child's process group is all we can find.
#[cfg(all(unix, not(target_os = "linux")))]
mod descendants {
    use std::collections::HashSet;

    pub(super) fn alive(child: u32, _tag: &str, _known: &mut HashSet<u32>) -> (Vec<u32>, bool) {
        let Ok(group) = i32::try_from(child) else { return (Vec::new(), false) };
        // SAFETY: signal 0 only checks whether the group has a process we may signal.
        let any = unsafe { libc::kill(-group, 0) } == 0;
        (if any { vec![child] } else { Vec::new() }, false)
    }
}

#[cfg(not(unix))]
mod descendants {
    use std::collections::HashSet;

    pub(super) fn alive(_child: u32, _tag: &str, _known: &mut HashSet<u32>) -> (Vec<u32>, bool) {
        (Vec::new(), false)
    }
}

#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    use super::*;

    /// Every process (other than zombies) that carries `tag`: an independent look at /proc, not
    /// the one the runner uses.
    fn tagged(tag: &str) -> Vec<u32> {
        let wanted = format!("{TAG_VARIABLE}={tag}").into_bytes();
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|environ| environ.split(|&byte| byte == 0).any(|entry| entry == wanted))
            })
            .collect()
    }

    /// Whether `pid` is still in the process table (running, stopped or a zombie nobody reaped).
    fn exists(pid: u32) -> bool {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }

    /// Waits (without a time limit the test depends on) until `path` holds `count` pids.
    async fn pids_in(path: &std::path::Path, count: usize) -> Vec<u32> {
        loop {
            let pids: Vec<u32> = std::fs::read_to_string(path)
                .unwrap_or_default()
                .lines()
                .filter_map(|line| line.trim().parse().ok())
                .collect();
            if pids.len() >= count {
                return pids;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Runs `script` under `sh -c` with `$PIDS` naming a file it appends pids to, waits for
    /// `count` of them, lets `end` finish the child, and checks that nothing is left.
    async fn nothing_left_after(script: &str, count: usize, end: impl AsyncFnOnce(&mut RunningChild)) {
        let dir = tempfile::tempdir().unwrap();
        let pids_file = dir.path().join("pids");
        let mut child = ChildCommand::new("the test child", &["sh", "-c", script])
            .unwrap()
            .env("PIDS", &pids_file)
            .stdout(ChildOutput::Null)
            .grace(Duration::from_millis(300))
            .spawn()
            .unwrap();
        let tag = child.tag.clone();
        let pids = pids_in(&pids_file, count).await;
        assert!(pids.iter().all(|pid| exists(*pid)), "{pids:?} should run before the stop");
        end(&mut child).await;
        let left: Vec<u32> = pids.iter().copied().filter(|pid| exists(*pid)).collect();
        assert!(left.is_empty(), "{left:?} of {pids:?} still exist after the stop of `{script}`");
        assert_eq!(tagged(&tag), Vec::<u32>::new(), "tagged processes left by `{script}`");
    }

    async fn stop(child: &mut RunningChild) {
        child.stop().await;
    }

    #[tokio::test]
    async fn a_plain_child_is_stopped() {
        nothing_left_after("echo $$ >> \"$PIDS\"; exec sleep 1000", 1, stop).await;
    }

    #[tokio::test]
    async fn a_shell_and_its_background_child_are_stopped() {
        nothing_left_after("sleep 1000 & echo $! >> \"$PIDS\"; echo $$ >> \"$PIDS\"; wait", 2, stop).await;
    }

    #[tokio::test]
    async fn a_child_that_left_the_group_with_setsid_is_stopped() {
        nothing_left_after(
            "setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 1000' & echo $$ >> \"$PIDS\"; wait",
            2,
            stop,
        )
        .await;
    }

    #[tokio::test]
    async fn a_busy_loop_under_sh_is_stopped() {
        nothing_left_after("echo $$ >> \"$PIDS\"; yes > /dev/null", 1, stop).await;
    }

    #[tokio::test]
    async fn a_child_that_ignores_sigterm_is_killed_after_the_grace_period() {
        let mut status = None;
        nothing_left_after(
            "trap '' TERM; echo $$ >> \"$PIDS\"; while :; do sleep 1; done",
            1,
            async |child: &mut RunningChild| status = child.stop().await,
        )
        .await;
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.and_then(|status| status.signal()), Some(libc::SIGKILL));
    }

    #[tokio::test]
    async fn what_an_exited_child_left_in_the_background_is_stopped() {
        nothing_left_after(
            "sleep 1000 & echo $! >> \"$PIDS\"; setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 1000' &",
            2,
            async |child: &mut RunningChild| {
                let status = child.wait().await.unwrap();
                assert!(status.success());
                assert_eq!(child.stop().await, Some(status));
            },
        )
        .await;
    }

    #[tokio::test]
    async fn kill_ends_everything_at_once_even_what_ignores_sigterm() {
        nothing_left_after(
            "trap '' TERM; setsid sh -c 'trap \"\" TERM; echo $$ >> \"$PIDS\"; exec sleep 1000' & echo $$ >> \"$PIDS\"; wait",
            2,
            async |child: &mut RunningChild| {
                child.kill().await;
            },
        )
        .await;
    }

    #[tokio::test]
    async fn dropping_the_runner_stops_the_child() {
        nothing_left_after(
            "sleep 1000 & echo $! >> \"$PIDS\"; setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 1000' & wait",
            2,
            async |child: &mut RunningChild| {
                // Drop a runner in the child's place, as an early return or a panic would.
                let mut replacement = ChildCommand::new("a placeholder", &["true"]).unwrap().spawn().unwrap();
                replacement.stop().await;
                drop(std::mem::replace(child, replacement));
            },
        )
        .await;
    }

    #[tokio::test]
    async fn an_empty_command_or_a_missing_program_is_a_clear_error() {
        let empty: [&str; 0] = [];
        let error = ChildCommand::new("the sender", &empty).unwrap_err().to_string();
        assert!(error.contains("the sender's command line is empty"), "{error}");
        let error = ChildCommand::new("the sender", &["/nonexistent/program"]).unwrap().spawn().err().unwrap();
        assert!(format!("{error:#}").contains("cannot start the sender `/nonexistent/program`"), "{error:#}");
    }

    #[tokio::test]
    async fn a_piped_stdout_is_read_by_the_caller() {
        use tokio::io::AsyncBufReadExt;
        let mut child = ChildCommand::new("a server", &["sh", "-c", "echo listening on 127.0.0.1:1; exec sleep 1000"])
            .unwrap()
            .stdout(ChildOutput::Piped)
            .spawn()
            .unwrap();
        let mut lines = tokio::io::BufReader::new(child.take_stdout().unwrap()).lines();
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("listening on 127.0.0.1:1"));
        child.stop().await;
    }

    #[tokio::test]
    async fn a_restarted_child_gets_a_new_pid_and_its_own_group() {
        let command = ChildCommand::new("a server", &["sleep", "1000"]).unwrap().stdout(ChildOutput::Null);
        let mut first = command.spawn().unwrap();
        let first_pid = first.pid();
        first.kill().await;
        assert!(!exists(first_pid));
        let mut second = command.spawn().unwrap();
        assert_ne!(second.pid(), first_pid);
        let group = std::fs::read_to_string(format!("/proc/{}/stat", second.pid())).unwrap();
        let group: u32 = group.rsplit(')').next().unwrap().split_whitespace().nth(2).unwrap().parse().unwrap();
        assert_eq!(group, second.pid());
        second.stop().await;
    }
}
