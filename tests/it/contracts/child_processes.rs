//! The program under test, run by `idem proxy -- CMD` and `webhook check-sender -- CMD`, leaves
//! nothing running behind it, whatever shape it has and however the run ends. The client scripts
//! write their processes' pids to a file; after the tool exits, none of them exists any more.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{KillOnDrop, dead_port};

/// Client shapes that left processes running before the shared runner, each writing the pids of
/// what it starts to `$PIDS`, with how many pids it writes.
const SHAPES: &[(&str, usize)] = &[
    ("echo $$ >> \"$PIDS\"; exec sleep 1000", 1),
    ("sleep 1000 & echo $! >> \"$PIDS\"; echo $$ >> \"$PIDS\"; wait", 2),
    ("setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 1000' & echo $$ >> \"$PIDS\"; wait", 2),
    ("echo $$ >> \"$PIDS\"; yes > /dev/null", 1),
    ("trap '' TERM; echo $$ >> \"$PIDS\"; while :; do sleep 1; done", 1),
];

fn pids_in(path: &Path, count: usize) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let pids: Vec<u32> = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .collect();
        if pids.len() >= count {
            return pids;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the client never wrote {count} pid(s) to {path:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Asserts that none of `pids` exists; a just-killed orphan re-parented to init may take a moment
/// to be reaped, so this waits for that (the bound is only there to fail rather than hang).
fn assert_all_gone(pids: &[u32], what: &str) {
    let started = Instant::now();
    while pids.iter().any(|pid| exists(*pid)) && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|pid| exists(*pid)).collect();
    assert!(left.is_empty(), "{what}: {left:?} of {pids:?} still exist");
}

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill").args([name, &pid.to_string()]).status().expect("run kill");
    assert!(status.success());
}

/// `idem proxy` running `script` as its client, the pids file, and the count of pids to wait for.
fn proxy_with_client(script: &str, pids: &Path) -> KillOnDrop {
    let upstream = format!("http://127.0.0.1:{}", dead_port());
    let child = Command::new(assert_cmd::cargo::cargo_bin("idem"))
        .args(["proxy", "--upstream", &upstream, "--addr", "127.0.0.1:0", "--format", "json"])
        .args(["--", "sh", "-c", script])
        .env("PIDS", pids)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn idem proxy");
    KillOnDrop::new(child)
}

#[test]
fn idem_proxy_stopped_with_sigterm_or_ctrl_c_leaves_no_client_process_behind() {
    for (index, (script, count)) in SHAPES.iter().enumerate() {
        let signal_name = if index % 2 == 0 { "-TERM" } else { "-INT" };
        let dir = tempfile::tempdir().unwrap();
        let pids_file = dir.path().join("pids");
        let mut proxy = proxy_with_client(script, &pids_file);
        let pids = pids_in(&pids_file, *count);
        signal(proxy.id(), signal_name);
        let status = proxy.wait().expect("wait for idem proxy");
        // No operation reached the proxy, which it reports as "could not run".
        assert_eq!(status.code(), Some(2), "`{script}` after {signal_name}");
        assert_all_gone(&pids, &format!("idem proxy {signal_name} with client `{script}`"));
    }
}

#[test]
fn idem_proxy_stops_what_an_exited_client_left_running() {
    let dir = tempfile::tempdir().unwrap();
    let pids_file = dir.path().join("pids");
    // The client exits once its three background processes are running (so none is stopped
    // before it wrote its pid).
    let script = "sleep 1000 & echo $! >> \"$PIDS\"; setsid sh -c 'echo $$ >> \"$PIDS\"; exec sleep 1000' & yes > /dev/null & echo $! >> \"$PIDS\"; while [ $(wc -l < \"$PIDS\") -lt 3 ]; do sleep 0.01; done";
    let mut proxy = proxy_with_client(script, &pids_file);
    let pids = pids_in(&pids_file, 3);
    let status = proxy.wait().expect("wait for idem proxy");
    assert_eq!(status.code(), Some(2));
    assert_all_gone(&pids, "background children of an exited client");
}

#[test]
fn webhook_check_sender_stopped_with_sigterm_leaves_no_sender_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    let pids_file = dir.path().join("pids");
    let script = "setsid sh -c 'trap \"\" TERM; echo $$ >> \"$PIDS\"; exec sleep 1000' & yes > /dev/null & echo $! >> \"$PIDS\"; echo $$ >> \"$PIDS\"; wait";
    let child = Command::new(assert_cmd::cargo::cargo_bin("webhook"))
        .args(["check-sender", "--secret", "whsec_child_processes", "--addr", "127.0.0.1:0", "--format", "json"])
        .args(["--", "sh", "-c", script])
        .env("PIDS", &pids_file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn webhook check-sender");
    let mut checker = KillOnDrop::new(child);
    let pids = pids_in(&pids_file, 3);
    signal(checker.id(), "-TERM");
    let stderr =
        BufReader::new(checker.stderr.take().expect("stderr")).lines().map_while(Result::ok).collect::<Vec<_>>();
    let status = checker.wait().expect("wait for webhook check-sender");
    assert_eq!(status.code(), Some(2), "nothing was delivered: {stderr:?}");
    assert_all_gone(&pids, "webhook check-sender stopped with SIGTERM");
}

#[test]
fn idem_check_killed_with_sigkill_leaves_no_server_behind() {
    let serve = assert_cmd::cargo::cargo_bin("idem");
    // The server as the command itself, and as a background child of the shell that runs it.
    for shape in ["echo $$ >> \"$PIDS\"; exec {SERVE}", "{SERVE} & echo $! >> \"$PIDS\"; echo $$ >> \"$PIDS\"; wait"] {
        let dir = tempfile::tempdir().unwrap();
        let pids_file = dir.path().join("pids");
        let port = dead_port();
        let server = format!("'{}' serve --addr 127.0.0.1:{port} --work 30s", serve.display());
        let command = shape.replace("{SERVE}", &server);
        let check = Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["check", &format!("http://127.0.0.1:{port}/payments"), "-d", "{\"amount\":1}"])
            .args(["--server-cmd", &command])
            .env("PIDS", &pids_file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn idem check");
        let mut check = KillOnDrop::new(check);
        let pids = pids_in(&pids_file, if shape.contains("exec") { 1 } else { 2 });
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(60), "the server never listened on {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        signal(check.id(), "-KILL");
        check.wait().expect("wait for idem check");
        assert_all_gone(&pids, &format!("idem check killed with SIGKILL, server command `{command}`"));
    }
}
