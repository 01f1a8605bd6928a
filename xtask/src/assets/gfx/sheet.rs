//! An art sheet: a PNG as read (its colours and transparency, checked the way rgbgfx users
//! expect), then as DMG shades once the art's palette has mapped its colours.

use anyhow::{anyhow, bail, Context, Result};

use crate::harness::screen::grey;

/// A colour as a PNG holds it, 8 bits a channel (16-bit PNGs are rounded to 8 bits).
pub type Rgb = [u8; 3];

/// A pixel: a DMG shade, 0 (white) ..= 3 (black), or `None` for transparent.
pub type Pixel = Option<u8>;

/// What each shade is called, white (shade 0) to black (shade 3).
pub const SHADE_NAMES: [&str; 4] = ["white", "light grey", "dark grey", "black"];

/// The four DMG greys, white to black: the colours a sheet not read from art is drawn in.
pub const DMG_GREYS: [Rgb; 4] = [[grey(0); 3], [grey(1); 3], [grey(2); 3], [grey(3); 3]];

/// Alpha below this is transparent.
const TRANSPARENT_BELOW: u8 = 16;
/// Alpha at or above this is opaque; between the two is an error.
const OPAQUE_FROM: u8 = 240;

/// A PNG as read: each pixel's colour, or `None` where it is transparent; row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// For messages: the file it came from, e.g. `assets/title.png`.
    pub name: String,
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Option<Rgb>>,
}

/// An image of shades and transparency, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// For messages: the file it came from, e.g. `assets/title.png`.
    pub name: String,
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Pixel>,
    /// The colour of each shade in the file, white to black: what messages call a pixel.
    pub colours: [Rgb; 4],
}

/// `#RRGGBB`, as pixel editors write a colour.
pub fn hex([r, g, b]: Rgb) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

impl Sheet {
    /// A sheet of one pixel value all over.
    pub fn filled(name: &str, width: usize, height: usize, pixel: Pixel) -> Sheet {
        Sheet {
            name: name.to_owned(),
            width,
            height,
            pixels: vec![pixel; width * height],
            colours: DMG_GREYS,
        }
    }

    pub fn at(&self, x: usize, y: usize) -> Pixel {
        self.pixels[y * self.width + x]
    }

    pub fn set(&mut self, x: usize, y: usize, pixel: Pixel) {
        self.pixels[y * self.width + x] = pixel;
    }

    /// A pixel as messages name it: `transparent`, or its colour in the file and its
    /// shade, e.g. `#8BAC0F (light grey)`.
    pub fn describe(&self, pixel: Pixel) -> String {
        match pixel {
            None => "transparent".to_owned(),
            Some(shade) => {
                let shade = usize::from(shade);
                format!("{} ({})", hex(self.colours[shade]), SHADE_NAMES[shade])
            }
        }
    }

    /// What the conversion made of the file's colours, for the artist to check: e.g.
    /// `assets/pieces.png: #FFFFFF -> white, #555555 -> dark grey, #000000 -> black, and
    /// transparency`. Only the shades the sheet uses are listed, lightest first.
    pub fn conversion(&self) -> String {
        let mut used = [false; 4];
        for shade in self.pixels.iter().flatten() {
            used[usize::from(*shade)] = true;
        }
        let mut parts: Vec<String> = (0..4)
            .filter(|&shade| used[shade])
            .map(|shade| format!("{} -> {}", hex(self.colours[shade]), SHADE_NAMES[shade]))
            .collect();
        if self.pixels.contains(&None) {
            parts.push("and transparency".to_owned());
        }
        format!("{}: {}", self.name, parts.join(", "))
    }

    /// The `width` x `height` pixels whose top-left corner is at (`left`, `top`).
    pub fn crop(&self, left: usize, top: usize, width: usize, height: usize) -> Sheet {
        let mut part = Sheet {
            colours: self.colours,
            ..Sheet::filled(&self.name, width, height, None)
        };
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

/// Reads a PNG: any PNG colour type and depth (greyscale, RGB, indexed, with or without
/// alpha or a `tRNS` chunk, 8 or 16 bits). `name` is the path as messages show it.
///
/// A pixel is transparent with alpha below 16 and opaque from 240; alpha from 16 to 239 is
/// an error, as it is for rgbgfx. The width and height must be multiples of 8 (whole tiles).
pub fn decode_png(name: &str, bytes: &[u8]) -> Result<Picture> {
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
    let mut pixels = Vec::with_capacity(width * height);
    for (x, y, rgba) in decoded.enumerate_pixels() {
        let [r, g, b, a] = rgba.0;
        if a < TRANSPARENT_BELOW {
            pixels.push(None);
        } else if a < OPAQUE_FROM {
            bail!(
                "{name}: pixel ({x}, {y}) is partly transparent (alpha {a}); use alpha below \
                 {TRANSPARENT_BELOW} for transparent or {OPAQUE_FROM} and above for opaque"
            );
        } else {
            pixels.push(Some([r, g, b]));
        }
    }
    Ok(Picture {
        name: name.to_owned(),
        width,
        height,
        pixels,
    })
}

/// Reads `path` (relative to `root`, the repository's root).
pub fn read_png(root: &std::path::Path, path: &str) -> Result<Picture> {
    let bytes = std::fs::read(root.join(path)).with_context(|| format!("reading {path}"))?;
    decode_png(path, &bytes)
}

/// Encodes a sheet as an 8-bit RGBA PNG in its colours ([`Sheet::colours`]): the file
/// [`decode_png`] and the sheet's palette read back as the same sheet.
#[cfg(test)]
pub fn encode_png(sheet: &Sheet) -> Result<Vec<u8>> {
    let data: Vec<u8> = sheet
        .pixels
        .iter()
        .flat_map(|pixel| match pixel {
            Some(shade) => {
                let [r, g, b] = sheet.colours[usize::from(*shade)];
                [r, g, b, 0xFF]
            }
            None => [0xFF, 0xFF, 0xFF, 0x00],
        })
        .collect();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, sheet.width as u32, sheet.height as u32);
    encoder.set_color(png::ColorType::Rgba);
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
