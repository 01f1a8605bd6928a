//! The keyboard of `cargo xtask run`: which key does what, in one table that the player,
//! `--help`, the start-up message and the README's key table are all made from.

use minifb::Key;

use crate::harness::Button;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Holds a joypad button down while the key is.
    Pad(Button),
    /// Runs the emulator four times faster while the key is held (no sound meanwhile).
    FastForward,
    Pause,
    Mute,
    /// Saves the screen as a PNG file in `build/screenshots/`.
    Screenshot,
    /// Powers the Game Boy off and on again.
    Reset,
    Quit,
}

/// One row of the key table: the keys, their names as a player reads them, what they do.
pub struct Binding {
    pub keys: &'static [Key],
    pub names: &'static str,
    pub action: Action,
    pub does: &'static str,
}

/// The keys, in the order the table shows them. The joypad follows what Game Boy
/// emulators use (mGBA, SameBoy, BGB): arrows, X = A, Z = B, Enter = START,
/// Backspace = SELECT (Shift as well).
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Key::Up],
        names: "Up arrow",
        action: Action::Pad(Button::Up),
        does: "D-pad up",
    },
    Binding {
        keys: &[Key::Down],
        names: "Down arrow",
        action: Action::Pad(Button::Down),
        does: "D-pad down",
    },
    Binding {
        keys: &[Key::Left],
        names: "Left arrow",
        action: Action::Pad(Button::Left),
        does: "D-pad left",
    },
    Binding {
        keys: &[Key::Right],
        names: "Right arrow",
        action: Action::Pad(Button::Right),
        does: "D-pad right",
    },
    Binding {
        keys: &[Key::X],
        names: "X",
        action: Action::Pad(Button::A),
        does: "A",
    },
    Binding {
        keys: &[Key::Z],
        names: "Z",
        action: Action::Pad(Button::B),
        does: "B",
    },
    Binding {
        keys: &[Key::Enter, Key::NumPadEnter],
        names: "Enter",
        action: Action::Pad(Button::Start),
        does: "START",
    },
    Binding {
        keys: &[Key::Backspace, Key::LeftShift, Key::RightShift],
        names: "Backspace or Shift",
        action: Action::Pad(Button::Select),
        does: "SELECT",
    },
    Binding {
        keys: &[Key::Tab],
        names: "Tab",
        action: Action::FastForward,
        does: "fast forward (4x, silent) while held",
    },
    Binding {
        keys: &[Key::P],
        names: "P",
        action: Action::Pause,
        does: "pause / go on",
    },
    Binding {
        keys: &[Key::M],
        names: "M",
        action: Action::Mute,
        does: "sound off / on",
    },
    Binding {
        keys: &[Key::F12],
        names: "F12",
        action: Action::Screenshot,
        does: "save a screenshot (PNG) in build/screenshots/",
    },
    Binding {
        keys: &[Key::F5],
        names: "F5",
        action: Action::Reset,
        does: "reset (power off and on)",
    },
    Binding {
        keys: &[Key::Escape],
        names: "Escape",
        action: Action::Quit,
        does: "quit (closing the window does too)",
    },
];

/// What `key` does, if anything.
pub fn action_of(key: Key) -> Option<Action> {
    BINDINGS
        .iter()
        .find(|binding| binding.keys.contains(&key))
        .map(|binding| binding.action)
}

/// The key table for a terminal: one `key  what it does` line per row.
pub fn table() -> String {
    let width = BINDINGS
        .iter()
        .map(|binding| binding.names.len())
        .max()
        .unwrap_or(0);
    BINDINGS
        .iter()
        .map(|binding| format!("  {:width$}  {}\n", binding.names, binding.does))
        .collect()
}

/// The key table as the README's Markdown table.
#[cfg(test)]
pub fn markdown_table() -> String {
    let mut table = String::from("| key | does |\n| --- | --- |\n");
    for binding in BINDINGS {
        let keys = binding
            .names
            .split(" or ")
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        table.push_str(&format!("| {keys} | {} |\n", binding.does));
    }
    table
}

/// What `cargo xtask run --help` shows below the options.
pub fn help() -> String {
    format!("Keys:\n{}", table())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_does_what_game_boy_emulators_and_players_expect() {
        let expected = [
            (Key::Up, Action::Pad(Button::Up)),
            (Key::Down, Action::Pad(Button::Down)),
            (Key::Left, Action::Pad(Button::Left)),
            (Key::Right, Action::Pad(Button::Right)),
            (Key::X, Action::Pad(Button::A)),
            (Key::Z, Action::Pad(Button::B)),
            (Key::Enter, Action::Pad(Button::Start)),
            (Key::NumPadEnter, Action::Pad(Button::Start)),
            (Key::Backspace, Action::Pad(Button::Select)),
            (Key::LeftShift, Action::Pad(Button::Select)),
            (Key::RightShift, Action::Pad(Button::Select)),
            (Key::Tab, Action::FastForward),
            (Key::P, Action::Pause),
            (Key::M, Action::Mute),
            (Key::F12, Action::Screenshot),
            (Key::F5, Action::Reset),
            (Key::Escape, Action::Quit),
        ];
        for (key, action) in expected {
            assert_eq!(action_of(key), Some(action), "{key:?}");
        }
        let bound: usize = BINDINGS.iter().map(|binding| binding.keys.len()).sum();
        assert_eq!(bound, expected.len(), "every bound key is listed above");
        assert_eq!(action_of(Key::A), None);
        assert_eq!(action_of(Key::Space), None);
    }

    #[test]
    fn the_readme_shows_the_key_table_of_the_code() {
        let readme = std::fs::read_to_string(crate::project::root().join("README.md")).unwrap();
        assert!(
            readme.contains(&markdown_table()),
            "README.md's key table (under \"Playing it\") should be:\n{}",
            markdown_table()
        );
    }
}
