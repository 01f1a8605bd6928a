//! The DMG screen as shades and as a PNG file.

use std::path::Path;

use anyhow::{Context, Result};

use crate::project::write_atomic;

pub const WIDTH: usize = 160;
pub const HEIGHT: usize = 144;

/// The screen: one DMG shade per pixel, row by row, 0 = white .. 3 = black.
pub type Screen = [u8; WIDTH * HEIGHT];

/// The grey a shade is drawn in: evenly spaced, white for shade 0, black for shade 3 (the
/// values rgbgfx expects of a DMG greyscale image).
pub const fn grey(shade: u8) -> u8 {
    255 - 85 * (shade & 3)
}

/// Encodes a screen as an 8-bit greyscale PNG.
pub fn encode_png(screen: &Screen) -> Result<Vec<u8>> {
    let pixels: Vec<u8> = screen.iter().map(|&shade| grey(shade)).collect();
    encode(&pixels, png::ColorType::Grayscale)
}

/// Encodes a colour screen (3 bytes a pixel, as [`crate::harness::Machine::screen_rgb`]) as
/// an 8-bit RGB PNG.
pub fn encode_rgb_png(pixels: &[u8]) -> Result<Vec<u8>> {
    encode(pixels, png::ColorType::Rgb)
}

fn encode(pixels: &[u8], colour: png::ColorType) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, WIDTH as u32, HEIGHT as u32);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().context("encoding the screenshot")?;
    writer
        .write_image_data(pixels)
        .context("encoding the screenshot")?;
    writer.finish().context("encoding the screenshot")?;
    Ok(bytes)
}

/// Writes a screen to `path` as a PNG (atomically: nothing half-written on failure).
pub fn save_png(screen: &Screen, path: &Path) -> Result<()> {
    write_atomic(path, &encode_png(screen)?)
}
