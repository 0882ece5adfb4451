//! The game loop: start screen, games, result screens; every game stored and logged, and the
//! host's requests answered whenever the device waits for input.

use twenty48_deviceproto::Request;
use twenty48_devicestore::{Claims, Ending, GameStart};
use twenty48_engine::{Direction, Game, Preset, Rules, Status};

use crate::board::{Board, GameSetup, Input};
use twenty48_devicestore::GameStore;

use crate::keeper::{refusal, Refusal};
use crate::log_ring::drain;
use crate::protocol::{Close, Log};
use crate::screen::Screen;

/// The rules of a game started by a button: the `arduino` preset, as the original sketch.
pub const DEFAULT_RULES: Rules = Rules::ARDUINO;

/// How long "You Win!" / "Game Over" stays up.
pub const RESULT_SCREEN_MS: u32 = 2000;
/// How long "Your score: N" stays up.
pub const SCORE_SCREEN_MS: u32 = 3000;
/// How long "Store full" stays up (then the game goes on live only, or, for a game that
/// could not start, the start screen comes back).
pub const STORE_FULL_SCREEN_MS: u32 = 2000;

/// How a game stopped.
enum Stop {
    /// It ended (won, over, or abandoned) and was logged.
    Finished,
    /// Another game was asked for; it is the next to start.
    Replaced(GameSetup),
    /// The input ended.
    InputEnded,
}

/// The running application: the board, the store, the log.
struct Device<'a, B, K> {
    board: &'a mut B,
    store: &'a mut K,
    log: Log,
}

/// A game being played (the game itself stays where [`Game::new`] put it: on AVR a copy of
/// its 216 bytes costs code and stack).
struct Live<'g> {
    game: &'g mut Game,
    number: u32,
    /// The check of its start frame.
    start: u32,
    /// Whether its moves still go into the store.
    stored: bool,
}

/// Runs the application until the board's input ends (never, on a real board).
///
/// At boot: a hello frame. Start screen, showing the rules of the next game (at first `rules`:
/// the boards pass [`DEFAULT_RULES`], the `arduino` preset); on a board with
/// [`Board::PICKS_RULES`] the left and right buttons step through the presets (classic,
/// arduino, console) and up or down starts the game, elsewhere any button starts it; the
/// seed is from the board's entropy ([`Input::NewGame`] picks rules and seed instead). The
/// rules picked stay for the next games; the game screen until the game is won
/// or over; the result, then the final score; back to the start screen. Every game is begun
/// in `store` before its start frame, every move drawn on the screen and then recorded
/// before its move frame and before the next input is read, every end stored before its end
/// frame. `dev` is the device id the frames carry.
pub fn run<B: Board, K: GameStore>(board: &mut B, rules: Rules, store: &mut K, dev: u64) {
    let mut device = Device {
        board,
        store,
        log: Log::new(dev),
    };
    device.hello();
    let mut next: Option<GameSetup> = None;
    let mut rules = rules;
    loop {
        let setup = match next.take() {
            Some(setup) => setup,
            None => {
                device.board.show(&Screen::Start {
                    rules: rules_name(&rules),
                    choosable: B::PICKS_RULES,
                });
                match device.input() {
                    Input::Press(dir @ (Direction::Left | Direction::Right)) if B::PICKS_RULES => {
                        rules = step_preset(&rules, dir == Direction::Right).rules();
                        continue;
                    }
                    Input::Press(_) => GameSetup {
                        rules,
                        seed: device.board.entropy(),
                    },
                    Input::NewGame(setup) => setup,
                    Input::End => break,
                    _ => continue,
                }
            }
        };
        match device.play(setup) {
            Stop::Finished => {}
            Stop::Replaced(setup) => next = Some(setup),
            Stop::InputEnded => break,
        }
    }
    device.flush();
}

/// The name the start screen shows for `rules`: a preset's, or "custom".
fn rules_name(rules: &Rules) -> &'static str {
    rules.preset().map_or("custom", Preset::name)
}

/// The preset after (`forward`) or before `rules` in classic, arduino, console, round and
/// round; custom rules step to the first or last preset.
fn step_preset(rules: &Rules, forward: bool) -> Preset {
    let all = Preset::ALL;
    let n = all.len();
    // A preset's place in ALL is its discriminant (pinned by devicestore's test
    // a_preset_is_kept_as_its_index_in_all).
    match rules.preset().map(|p| p as usize) {
        Some(i) if forward => all[(i + 1) % n],
        Some(i) => all[(i + n - 1) % n],
        None if forward => all[0],
        None => all[n - 1],
    }
}

impl<B: Board, K: GameStore> Device<'_, B, K> {
    /// Sends what the ring holds, and a lost frame if frames were dropped.
    fn flush(&mut self) {
        drain(self.board);
        if self.log.has_lost() {
            self.log.report_lost();
            drain(self.board);
        }
    }

    /// The next input that is not a request; requests are answered on the way.
    fn input(&mut self) -> Input {
        loop {
            self.flush();
            match self.board.next_input() {
                Input::Request(Request::Hello) => self.hello(),
                Input::Request(request) => {
                    crate::pull::answer(self.board, self.store, &mut self.log, request);
                }
                Input::BadRequest(code) => self.log.error(code as u8, 0),
                input => return input,
            }
        }
    }

    /// `t48 hello`.
    #[inline(never)]
    fn hello(&mut self) {
        let next = self.store.next_game_number();
        match self.store.counts() {
            Ok(c) => self.log.hello(next, c.stored, c.unpulled),
            Err(_) => {
                self.log.hello(next, 0, 0);
                self.log
                    .error(twenty48_deviceproto::ErrorCode::Store as u8, 0);
            }
        }
    }

    /// The store refused game `number` from move `at_move` on (move 0: the game was not
    /// started): a full frame, and the "Store full" screen for a while.
    #[inline(never)]
    fn refused(&mut self, number: u32, at_move: u32, e: Refusal) {
        if e != Refusal::Full {
            defmt::warn!("t48 store error");
        }
        self.log.full(number, at_move);
        // A local, not `&Screen::StoreFull`: a constant's reference would be promoted to a
        // static, 74 bytes of the Uno's RAM (AVR keeps constants there).
        let full = Screen::StoreFull;
        self.board.show(&full);
        self.flush();
        self.board.pause(STORE_FULL_SCREEN_MS);
    }

    /// Plays one game, storing and logging its start, every move that changed the board, and
    /// its end.
    #[inline(never)]
    fn play(&mut self, setup: GameSetup) -> Stop {
        let mut made = Game::new(setup.rules, setup.seed);
        let game = match &mut made {
            Ok(game) => game,
            Err(_) => {
                defmt::warn!("t48 rules refused");
                return Stop::Finished;
            }
        };
        let start = GameStart {
            rules: setup.rules,
            seed: setup.seed,
        };
        // A game the store cannot begin is not played: every game played has a number of
        // its own in the store, so no number is ever given to two games.
        let number = match self.store.begin_game(&start) {
            Ok(number) => number,
            Err(e) => {
                let next = self.store.next_game_number();
                self.refused(next, 0, refusal(e));
                return Stop::Finished;
            }
        };
        let fields = self.log.start_values(number, &start);
        let mut live = Live {
            game,
            number,
            start: self.log.start(&fields),
            stored: true,
        };
        self.show_board(live.game);
        loop {
            if live.game.status().is_finished() {
                let result = live.game.status() as u8;
                self.close(&mut live, result);
                self.finish(live.game);
                return Stop::Finished;
            }
            match self.input() {
                Input::Press(dir) => {
                    let Ok(outcome) = live.game.play(dir) else {
                        continue;
                    };
                    if !outcome.moved {
                        // Not a move, but a press all the same: said, so that every press
                        // shows in the log (issue 36). No store write, no move frame.
                        // (The game is the one whose frames come before it: its number
                        // costs the Uno flash it does not have.)
                        defmt::info!("t48 press moved nothing dir={=u8}", dir.code());
                        continue;
                    }
                    // The player sees the move at once; it is stored before its frame and
                    // before the next input is read (an EEPROM store's occasional long write
                    // no longer holds the screen back, issue 36).
                    self.show_board(live.game);
                    let seq = live.game.move_count();
                    if live.stored {
                        if let Err(e) = self.store.record_move(dir) {
                            live.stored = false;
                            self.refused(live.number, seq, refusal(e));
                            self.show_board(live.game);
                        }
                    }
                    self.log.moved(live.number, dir, live.game);
                }
                Input::NewGame(next) => {
                    // Abandoned: result 0.
                    self.close(&mut live, 0);
                    return Stop::Replaced(next);
                }
                Input::Abandon => {
                    self.close(&mut live, 0);
                    return Stop::Finished;
                }
                // As a power cut: the store keeps the game as interrupted, no end frame.
                Input::End => return Stop::InputEnded,
                Input::Request(_) | Input::BadRequest(_) => {}
            }
        }
    }

    /// Stores the end of the game (`result` 0 abandoned, 1 won, 2 over, and the final score
    /// and state hash), then sends its end frame.
    #[inline(never)]
    fn close(&mut self, live: &mut Live, result: u8) {
        let ending = Ending {
            result,
            claims: Claims {
                score: live.game.score(),
                hash: live.game.state_hash(),
            },
        };
        if self.store.game_in_progress() == Some(live.number) {
            // Also when the game was cut short by a full store: that ends it in the store
            // (it stays there as interrupted).
            let ended = self.store.end_game(&ending);
            if live.stored {
                if let Err(e) = ended {
                    live.stored = false;
                    self.refused(live.number, live.game.move_count() + 1, refusal(e));
                }
            }
        }
        self.log.close(&Close {
            game: live.number,
            moves: live.game.move_count(),
            start: live.start,
            ending: Some(ending),
        });
        self.flush();
    }

    /// The game screen of `game`.
    #[inline(never)]
    fn show_board(&mut self, game: &Game) {
        self.board.show(&Screen::Board {
            cells: game.cells().into(),
            score: game.score(),
        });
    }

    /// The screens after a game: the result, then the final score.
    #[inline(never)]
    fn finish(&mut self, game: &Game) {
        self.show_board(game);
        self.flush();
        self.board.show(&Screen::Result {
            won: game.status() == Status::Won,
        });
        self.board.pause(RESULT_SCREEN_MS);
        self.board.show(&Screen::FinalScore {
            score: game.score(),
        });
        self.board.pause(SCORE_SCREEN_MS);
    }
}
