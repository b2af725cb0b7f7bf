//! A server a benchmark runs as a process of its own: started, its URL read off its first line,
//! its output drained as a terminal would drain it, and stopped with SIGINT (so a listener flushes
//! its journal) or killed when dropped. Each bench includes this file with `#[path]`; they are
//! separate binaries, so this is the one copy.
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub(crate) struct ServerProcess {
    child: Child,
    pub(crate) url: String,
    drain: Option<JoinHandle<()>>,
}

impl ServerProcess {
    /// Starts `command`, which prints a URL on its first line.
    pub(crate) fn start(command: &mut Command) -> ServerProcess {
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("start a server");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("read the server's first line");
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {first:?}"))
            .to_string();
        // Drained like a terminal would be, so the server's printer runs as it does for people.
        let drain = std::thread::spawn(move || {
            let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        });
        ServerProcess { child, url, drain: Some(drain) }
    }

    /// Its process id (for its RSS; only the proxy bench reads it).
    #[allow(dead_code)]
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Ctrl-C, as a user stops it, then up to 10 s for it to finish; killed after that.
    pub(crate) fn stop(mut self) {
        let _ = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if let Some(drain) = self.drain.take() {
            let _ = self.child.kill();
            let _ = drain.join();
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs this bench's own binary with `args` (its load-generator mode) and returns the numbers it
/// printed on stdout.
pub(crate) fn run_load_generator(args: &[&str]) -> Vec<f64> {
    let output = Command::new(std::env::current_exe().expect("own path"))
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("run the load generator");
    assert!(output.status.success(), "the load generator failed");
    let text = String::from_utf8_lossy(&output.stdout);
    text.split_whitespace().filter_map(|word| word.parse().ok()).collect()
}
