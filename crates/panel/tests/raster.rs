//! The panel's own renderer ([`Screen::raster`], what the AVR boards draw with) against the
//! embedded-graphics one ([`Screen::draw`], what the Nano draws with): the same frame bytes
//! for every screen, and, sent band by band, the same SPI stream into the ST7920 model as
//! the whole frame sent by [`St7920::update`].

use twenty48_engine::{Direction, Game, Preset};
use twenty48_panel::{
    Band, Changes, Frame, Grid, Link, Paged, Screen, Shown, St7920, BAND_ROWS, HEIGHT, SPI_HZ,
    WIDTH,
};
use twenty48_st7920_model::Model;

/// What a driver sent: every three-byte unit and every wait, in order.
#[derive(Default, PartialEq, Debug)]
struct Recording(Vec<([u8; 3], u32)>);

impl Link for Recording {
    fn send(&mut self, bytes: &[u8; 3]) {
        self.0.push((*bytes, 0));
    }
    fn delay_us(&mut self, us: u32) {
        self.0.push(([0; 3], us));
    }
}

/// A small generator for test values (no `rand` needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Every screen the devices show, and boards of every size with tiles up to 2^20 and scores
/// up to u64::MAX.
fn screens() -> Vec<Screen> {
    let mut all = vec![
        Screen::Result { won: true },
        Screen::Result { won: false },
        Screen::StoreFull,
        Screen::FinalScore { score: 0 },
        Screen::FinalScore { score: 20_316 },
        Screen::FinalScore { score: u64::MAX },
        Screen::Fault {
            what: "flash store",
        },
        Screen::Fault {
            what: "clocks é\u{1}",
        },
    ];
    for choosable in [false, true] {
        for rules in [
            "classic",
            "arduino",
            "console",
            "custom",
            "a custom name longer than 24",
        ] {
            all.push(Screen::Start { rules, choosable });
        }
    }
    let mut rng = Lcg(7);
    for size in 2..=8u8 {
        for _ in 0..12 {
            let n = size as usize * size as usize;
            let cells: Vec<u8> = (0..n).map(|_| rng.next(21) as u8).collect();
            let score = match rng.next(3) {
                0 => rng.next(10_000),
                1 => rng.next(u64::MAX),
                _ => u64::MAX,
            };
            all.push(Screen::Board {
                cells: Grid::new(size, &cells).unwrap(),
                score,
            });
        }
    }
    // Every tile alone, on the 4x4 board.
    for e in 0..=20u8 {
        all.push(Screen::Board {
            cells: Grid::new(4, &[e; 16]).unwrap(),
            score: 1u64 << e.min(63),
        });
    }
    all
}

#[test]
fn raster_draws_the_pixels_of_draw_for_every_screen() {
    for rotated in [false, true] {
        for screen in screens() {
            let mut drawn = Frame::new(rotated);
            screen.draw(&mut drawn).unwrap();
            let mut rastered = Frame::new(rotated);
            screen.raster(&mut rastered);
            for y in 0..64 {
                assert_eq!(
                    rastered.row(y),
                    drawn.row(y),
                    "{screen:?}, rotated {rotated}, row {y}"
                );
            }
        }
    }
}

/// Sends `screen` band by band, as the AVR boards do.
fn send_in_bands(lcd: &mut St7920, link: &mut impl Link, screen: &Screen) -> usize {
    let mut sent = 0;
    for first in (0..64).step_by(BAND_ROWS) {
        let mut band = Band::new(true, first);
        screen.raster(&mut band);
        sent += lcd.update_band(link, &band);
    }
    sent
}

/// The whole sequence of a few games' screens, as a device shows them.
fn session() -> Vec<Screen> {
    let mut shown = Vec::new();
    for (preset, seed) in [(Preset::Arduino, 42), (Preset::Classic, 7)] {
        shown.push(Screen::Start {
            rules: preset.name(),
            choosable: false,
        });
        let mut game = Game::new(preset.rules(), seed).unwrap();
        for (i, dir) in Direction::ALL.iter().cycle().take(400).enumerate() {
            if game.status().is_finished() {
                break;
            }
            if game.play(*dir).is_ok_and(|o| o.moved) || i == 0 {
                shown.push(Screen::Board {
                    cells: game.cells().into(),
                    score: game.score(),
                });
            }
        }
        shown.push(Screen::Result { won: false });
        shown.push(Screen::FinalScore {
            score: game.score(),
        });
    }
    shown.extend(screens());
    shown
}

#[test]
fn bands_send_the_stream_of_whole_frames() {
    let (mut whole, mut banded) = (Recording::default(), Recording::default());
    let mut lcd_whole = St7920::init(&mut whole);
    let mut lcd_banded = St7920::init(&mut banded);
    for screen in session() {
        let mut frame = Frame::new(true);
        screen.draw(&mut frame).unwrap();
        let a = lcd_whole.update(&mut whole, &frame);
        let b = send_in_bands(&mut lcd_banded, &mut banded, &screen);
        assert_eq!(a, b, "{screen:?}");
        assert_eq!(whole, banded, "{screen:?}");
        assert!(lcd_banded.shown() == lcd_whole.shown());
    }
    assert!(
        whole.0.len() > 10_000,
        "the session sends little: {}",
        whole.0.len()
    );
}

#[test]
fn the_model_shows_every_screen_sent_in_bands() {
    let mut model = Model::new(SPI_HZ);
    let mut lcd = St7920::init(&mut model);
    for screen in session() {
        send_in_bands(&mut lcd, &mut model, &screen);
        let mut frame = Frame::new(true);
        screen.draw(&mut frame).unwrap();
        for y in 0..64 {
            for x in 0..128 {
                assert_eq!(
                    model.pixel(x, y),
                    frame.panel_pixel(x, y),
                    "{screen:?} ({x}, {y})"
                );
            }
        }
    }
}

/// Page mode (the Uno: no frame of what the panel shows): every screen of the session sent
/// whole, band by band, shows on the ST7920 model (which refuses any byte the datasheet
/// forbids and starts with random GDRAM), and each takes the same 1,152 controller bytes.
#[test]
fn the_model_shows_every_screen_sent_in_pages() {
    let mut model = Model::new(SPI_HZ);
    let mut lcd = Paged::init(&mut model);
    assert!(model.shows(&Frame::new(false)), "a cleared panel");
    for screen in session() {
        let mut sent = 0;
        for first in (0..64).step_by(BAND_ROWS) {
            let mut band = Band::new(true, first);
            screen.raster(&mut band);
            sent += lcd.send_band(&mut model, &band, &Changes::WHOLE);
        }
        assert_eq!(sent, 64 * 18, "{screen:?}");
        let mut frame = Frame::new(true);
        screen.draw(&mut frame).unwrap();
        assert!(model.shows(&frame), "{screen:?}");
    }
}

/// Page mode as the Uno drives it (issue 36): each screen of the session sent where
/// [`Shown`] says it changes what the panel showed, and only the bands it crosses rastered.
/// The model shows every screen exactly, and a move sends far less than a whole screen.
#[test]
fn the_model_shows_every_screen_sent_where_it_changed() {
    let mut model = Model::new(SPI_HZ);
    let mut lcd = Paged::init(&mut model);
    let mut shown = Shown::UNKNOWN;
    let (mut moves, mut move_bytes) = (0, 0);
    for screen in session() {
        let changes = shown.show(&screen);
        let mut sent = 0;
        for first in (0..64).step_by(BAND_ROWS) {
            if !changes.band(first, true) {
                continue;
            }
            let mut band = Band::new(true, first);
            screen.raster(&mut band);
            sent += lcd.send_band(&mut model, &band, &changes);
        }
        let mut frame = Frame::new(true);
        screen.draw(&mut frame).unwrap();
        assert!(model.shows(&frame), "{screen:?}");
        if changes != Changes::WHOLE {
            moves += 1;
            move_bytes += sent;
        }
    }
    assert!(moves > 300, "{moves} moves");
    assert!(
        move_bytes < moves * 64 * 18 / 3,
        "a move sent {} controller bytes on average",
        move_bytes / moves
    );
}

/// Every pixel that differs between two 4x4 board screens lies in a word [`Changes`] names,
/// for random boards with tiles up to 2^20 and random scores, either way up.
#[test]
fn changes_cover_every_pixel_that_differs() {
    let mut rng = Lcg(36);
    for _ in 0..3000 {
        let board = |rng: &mut Lcg| -> Screen {
            let tiles: Vec<u8> = (0..16)
                .map(|_| match rng.next(3) {
                    0 => 0,
                    _ => rng.next(21) as u8,
                })
                .collect();
            let score = match rng.next(3) {
                0 => rng.next(1 << 20),
                1 => rng.next(u64::MAX >> 1),
                _ => 0,
            };
            Screen::Board {
                cells: Grid::new(4, &tiles).unwrap(),
                score,
            }
        };
        let (before, mut after) = (board(&mut rng), board(&mut rng));
        // Often a score close by, or the same tiles but a few.
        if let (Screen::Board { cells, score }, Screen::Board { score: s, .. }) =
            (&before, &mut after)
        {
            if rng.next(2) == 0 {
                *s = score + rng.next(3) * 4;
                let mut tiles: Vec<u8> = (0..16).map(|i| cells.get(i / 4, i % 4)).collect();
                tiles[rng.next(16) as usize] = rng.next(18) as u8;
                after = Screen::Board {
                    cells: Grid::new(4, &tiles).unwrap(),
                    score: *s,
                };
            }
        }
        for rotated in [false, true] {
            let mut shown = Shown::UNKNOWN;
            assert_eq!(shown.show(&before), Changes::WHOLE);
            let changes = shown.show(&after);
            let (mut a, mut b) = (Frame::new(rotated), Frame::new(rotated));
            before.draw(&mut a).unwrap();
            after.draw(&mut b).unwrap();
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    if a.panel_pixel(x, y) != b.panel_pixel(x, y) {
                        let words = changes.words(y, rotated);
                        assert!(
                            words.is_some_and(|(f, l)| (f..=l).contains(&(x / 16))),
                            "pixel ({x}, {y}) differs outside {words:?}: {before:?} -> {after:?}"
                        );
                        assert!(changes.band(y / BAND_ROWS * BAND_ROWS, rotated));
                    }
                }
            }
        }
    }
}

/// Screens other than a 4x4 board change everything, and so does a board after them.
#[test]
fn other_screens_change_everything() {
    let board = Screen::Board {
        cells: Grid::new(4, &[1; 16]).unwrap(),
        score: 4,
    };
    let big = Screen::Board {
        cells: Grid::new(5, &[1; 25]).unwrap(),
        score: 4,
    };
    let mut shown = Shown::UNKNOWN;
    assert_eq!(shown.show(&board), Changes::WHOLE);
    assert_ne!(shown.show(&board), Changes::WHOLE, "the same board again");
    assert_eq!(shown.show(&Screen::Result { won: false }), Changes::WHOLE);
    assert_eq!(shown.show(&board), Changes::WHOLE);
    assert_eq!(shown.show(&big), Changes::WHOLE);
    assert_eq!(shown.show(&board), Changes::WHOLE);
    // The same board shown again changes nothing at all.
    let same = shown.show(&board);
    assert!((0..HEIGHT).all(|y| same.words(y, true).is_none()));
}
