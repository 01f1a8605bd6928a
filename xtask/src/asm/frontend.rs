//! The assembler front end: RGBDS 1.0 source to an [`Object`].
//!
//! Reading goes through a stack of frames (the main file, included files, macro calls, loop
//! iterations), one logical line at a time. Each line is expanded (macro arguments, then
//! `{interpolation}`), then parsed and executed at once; `EQUS` symbols used as words are
//! expanded while tokenizing. Every error is reported at the token at fault with the chain
//! of macro calls and includes it came through, and assembly goes on with the next line so
//! that one run reports every error.
//!
//! What the assembler knows is computed at once (constants, labels of sections at fixed
//! addresses, `@` there, differences of labels in one section); the rest is left to the
//! linker as [`Patch`]es and [`Assertion`]s.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

use super::charmap::Charmap;
use super::diagnostic::{Diagnostic, Diagnostics, Level};
use super::expand::{expand_line, ExpandEnv, Interpolated};
use super::expr;
use super::lexer::{Lexer, Token};
use super::macros::MacroDef;
use super::object::{
    Assertion, Expr, Location, Object, Patch, PatchKind, Section, Severity, Symbol,
};
use super::operand::patch_bytes;
use super::source::{split_lines, Line, Origin};
use crate::project::plural;

/// Assembles `text` as if it were the file `name` (which messages show), with everything it
/// includes. Paths in `INCLUDE` and `INCBIN` are tried relative to the current directory,
/// then to each of `include_dirs`, as rgbasm does. On success, the object and the
/// warnings; on failure, every error and warning.
#[cfg(test)]
pub fn assemble_source(
    name: &str,
    text: &str,
    include_dirs: &[PathBuf],
) -> Result<(Object, Vec<Diagnostic>), Diagnostics> {
    assemble_source_with_defines(name, text, include_dirs, &[])
}

/// [`assemble_source`] with string constants defined before the first line, as
/// `rgbasm -D NAME` defines them: `DEF NAME EQUS "1"` (so `IF DEF(NAME)` sees them).
pub fn assemble_source_with_defines(
    name: &str,
    text: &str,
    include_dirs: &[PathBuf],
    defines: &[&str],
) -> Result<(Object, Vec<Diagnostic>), Diagnostics> {
    let mut assembler = Assembler::new(name, include_dirs);
    for define in defines {
        assembler.symbols.insert(
            define.to_string(),
            SymbolEntry {
                value: SymbolValue::Text(Rc::from("1")),
                exported: false,
                location: Location {
                    file: Rc::from(format!("-D {define}")),
                    line: 0,
                    column: 0,
                    text: Rc::from(""),
                },
            },
        );
    }
    assembler.push_file(Rc::from(name), text, None);
    assembler.run();
    assembler.finish()
}

/// Macro calls, includes and loops nest at most this deep.
const MAX_DEPTH: usize = 64;

pub(super) enum SymbolValue {
    Label {
        section: usize,
        offset: u32,
    },
    /// `EQU`, `RB`/`RW`/`RL`.
    Constant(i32),
    /// `=`, and `FOR` variables.
    Variable(i32),
    /// `EQUS`.
    Text(Rc<str>),
    Macro(Rc<MacroDef>),
}

impl SymbolValue {
    pub(super) fn kind_name(&self) -> &'static str {
        match self {
            SymbolValue::Label { .. } => "a label",
            SymbolValue::Constant(_) => "a constant",
            SymbolValue::Variable(_) => "a variable",
            SymbolValue::Text(_) => "a string constant (`EQUS`)",
            SymbolValue::Macro(_) => "a macro",
        }
    }
}

pub(super) struct SymbolEntry {
    pub(super) value: SymbolValue,
    pub(super) exported: bool,
    pub(super) location: Location,
}

pub(super) struct IfState {
    /// Lines are being assembled.
    pub(super) active: bool,
    /// One branch has been taken (or the whole construct is inside a skipped block).
    pub(super) taken: bool,
    pub(super) else_seen: bool,
    /// Inside a skipped block: nothing in the construct is checked.
    pub(super) dead: bool,
    pub(super) location: Location,
}

pub(super) struct ForLoop {
    pub(super) name: String,
    pub(super) start: i32,
    pub(super) step: i32,
}

pub(super) enum FrameKind {
    File {
        name: Rc<str>,
    },
    Macro {
        name: String,
        args: Vec<String>,
        shift: usize,
    },
    Loop {
        iteration: u32,
        count: u32,
        for_loop: Option<ForLoop>,
    },
}

pub(super) struct Frame {
    pub(super) kind: FrameKind,
    pub(super) lines: Rc<[Line]>,
    pub(super) next: usize,
    pub(super) ifs: Vec<IfState>,
    /// The `\@` number of this macro call or loop iteration, made when first used.
    pub(super) unique: Option<u32>,
    /// Where the include, macro call or loop was written.
    pub(super) call_site: Option<Location>,
}

pub(super) struct Assembler {
    pub(super) include_dirs: Vec<PathBuf>,
    pub(super) frames: Vec<Frame>,
    pub(super) symbols: HashMap<String, SymbolEntry>,
    /// Labels (named and anonymous) in the order they were defined.
    pub(super) label_order: Vec<String>,
    /// `EXPORT`ed before being defined.
    pub(super) pending_exports: HashMap<String, Location>,
    pub(super) sections: Vec<Section>,
    /// Whether a section's overflow has been reported (once per section).
    pub(super) overflow_reported: Vec<bool>,
    pub(super) current: Option<usize>,
    /// `PUSHS`: the sections (and label scopes) to come back to with `POPS`.
    pub(super) section_stack: Vec<(Option<usize>, Option<String>)>,
    /// The last global label of the current section: the scope of `.local` labels.
    pub(super) scope: Option<String>,
    pub(super) anonymous_labels: u32,
    pub(super) unique_ids: u32,
    /// The `_RS` counter.
    pub(super) rs: i32,
    pub(super) charmap: Charmap,
    pub(super) assertions: Vec<Assertion>,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// `FAIL` or a fatal assertion: stop reading.
    pub(super) fatal: bool,
    /// Symbols referenced before their definition (forward references).
    pub(super) referenced: HashSet<String>,

    // The line being parsed.
    pub(super) lex: Lexer,
    pub(super) peeked: Option<Token>,
    pub(super) expand_equs: bool,
    pub(super) expansions: u32,
    /// The text of the last token read, for "expected ... after `x`".
    pub(super) last_token: String,
    /// Offset in the current section of the instruction or data item being assembled: `@`.
    pub(super) pc_offset: u32,
    /// Inside `[...]`: an expression stops before `+ c` (for `[$FF00+c]`).
    pub(super) stop_before_plus_c: bool,
    /// How deep the expression being parsed nests.
    pub(super) nesting: u32,
}

pub(super) type R<T> = Result<T, Diagnostic>;

impl Assembler {
    fn new(name: &str, include_dirs: &[PathBuf]) -> Self {
        let origin = Rc::new(Origin {
            file: Rc::from(name),
            line: 0,
            text: Rc::from(""),
        });
        Assembler {
            include_dirs: include_dirs.to_vec(),
            frames: Vec::new(),
            symbols: HashMap::new(),
            label_order: Vec::new(),
            pending_exports: HashMap::new(),
            sections: Vec::new(),
            overflow_reported: Vec::new(),
            current: None,
            section_stack: Vec::new(),
            scope: None,
            anonymous_labels: 0,
            unique_ids: 0,
            rs: 0,
            charmap: Charmap::default(),
            assertions: Vec::new(),
            diagnostics: Vec::new(),
            fatal: false,
            referenced: HashSet::new(),
            lex: Lexer::new(Line::synthetic("", origin)),
            peeked: None,
            expand_equs: true,
            expansions: 0,
            last_token: String::new(),
            pc_offset: 0,
            stop_before_plus_c: false,
            nesting: 0,
        }
    }

    /// Starts reading a file's text (the main file, or an `INCLUDE`).
    pub(super) fn push_file(&mut self, name: Rc<str>, text: &str, call_site: Option<Location>) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (lines, errors) = split_lines(&name, text);
        for error in errors {
            self.report(error);
        }
        self.frames.push(Frame {
            kind: FrameKind::File { name },
            lines: Rc::from(lines),
            next: 0,
            ifs: Vec::new(),
            unique: None,
            call_site,
        });
    }

    /// Pushes a macro call or loop, checking the nesting depth.
    pub(super) fn push_frame(&mut self, frame: Frame) -> R<()> {
        if self.frames.len() >= MAX_DEPTH {
            // Fatal, as in rgbasm: going on could repeat the recursion exponentially (a file
            // that includes itself twice).
            self.fatal = true;
            let location = frame.call_site.clone();
            return Err(Diagnostic::error(
                location,
                format!("Recursion limit ({MAX_DEPTH}) exceeded"),
            ));
        }
        self.frames.push(frame);
        Ok(())
    }

    fn run(&mut self) {
        while !self.fatal {
            let Some(line) = self.next_line() else {
                break;
            };
            self.process(line);
        }
    }

    fn next_line(&mut self) -> Option<Line> {
        loop {
            let frame = self.frames.last_mut()?;
            if frame.next < frame.lines.len() {
                frame.next += 1;
                return Some(frame.lines[frame.next - 1].clone());
            }
            self.end_frame();
        }
    }

    /// The top frame ran out of lines: repeat a loop, or drop the frame.
    fn end_frame(&mut self) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let unterminated = std::mem::take(&mut frame.ifs);
        let mut repeat_with = None;
        let mut final_value = None;
        if let FrameKind::Loop {
            iteration,
            count,
            for_loop,
        } = &mut frame.kind
        {
            *iteration += 1;
            let value = for_loop.as_ref().map(|f| {
                (
                    f.name.clone(),
                    f.start.wrapping_add(f.step.wrapping_mul(*iteration as i32)),
                )
            });
            if *iteration < *count {
                frame.next = 0;
                frame.unique = None;
                repeat_with = Some(value);
            } else {
                final_value = value;
            }
        }
        if let Some(first) = unterminated.first() {
            let count = unterminated.len();
            let diagnostic = Diagnostic::error(
                Some(first.location.clone()),
                format!(
                    "Ended block with {} (`IF` without `ENDC`)",
                    plural(count, "unterminated conditional")
                ),
            );
            self.report(diagnostic);
        }
        match repeat_with {
            Some(value) => {
                if let Some((name, value)) = value {
                    self.set_for_variable(&name, value);
                }
            }
            None => {
                self.frames.pop();
                if let Some((name, value)) = final_value {
                    self.set_for_variable(&name, value);
                }
            }
        }
    }

    pub(super) fn set_for_variable(&mut self, name: &str, value: i32) {
        match self.symbols.get_mut(name) {
            Some(entry) => entry.value = SymbolValue::Variable(value),
            None => {
                let location = self.lex.line.location(0);
                self.symbols.insert(
                    name.to_string(),
                    SymbolEntry {
                        value: SymbolValue::Variable(value),
                        exported: false,
                        location,
                    },
                );
            }
        }
    }

    /// Whether the current conditional block is being skipped.
    fn skipping(&self) -> bool {
        self.frames
            .last()
            .and_then(|f| f.ifs.last())
            .is_some_and(|state| !state.active)
    }

    fn process(&mut self, line: Line) {
        if self.skipping() {
            self.process_skipped(line);
            return;
        }
        match expand_line(&line, self) {
            Ok(expanded) => {
                self.start_line(expanded);
                if let Err(diagnostic) = self.statement() {
                    self.report(diagnostic);
                }
            }
            Err((at, message)) => {
                let diagnostic = Diagnostic::error(Some(line.location(at)), message);
                self.report(diagnostic);
                self.keep_blocks_in_step(&line);
            }
        }
    }

    /// A line that could not be read may still open a block: open it anyway (skipped) so
    /// that one mistake does not make every later `ENDC`, `ENDR` or `ENDM` an error too.
    fn keep_blocks_in_step(&mut self, line: &Line) {
        let keyword = line.leading_keyword().map(|(k, _)| k);
        let location = line.location(0);
        match keyword.as_deref() {
            Some("IF") => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.ifs.push(IfState {
                        active: false,
                        taken: true,
                        else_seen: false,
                        dead: false,
                        location,
                    });
                }
            }
            Some(opener @ ("REPT" | "FOR" | "MACRO")) => {
                if let Err(diagnostic) = self.capture_body(location, opener == "MACRO") {
                    self.report(diagnostic);
                }
            }
            _ => {}
        }
    }

    /// In a skipped `IF` block, only the conditional directives count.
    fn process_skipped(&mut self, line: Line) {
        let Some((keyword, _)) = line.leading_keyword() else {
            return;
        };
        let location = line.location(0);
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let Some(top) = frame.ifs.last_mut() else {
            return;
        };
        match keyword.as_str() {
            "IF" => frame.ifs.push(IfState {
                active: false,
                taken: true,
                else_seen: false,
                dead: true,
                location,
            }),
            "ELIF" | "ELSE" if top.else_seen && !top.dead => {
                let message = format!("Found `{keyword}` after an `ELSE` block");
                self.report(Diagnostic::error(Some(location), message));
            }
            "ELIF" => {
                if top.taken || top.else_seen {
                    return;
                }
                match expand_line(&line, self) {
                    Ok(expanded) => {
                        self.start_line(expanded);
                        let condition = self.elif_condition();
                        if let Some(top) = self.frames.last_mut().and_then(|f| f.ifs.last_mut()) {
                            match condition {
                                Ok(true) => {
                                    top.active = true;
                                    top.taken = true;
                                }
                                Ok(false) => {}
                                Err(diagnostic) => {
                                    top.taken = true;
                                    self.report(diagnostic);
                                }
                            }
                        }
                    }
                    Err((at, message)) => {
                        let diagnostic = Diagnostic::error(Some(line.location(at)), message);
                        self.report(diagnostic);
                    }
                }
            }
            "ELSE" => {
                if !top.taken && !top.else_seen {
                    top.active = true;
                    top.taken = true;
                }
                top.else_seen = true;
            }
            "ENDC" => {
                frame.ifs.pop();
            }
            _ => {}
        }
    }

    /// Adds the call chain to a diagnostic and records it.
    pub(super) fn report(&mut self, mut diagnostic: Diagnostic) {
        if diagnostic.context.is_empty() {
            diagnostic.context = self.context();
        }
        self.diagnostics.push(diagnostic);
    }

    pub(super) fn warn(&mut self, location: Location, message: impl Into<String>) {
        self.report(Diagnostic::warning(Some(location), message));
    }

    /// "in macro `x` called at ...", innermost first.
    pub(super) fn context(&self) -> Vec<String> {
        self.frames
            .iter()
            .rev()
            .filter_map(|frame| {
                let site = frame.call_site.as_ref()?;
                Some(match &frame.kind {
                    FrameKind::File { name } => format!("in file {name} included at {site}"),
                    FrameKind::Macro { name, .. } => format!("in macro `{name}` called at {site}"),
                    FrameKind::Loop {
                        iteration,
                        for_loop: Some(f),
                        ..
                    } => format!(
                        "in FOR loop ({} = {}) at {site}",
                        f.name,
                        f.start.wrapping_add(f.step.wrapping_mul(*iteration as i32))
                    ),
                    FrameKind::Loop {
                        iteration, count, ..
                    } => format!(
                        "in REPT loop (iteration {} of {count}) at {site}",
                        iteration + 1
                    ),
                })
            })
            .collect()
    }

    /// The innermost macro call's frame.
    pub(super) fn macro_frame(&mut self) -> Option<&mut Frame> {
        self.frames
            .iter_mut()
            .rev()
            .find(|f| matches!(f.kind, FrameKind::Macro { .. }))
    }

    /// `_NARG`.
    pub(super) fn macro_arg_count(&self) -> Option<usize> {
        self.frames.iter().rev().find_map(|f| match &f.kind {
            FrameKind::Macro { args, shift, .. } => Some(args.len().saturating_sub(*shift)),
            _ => None,
        })
    }

    // Symbols

    /// The full name of a label: `.x` is `Scope.x`.
    pub(super) fn full_name(&self, name: &str) -> Result<String, String> {
        match name.strip_prefix('.') {
            Some(local) => match &self.scope {
                Some(scope) => Ok(format!("{scope}.{local}")),
                None => Err(format!("Unqualified local label `{name}` in main scope")),
            },
            None => Ok(name.to_string()),
        }
    }

    /// The value of a label: a number in a section at a fixed address.
    pub(super) fn label_expr(&self, section: usize, offset: u32) -> Expr {
        match self.sections[section].address {
            Some(address) => Expr::Number(address as i32 + offset as i32),
            None => Expr::SectionAddress { section, offset },
        }
    }

    /// `@`.
    pub(super) fn pc_expr(&self) -> Result<Expr, String> {
        match self.current {
            Some(section) => Ok(self.label_expr(section, self.pc_offset)),
            None => Err("`@` has no value outside of a section".to_string()),
        }
    }

    /// Current size of the current section.
    pub(super) fn section_offset(&self) -> u32 {
        self.current.map_or(0, |s| self.sections[s].size)
    }

    // Output

    /// The current section, which must hold data (ROM0/ROMX).
    pub(super) fn code_section(&self) -> Result<usize, String> {
        let section = self
            .current
            .ok_or_else(|| "Cannot output data outside of a `SECTION`".to_string())?;
        let section_ref = &self.sections[section];
        if !section_ref.kind.has_data() {
            return Err(format!(
                "Section \"{}\" cannot contain code or data (not `ROM0` or `ROMX`)",
                section_ref.name
            ));
        }
        Ok(section)
    }

    /// Reserves `count` bytes (zeros in ROM).
    pub(super) fn reserve(&mut self, count: u32) -> Result<(), String> {
        let section = self
            .current
            .ok_or_else(|| "Cannot output data outside of a `SECTION`".to_string())?;
        let target = &mut self.sections[section];
        if target.kind.has_data() {
            target.data.resize(target.data.len() + count as usize, 0);
        }
        target.size += count;
        self.check_size(section);
        Ok(())
    }

    pub(super) fn emit_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        let section = self.code_section()?;
        let target = &mut self.sections[section];
        target.data.extend_from_slice(bytes);
        target.size += bytes.len() as u32;
        self.check_size(section);
        Ok(())
    }

    fn check_size(&mut self, section: usize) {
        let target = &self.sections[section];
        let (start, end) = target.kind.range();
        let maximum = match target.address {
            Some(address) => end.saturating_sub(address as u32),
            None => end - start as u32,
        };
        if target.size > maximum && !self.overflow_reported[section] {
            self.overflow_reported[section] = true;
            let message = format!(
                "Section \"{}\" grew too big (max size = ${maximum:04X} bytes, reached ${:04X})",
                target.name, target.size
            );
            let location = self.lex.line.location(0);
            self.report(Diagnostic::error(Some(location), message));
        }
    }

    /// Writes a value of `kind` at `offset` of the current section (over placeholder bytes
    /// already there): now if the assembler knows it, else as a patch for the linker.
    pub(super) fn write_value(
        &mut self,
        kind: PatchKind,
        value: Expr,
        offset: u32,
        location: Location,
    ) {
        let Some(section) = self.current else {
            return;
        };
        let target = &self.sections[section];
        let known = match (&value, kind) {
            (Expr::Number(n), PatchKind::Relative) => {
                target.address.map(|a| (*n, a as i32 + offset as i32))
            }
            (Expr::Number(n), _) => Some((*n, 0)),
            (
                Expr::SectionAddress {
                    section: s,
                    offset: o,
                },
                PatchKind::Relative,
            ) if *s == section => Some((*o as i32, offset as i32)),
            _ => None,
        };
        match known {
            Some((n, address)) => match patch_bytes(kind, n, address) {
                Ok((bytes, warning)) => {
                    let start = offset as usize;
                    self.sections[section].data[start..start + bytes.len()].copy_from_slice(&bytes);
                    if let Some(warning) = warning {
                        self.warn(location, warning);
                    }
                }
                Err(message) => self.report(Diagnostic::error(Some(location), message)),
            },
            None => {
                let pc_offset = self.pc_offset;
                self.sections[section].patches.push(Patch {
                    offset,
                    kind,
                    expr: value,
                    pc_offset,
                    location,
                });
            }
        }
    }

    /// Emits one value of `kind` (`db`/`dw`/`dl` item, `ds` fill byte).
    pub(super) fn emit_value(
        &mut self,
        kind: PatchKind,
        value: Expr,
        location: Location,
    ) -> Result<(), String> {
        let offset = self.section_offset();
        let width = match kind {
            PatchKind::Word => 2,
            PatchKind::Long => 4,
            _ => 1,
        };
        self.emit_bytes(&vec![0; width])?;
        self.write_value(kind, value, offset, location);
        Ok(())
    }

    fn finish(mut self) -> Result<(Object, Vec<Diagnostic>), Diagnostics> {
        let pending: Vec<(String, Location)> = self.pending_exports.drain().collect();
        for (name, location) in pending {
            self.report(Diagnostic::warning(
                Some(location),
                format!("Exported symbol `{name}` is never defined in this file"),
            ));
        }
        self.resolve_late_constants();

        let mut symbols = Vec::new();
        for name in &self.label_order {
            if let Some(SymbolEntry {
                value: SymbolValue::Label { section, offset },
                exported,
                location,
            }) = self.symbols.get(name)
            {
                let value = match self.sections[*section].address {
                    Some(address) => address as i32 + *offset as i32,
                    None => *offset as i32,
                };
                symbols.push(Symbol {
                    name: name.clone(),
                    section: Some((*section, *offset)),
                    value,
                    exported: *exported,
                    location: location.clone(),
                });
            }
        }
        let mut constants: Vec<Symbol> = self
            .symbols
            .iter()
            .filter_map(|(name, entry)| match entry.value {
                SymbolValue::Constant(value) | SymbolValue::Variable(value) if entry.exported => {
                    Some(Symbol {
                        name: name.clone(),
                        section: None,
                        value,
                        exported: true,
                        location: entry.location.clone(),
                    })
                }
                _ => None,
            })
            .collect();
        constants.sort_by(|a, b| a.name.cmp(&b.name));
        symbols.extend(constants);

        if self.diagnostics.iter().any(|d| d.level == Level::Error) {
            return Err(Diagnostics(self.diagnostics));
        }
        let object = Object {
            sections: self.sections,
            symbols,
            assertions: self.assertions,
        };
        Ok((object, self.diagnostics))
    }

    /// Patches and assertions that referred to a constant defined later in the file: the
    /// value is known now.
    fn resolve_late_constants(&mut self) {
        let resolve = |symbols: &HashMap<String, SymbolEntry>, name: &str| match symbols.get(name) {
            Some(SymbolEntry {
                value: SymbolValue::Constant(n) | SymbolValue::Variable(n),
                ..
            }) => Some(Expr::Number(*n)),
            _ => None,
        };
        for section in 0..self.sections.len() {
            let patches = std::mem::take(&mut self.sections[section].patches);
            let saved_current = self.current;
            self.current = Some(section);
            for patch in patches {
                if let Some(problem) = self.symbol_problem(&patch.expr) {
                    self.report(Diagnostic::error(Some(patch.location.clone()), problem));
                    continue;
                }
                match expr::substitute(&patch.expr, &mut |name| resolve(&self.symbols, name)) {
                    Ok(value) if value != patch.expr => {
                        self.pc_offset = patch.pc_offset;
                        self.write_value(patch.kind, value, patch.offset, patch.location);
                    }
                    Ok(_) => self.sections[section].patches.push(patch),
                    Err(message) => self.report(Diagnostic::error(Some(patch.location), message)),
                }
            }
            self.current = saved_current;
        }
        let assertions = std::mem::take(&mut self.assertions);
        for assertion in assertions {
            if let Some(problem) = self.symbol_problem(&assertion.expr) {
                self.report(Diagnostic::error(Some(assertion.location.clone()), problem));
                continue;
            }
            match expr::substitute(&assertion.expr, &mut |name| resolve(&self.symbols, name)) {
                Ok(Expr::Number(n)) => {
                    if n == 0 {
                        self.assertion_failed(
                            assertion.severity,
                            &assertion.message,
                            assertion.location,
                            assertion.context,
                        );
                    }
                }
                Ok(expr) => self.assertions.push(Assertion { expr, ..assertion }),
                Err(message) => self.report(Diagnostic::error(Some(assertion.location), message)),
            }
        }
    }

    /// A symbol an expression refers to that can never be a number.
    fn symbol_problem(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Symbol(name) => match self.symbols.get(name) {
                Some(
                    entry @ SymbolEntry {
                        value: SymbolValue::Text(_) | SymbolValue::Macro(_),
                        ..
                    },
                ) => Some(format!(
                    "`{name}` is {}, not a number",
                    entry.value.kind_name()
                )),
                _ => None,
            },
            Expr::Unary(_, a) | Expr::Bank(a) => self.symbol_problem(a),
            Expr::Binary(_, a, b) => self.symbol_problem(a).or_else(|| self.symbol_problem(b)),
            _ => None,
        }
    }

    pub(super) fn assertion_failed(
        &mut self,
        severity: Severity,
        message: &str,
        location: Location,
        context: Vec<String>,
    ) {
        let text = if message.is_empty() {
            "Assertion failed".to_string()
        } else {
            format!("Assertion failed: {message}")
        };
        let diagnostic = match severity {
            Severity::Warn => Diagnostic::warning(Some(location), format!("{text} [-Wassert]")),
            Severity::Error | Severity::Fatal => Diagnostic::error(Some(location), text),
        };
        self.report(Diagnostic {
            context,
            ..diagnostic
        });
        if severity == Severity::Fatal {
            self.fatal = true;
        }
    }

    /// Finds `name` (see [`Self::find_file`]) and reads it; `what` names it in the error
    /// (`"included file"`).
    pub(super) fn read_found_file(
        &self,
        name: &str,
        what: &str,
    ) -> Result<(PathBuf, Vec<u8>), String> {
        let path = self.find_file(name)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| format!("Error reading {what} \"{}\": {e}", path.display()))?;
        Ok((path, bytes))
    }

    /// Finds a file for `INCLUDE`/`INCBIN`: the current directory, then the include dirs.
    fn find_file(&self, name: &str) -> Result<PathBuf, String> {
        let direct = PathBuf::from(name);
        if direct.is_file() {
            return Ok(direct);
        }
        for dir in &self.include_dirs {
            let candidate = dir.join(name);
            if candidate.is_file() {
                // Messages name the file relative to the current directory when they can.
                let relative = std::env::current_dir()
                    .ok()
                    .and_then(|cwd| candidate.strip_prefix(cwd).ok().map(PathBuf::from));
                return Ok(relative.unwrap_or(candidate));
            }
        }
        let mut searched = vec!["the current directory".to_string()];
        searched.extend(self.include_dirs.iter().map(|d| d.display().to_string()));
        Err(format!(
            "File \"{name}\" not found (searched {})",
            searched.join(", ")
        ))
    }
}

impl ExpandEnv for Assembler {
    fn macro_args(&self) -> Option<Vec<String>> {
        self.frames.iter().rev().find_map(|f| match &f.kind {
            FrameKind::Macro { args, shift, .. } => Some(args[(*shift).min(args.len())..].to_vec()),
            _ => None,
        })
    }

    fn unique_suffix(&mut self) -> Option<String> {
        let frame = self
            .frames
            .iter_mut()
            .rev()
            .find(|f| !matches!(f.kind, FrameKind::File { .. }))?;
        let id = match frame.unique {
            Some(id) => id,
            None => {
                self.unique_ids += 1;
                frame.unique = Some(self.unique_ids);
                self.unique_ids
            }
        };
        Some(format!("_u{id}"))
    }

    fn interpolated(&mut self, name: &str) -> Result<Interpolated, String> {
        match name {
            "_NARG" => {
                return self
                    .macro_arg_count()
                    .map(|n| Interpolated::Number(n as i32))
                    .ok_or_else(|| "`_NARG` has no value outside of a macro".to_string())
            }
            "_RS" => return Ok(Interpolated::Number(self.rs)),
            "@" => {
                return match self.pc_expr()? {
                    Expr::Number(n) => Ok(Interpolated::Number(n)),
                    _ => {
                        Err("`@` is not constant: the section is not at a fixed address"
                            .to_string())
                    }
                }
            }
            _ => {}
        }
        let full = self.full_name(name)?;
        match self.symbols.get(&full).map(|e| &e.value) {
            Some(SymbolValue::Text(text)) => Ok(Interpolated::Text(text.to_string())),
            Some(SymbolValue::Constant(n) | SymbolValue::Variable(n)) => Ok(Interpolated::Number(*n)),
            Some(SymbolValue::Label { section, offset }) => match self.label_expr(*section, *offset) {
                Expr::Number(n) => Ok(Interpolated::Number(n)),
                _ => Err(format!(
                    "Interpolated symbol `{full}` is a label in a floating section: its address is not known yet"
                )),
            },
            Some(SymbolValue::Macro(_)) => Err(format!("Interpolated symbol `{full}` is a macro")),
            None => Err(format!("Interpolated symbol `{full}` does not exist")),
        }
    }
}
