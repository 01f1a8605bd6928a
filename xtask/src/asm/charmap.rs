//! `CHARMAP`: how strings become bytes.

use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct Charmap {
    entries: HashMap<String, Vec<i32>>,
    /// The longest key, in characters.
    longest: usize,
}

impl Charmap {
    pub fn add(&mut self, key: &str, values: Vec<i32>) {
        self.longest = self.longest.max(key.chars().count());
        self.entries.insert(key.to_string(), values);
    }

    pub fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Splits `text` into charmap units, the longest mapping first at each position; a
    /// character without a mapping stands for its UTF-8 bytes.
    #[cfg(test)]
    pub fn convert(&self, text: &str) -> Vec<Vec<i32>> {
        self.convert_with(text, &mut |_| {})
    }

    /// Splits `text` into charmap units (see `convert`), telling `unmapped` each character that has no mapping.
    pub fn convert_with(&self, text: &str, unmapped: &mut dyn FnMut(char)) -> Vec<Vec<i32>> {
        let chars: Vec<char> = text.chars().collect();
        let mut units = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let longest = self.longest.min(chars.len() - i);
            let found = (1..=longest).rev().find_map(|len| {
                let key: String = chars[i..i + len].iter().collect();
                self.entries.get(&key).map(|values| (len, values.clone()))
            });
            match found {
                Some((len, values)) => {
                    units.push(values);
                    i += len;
                }
                None => {
                    unmapped(chars[i]);
                    let mut buffer = [0u8; 4];
                    let bytes = chars[i].encode_utf8(&mut buffer).bytes();
                    units.push(bytes.map(i32::from).collect());
                    i += 1;
                }
            }
        }
        units
    }

    /// The values `text` maps to, all units one after the other.
    #[cfg(test)]
    pub fn values(&self, text: &str) -> Vec<i32> {
        self.convert(text).into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_match_first_and_unmapped_as_utf8() {
        let mut map = Charmap::default();
        map.add("A", vec![0x0A]);
        map.add("<END>", vec![0xFF]);
        map.add("<br>", vec![13, 10]);
        assert_eq!(map.values("AB<END>"), [0x0A, 0x42, 0xFF]);
        assert_eq!(map.values("<br>é"), [13, 10, 0xC3, 0xA9]);
        assert_eq!(map.convert("<br>A").len(), 2);
        assert_eq!(map.values("<EN"), [0x3C, 0x45, 0x4E]);
        let mut missing = Vec::new();
        map.convert_with("A<x", &mut |c| missing.push(c));
        assert_eq!(missing, ['<', 'x']);
    }
}
