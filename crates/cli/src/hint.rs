//! `play --hint`: the expectimax bot's move for the board on screen, as a line of text.

use twenty48_bot::Bot;
use twenty48_engine::{Game, Status};

/// The bot that gives hints, made for a game's rules when first asked (a session may go on
/// to a resumed game under other rules).
#[derive(Default)]
pub struct Hint {
    bot: Option<(twenty48_engine::Rules, Bot)>,
}

impl Hint {
    /// The note line with a hint for `game` in front of `note`; `None` once the game is over.
    pub fn line(&mut self, game: &Game, note: Option<&str>) -> Option<String> {
        if game.status() != Status::Playing {
            return None;
        }
        let rules = *game.rules();
        let bot = match &mut self.bot {
            Some((r, bot)) if *r == rules => bot,
            slot => &mut slot.insert((rules, Bot::expectimax_default(&rules))).1,
        };
        let dir = bot.choose(game)?;
        let arrow = match dir {
            twenty48_engine::Direction::Up => '↑',
            twenty48_engine::Direction::Right => '→',
            twenty48_engine::Direction::Down => '↓',
            twenty48_engine::Direction::Left => '←',
        };
        Some(match note {
            Some(n) => format!("hint: {arrow} {}   {n}", dir.name()),
            None => format!("hint: {arrow} {}", dir.name()),
        })
    }
}
