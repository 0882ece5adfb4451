//! Puts the linker scripts where the linker finds them (-T... in .cargo/config.toml).

use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for script in ["defmt-avr.x", "code-after-data.x"] {
        fs::copy(script, out.join(script)).expect("the linker scripts are in the package");
        println!("cargo:rerun-if-changed={script}");
    }
    println!("cargo:rustc-link-search={}", out.display());
}
