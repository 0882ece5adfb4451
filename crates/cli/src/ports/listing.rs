//! The serial ports there are: the system's (serialport's enumeration), or, for tests, a
//! file that lists them (`TWENTY48_PORTS`). Everything else about ports is pure and handed
//! this list.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use super::board::Usb;
use super::choice::Port;

/// For tests: the environment variable naming a file that replaces the system's list of
/// ports (the `ports` array of `twenty48 ports --json`: `[{"path", "usb": {"vid": "2341",
/// "pid": "0042", "serial", "manufacturer", "product"} | null}]`), so that a test can say
/// an emulated board's pseudo-terminal is an Arduino.
pub const PORTS_FILE_VAR: &str = "TWENTY48_PORTS";

/// The most bytes read from a `TWENTY48_PORTS` file.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The serial ports attached, sorted by name: those of the file `TWENTY48_PORTS` names if
/// it is set, else the system's.
pub fn attached() -> Result<Vec<Port>> {
    let mut ports = match std::env::var_os(PORTS_FILE_VAR) {
        Some(file) => from_file(Path::new(&file))?,
        None => from_system()?,
    };
    ports.sort_by(|a, b| a.path.cmp(&b.path));
    ports.dedup_by(|a, b| a.path == b.path);
    Ok(ports)
}

/// The system's serial ports, with their USB identity where they have one.
fn from_system() -> Result<Vec<Port>> {
    // serialport's Linux scan (without libudev) panics when /sys/class/tty cannot be read:
    // that is said here, as an error, first.
    #[cfg(target_os = "linux")]
    std::fs::read_dir("/sys/class/tty").context(
        "cannot list the serial ports: /sys/class/tty cannot be read (is sysfs mounted?)",
    )?;
    let found = serialport::available_ports().context("cannot list the serial ports")?;
    Ok(found
        .into_iter()
        .map(|info| Port {
            path: info.port_name,
            usb: match info.port_type {
                serialport::SerialPortType::UsbPort(usb) => Some(Usb {
                    vid: usb.vid,
                    pid: usb.pid,
                    serial: usb.serial_number.filter(|s| !s.is_empty()),
                    manufacturer: usb.manufacturer.filter(|s| !s.is_empty()),
                    product: usb.product.filter(|s| !s.is_empty()),
                }),
                _ => None,
            },
        })
        .collect())
}

/// The ports a `TWENTY48_PORTS` file lists.
fn from_file(path: &Path) -> Result<Vec<Port>> {
    let shown = crate::input::shown(path);
    // Looked at before it is opened: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read {shown} ({PORTS_FILE_VAR})"))?;
    if !meta.is_file() {
        bail!("{shown} ({PORTS_FILE_VAR}) is not a regular file: name a JSON file of ports");
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
        .with_context(|| format!("cannot read {shown} ({PORTS_FILE_VAR})"))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        bail!("{shown} ({PORTS_FILE_VAR}) is over 1 MiB: no list of ports is that long");
    }
    let doc: Value = serde_json::from_str(&text)
        .with_context(|| format!("{shown} ({PORTS_FILE_VAR}) is not JSON"))?;
    let Some(list) = doc.as_array() else {
        bail!("{shown} ({PORTS_FILE_VAR}) is not a list of ports: [{{\"path\", \"usb\"}}]");
    };
    list.iter()
        .enumerate()
        .map(|(i, entry)| {
            port_of(entry).with_context(|| format!("{shown} ({PORTS_FILE_VAR}), port {}", i + 1))
        })
        .collect()
}

fn port_of(entry: &Value) -> Result<Port> {
    let Some(path) = entry["path"].as_str().filter(|p| !p.is_empty()) else {
        bail!("no \"path\"");
    };
    let usb = match &entry["usb"] {
        Value::Null => None,
        usb => {
            let id = |key: &str| -> Result<u16> {
                let text = usb[key].as_str().unwrap_or_default();
                if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
                    bail!("\"usb\".\"{key}\" is not 4 hex digits");
                }
                Ok(u16::from_str_radix(text, 16)?)
            };
            let text = |key: &str| usb[key].as_str().map(str::to_string);
            Some(Usb {
                vid: id("vid")?,
                pid: id("pid")?,
                serial: text("serial"),
                manufacturer: text("manufacturer"),
                product: text("product"),
            })
        }
    };
    Ok(Port {
        path: path.to_string(),
        usb,
    })
}

/// A port as `ports --json` gives it (and a `TWENTY48_PORTS` file reads it).
pub fn port_json(port: &Port) -> Value {
    json!({
        "path": port.path,
        "usb": port.usb.as_ref().map(|usb| json!({
            "vid": format!("{:04x}", usb.vid),
            "pid": format!("{:04x}", usb.pid),
            "serial": usb.serial,
            "manufacturer": usb.manufacturer,
            "product": usb.product,
        })),
        "board": port.board().map(|b| json!({"id": b.key(), "name": b.name()})),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_reads_back_what_json_says_of_it() {
        let port = Port {
            path: "/dev/ttyACM0".into(),
            usb: Some(Usb {
                vid: 0x2341,
                pid: 0x0042,
                serial: Some("95735353".into()),
                manufacturer: Some("Arduino (www.arduino.cc)".into()),
                product: None,
            }),
        };
        assert_eq!(port_of(&port_json(&port)).unwrap(), port);
        let bare = Port {
            path: "COM1".into(),
            usb: None,
        };
        assert_eq!(port_of(&port_json(&bare)).unwrap(), bare);
    }

    #[test]
    fn a_hostile_entry_is_an_error_never_a_panic() {
        for entry in [
            json!(null),
            json!(7),
            json!({"path": ""}),
            json!({"path": 3}),
            json!({"path": "x", "usb": 5}),
            json!({"path": "x", "usb": {"vid": "23411", "pid": "0042"}}),
            json!({"path": "x", "usb": {"vid": "+234", "pid": "0042"}}),
            json!({"path": "x", "usb": {"vid": "2341"}}),
            json!({"path": "x", "usb": {"vid": "zzzz", "pid": "0042"}}),
        ] {
            assert!(port_of(&entry).is_err(), "{entry}");
        }
    }

    /// A list file that is no regular file is refused before it is opened (a FIFO would
    /// wait for a writer for ever), and one that never ends is read only up to its cap.
    #[cfg(unix)]
    #[test]
    fn a_list_file_that_is_no_regular_file_is_refused_unopened() {
        let dir = std::env::temp_dir().join(format!("t48-ports-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("ports.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        for path in [fifo.as_path(), dir.as_path()] {
            let e = from_file(path).unwrap_err().to_string();
            assert!(e.contains("is not a regular file"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
