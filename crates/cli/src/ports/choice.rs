//! Which port `pull` talks to when none is given: the one board attached. Pure: it is
//! handed the list of ports (the system's, or a test's).

use std::fmt;

use super::board::{Board, Usb};

/// A serial port and what is known of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// The name the port is opened by: `/dev/ttyACM0`, `COM3`.
    pub path: String,
    /// Its device's USB identity, for a USB serial port.
    pub usb: Option<Usb>,
}

impl Port {
    /// The board attached to the port, if its USB identity names one.
    pub fn board(&self) -> Option<Board> {
        self.usb.as_ref().and_then(Board::recognise)
    }

    /// `/dev/ttyACM0 (Arduino Mega 2560, 2341:0042, serial 851...)`: the port as messages
    /// name it.
    pub fn described(&self) -> String {
        let mut facts = Vec::new();
        if let Some(board) = self.board() {
            facts.push(board.name().to_string());
        }
        if let Some(usb) = &self.usb {
            facts.push(format!("{:04x}:{:04x}", usb.vid, usb.pid));
            if let Some(serial) = &usb.serial {
                facts.push(format!("serial {}", serial.escape_debug()));
            }
        }
        if facts.is_empty() {
            self.path.clone()
        } else {
            format!("{} ({})", self.path, facts.join(", "))
        }
    }
}

/// Why no port was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoChoice {
    /// No port is attached to a board this program knows; `others` are the serial ports
    /// there are.
    NoBoard { others: Vec<Port> },
    /// More than one board is attached.
    Several { boards: Vec<Port> },
}

impl fmt::Display for NoChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |ports: &[Port]| {
            ports
                .iter()
                .map(Port::described)
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            NoChoice::NoBoard { others } if others.is_empty() => write!(
                f,
                "no board attached: no serial port found (plug the board in, or give --port)"
            ),
            NoChoice::NoBoard { others } => write!(
                f,
                "no board attached: none of the serial ports is a board twenty48 knows ({}); give --port if one is",
                list(others)
            ),
            NoChoice::Several { boards } => write!(
                f,
                "{} boards attached: {}; give --port with one of them",
                boards.len(),
                list(boards)
            ),
        }
    }
}

impl std::error::Error for NoChoice {}

/// The one port attached to a board; an error naming the boards when there are several, or
/// the other ports when there is none.
pub fn choose(ports: &[Port]) -> Result<&Port, NoChoice> {
    let boards: Vec<&Port> = ports.iter().filter(|p| p.board().is_some()).collect();
    match boards.as_slice() {
        [one] => Ok(one),
        [] => Err(NoChoice::NoBoard {
            others: ports.to_vec(),
        }),
        several => Err(NoChoice::Several {
            boards: several.iter().map(|p| (*p).clone()).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(path: &str, id: Option<(u16, u16)>) -> Port {
        Port {
            path: path.to_string(),
            usb: id.map(|(vid, pid)| Usb {
                vid,
                pid,
                serial: Some("8513".into()),
                ..Usb::default()
            }),
        }
    }

    #[test]
    fn one_board_among_other_ports_is_chosen() {
        let ports = [
            port("/dev/ttyS0", None),
            port("/dev/ttyACM0", Some((0x2341, 0x0042))),
            port("/dev/ttyUSB1", Some((0x046d, 0xc52b))),
        ];
        let chosen = choose(&ports).unwrap();
        assert_eq!(chosen.path, "/dev/ttyACM0");
        assert_eq!(chosen.board(), Some(Board::Mega2560));
        assert_eq!(
            chosen.described(),
            "/dev/ttyACM0 (Arduino Mega 2560, 2341:0042, serial 8513)"
        );
    }

    #[test]
    fn a_clone_is_a_board() {
        let ports = [port("COM4", Some((0x1a86, 0x7523)))];
        assert_eq!(choose(&ports).unwrap().board(), Some(Board::Ch340Clone));
    }

    #[test]
    fn several_boards_are_named_and_none_chosen() {
        let ports = [
            port("/dev/ttyACM0", Some((0x2341, 0x0043))),
            port("/dev/ttyS0", None),
            port("/dev/ttyUSB0", Some((0x1a86, 0x7523))),
        ];
        let err = choose(&ports).unwrap_err();
        assert_eq!(
            err.to_string(),
            "2 boards attached: /dev/ttyACM0 (Arduino Uno, 2341:0043, serial 8513); \
             /dev/ttyUSB0 (a clone with a CH340 (Uno, Nano or Mega 2560), 1a86:7523, serial 8513); \
             give --port with one of them"
        );
    }

    #[test]
    fn no_board_says_which_ports_there_are() {
        assert_eq!(
            choose(&[]).unwrap_err().to_string(),
            "no board attached: no serial port found (plug the board in, or give --port)"
        );
        let err = choose(&[port("/dev/ttyS0", None)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no board attached: none of the serial ports is a board twenty48 knows (/dev/ttyS0); give --port if one is"
        );
    }
}
