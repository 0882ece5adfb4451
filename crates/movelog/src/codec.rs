//! `MoveLog` to bytes and back, exactly as docs/format.md lays them out.

use twenty48_engine::packed::{check_padding, pack, packed_len};
use twenty48_engine::{
    FourChance, Opening, OpeningSpawn, Rules, RulesError, Scoring, Status, Win, MAX_OPENING,
    RNG_NAME,
};

use crate::claims::Claims;
use crate::error::{DecodeError, EncodeError};
use crate::header::{
    get, put, version_for, Block, ClaimsBlock, Lead, RulesHead, RulesTail, FLAG_COMPLETE,
    FLAG_HINTED, FORMAT_VERSION, MAGIC, OLDEST_FORMAT_VERSION,
};
use crate::log::{checkpoint_count, MoveLog};
use crate::packed::PackedLog;

/// Where the rules start: the board size.
const RULES_OFFSET: u64 = 6;
/// Where the four-chance numerator is.
const FOUR_NUMERATOR_OFFSET: u64 = 7;
/// Where the four-chance denominator is.
const FOUR_DENOMINATOR_OFFSET: u64 = 11;
/// Where the opening length is.
const OPENING_LEN_OFFSET: u64 = 15;

impl MoveLog {
    /// The file's bytes (docs/format.md).
    ///
    /// # Panics
    /// If the log breaks its invariants (see [`MoveLog::try_encode`]). Logs from
    /// [`MoveLog::from_moves`], [`Recorder`](crate::Recorder) and [`MoveLog::decode`] always
    /// keep them; use `try_encode` for a log assembled by hand.
    pub fn encode(&self) -> Vec<u8> {
        match self.try_encode() {
            Ok(bytes) => bytes,
            Err(e) => panic!("cannot encode this move log: {e}"),
        }
    }

    /// The file's bytes, or why the log cannot be written: `moves.len()` must equal
    /// `claims.move_count`, and `checkpoints.len()` must be
    /// [`checkpoint_count`](crate::checkpoint_count)`(claims.move_count, checkpoint_interval)`.
    pub fn try_encode(&self) -> Result<Vec<u8>, EncodeError> {
        let n = self.claims.move_count;
        if self.moves.len() as u64 != n as u64 {
            return Err(EncodeError::MoveCount {
                moves: self.moves.len() as u64,
                claimed: n,
            });
        }
        let expected = checkpoint_count(n, self.checkpoint_interval);
        if self.checkpoints.len() as u64 != expected as u64 {
            return Err(EncodeError::Checkpoints {
                found: self.checkpoints.len() as u64,
                expected,
            });
        }
        let r = &self.rules;
        let spawns = r.opening.spawns();
        let mut out = Vec::with_capacity(
            69 + spawns.len() + packed_len(n as u64) as usize + 4 * self.checkpoints.len(),
        );
        put(
            &mut out,
            &Lead {
                magic: MAGIC,
                version: version_for(self.hinted),
            },
        );
        put(
            &mut out,
            &RulesHead {
                size: r.size,
                four_numerator: r.four_chance.numerator,
                four_denominator: r.four_chance.denominator,
                opening_len: spawns.len() as u8,
            },
        );
        out.extend(spawns.iter().map(|s| *s as u8));
        put(
            &mut out,
            &RulesTail {
                win_present: r.win.is_some() as u8,
                win_exponent: r.win.map_or(0, |w| w.exponent),
                win_ends_game: r.win.is_some_and(|w| w.ends_game) as u8,
                scoring: r.scoring as u8,
                seed: self.seed,
                rng_name_len: RNG_NAME.len() as u8,
            },
        );
        out.extend_from_slice(RNG_NAME.as_bytes());
        let c = &self.claims;
        put(
            &mut out,
            &ClaimsBlock {
                checkpoint_interval: self.checkpoint_interval,
                move_count: n,
                score: c.score,
                max_exponent: c.max_exponent,
                final_hash: c.final_hash,
                status: c.status as u8,
                complete: if self.complete { FLAG_COMPLETE } else { 0 }
                    | if self.hinted { FLAG_HINTED } else { 0 },
            },
        );
        out.extend(pack(&self.moves));
        for cp in &self.checkpoints {
            out.extend_from_slice(&cp.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok(out)
    }

    /// Reads a log. Never panics; allocates only in proportion to `bytes.len()` (the moves
    /// unpacked, one byte each: [`PackedLog::decode`] reads a log without that).
    ///
    /// Checks, in this order: magic, version, structure (every length against the bytes
    /// present), CRC-32, trailing bytes, then the meaning of each field in file order.
    /// Does not replay the game: the claims and checkpoints are as the writer made them.
    pub fn decode(bytes: &[u8]) -> Result<MoveLog, DecodeError> {
        PackedLog::decode(bytes).map(|log| log.to_log())
    }
}

impl<'a> PackedLog<'a> {
    /// Reads a log without unpacking its moves: the result borrows them, and the
    /// checkpoints, from `bytes`. Never panics, never allocates. Checks exactly what
    /// [`MoveLog::decode`] checks, in the same order, with the same errors.
    pub fn decode(bytes: &'a [u8]) -> Result<PackedLog<'a>, DecodeError> {
        // Magic, then version, before anything else.
        if bytes.len() < 4 || bytes[..4] != MAGIC {
            let len = bytes.len().min(4);
            if bytes[..len] == MAGIC[..len] && len < 4 {
                return Err(truncated(0, Lead::NAME, 6, bytes.len() as u64));
            }
            let mut found = [0u8; 4];
            found[..len].copy_from_slice(&bytes[..len]);
            return Err(DecodeError::NotAMoveLog {
                found,
                len: len as u8,
            });
        }
        let mut r = Reader { bytes, pos: 0 };
        let lead: Lead = r.block()?;
        if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&lead.version) {
            return Err(DecodeError::UnsupportedVersion {
                offset: 4,
                version: lead.version,
            });
        }

        // Structure: each length is checked against what remains before it is used.
        let head: RulesHead = r.block()?;
        let opening_offset = r.pos as u64;
        let opening = r.take(head.opening_len as u64, "the opening spawn kinds")?;
        let tail_offset = r.pos as u64;
        let tail: RulesTail = r.block()?;
        let rng_offset = r.pos as u64;
        let rng_name = r.take(tail.rng_name_len as u64, "the RNG name")?;
        let claims_offset = r.pos as u64;
        let claims: ClaimsBlock = r.block()?;
        let n = claims.move_count;
        let moves_offset = r.pos as u64;
        let packed = r.take(packed_len(n as u64), "the packed moves")?;
        let cps = checkpoint_count(n, claims.checkpoint_interval) as u64;
        let checkpoint_bytes = r.take(4 * cps, "the checkpoints")?;
        let crc_offset = r.pos as u64;
        let stored = u32::from_le_bytes(r.array::<4>("the CRC-32")?);

        let computed = crc32fast::hash(&bytes[..crc_offset as usize]);
        if stored != computed {
            return Err(DecodeError::CrcMismatch {
                offset: crc_offset,
                stored,
                computed,
            });
        }
        if r.pos < bytes.len() {
            return Err(DecodeError::TrailingBytes {
                offset: r.pos as u64,
                count: (bytes.len() - r.pos) as u64,
            });
        }

        // Meaning, field by field in file order.
        if opening.is_empty() || opening.len() > MAX_OPENING {
            return Err(DecodeError::InvalidRules {
                offset: OPENING_LEN_OFFSET,
                source: RulesError::Opening {
                    spawns: head.opening_len,
                    cells: (head.size as u32 * head.size as u32).min(255) as u8,
                },
            });
        }
        let mut kinds = [OpeningSpawn::Normal; MAX_OPENING];
        for (i, &b) in opening.iter().enumerate() {
            kinds[i] = match b {
                0 => OpeningSpawn::Normal,
                1 => OpeningSpawn::Two,
                _ => {
                    return Err(invalid(
                        opening_offset + i as u64,
                        "opening spawn kind",
                        b,
                        "0 normal or 1 always-two",
                    ))
                }
            };
        }
        // 1 to MAX_OPENING spawns, checked just above.
        let opening = Opening::new(&kinds[..opening.len()]).unwrap_or(Rules::CLASSIC.opening);
        let win = match tail.win_present {
            0 => {
                if tail.win_exponent != 0 {
                    return Err(invalid(
                        tail_offset + 1,
                        "win exponent",
                        tail.win_exponent,
                        "0 when there is no win",
                    ));
                }
                if tail.win_ends_game != 0 {
                    return Err(invalid(
                        tail_offset + 2,
                        "win ends-game flag",
                        tail.win_ends_game,
                        "0 when there is no win",
                    ));
                }
                None
            }
            1 => Some(Win {
                exponent: tail.win_exponent,
                ends_game: flag(tail.win_ends_game, tail_offset + 2, "win ends-game flag")?,
            }),
            v => return Err(invalid(tail_offset, "win present flag", v, "0 or 1")),
        };
        let scoring = match tail.scoring {
            0 => Scoring::MergedValues,
            1 => Scoring::MergeCount,
            v => {
                return Err(invalid(
                    tail_offset + 3,
                    "scoring",
                    v,
                    "0 merged values or 1 merge count",
                ))
            }
        };
        let rules = Rules {
            size: head.size,
            four_chance: FourChance::new(head.four_numerator, head.four_denominator),
            opening,
            win,
            scoring,
        };
        rules
            .validate()
            .map_err(|source| DecodeError::InvalidRules {
                offset: rules_error_offset(&source, tail_offset),
                source,
            })?;
        if rng_name != RNG_NAME.as_bytes() {
            return Err(DecodeError::UnknownRng {
                offset: rng_offset,
                name: String::from_utf8_lossy(rng_name).into_owned(),
            });
        }
        let status = match claims.status {
            0 => Status::Playing,
            1 => Status::Won,
            2 => Status::Over,
            v => {
                return Err(invalid(
                    claims_offset + 25,
                    "status",
                    v,
                    "0 playing, 1 won or 2 over",
                ))
            }
        };
        let (complete, hinted) = if lead.version == 1 {
            let complete = flag(claims.complete, claims_offset + 26, "complete flag")?;
            (complete, false)
        } else if claims.complete & !(FLAG_COMPLETE | FLAG_HINTED) != 0 {
            return Err(invalid(
                claims_offset + 26,
                "flags byte",
                claims.complete,
                "bit 0 complete and bit 1 hints shown, no other bit",
            ));
        } else {
            (
                claims.complete & FLAG_COMPLETE != 0,
                claims.complete & FLAG_HINTED != 0,
            )
        };
        check_padding(packed, n as usize).map_err(|slot| DecodeError::NonZeroPadding {
            offset: moves_offset + packed.len() as u64 - 1,
            move_number: slot as u32 + 1,
            move_count: n,
        })?;

        Ok(PackedLog {
            format_version: lead.version,
            rules,
            seed: tail.seed,
            packed,
            checkpoint_interval: claims.checkpoint_interval,
            checkpoints: checkpoint_bytes,
            claims: Claims {
                move_count: n,
                score: claims.score,
                max_exponent: claims.max_exponent,
                final_hash: claims.final_hash,
                status,
            },
            complete,
            hinted,
        })
    }
}

/// The byte of the field a rules error is about: the board size, the four-chance numerator
/// (when it exceeds the denominator) or denominator (when zero), the opening length, or the
/// win exponent (`tail_offset + 1`).
fn rules_error_offset(error: &RulesError, tail_offset: u64) -> u64 {
    match *error {
        RulesError::Size { .. } => RULES_OFFSET,
        RulesError::FourChance { denominator: 0, .. } => FOUR_DENOMINATOR_OFFSET,
        RulesError::FourChance { .. } => FOUR_NUMERATOR_OFFSET,
        RulesError::Opening { .. } => OPENING_LEN_OFFSET,
        RulesError::WinTile { .. } => tail_offset + 1,
        _ => RULES_OFFSET,
    }
}

fn truncated(offset: u64, what: &'static str, needed: u64, available: u64) -> DecodeError {
    DecodeError::Truncated {
        offset,
        what,
        needed,
        available,
    }
}

fn invalid(offset: u64, field: &'static str, value: u8, expected: &'static str) -> DecodeError {
    DecodeError::InvalidField {
        offset,
        field,
        value,
        expected,
    }
}

fn flag(value: u8, offset: u64, field: &'static str) -> Result<bool, DecodeError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(invalid(offset, field, v, "0 or 1")),
    }
}

/// A cursor that hands out slices only after checking they are there.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> u64 {
        (self.bytes.len() - self.pos) as u64
    }

    fn take(&mut self, n: u64, what: &'static str) -> Result<&'a [u8], DecodeError> {
        if n > self.remaining() {
            return Err(truncated(self.pos as u64, what, n, self.remaining()));
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.bytes[start..self.pos])
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N as u64, what)?);
        Ok(a)
    }

    fn block<B: Block>(&mut self) -> Result<B, DecodeError> {
        let offset = self.pos as u64;
        let slice = self.take(B::SIZE as u64, B::NAME)?;
        get(slice).ok_or(truncated(offset, B::NAME, B::SIZE as u64, B::SIZE as u64))
    }
}
