//! Every screen, drawn by the real screen code into a frame and sent by the real ST7920
//! driver to the datasheet model, which must accept every byte and timing; the panel the
//! model shows (as mounted, rotated 180 degrees) is an insta snapshot in text, and an SVG in
//! docs/images/ (`T48_WRITE_IMAGES=1 cargo test -p twenty48-panel` rewrites them; otherwise
//! the test fails when one is stale).

use std::path::Path;

use twenty48_engine::{Direction, Game, Preset, Rules};
use twenty48_panel::{Frame, Grid, Screen, St7920, BYTE_US, EXEC_US, SPI_HZ};
use twenty48_st7920_model::{art, svg, Model};

/// The panel after `screen` is drawn and sent, from power-on.
fn show(screen: &Screen) -> Model {
    let mut model = Model::new(SPI_HZ);
    let mut lcd = St7920::init(&mut model);
    let mut frame = Frame::new(true);
    screen.draw(&mut frame).unwrap();
    lcd.update(&mut model, &frame);
    model
}

fn screens() -> Vec<(&'static str, Screen)> {
    let tiles = |e: &[u8]| Grid::new(4, e).unwrap();
    vec![
        (
            "start-arduino",
            Screen::Start {
                rules: "arduino",
                choosable: true,
            },
        ),
        (
            "start-classic",
            Screen::Start {
                rules: "classic",
                choosable: true,
            },
        ),
        (
            "start-console",
            Screen::Start {
                rules: "console",
                choosable: true,
            },
        ),
        (
            "board-small-tiles",
            Screen::Board {
                cells: tiles(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 1, 0, 1, 2, 0]),
                score: 2_316,
            },
        ),
        (
            "board-large-tiles",
            Screen::Board {
                cells: tiles(&[
                    10, 11, 12, 13, 14, 15, 16, 17, 17, 16, 15, 14, 13, 12, 11, 10,
                ]),
                score: 3_932_100,
            },
        ),
        ("win", Screen::Result { won: true }),
        ("game-over", Screen::Result { won: false }),
        ("final-score", Screen::FinalScore { score: 20_316 }),
        ("store-full", Screen::StoreFull),
        (
            "fault",
            Screen::Fault {
                what: "flash store",
            },
        ),
    ]
}

#[test]
fn every_screen_through_the_driver_and_the_model() {
    let images = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/images");
    let write = std::env::var_os("T48_WRITE_IMAGES").is_some();
    for (name, screen) in screens() {
        let model = show(&screen);
        let rows = model.as_mounted();
        insta::assert_snapshot!(name, art(&rows));
        let path = images.join(format!("panel-{name}.svg"));
        let picture = svg(&rows);
        if write {
            std::fs::write(&path, &picture).unwrap();
        } else {
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == picture,
                "{} is stale: T48_WRITE_IMAGES=1 cargo test -p twenty48-panel",
                path.display()
            );
        }
    }
}

/// Pixels of a board screen whose cells all hold tile 2^e, against the empty board.
#[test]
fn every_tile_up_to_2_pow_17_stays_inside_its_cell() {
    let board = |e: u8| {
        let mut frame = Frame::new(false);
        Screen::Board {
            cells: Grid::new(4, &[e; 16]).unwrap(),
            score: 0,
        }
        .draw(&mut frame)
        .unwrap();
        frame
    };
    let empty = board(0);
    for e in 1..=17u8 {
        let full = board(e);
        let mut lit = 0;
        for y in 0..64 {
            for x in 0..61 {
                let (a, b) = (empty.panel_pixel(x, y), full.panel_pixel(x, y));
                if a == b {
                    continue;
                }
                lit += 1;
                assert!(!a, "tile 2^{e} turns off a grid pixel at ({x}, {y})");
                // Inside a cell: not on a grid line, nor next to one (a pixel of space).
                let (cx, cy) = (x % 15, y % 15);
                assert!(
                    (2..=13).contains(&cx) && (2..=13).contains(&cy) && y < 61,
                    "tile 2^{e} reaches ({x}, {y}), outside its cell's 12 x 12 interior"
                );
            }
        }
        assert!(lit > 0, "tile 2^{e} draws nothing");
    }
}

/// The worst time a redraw takes on the wire, from the bytes the driver sends (each
/// controller byte: three SPI bytes at SPI_HZ, then EXEC_US) and from the model's clock.
fn wire_us(bytes: usize) -> u64 {
    bytes as u64 * (BYTE_US + EXEC_US) as u64
}

#[test]
fn partial_redraws_match_full_ones_and_their_worst_time() {
    let mut model = Model::new(SPI_HZ);
    let mut lcd = St7920::init(&mut model);
    let init_us = model.now_ns() / 1000;
    let mut frame = Frame::new(true);
    let mut worst_move = 0;
    let mut worst_any = 0;
    let mut moves = 0;
    for (preset, seed) in [
        (Preset::Arduino, 42),
        (Preset::Classic, 7),
        (Preset::Console, 3),
    ] {
        let rules: Rules = preset.rules();
        let mut game = Game::new(rules, seed).unwrap();
        let mut shown = vec![Screen::Start {
            rules: preset.name(),
            choosable: true,
        }];
        let dirs = [
            Direction::Left,
            Direction::Up,
            Direction::Right,
            Direction::Down,
        ];
        let mut i = 0;
        while !game.status().is_finished() && i < 3000 {
            let dir = dirs[i % 4];
            i += 1;
            if game.play(dir).map(|o| o.moved).unwrap_or(false) {
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
        for (k, screen) in shown.iter().enumerate() {
            screen.draw(&mut frame).unwrap();
            let before = model.now_ns();
            let sent = lcd.update(&mut model, &frame);
            let took = (model.now_ns() - before) / 1000;
            assert_eq!(
                took,
                wire_us(sent),
                "the model's clock agrees with the byte count"
            );
            // What the panel shows is the frame, as if drawn from scratch.
            for y in 0..64 {
                for x in 0..128 {
                    assert_eq!(
                        model.pixel(x, y),
                        frame.panel_pixel(x, y),
                        "pixel ({x}, {y})"
                    );
                }
            }
            let is_move = matches!(screen, Screen::Board { .. })
                && matches!(shown.get(k.wrapping_sub(1)), Some(Screen::Board { .. }));
            if is_move {
                worst_move = worst_move.max(took);
                moves += 1;
            }
            worst_any = worst_any.max(took);
        }
    }
    println!(
        "init {init_us} us; {moves} move redraws, worst {worst_move} us; worst redraw of any screen change {worst_any} us"
    );
    // A whole frame: 64 rows of two address bytes and 16 data bytes.
    assert!(worst_any <= wire_us(64 * 18));
    assert!(worst_move < 100_000, "a move redraw takes {worst_move} us");
}
