//! The art's palette: the four colours the art is drawn in, ordered by luminance as
//! rgbgfx orders a colour image's colours, and mapped to the DMG's four shades, the
//! lightest to white (shade 0) and the darkest to black (shade 3). The exact DMG greys
//! map to themselves; an editor's Game Boy palette (greens, a Pocket's greys, any four
//! shades) maps the same way.
//!
//! The palette is the title's four colours. A sheet that uses fewer (the pieces use
//! three) cannot say by itself which shades its colours are; taken from the title, the
//! mapping is one for all the art, and recolouring every sheet alike converts to the same
//! tiles.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use anyhow::{bail, Result};

#[cfg(test)]
use super::sheet::DMG_GREYS;
use super::sheet::{hex, Picture, Rgb, Sheet, SHADE_NAMES};
use crate::project::plural;

/// How many colours the art has: the DMG's shades.
const SHADES: usize = 4;
/// How many colours a message lists before it says how many more there are.
const LISTED: usize = 8;

/// The four colours of the art, white to black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtPalette {
    /// Where the colours come from, for messages: `assets/title.png`.
    pub source: String,
    /// The colour of each shade, white (shade 0) to black (shade 3).
    pub colours: [Rgb; 4],
}

/// Luminance as rgbgfx weighs it, 0.2126 R + 0.7152 G + 0.0722 B, in ten-thousandths so
/// that it is exact: two colours tie only when they really do.
pub fn luminance([r, g, b]: Rgb) -> u32 {
    2126 * u32::from(r) + 7152 * u32::from(g) + 722 * u32::from(b)
}

impl ArtPalette {
    /// The exact DMG greys, for art drawn in them (test images).
    #[cfg(test)]
    pub fn dmg() -> ArtPalette {
        ArtPalette {
            source: "a DMG greyscale image".to_owned(),
            colours: DMG_GREYS,
        }
    }

    /// The palette of art whose `picture` uses all four colours: its opaque colours,
    /// lightest first. Fewer or more than four colours, or two of the same luminance (which
    /// would leave their order to chance), are errors that name them.
    pub fn of(picture: &Picture) -> Result<ArtPalette> {
        let mut colours: Vec<Rgb> = picture
            .pixels
            .iter()
            .flatten()
            .copied()
            .collect::<BTreeSet<Rgb>>()
            .into_iter()
            .collect();
        colours.sort_by_key(|&colour| Reverse(luminance(colour)));
        if colours.len() != SHADES {
            let mut listed: Vec<String> = colours.iter().take(LISTED).map(|&c| hex(c)).collect();
            if colours.len() > LISTED {
                listed.push(format!("and {} more", colours.len() - LISTED));
            }
            bail!(
                "{}: the image has {} ({}), but it must have exactly four: its colours are the \
                 palette of all the art, the lightest shown as white, the darkest as black",
                picture.name,
                plural(colours.len(), "colour"),
                listed.join(", ")
            );
        }
        for pair in colours.windows(2) {
            if luminance(pair[0]) == luminance(pair[1]) {
                bail!(
                    "{}: {} and {} are equally light (luminance 0.2126 R + 0.7152 G + 0.0722 B \
                     = {:.4}), so which shade each is cannot be told; make one of them lighter",
                    picture.name,
                    hex(pair[0]),
                    hex(pair[1]),
                    f64::from(luminance(pair[0])) / 10_000.0
                );
            }
        }
        Ok(ArtPalette {
            source: picture.name.clone(),
            colours: [colours[0], colours[1], colours[2], colours[3]],
        })
    }

    /// `picture` in shades: each opaque pixel the shade of its colour. A colour not in the
    /// palette is an error naming the file, the pixel and the palette.
    pub fn sheet(&self, picture: &Picture) -> Result<Sheet> {
        let mut sheet = Sheet {
            colours: self.colours,
            ..Sheet::filled(&picture.name, picture.width, picture.height, None)
        };
        for (i, pixel) in picture.pixels.iter().enumerate() {
            let Some(colour) = pixel else { continue };
            let Some(shade) = self.colours.iter().position(|c| c == colour) else {
                bail!(
                    "{}: pixel ({}, {}) is {}, which is not in the palette (the colours of {}: \
                     {}); draw with these, or with transparency where the sheet allows it",
                    picture.name,
                    i % picture.width,
                    i / picture.width,
                    hex(*colour),
                    self.source,
                    self.listing()
                );
            };
            sheet.pixels[i] = Some(shade as u8);
        }
        Ok(sheet)
    }

    /// The colours and their shades: `#FFFFFF white, #AAAAAA light grey, ...`.
    fn listing(&self) -> String {
        self.colours
            .iter()
            .zip(SHADE_NAMES)
            .map(|(&colour, name)| format!("{} {name}", hex(colour)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
