//! The Nano RP2040 Connect's own UF2 on the RP2040 emulator (docs/firmware.md, "The Nano on
//! an emulator"). One test binary, so that its tests share the machine's cores: each test
//! drives its own emulator processes.
#![cfg(unix)] // the emulator runs on Unix only

mod buttons;
mod flash_model;
mod power_cut;
mod session;
mod support;
mod usb;
