//! An art sheet read from a PNG: DMG shades and transparency, checked the way rgbgfx
//! users expect for DMG graphics.

use anyhow::{anyhow, bail, Context, Result};

/// A pixel: a DMG shade, 0 (white) ..= 3 (black), or `None` for transparent.
pub type Pixel = Option<u8>;

/// The grey of each shade in a PNG: white, light grey, dark grey, black.
pub const GREYS: [u8; 4] = [0xFF, 0xAA, 0x55, 0x00];

/// Alpha below this is transparent.
const TRANSPARENT_BELOW: u8 = 16;
/// Alpha at or above this is opaque; between the two is an error.
const OPAQUE_FROM: u8 = 240;

/// An image of shades and transparency, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// For messages: the file it came from, e.g. `assets/title.png`.
    pub name: String,
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Pixel>,
}

impl Sheet {
    /// A sheet of one pixel value all over.
    pub fn filled(name: &str, width: usize, height: usize, pixel: Pixel) -> Sheet {
        Sheet {
            name: name.to_owned(),
            width,
            height,
            pixels: vec![pixel; width * height],
        }
    }

    pub fn at(&self, x: usize, y: usize) -> Pixel {
        self.pixels[y * self.width + x]
    }

    pub fn set(&mut self, x: usize, y: usize, pixel: Pixel) {
        self.pixels[y * self.width + x] = pixel;
    }

    /// The `width` x `height` pixels whose top-left corner is at (`left`, `top`).
    pub fn crop(&self, left: usize, top: usize, width: usize, height: usize) -> Sheet {
        let mut part = Sheet::filled(&self.name, width, height, None);
        for y in 0..height {
            for x in 0..width {
                part.set(x, y, self.at(left + x, top + y));
            }
        }
        part
    }

    /// This sheet with `over` drawn on top of it: `over`'s transparent pixels let this
    /// sheet's pixels show. Both have the same size.
    pub fn under(&self, over: &Sheet) -> Sheet {
        let mut out = self.clone();
        for (pixel, top) in out.pixels.iter_mut().zip(&over.pixels) {
            if top.is_some() {
                *pixel = *top;
            }
        }
        out
    }

    /// Fails unless every pixel of the `width` x `height` area at (`left`, `top`) is
    /// transparent (`opaque` false) or every one is opaque (`opaque` true); `what` says
    /// what the area is, for the message.
    pub fn require(
        &self,
        (left, top, width, height): (usize, usize, usize, usize),
        opaque: bool,
        what: &str,
    ) -> Result<()> {
        for y in top..top + height {
            for x in left..left + width {
                if self.at(x, y).is_some() != opaque {
                    let (is, must) = if opaque {
                        ("transparent", "opaque")
                    } else {
                        ("drawn", "transparent")
                    };
                    bail!(
                        "{}: pixel ({x}, {y}) is {is}, but {what} must be {must}",
                        self.name
                    );
                }
            }
        }
        Ok(())
    }
}

/// Reads a PNG into a sheet. `name` is the path as messages show it.
///
/// Every pixel must be one of the four DMG greys ([`GREYS`]) exactly, or transparent
/// (alpha below 16); alpha from 16 to 239 is an error, as it is for rgbgfx. The width
/// and height must be multiples of 8 (whole tiles).
pub fn decode_png(name: &str, bytes: &[u8]) -> Result<Sheet> {
    let decoded = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map_err(|error| anyhow!("{name}: not a readable PNG file: {error}"))?
        .to_rgba8();
    let (width, height) = (decoded.width() as usize, decoded.height() as usize);
    if width % 8 != 0 || height % 8 != 0 {
        bail!(
            "{name}: the image is {width}x{height} pixels; both sides must be multiples of 8 \
             (whole 8x8 tiles)"
        );
    }
    let mut sheet = Sheet::filled(name, width, height, None);
    for (x, y, rgba) in decoded.enumerate_pixels() {
        let [r, g, b, a] = rgba.0;
        let (x, y) = (x as usize, y as usize);
        let pixel = if a < TRANSPARENT_BELOW {
            None
        } else if a < OPAQUE_FROM {
            bail!(
                "{name}: pixel ({x}, {y}) is partly transparent (alpha {a}); use alpha below \
                 {TRANSPARENT_BELOW} for transparent or {OPAQUE_FROM} and above for opaque"
            );
        } else {
            let shade = GREYS
                .iter()
                .position(|&grey| [r, g, b] == [grey; 3])
                .ok_or_else(|| {
                    anyhow!(
                        "{name}: pixel ({x}, {y}) is #{r:02X}{g:02X}{b:02X}, not one of the four \
                         DMG greys #FFFFFF, #AAAAAA, #555555, #000000"
                    )
                })?;
            Some(shade as u8)
        };
        sheet.set(x, y, pixel);
    }
    Ok(sheet)
}

/// Reads `path` (relative to the repository root) into a sheet.
pub fn read_png(root: &std::path::Path, path: &str) -> Result<Sheet> {
    let bytes = std::fs::read(root.join(path)).with_context(|| format!("reading {path}"))?;
    decode_png(path, &bytes)
}

/// Encodes a sheet as an 8-bit grey-and-alpha PNG: the file [`decode_png`] reads back
/// as the same sheet (the round trip the tests check).
#[cfg(test)]
pub fn encode_png(sheet: &Sheet) -> Result<Vec<u8>> {
    let data: Vec<u8> = sheet
        .pixels
        .iter()
        .flat_map(|pixel| match pixel {
            Some(shade) => [GREYS[usize::from(*shade)], 0xFF],
            None => [0xFF, 0x00],
        })
        .collect();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, sheet.width as u32, sheet.height as u32);
    encoder.set_color(png::ColorType::GrayscaleAlpha);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("encoding {}", sheet.name))?;
    writer
        .write_image_data(&data)
        .with_context(|| format!("encoding {}", sheet.name))?;
    writer
        .finish()
        .with_context(|| format!("encoding {}", sheet.name))?;
    Ok(bytes)
}
