//! Errors and warnings of the assembler and the linker, as a user reads them:
//!
//! ```text
//! asm/engine/movegen.asm:42:8: error: `JR` target must be between -128 and 127 bytes away, not 200; use `JP` instead
//!    42 |     jr .far
//!       |        ^
//! ```

use std::fmt;

use super::object::Location;
use crate::project::plural;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Something that helps to read the errors around it (never fails a build).
    Note,
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub level: Level,
    pub message: String,
    /// Where it was written; `None` for whole-link problems (an overfull bank names its
    /// section in the message instead).
    pub location: Option<Location>,
    /// The macro calls and includes the location came through, innermost first
    /// (`"in macro `wait` called at asm/x.asm:12:5"`).
    pub context: Vec<String>,
}

impl Diagnostic {
    pub fn error(location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Error,
            message: message.into(),
            location,
            context: Vec::new(),
        }
    }

    pub fn note(message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Note,
            message: message.into(),
            location: None,
            context: Vec::new(),
        }
    }

    pub fn warning(location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Warning,
            message: message.into(),
            location,
            context: Vec::new(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        };
        match &self.location {
            Some(location) => {
                writeln!(f, "{location}: {level}: {}", self.message)?;
                let number = location.line.to_string();
                let pad = " ".repeat(number.len());
                writeln!(f, " {number} | {}", location.text)?;
                let caret_column = location
                    .text
                    .chars()
                    .take(location.column.saturating_sub(1) as usize)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect::<String>();
                write!(f, " {pad} | {caret_column}^")?;
            }
            None => write!(f, "{level}: {}", self.message)?,
        }
        for line in &self.context {
            write!(f, "\n {line}")?;
        }
        Ok(())
    }
}

/// All the errors of one run (the assembler does not stop at the first one).
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.level == Level::Error)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for diagnostic in &self.0 {
            writeln!(f, "{diagnostic}")?;
        }
        let errors = self.errors().count();
        if errors > 0 {
            write!(f, "{}", plural(errors, "error"))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
