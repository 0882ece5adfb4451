//! What the report says of a port pull's acknowledgements
//! ([`AckWindow`](twenty48_devicelog::pull::AckWindow): the window itself, and the decision
//! to acknowledge, are the conversation's, in devicelog).

use twenty48_devicelog::pull::{AckWindow, LISTED};

/// The report's lines about the acknowledgements, for people.
pub(super) fn findings(acks: &AckWindow) -> Vec<String> {
    let mut out: Vec<String> = acks
        .refusals()
        .items
        .iter()
        .map(|r| format!("ACK FAILED: {r}"))
        .collect();
    if let Some(line) = acks.refusals().unlisted("acknowledgements refused") {
        out.push(format!("ACK FAILED: {line}"));
    }
    if acks.waiting() {
        let (games, more) = acks.unanswered();
        let games: Vec<String> = games.iter().map(u32::to_string).collect();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out.push(format!(
            "not acknowledged by the device: games {}{more} (written; they come again next time and are recognised)",
            games.join(", ")
        ));
    }
    out
}

/// The JSON `acks` object and the notes counting what its lists leave out.
pub(super) fn json(acks: &AckWindow) -> (serde_json::Value, Vec<String>) {
    let mut notes: Vec<String> = acks
        .answered()
        .unlisted("games acknowledged by the device")
        .into_iter()
        .collect();
    let (unanswered, more) = acks.unanswered();
    if more > 0 {
        notes.push(format!(
            "{more} more games not acknowledged by the device after the first {LISTED}, counted but not listed"
        ));
    }
    notes.extend(acks.refusals().unlisted("acknowledgements refused"));
    // In order of game number, each once (a game acknowledged twice: two copies).
    let mut acked = acks.answered().items.clone();
    acked.sort_unstable();
    acked.dedup();
    let value = serde_json::json!({
        "acked": acked,
        "unanswered": unanswered,
        "refused": acks.refusals().items,
    });
    (value, notes)
}
