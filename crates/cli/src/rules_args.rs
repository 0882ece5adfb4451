//! The rule-set flags shared by `record` and `diff`: a preset, then field overrides.

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use twenty48_engine::{FourChance, Opening, OpeningSpawn, Preset, Rules, Scoring, Win};

/// A rule preset.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PresetName {
    /// The original game: two normal spawns, 4 with chance 1/10, 2048 wins and play goes on.
    Classic,
    /// The Arduino game: 4 with chance 3/10, a normal spawn then a 2, 2048 ends the game.
    Arduino,
    /// The terminal C game: a 2 then a normal spawn, 4 with chance 1/10, no win stop.
    Console,
}

impl PresetName {
    fn preset(self) -> Preset {
        match self {
            PresetName::Classic => Preset::Classic,
            PresetName::Arduino => Preset::Arduino,
            PresetName::Console => Preset::Console,
        }
    }
}

/// How merges score.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ScoringName {
    /// Each merge scores the value of the tile it makes.
    Values,
    /// Each merge scores one point.
    Merges,
}

/// Rule flags: `--rules` picks a preset, the other flags change single fields of it.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Rule preset to start from (a new game: classic if not given; diff: the game's own
    /// rules)
    #[arg(long, value_enum, help_heading = "Rules")]
    pub rules: Option<PresetName>,
    /// Board side, 2 to 8
    #[arg(long, value_name = "N", help_heading = "Rules")]
    pub size: Option<u8>,
    /// Chance that a spawn is a 4, as a fraction P/Q (e.g. 1/2)
    #[arg(long, value_name = "P/Q", help_heading = "Rules")]
    pub four_chance: Option<String>,
    /// Opening spawns, comma-separated: `normal` or `two` (e.g. normal,two)
    #[arg(long, value_name = "LIST", help_heading = "Rules")]
    pub opening: Option<String>,
    /// Winning tile (e.g. 2048), or `none`
    #[arg(long, value_name = "TILE", help_heading = "Rules")]
    pub win: Option<String>,
    /// Reaching the winning tile ends the game
    #[arg(long, conflicts_with = "win_plays_on", help_heading = "Rules")]
    pub win_ends: bool,
    /// Reaching the winning tile is reported and play goes on
    #[arg(long, help_heading = "Rules")]
    pub win_plays_on: bool,
    /// How merges score
    #[arg(long, value_enum, help_heading = "Rules")]
    pub scoring: Option<ScoringName>,
}

impl RulesArgs {
    /// Whether any rule flag was given.
    pub fn any(&self) -> bool {
        self.rules.is_some()
            || self.size.is_some()
            || self.four_chance.is_some()
            || self.opening.is_some()
            || self.win.is_some()
            || self.win_ends
            || self.win_plays_on
            || self.scoring.is_some()
    }

    /// The rule set: the preset (classic by default) with the given fields replaced.
    pub fn resolve(&self) -> Result<Rules> {
        self.resolve_from(self.rules.map_or(Rules::CLASSIC, |p| p.preset().rules()))
    }

    /// `base` with the given fields replaced (a `--rules` preset replaces `base` first).
    pub fn resolve_from(&self, base: Rules) -> Result<Rules> {
        let mut rules = self.rules.map_or(base, |p| p.preset().rules());
        if let Some(size) = self.size {
            rules.size = size;
        }
        if let Some(text) = &self.four_chance {
            rules.four_chance = parse_fraction(text)
                .with_context(|| format!("--four-chance {text:?} is not a fraction P/Q"))?;
        }
        if let Some(text) = &self.opening {
            let mut list = Vec::new();
            for item in text.split(',') {
                list.push(match item.trim() {
                    "normal" => OpeningSpawn::Normal,
                    "two" => OpeningSpawn::Two,
                    other => bail!("--opening: {other:?} is not a spawn kind (use normal or two)"),
                });
            }
            rules.opening = Opening::new(&list)
                .with_context(|| format!("--opening {text:?}: give 1 to 8 spawns"))?;
        }
        if let Some(text) = &self.win {
            rules.win = if text == "none" {
                None
            } else {
                let tile: u64 = text
                    .parse()
                    .ok()
                    .filter(|t: &u64| t.is_power_of_two() && *t >= 4)
                    .with_context(|| {
                        format!("--win {text:?} is not a tile (4, 8, ..., 2048, ...) or none")
                    })?;
                Some(Win {
                    exponent: tile.trailing_zeros() as u8,
                    ends_game: rules.win.is_some_and(|w| w.ends_game),
                })
            };
        }
        if self.win_ends || self.win_plays_on {
            let Some(win) = &mut rules.win else {
                bail!("--win-ends and --win-plays-on need a winning tile (these rules have none; add --win 2048)");
            };
            win.ends_game = self.win_ends;
        }
        if let Some(s) = self.scoring {
            rules.scoring = match s {
                ScoringName::Values => Scoring::MergedValues,
                ScoringName::Merges => Scoring::MergeCount,
            };
        }
        rules.validate().context("these rules cannot be played")?;
        Ok(rules)
    }
}

fn parse_fraction(text: &str) -> Option<FourChance> {
    let (p, q) = text.split_once('/')?;
    Some(FourChance::new(
        p.trim().parse().ok()?,
        q.trim().parse().ok()?,
    ))
}

/// A rule set's name for people: the preset name, or `custom`.
pub fn rules_name(rules: &Rules) -> String {
    rules
        .preset()
        .map_or_else(|| "custom".to_string(), |p| p.name().to_string())
}
