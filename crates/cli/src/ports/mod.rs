//! `twenty48 ports`: the serial ports there are, with what is known of them, and which one
//! `pull` would talk to without `--port`. Which boards are known (`board`) and how the one
//! board is chosen (`choice`) are pure; `listing` is the one place that asks the system.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use crate::style::Ui;
use crate::view;

pub mod board;
pub mod choice;
pub mod listing;

pub use choice::choose;
pub use listing::attached;

/// List the serial ports, with their USB identity (vendor and product id, manufacturer,
/// product, serial number) and the board twenty48 recognises on each: an Arduino Nano
/// RP2040 Connect, Mega 2560 or Uno, or a clone's USB serial chip (CH340, FTDI). `pull`
/// without --port talks to the one board attached.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  twenty48 ports
  twenty48 ports --json
  # Then pull from the one board attached, its firmware found among those built:
  twenty48 pull -o games/

Exit status: 0 the ports were listed (none is no error); 2 the system's ports cannot be
listed.

For tests, the environment variable TWENTY48_PORTS may name a file that replaces the
system's list: a JSON list of ports shaped as the `ports` of --json (`board` is not read).

JSON shape (--json; docs/schema/ports.json): {schema_version, ports: [{path, usb: {vid, pid,
serial, manufacturer, product} | null, board: {id, name} | null}], chosen}")]
pub struct PortsArgs {
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// Runs `twenty48 ports`.
pub fn run(args: PortsArgs, ui: &Ui) -> Result<ExitCode> {
    let ports = attached()?;
    let chosen = choose(&ports);
    if args.json {
        let doc = json!({
            "schema_version": view::SCHEMA_VERSION,
            "ports": ports.iter().map(listing::port_json).collect::<Vec<_>>(),
            "chosen": chosen.as_ref().ok().map(|p| p.path.clone()),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    if ui.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    for port in &ports {
        println!("{}", port.path);
        match port.board() {
            Some(board) => println!("  board:        {}", ui.good(board.name())),
            None => println!("  board:        none recognised"),
        }
        match &port.usb {
            None => println!("  usb:          none (not a USB serial port)"),
            Some(usb) => {
                println!("  usb id:       {:04x}:{:04x}", usb.vid, usb.pid);
                for (label, value) in [
                    ("manufacturer", &usb.manufacturer),
                    ("product", &usb.product),
                    ("serial", &usb.serial),
                ] {
                    if let Some(value) = value {
                        let label = format!("{label}:");
                        println!("  {label:<13} {}", value.escape_debug());
                    }
                }
            }
        }
    }
    match chosen {
        Ok(port) => println!("pull without --port talks to {}", port.path),
        Err(why) => println!("pull without --port: {why}"),
    }
    Ok(ExitCode::SUCCESS)
}
