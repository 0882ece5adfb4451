//! The harness's flash chip and SSI models on their own (`js/flash.test.mjs`, Node's test
//! runner): each rule the emulator tests rely on (NOR programming, write enable, busy chip,
//! XIP window, torn operations, the data pad's pull) fails a run when broken.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use twenty48_sim_rp2040::setup;

#[test]
fn the_flash_model_enforces_nor_and_xip_rules() {
    setup::check(&setup::default_bootrom()).unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new("node")
        .args(["--test", "flash.test.mjs"])
        .current_dir(setup::harness_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("node --test did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(status.success(), "{report}");
    assert!(
        report.contains("# fail 0") && report.contains("# pass 6"),
        "{report}"
    );
}
