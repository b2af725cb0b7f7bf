//! The providers' own libraries, pinned and installed by `tests/differential/setup.sh` under
//! `target/differential`: the differential test and the template tests judge with them.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where setup.sh installs the reference libraries.
pub(crate) struct References {
    pub(crate) python: PathBuf,
    pub(crate) node_dir: PathBuf,
    pub(crate) scripts: PathBuf,
}

impl References {
    /// The virtualenv's python, with stripe, standardwebhooks, svix and slack_sdk installed.
    pub(crate) fn python(&self) -> &Path {
        &self.python
    }
}

/// Installs the libraries (once per test run; quick when already installed) or fails saying how.
pub(crate) fn references() -> &'static References {
    static INSTALLED: OnceLock<References> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let setup = root.join("tests/differential/setup.sh");
        let output = Command::new("bash").arg(&setup).output();
        let how = "install the reference libraries with `tests/differential/setup.sh` (needs python3 with venv, npm \
                   and the PyPI and npm registries); the differential test cannot run without them and never skips";
        match output {
            Ok(output) if output.status.success() => {}
            Ok(output) => panic!(
                "{} failed ({}):\n{}\n{how}",
                setup.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ),
            Err(err) => panic!("cannot run {}: {err}; {how}", setup.display()),
        }
        let dir = root.join("target/differential");
        let references = References {
            python: dir.join("venv/bin/python"),
            node_dir: dir.join("node"),
            scripts: root.join("tests/differential"),
        };
        assert!(references.python.exists(), "{} is missing; {how}", references.python.display());
        assert!(
            references.node_dir.join("node_modules").exists(),
            "{} is missing; {how}",
            references.node_dir.display()
        );
        references
    })
}
