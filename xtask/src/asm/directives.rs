//! One statement: an optional label, then a directive, instructions, or a macro call.

use std::rc::Rc;

use super::diagnostic::Diagnostic;
use super::encode::encode;
use super::frontend::{Assembler, ForLoop, Frame, FrameKind, IfState, SymbolEntry, SymbolValue, R};
use super::keywords;
use super::lexer::{CompoundOp, Op, Tok, Token};
use super::macros::{split_args, MacroDef};
use super::object::{Assertion, BinaryOp, Expr, Location, PatchKind, Section, Severity};
use super::operand::Operand;
use super::parse::Value;
use super::source::Line;
use crate::project::plural;

enum LabelDefinition {
    Anonymous(Token),
    Named {
        name: String,
        raw: bool,
        exported: bool,
        token: Token,
    },
}

impl LabelDefinition {
    fn token(&self) -> &Token {
        match self {
            LabelDefinition::Anonymous(token) | LabelDefinition::Named { token, .. } => token,
        }
    }
}

/// Directives that manage blocks of lines: no label may come before them.
const BLOCK_DIRECTIVES: &[&str] = &[
    "IF", "ELIF", "ELSE", "ENDC", "REPT", "FOR", "ENDR", "MACRO", "ENDM",
];

impl Assembler {
    pub(super) fn statement(&mut self) -> R<()> {
        let label = self.label()?;
        let token = self.peek()?;
        let block = token
            .keyword()
            .map(str::to_ascii_uppercase)
            .filter(|k| BLOCK_DIRECTIVES.contains(&k.as_str()));
        if let Some(label) = label {
            match block {
                Some(block) => self.report(self.error_at(
                    label.token().start,
                    format!("a label cannot come before `{block}`: put it on its own line"),
                )),
                None => self.define(label)?,
            }
        }
        if token.tok == Tok::Eol {
            return Ok(());
        }
        if let Some(keyword) = token.keyword() {
            let upper = keyword.to_ascii_uppercase();
            if let Some(result) = self.directive(&upper, &token) {
                return result;
            }
            let lower = keyword.to_ascii_lowercase();
            if keywords::MNEMONICS.contains(&lower.as_str())
                || matches!(upper.as_str(), "DB" | "DW" | "DL" | "DS")
            {
                return self.items();
            }
            if let Some(SymbolEntry {
                value: SymbolValue::Macro(definition),
                ..
            }) = self.symbols.get(keyword)
            {
                let definition = definition.clone();
                return self.call_macro(definition, &token);
            }
            let name = keyword.to_string();
            let rest: String = self.lex.rest_from(token.end).iter().collect();
            let rest = rest.trim_start();
            let upper_rest = rest.to_ascii_uppercase();
            let hint = if ["EQU ", "EQUS ", "= ", "RB", "RW", "RL", "SET "]
                .iter()
                .any(|p| upper_rest.starts_with(p))
                || rest.starts_with('=')
            {
                format!(" (to define a symbol, write `DEF {name} ...`)")
            } else if rest.starts_with(':') {
                format!(" (a label is written `{name}:` with no space before the colon)")
            } else {
                String::new()
            };
            return Err(self.error_at(
                token.start,
                format!("unknown instruction, directive or macro `{name}`{hint}"),
            ));
        }
        Err(self.error_at(
            token.start,
            format!(
                "expected a label, an instruction, a directive or a macro call, found {}",
                self.describe(&token)
            ),
        ))
    }

    /// A label definition at the start of the line, read but not yet defined.
    fn label(&mut self) -> R<Option<LabelDefinition>> {
        let token = self.peek()?;
        match &token.tok {
            Tok::Op(Op::Colon) => {
                self.next()?;
                Ok(Some(LabelDefinition::Anonymous(token)))
            }
            Tok::Ident { name, raw } => {
                let follows = self.lex.line.chars.get(token.end).copied();
                if follows != Some(':') && !name.starts_with('.') {
                    return Ok(None);
                }
                let name = name.clone();
                let raw = *raw;
                self.next()?;
                let exported = if self.eat_op(Op::DoubleColon)? {
                    true
                } else {
                    self.eat_op(Op::Colon)?;
                    false
                };
                Ok(Some(LabelDefinition::Named {
                    name,
                    raw,
                    exported,
                    token,
                }))
            }
            _ => Ok(None),
        }
    }

    fn define(&mut self, label: LabelDefinition) -> R<()> {
        match label {
            LabelDefinition::Anonymous(token) => self.define_anonymous_label(&token),
            LabelDefinition::Named {
                name,
                raw,
                exported,
                token,
            } => self.define_label(&name, raw, exported, &token),
        }
    }

    fn define_anonymous_label(&mut self, token: &Token) -> R<()> {
        let section = self.current.ok_or_else(|| {
            self.error_at(
                token.start,
                "Cannot define an anonymous label outside of a `SECTION`",
            )
        })?;
        let name = format!("!{}", self.anonymous_labels);
        self.anonymous_labels += 1;
        let offset = self.section_offset();
        let location = self.location_at(token.start);
        self.symbols.insert(
            name.clone(),
            SymbolEntry {
                value: SymbolValue::Label { section, offset },
                exported: false,
                location,
            },
        );
        self.label_order.push(name);
        Ok(())
    }

    fn define_label(&mut self, name: &str, raw: bool, exported: bool, token: &Token) -> R<()> {
        let at = token.start;
        if !raw && !name.contains('.') {
            if let Some(reason) = keywords::reserved(name) {
                return Err(self.error_at(at, format!("`{name}` {reason} and cannot be a label")));
            }
        }
        if let Some(message) = keywords::builtin_symbol(name) {
            return Err(self.error_at(at, message));
        }
        let full = self.full_name(name).map_err(|m| self.error_at(at, m))?;
        if full.matches('.').count() > 1 {
            return Err(self.error_at(at, format!("`{full}` has more than one `.`")));
        }
        if full.ends_with('.') {
            return Err(self.error_at(at, format!("`{full}` is a local label with no name")));
        }
        let section = self.current.ok_or_else(|| {
            self.error_at(
                at,
                format!("Cannot define label `{full}` outside of a `SECTION`"),
            )
        })?;
        if let Some(existing) = self.symbols.get(&full) {
            return Err(self.error_at(
                at,
                format!("`{full}` already defined at {}", existing.location),
            ));
        }
        let exported = exported || self.pending_exports.remove(&full).is_some();
        let location = self.location_at(at);
        let offset = self.section_offset();
        self.symbols.insert(
            full.clone(),
            SymbolEntry {
                value: SymbolValue::Label { section, offset },
                exported,
                location,
            },
        );
        self.label_order.push(full.clone());
        if !full.contains('.') {
            self.scope = Some(full);
        }
        Ok(())
    }

    /// Runs a directive; `None` if `upper` is not one.
    fn directive(&mut self, upper: &str, token: &Token) -> Option<R<()>> {
        let at = token.start;
        if keywords::UNSUPPORTED_DIRECTIVES.contains(&upper) {
            return Some(Err(self.error_at(
                at,
                format!("`{upper}` is not supported by this assembler (it implements the RGBDS features the project uses)"),
            )));
        }
        let result = match upper {
            "IF" => self.directive_if(),
            "ELIF" => self.directive_elif(token),
            "ELSE" => self.directive_else(token),
            "ENDC" => self.directive_endc(token),
            "REPT" | "FOR" => self.directive_loop(upper, token),
            "ENDR" => Err(self.error_at(at, "Found `ENDR` outside of a `REPT` or `FOR` block")),
            "BREAK" => self.directive_break(token),
            "MACRO" => self.directive_macro(token),
            "ENDM" => Err(self.error_at(at, "Found `ENDM` outside of a macro definition")),
            "SECTION" => self.directive_section(),
            "PUSHS" => self.directive_pushs(),
            "POPS" => self.directive_pops(token),
            "ENDSECTION" => self.next().map(|_| ()).and_then(|_| {
                self.current = None;
                self.scope = None;
                self.expect_end()
            }),
            "DEF" => self.next().and_then(|_| self.directive_def(false, false)),
            "REDEF" => self.next().and_then(|_| self.directive_def(true, false)),
            "EXPORT" => self.directive_export(),
            "PURGE" => self.directive_purge(),
            "INCLUDE" => self.directive_include(token),
            "INCBIN" => self.directive_incbin(),
            "CHARMAP" => self.directive_charmap(),
            "RSRESET" => self.next().and_then(|_| {
                self.rs = 0;
                self.expect_end()
            }),
            "RSSET" => self.next().and_then(|_| {
                self.rs = self.constant("The `RSSET` value")?;
                self.expect_end()
            }),
            "ASSERT" | "STATIC_ASSERT" => self.directive_assert(upper == "STATIC_ASSERT"),
            "FAIL" | "WARN" => self.directive_fail(upper, token),
            "PRINT" | "PRINTLN" => self.directive_print(upper == "PRINTLN"),
            "SHIFT" => self.directive_shift(token),
            "ALIGN" => self.directive_align(),
            "EQU" | "EQUS" | "RB" | "RW" => Err(self.error_at(
                at,
                format!("`{upper}` needs a name: write `DEF NAME {upper} ...`"),
            )),
            _ => return None,
        };
        Some(result)
    }

    // Conditionals

    fn directive_if(&mut self) -> R<()> {
        let token = self.next()?;
        let location = self.location_at(token.start);
        let condition = self.constant("An `IF` condition").and_then(|c| {
            self.expect_end()?;
            Ok(c)
        });
        let frame = self.frames.last_mut().expect("a line comes from a frame");
        let (active, taken) = match &condition {
            Ok(c) => (*c != 0, *c != 0),
            Err(_) => (false, true),
        };
        frame.ifs.push(IfState {
            active,
            taken,
            else_seen: false,
            dead: false,
            location,
        });
        condition.map(|_| ())
    }

    /// The condition of an `ELIF` reached while skipping a block.
    pub(super) fn elif_condition(&mut self) -> R<bool> {
        self.next()?;
        let condition = self.constant("An `ELIF` condition")?;
        self.expect_end()?;
        Ok(condition != 0)
    }

    fn current_if(&mut self, token: &Token, name: &str) -> R<&mut IfState> {
        let at = token.start;
        let message = format!("Found `{name}` outside of an `IF` construct");
        let location = self.location_at(at);
        self.frames
            .last_mut()
            .and_then(|f| f.ifs.last_mut())
            .ok_or_else(|| Diagnostic::error(Some(location), message))
    }

    fn directive_elif(&mut self, token: &Token) -> R<()> {
        self.next()?;
        let state = self.current_if(token, "ELIF")?;
        let else_seen = state.else_seen;
        // The branch that ran ends here; later branches are skipped unevaluated.
        state.active = false;
        if else_seen {
            return Err(self.error_at(token.start, "Found `ELIF` after an `ELSE` block"));
        }
        Ok(())
    }

    fn directive_else(&mut self, token: &Token) -> R<()> {
        self.next()?;
        let state = self.current_if(token, "ELSE")?;
        let else_seen = state.else_seen;
        state.active = false;
        state.else_seen = true;
        if else_seen {
            return Err(self.error_at(token.start, "Found `ELSE` after an `ELSE` block"));
        }
        self.expect_end()
    }

    fn directive_endc(&mut self, token: &Token) -> R<()> {
        self.next()?;
        self.current_if(token, "ENDC")?;
        if let Some(frame) = self.frames.last_mut() {
            frame.ifs.pop();
        }
        self.expect_end()
    }

    // Loops and macros

    /// Takes the lines up to the matching `ENDR` (or `ENDM`) from the current frame.
    pub(super) fn capture_body(&mut self, location: Location, macro_body: bool) -> R<Rc<[Line]>> {
        let frame = self.frames.last_mut().expect("a line comes from a frame");
        let mut depth = 0;
        let mut body = Vec::new();
        while frame.next < frame.lines.len() {
            let line = frame.lines[frame.next].clone();
            frame.next += 1;
            let keyword = line.leading_keyword().map(|(k, _)| k);
            match keyword.as_deref() {
                Some("ENDM") if macro_body => return Ok(Rc::from(body)),
                Some("REPT" | "FOR") if !macro_body => depth += 1,
                Some("ENDR") if !macro_body => {
                    if depth == 0 {
                        return Ok(Rc::from(body));
                    }
                    depth -= 1;
                }
                _ => {}
            }
            body.push(line);
        }
        let what = if macro_body {
            "macro definition (no `ENDM`)"
        } else {
            "loop (`REPT`/`FOR` block without `ENDR`)"
        };
        Err(Diagnostic::error(
            Some(location),
            format!("Unterminated {what}"),
        ))
    }

    /// `REPT?`, `FOR?`, `MACRO?`, `INCLUDE?`: RGBDS leaves these out of backtraces; here
    /// the `?` is accepted and changes nothing.
    fn skip_quiet_mark(&mut self, keyword: &Token) -> R<()> {
        if self.lex.line.chars.get(keyword.end) == Some(&'?') {
            self.next()?;
        }
        Ok(())
    }

    fn directive_loop(&mut self, upper: &str, token: &Token) -> R<()> {
        self.next()?;
        self.skip_quiet_mark(token)?;
        let parsed = if upper == "REPT" {
            self.rept_header()
        } else {
            self.for_header()
        };
        let body = self.capture_body(self.location_at(token.start), false)?;
        let (count, for_loop) = parsed?;
        if let Some(for_loop) = &for_loop {
            self.set_for_variable(&for_loop.name.clone(), for_loop.start);
        }
        if count == 0 {
            return Ok(());
        }
        let call_site = self.location_at(token.start);
        self.push_frame(Frame {
            kind: FrameKind::Loop {
                iteration: 0,
                count,
                for_loop,
            },
            lines: body,
            next: 0,
            ifs: Vec::new(),
            unique: None,
            call_site: Some(call_site),
        })
    }

    fn rept_header(&mut self) -> R<(u32, Option<ForLoop>)> {
        let start = self.peek()?.start;
        let count = self.constant("The `REPT` count")?;
        self.expect_end()?;
        if count < 0 {
            return Err(self.error_at(
                start,
                format!("The `REPT` count must not be negative, not {count}"),
            ));
        }
        Ok((count as u32, None))
    }

    fn for_header(&mut self) -> R<(u32, Option<ForLoop>)> {
        let (name, name_token) = self.definition_name("`FOR`")?;
        if let Some(entry) = self.symbols.get(&name) {
            if !matches!(entry.value, SymbolValue::Variable(_)) {
                return Err(self.error_at(
                    name_token.start,
                    format!(
                        "`FOR` needs a variable, but `{name}` is {} (defined at {})",
                        entry.value.kind_name(),
                        entry.location
                    ),
                ));
            }
        }
        let mut values = Vec::new();
        while self.eat_op(Op::Comma)? {
            let start = self.peek()?.start;
            values.push((self.constant("A `FOR` bound")?, start));
        }
        self.expect_end()?;
        let (start, stop, step) = match values.as_slice() {
            [(stop, _)] => (0, *stop, 1),
            [(start, _), (stop, _)] => (*start, *stop, 1),
            [(start, _), (stop, _), (step, at)] => {
                if *step == 0 {
                    return Err(self.error_at(*at, "`FOR` cannot have a step value of 0"));
                }
                (*start, *stop, *step)
            }
            _ => {
                return Err(self.error_at(
                    name_token.start,
                    "`FOR` takes a variable and 1 to 3 values: `FOR V, [start,] stop[, step]`",
                ))
            }
        };
        let (start64, stop64, step64) = (start as i64, stop as i64, step as i64);
        let count = if step64 > 0 && start64 < stop64 {
            (stop64 - start64 + step64 - 1) / step64
        } else if step64 < 0 && start64 > stop64 {
            (start64 - stop64 - step64 - 1) / -step64
        } else {
            0
        };
        Ok((count as u32, Some(ForLoop { name, start, step })))
    }

    fn directive_break(&mut self, token: &Token) -> R<()> {
        self.next()?;
        self.expect_end()?;
        let frame = self.frames.last_mut().expect("a line comes from a frame");
        match &mut frame.kind {
            FrameKind::Loop {
                iteration,
                count,
                for_loop,
            } => {
                // The loop ends here and a `FOR` variable keeps its current value.
                *count = *iteration + 1;
                *for_loop = None;
                frame.next = frame.lines.len();
                frame.ifs.clear();
                Ok(())
            }
            _ => Err(self.error_at(
                token.start,
                "`BREAK` can only be used inside a loop (`REPT`/`FOR` block)",
            )),
        }
    }

    fn directive_macro(&mut self, token: &Token) -> R<()> {
        self.next()?;
        let header = self
            .skip_quiet_mark(token)
            .and_then(|_| self.definition_name("`MACRO`"))
            .and_then(|(name, name_token)| {
                self.expect_end()?;
                Ok((name, name_token))
            });
        let body = self.capture_body(self.location_at(token.start), true)?;
        let (name, name_token) = header?;
        if let Some(existing) = self.symbols.get(&name) {
            return Err(self.error_at(
                name_token.start,
                format!("`{name}` already defined at {}", existing.location),
            ));
        }
        let location = self.location_at(name_token.start);
        let definition = Rc::new(MacroDef {
            name: name.clone(),
            body,
        });
        self.symbols.insert(
            name,
            SymbolEntry {
                value: SymbolValue::Macro(definition),
                exported: false,
                location,
            },
        );
        Ok(())
    }

    fn call_macro(&mut self, definition: Rc<MacroDef>, token: &Token) -> R<()> {
        self.next()?;
        let from = token.end;
        if self.lex.line.chars.get(from) == Some(&'?') {
            return Err(self.error_at(
                from,
                format!(
                    "rgbasm 1.0.3 does not accept a quiet macro call `{}?`; write `{}`",
                    definition.name, definition.name
                ),
            ));
        }
        let args = split_args(self.lex.rest_from(from)).map_err(|m| self.error_at(from, m))?;
        self.lex.skip_to_end();
        self.peeked = None;
        let call_site = self.location_at(token.start);
        self.push_frame(Frame {
            kind: FrameKind::Macro {
                name: definition.name.clone(),
                args,
                shift: 0,
            },
            lines: definition.body.clone(),
            next: 0,
            ifs: Vec::new(),
            unique: None,
            call_site: Some(call_site),
        })
    }

    fn directive_shift(&mut self, token: &Token) -> R<()> {
        self.next()?;
        let amount = if self.at_item_end()? {
            1
        } else {
            self.constant("The `SHIFT` amount")?
        };
        self.expect_end()?;
        let at = token.start;
        let location = self.location_at(at);
        let Some(frame) = self.macro_frame() else {
            return Err(Diagnostic::error(
                Some(location),
                "`SHIFT` can only be used inside a macro",
            ));
        };
        let FrameKind::Macro { args, shift, .. } = &mut frame.kind else {
            unreachable!("macro_frame returns macro frames");
        };
        let new = *shift as i64 + amount as i64;
        if new < 0 {
            return Err(Diagnostic::error(
                Some(location),
                "Cannot shift macro arguments past their beginning",
            ));
        }
        if new > args.len() as i64 {
            return Err(Diagnostic::error(
                Some(location),
                "Cannot shift macro arguments past their end",
            ));
        }
        *shift = new as usize;
        Ok(())
    }

    // Symbols

    /// After `DEF` / `REDEF` (already read).
    fn directive_def(&mut self, redefine: bool, export: bool) -> R<()> {
        let keyword = if redefine { "`REDEF`" } else { "`DEF`" };
        let (name, name_token) = self.definition_name(keyword)?;
        let at = name_token.start;
        let operator = self.next()?;
        let upper = operator.keyword().map(str::to_ascii_uppercase);
        let value = match (upper.as_deref(), &operator.tok) {
            (Some("EQU"), _) => {
                let n = self.constant(&format!("The value of `{name}`"))?;
                SymbolValue::Constant(n)
            }
            (Some("EQUS"), _) => {
                if export {
                    return Err(self.error_at(at, "String constants (`EQUS`) cannot be exported"));
                }
                SymbolValue::Text(Rc::from(self.string("`EQUS`")?))
            }
            (Some(size @ ("RB" | "RW" | "RL")), _) => {
                let count = if self.at_item_end()? {
                    1
                } else {
                    self.constant(&format!("The `{size}` count"))?
                };
                let width = match size {
                    "RB" => 1,
                    "RW" => 2,
                    _ => 4,
                };
                let value = self.rs;
                self.rs = self.rs.wrapping_add(count.wrapping_mul(width));
                SymbolValue::Constant(value)
            }
            (_, Tok::Op(Op::Assign)) => {
                SymbolValue::Variable(self.constant(&format!("The value of `{name}`"))?)
            }
            (_, Tok::Op(Op::CompoundAssign(op))) => {
                let current = match self.symbols.get(&name).map(|e| &e.value) {
                    Some(SymbolValue::Variable(n)) => *n,
                    Some(other) => {
                        return Err(self.error_at(
                            at,
                            format!("`{name}` is {}, not a variable", other.kind_name()),
                        ))
                    }
                    None => return Err(self.error_at(at, format!("`{name}` is not defined"))),
                };
                let operand = self.constant(&format!("The value of `{name}`"))?;
                let binary = match op {
                    CompoundOp::Add => BinaryOp::Add,
                    CompoundOp::Sub => BinaryOp::Sub,
                    CompoundOp::Mul => BinaryOp::Mul,
                    CompoundOp::Div => BinaryOp::Div,
                    CompoundOp::Mod => BinaryOp::Mod,
                    CompoundOp::Shl => BinaryOp::Shl,
                    CompoundOp::Shr => BinaryOp::Shr,
                    CompoundOp::And => BinaryOp::And,
                    CompoundOp::Or => BinaryOp::Or,
                    CompoundOp::Xor => BinaryOp::Xor,
                };
                let n = super::expr::eval_binary(binary, current, operand)
                    .map_err(|m| self.error_at(operator.start, m))?;
                SymbolValue::Variable(n)
            }
            _ => {
                return Err(self.error_at(
                    operator.start,
                    format!(
                        "expected `EQU`, `=`, `EQUS`, `RB`, `RW` or `RL` after `{name}`, found {}",
                        self.describe(&operator)
                    ),
                ))
            }
        };
        self.expect_end()?;
        self.define_symbol(&name, value, redefine, export, at)
    }

    fn define_symbol(
        &mut self,
        name: &str,
        value: SymbolValue,
        redefine: bool,
        export: bool,
        at: usize,
    ) -> R<()> {
        let location = self.location_at(at);
        if let Some(existing) = self.symbols.get_mut(name) {
            let allowed = match (&existing.value, &value) {
                (SymbolValue::Variable(_), SymbolValue::Variable(_)) => true,
                (SymbolValue::Constant(_), SymbolValue::Constant(_)) => redefine,
                (SymbolValue::Text(_), SymbolValue::Text(_)) => redefine,
                _ => false,
            };
            if !allowed {
                let message = format!(
                    "`{name}` already defined as {} at {}",
                    existing.value.kind_name(),
                    existing.location
                );
                return Err(Diagnostic::error(Some(location), message));
            }
            existing.value = value;
            existing.exported |= export;
            return Ok(());
        }
        let exported = export || self.pending_exports.remove(name).is_some();
        if exported && matches!(value, SymbolValue::Text(_)) {
            return Err(Diagnostic::error(
                Some(location),
                "String constants (`EQUS`) cannot be exported",
            ));
        }
        self.symbols.insert(
            name.to_string(),
            SymbolEntry {
                value,
                exported,
                location,
            },
        );
        Ok(())
    }

    fn directive_export(&mut self) -> R<()> {
        self.next()?;
        let token = self.peek()?;
        if token.is_keyword("DEF") || token.is_keyword("REDEF") {
            self.next()?;
            return self.directive_def(token.is_keyword("REDEF"), true);
        }
        loop {
            let token = self.next()?;
            let Tok::Ident { name, .. } = &token.tok else {
                return Err(self.error_at(
                    token.start,
                    format!(
                        "expected a symbol name after `{}`, found {}",
                        self.last_token,
                        self.describe(&token)
                    ),
                ));
            };
            let full = self
                .full_name(name)
                .map_err(|m| self.error_at(token.start, m))?;
            match self.symbols.get_mut(&full) {
                Some(entry) => match entry.value {
                    SymbolValue::Text(_) | SymbolValue::Macro(_) => {
                        let message = format!(
                            "`{full}` is {} and cannot be exported",
                            entry.value.kind_name()
                        );
                        return Err(self.error_at(token.start, message));
                    }
                    _ => entry.exported = true,
                },
                None => {
                    let location = self.location_at(token.start);
                    self.pending_exports.insert(full, location);
                }
            }
            if !self.eat_op(Op::Comma)? || self.peek()?.tok == Tok::Eol {
                break;
            }
        }
        self.expect_end()
    }

    fn directive_purge(&mut self) -> R<()> {
        self.next()?;
        loop {
            self.expand_equs = false;
            let token = self.next();
            self.expand_equs = true;
            let token = token?;
            let Tok::Ident { name, .. } = &token.tok else {
                return Err(self.error_at(
                    token.start,
                    format!(
                        "expected a symbol name after `PURGE`, found {}",
                        self.describe(&token)
                    ),
                ));
            };
            let full = self
                .full_name(name)
                .map_err(|m| self.error_at(token.start, m))?;
            match self.symbols.get(&full).map(|e| &e.value) {
                None => {
                    return Err(self.error_at(token.start, format!("Undefined symbol `{full}`")))
                }
                Some(SymbolValue::Label { .. }) => {
                    return Err(self.error_at(
                        token.start,
                        format!("`{full}` is a label; purging labels is not supported"),
                    ))
                }
                Some(_) => {
                    self.symbols.remove(&full);
                }
            }
            if !self.eat_op(Op::Comma)? {
                break;
            }
        }
        self.expect_end()
    }

    // Sections

    /// `PUSHS` saves the current section (and label scope); with arguments it then opens a
    /// section as `SECTION` does.
    fn directive_pushs(&mut self) -> R<()> {
        self.section_stack.push((self.current, self.scope.clone()));
        let end = self.peek()?.end;
        if self.lex.rest_from(end).iter().all(|c| c.is_whitespace()) {
            self.next()?;
            return Ok(());
        }
        self.directive_section()
    }

    fn directive_pops(&mut self, token: &Token) -> R<()> {
        self.next()?;
        self.expect_end()?;
        let (section, scope) = self.section_stack.pop().ok_or_else(|| {
            self.error_at(
                token.start,
                "No entries in the section stack (`POPS` without `PUSHS`)",
            )
        })?;
        self.current = section;
        self.scope = scope;
        Ok(())
    }

    fn directive_section(&mut self) -> R<()> {
        let section_token = self.next()?;
        let token = self.peek()?;
        if token.is_keyword("UNION") || token.is_keyword("FRAGMENT") {
            return Err(self.error_at(
                token.start,
                format!(
                    "`SECTION {}` is not supported by this assembler",
                    token.keyword().unwrap_or_default().to_ascii_uppercase()
                ),
            ));
        }
        let name = self.string("the section name")?;
        self.expect_op(Op::Comma)?;
        let type_token = self.next()?;
        let kind = type_token
            .keyword()
            .and_then(keywords::section_kind)
            .ok_or_else(|| {
                self.error_at(
                    type_token.start,
                    format!(
                        "expected a section type (ROM0, ROMX, VRAM, SRAM, WRAM0, WRAMX, OAM or HRAM), found {}",
                        self.describe(&type_token)
                    ),
                )
            })?;
        let mut address = None;
        if self.eat_op(Op::LBracket)? {
            let start = self.peek()?.start;
            let value = self.constant("The section address")?;
            if !(0..=0xFFFF).contains(&value) {
                return Err(self.error_at(start, format!("Address ${value:X} is not 16-bit")));
            }
            address = Some((value as u16, start));
            self.expect_op(Op::RBracket)?;
        }
        let mut bank = None;
        let mut align = None;
        while self.eat_op(Op::Comma)? {
            let option = self.next()?;
            if option.is_keyword("BANK") {
                self.expect_op(Op::LBracket)?;
                let start = self.peek()?.start;
                let value = self.constant("The section bank")?;
                self.expect_op(Op::RBracket)?;
                bank = Some((value, start));
            } else if option.is_keyword("ALIGN") {
                self.expect_op(Op::LBracket)?;
                let (bits, offset, at) = self.align_spec()?;
                self.expect_op(Op::RBracket)?;
                align = Some((bits, offset, at));
            } else {
                return Err(self.error_at(
                    option.start,
                    format!(
                        "expected `BANK[n]` or `ALIGN[n]` after `,`, found {}",
                        self.describe(&option)
                    ),
                ));
            }
        }
        self.expect_end()?;

        if let Some(existing) = self.sections.iter().find(|s| s.name == name) {
            return Err(self.error_at(
                section_token.start,
                format!(
                    "Section \"{name}\" already defined at {} (`SECTION FRAGMENT` and `UNION` are not supported)",
                    existing.location
                ),
            ));
        }
        let (start, end) = kind.range();
        if let Some((address, at)) = address {
            if (address as u32) < start as u32 || address as u32 >= end {
                return Err(self.error_at(
                    at,
                    format!(
                        "Section \"{name}\"'s fixed address ${address:04X} is outside of range [${start:04X}; ${:04X}]",
                        end - 1
                    ),
                ));
            }
        }
        let bank = match bank {
            None => None,
            Some((value, at)) => {
                let range =
                    match kind.name() {
                        "ROMX" => 1..=511,
                        "WRAMX" => 1..=7,
                        "SRAM" => 0..=15,
                        "VRAM" => 0..=1,
                        _ => return Err(self.error_at(
                            at,
                            "`BANK` only allowed for `ROMX`, `WRAMX`, `SRAM`, or `VRAM` sections",
                        )),
                    };
                if !range.contains(&value) {
                    return Err(self.error_at(
                        at,
                        format!(
                            "{} bank value ${value:04X} out of range (${:04X} to ${:04X})",
                            kind.name(),
                            range.start(),
                            range.end()
                        ),
                    ));
                }
                Some(value as u32)
            }
        };
        let align = match align {
            Some((bits, offset, at)) => {
                if let Some((address, _)) = address {
                    if bits > 0 && address as u32 & ((1u32 << bits) - 1) != offset as u32 {
                        return Err(self.error_at(
                            at,
                            format!(
                                "Section \"{name}\"'s fixed address does not match its alignment"
                            ),
                        ));
                    }
                }
                (bits > 0).then_some((bits, offset))
            }
            None => None,
        };
        let location = self.location_at(section_token.start);
        self.sections.push(Section {
            name,
            kind,
            address: address.map(|(a, _)| a),
            bank,
            align,
            data: Vec::new(),
            size: 0,
            patches: Vec::new(),
            location,
        });
        self.overflow_reported.push(false);
        self.current = Some(self.sections.len() - 1);
        self.scope = None;
        Ok(())
    }

    /// `bits[, offset]` inside `ALIGN[...]` or after `ALIGN`.
    fn align_spec(&mut self) -> R<(u8, u16, usize)> {
        let at = self.peek()?.start;
        let bits = self.constant("The alignment")?;
        if !(0..=16).contains(&bits) {
            return Err(self.error_at(
                at,
                format!("Alignment must be between 0 and 16, not {bits}"),
            ));
        }
        let offset = if self.eat_op(Op::Comma)? {
            let offset_at = self.peek()?.start;
            let offset = self.constant("The alignment offset")?;
            if offset < 0 || offset >= 1 << bits {
                return Err(self.error_at(
                    offset_at,
                    format!(
                        "Alignment offset ({offset}) must be smaller than alignment size ({})",
                        1 << bits
                    ),
                ));
            }
            offset
        } else {
            0
        };
        Ok((bits as u8, offset as u16, at))
    }

    /// `ALIGN bits[, offset]` in the middle of a section.
    fn directive_align(&mut self) -> R<()> {
        let token = self.next()?;
        let (bits, offset, _) = self.align_spec()?;
        self.expect_end()?;
        let section = self
            .current
            .ok_or_else(|| self.error_at(token.start, "`ALIGN` outside of a `SECTION`"))?;
        let here = self.section_offset();
        self.require_alignment(section, here, bits, offset)
            .map_err(|m| self.error_at(token.start, m))
    }

    /// Makes the section place offset `here` at an address whose low `bits` are `offset`.
    fn require_alignment(
        &mut self,
        section: usize,
        here: u32,
        bits: u8,
        offset: u16,
    ) -> Result<(), String> {
        if bits == 0 {
            return Ok(());
        }
        let mask = (1u32 << bits) - 1;
        let target = &mut self.sections[section];
        let wanted_start = (offset as u32).wrapping_sub(here) & mask;
        if let Some(address) = target.address {
            let at = address as u32 + here;
            if at & mask != offset as u32 {
                return Err(format!(
                    "Section is misaligned (at PC = ${at:04X}, expected ALIGN[{bits}, {offset}], got ALIGN[{bits}, {}])",
                    at & mask
                ));
            }
            return Ok(());
        }
        match target.align {
            Some((have_bits, have_offset)) if have_bits >= bits => {
                if have_offset as u32 & mask != wanted_start {
                    return Err(format!(
                        "Section is misaligned (${here:04X} bytes into the section, expected ALIGN[{bits}, {offset}], got ALIGN[{bits}, {}])",
                        (have_offset as u32 + here) & mask
                    ));
                }
            }
            Some((have_bits, have_offset)) => {
                let have_mask = (1u32 << have_bits) - 1;
                if wanted_start & have_mask != have_offset as u32 {
                    return Err(format!(
                        "Section is misaligned (${here:04X} bytes into the section, expected ALIGN[{bits}, {offset}], got ALIGN[{have_bits}, {}])",
                        (have_offset as u32 + here) & have_mask
                    ));
                }
                target.align = Some((bits, wanted_start as u16));
            }
            None => target.align = Some((bits, wanted_start as u16)),
        }
        Ok(())
    }

    // Data and instructions

    /// Instructions and data directives, separated by `::`.
    fn items(&mut self) -> R<()> {
        loop {
            self.item()?;
            if !self.eat_op(Op::DoubleColon)? {
                break;
            }
        }
        self.expect_end()
    }

    fn item(&mut self) -> R<()> {
        self.pc_offset = self.section_offset();
        let token = self.next()?;
        let Some(keyword) = token.keyword() else {
            return Err(self.error_at(
                token.start,
                format!(
                    "expected an instruction after `::`, found {}",
                    self.describe(&token)
                ),
            ));
        };
        let lower = keyword.to_ascii_lowercase();
        match lower.as_str() {
            "db" => self.data(PatchKind::Byte, 1, &token),
            "dw" => self.data(PatchKind::Word, 2, &token),
            "dl" => self.data(PatchKind::Long, 4, &token),
            "ds" => self.directive_ds(&token),
            _ if keywords::MNEMONICS.contains(&lower.as_str()) => self.instruction(&lower, &token),
            _ => Err(self.error_at(
                token.start,
                format!(
                    "expected an instruction after `::`, found {}",
                    self.describe(&token)
                ),
            )),
        }
    }

    fn instruction(&mut self, mnemonic: &str, token: &Token) -> R<()> {
        let operands = self.operands(mnemonic)?;
        let location = operands
            .iter()
            .find(|(operand, _)| {
                matches!(
                    operand,
                    Operand::Immediate(_) | Operand::Mem(_) | Operand::SpOffset(_)
                )
            })
            .map_or(token.start, |(_, at)| *at);
        let location = self.location_at(location);
        let operands: Vec<Operand> = operands.into_iter().map(|(operand, _)| operand).collect();
        let encoded = encode(mnemonic, &operands).map_err(|m| self.error_at(token.start, m))?;
        let base = self.section_offset();
        self.emit_bytes(&encoded.bytes)
            .map_err(|m| self.error_at(token.start, m))?;
        for (offset, kind, value) in encoded.patches {
            self.write_value(kind, value, base + offset, location.clone());
        }
        Ok(())
    }

    fn data(&mut self, kind: PatchKind, width: u32, token: &Token) -> R<()> {
        if self.at_item_end()? {
            return self
                .reserve(width)
                .map_err(|m| self.error_at(token.start, m));
        }
        loop {
            self.pc_offset = self.section_offset();
            let start = self.peek()?.start;
            let location = self.location_at(start);
            match self.value()? {
                Value::Str(text) => {
                    for unit in self.charmap_units(&text, start) {
                        for value in unit {
                            self.emit_value(kind, Expr::Number(value), location.clone())
                                .map_err(|m| self.error_at(start, m))?;
                        }
                    }
                }
                Value::Num(value) => self
                    .emit_value(kind, value, location)
                    .map_err(|m| self.error_at(start, m))?,
            }
            if !self.eat_op(Op::Comma)? || self.at_item_end()? {
                break;
            }
        }
        Ok(())
    }

    fn directive_ds(&mut self, token: &Token) -> R<()> {
        let at = token.start;
        let count = if self.peek()?.is_keyword("ALIGN") {
            self.next()?;
            self.expect_op(Op::LBracket)?;
            let (bits, offset, _) = self.align_spec()?;
            self.expect_op(Op::RBracket)?;
            let section = self
                .current
                .ok_or_else(|| self.error_at(at, "Cannot output data outside of a `SECTION`"))?;
            let count = self
                .bytes_to_align(section, bits, offset)
                .map_err(|m| self.error_at(at, m))?;
            let here = self.section_offset() + count;
            self.require_alignment(section, here, bits, offset)
                .map_err(|m| self.error_at(at, m))?;
            count
        } else {
            let start = self.peek()?.start;
            let count = self.constant("The `DS` size")?;
            if count < 0 {
                return Err(self.error_at(
                    start,
                    format!("The `DS` size must not be negative, not {count}"),
                ));
            }
            count as u32
        };
        if !self.eat_op(Op::Comma)? {
            return self.reserve(count).map_err(|m| self.error_at(at, m));
        }
        let mut fill = Vec::new();
        loop {
            let start = self.peek()?.start;
            fill.push((self.expression()?, self.location_at(start)));
            if !self.eat_op(Op::Comma)? || self.at_item_end()? {
                break;
            }
        }
        self.code_section().map_err(|m| self.error_at(at, m))?;
        for i in 0..count as usize {
            let (value, location) = fill[i % fill.len()].clone();
            self.emit_value(PatchKind::Byte, value, location)
                .map_err(|m| self.error_at(at, m))?;
        }
        Ok(())
    }

    /// How many bytes `DS ALIGN[bits, offset]` skips.
    fn bytes_to_align(&self, section: usize, bits: u8, offset: u16) -> Result<u32, String> {
        let mask = (1u32 << bits) - 1;
        let target = &self.sections[section];
        let here = target.size;
        let start = match (target.address, target.align) {
            (Some(address), _) => address as u32,
            (None, Some((have_bits, have_offset))) if have_bits >= bits => have_offset as u32,
            (None, _) if bits == 0 => 0,
            (None, _) => {
                return Err(format!(
                    "`DS ALIGN[{bits}]` needs the section to be at a fixed address or aligned to at least {}",
                    plural(bits, "bit")
                ))
            }
        };
        Ok((offset as u32).wrapping_sub(start + here) & mask)
    }

    fn directive_incbin(&mut self) -> R<()> {
        let token = self.next()?;
        let name_at = self.peek()?.start;
        let name = self.string("`INCBIN`")?;
        let mut start = 0i64;
        let mut length = None;
        let mut start_at = name_at;
        if self.eat_op(Op::Comma)? {
            start_at = self.peek()?.start;
            start = self.constant("The `INCBIN` start")? as i64;
            if self.eat_op(Op::Comma)? {
                length = Some(self.constant("The `INCBIN` length")? as i64);
            }
        }
        self.expect_end()?;
        let (_, bytes) = self
            .read_found_file(&name, "`INCBIN` file")
            .map_err(|m| self.error_at(name_at, m))?;
        let size = bytes.len() as i64;
        if start < 0 || start > size {
            return Err(self.error_at(
                start_at,
                format!("Specified start position ({start}) is greater than length of \"{name}\" ({size})"),
            ));
        }
        let end = match length {
            Some(length) if length < 0 || start + length > size => {
                return Err(self.error_at(
                    start_at,
                    format!(
                        "Specified range in `INCBIN` file \"{name}\" is out of bounds ({start} + {length} > {size})"
                    ),
                ))
            }
            Some(length) => start + length,
            None => size,
        };
        self.emit_bytes(&bytes[start as usize..end as usize])
            .map_err(|m| self.error_at(token.start, m))
    }

    fn directive_include(&mut self, token: &Token) -> R<()> {
        self.next()?;
        self.skip_quiet_mark(token)?;
        let name_at = self.peek()?.start;
        let name = self.string("`INCLUDE`")?;
        self.expect_end()?;
        let (path, bytes) = self
            .read_found_file(&name, "included file")
            .map_err(|m| self.error_at(name_at, m))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            self.error_at(
                name_at,
                format!("Included file \"{}\" is not valid UTF-8", path.display()),
            )
        })?;
        if self.frames.len() >= 64 {
            // Fatal, as `push_frame`.
            self.fatal = true;
            return Err(self.error_at(token.start, "Recursion limit (64) exceeded"));
        }
        let call_site = self.location_at(token.start);
        let display = path.display().to_string();
        self.push_file(Rc::from(display.as_str()), &text, Some(call_site));
        Ok(())
    }

    fn directive_charmap(&mut self) -> R<()> {
        self.next()?;
        let key_at = self.peek()?.start;
        let key = self.string("`CHARMAP`")?;
        if key.is_empty() {
            return Err(self.error_at(key_at, "Cannot map an empty string"));
        }
        let mut values = Vec::new();
        while self.eat_op(Op::Comma)? {
            values.push(self.constant("A charmap value")?);
        }
        if values.is_empty() {
            return Err(self.error_at(
                key_at,
                "expected `,` and a value after the `CHARMAP` string",
            ));
        }
        self.expect_end()?;
        self.charmap.add(&key, values);
        Ok(())
    }

    // Assertions and messages

    fn directive_assert(&mut self, is_static: bool) -> R<()> {
        let token = self.next()?;
        let mut severity = Severity::Error;
        let first = self.peek()?;
        for (name, level) in [
            ("WARN", Severity::Warn),
            ("FAIL", Severity::Error),
            ("FATAL", Severity::Fatal),
        ] {
            if first.is_keyword(name) {
                self.next()?;
                self.expect_op(Op::Comma)?;
                severity = level;
            }
        }
        self.pc_offset = self.section_offset();
        let start = self.peek()?.start;
        let condition = self.expression()?;
        let message = if self.eat_op(Op::Comma)? {
            self.string("the assertion message")?
        } else {
            String::new()
        };
        self.expect_end()?;
        let location = self.location_at(token.start);
        match condition {
            Expr::Number(n) => {
                if n == 0 {
                    let context = self.context();
                    self.assertion_failed(severity, &message, location, context);
                }
                Ok(())
            }
            other if is_static => Err(self.error_at(
                start,
                format!(
                    "`STATIC_ASSERT` needs a condition known at assembly time, but {}",
                    self.why_unknown(&other)
                ),
            )),
            other => {
                self.assertions.push(Assertion {
                    expr: other,
                    severity,
                    message,
                    location,
                    context: self.context(),
                });
                Ok(())
            }
        }
    }

    fn directive_fail(&mut self, upper: &str, token: &Token) -> R<()> {
        self.next()?;
        let message = self.string(&format!("`{upper}`"))?;
        self.expect_end()?;
        let location = self.location_at(token.start);
        if upper == "WARN" {
            self.warn(location, format!("{message} [-Wuser]"));
        } else {
            self.report(Diagnostic::error(Some(location), message));
            self.fatal = true;
        }
        Ok(())
    }

    fn directive_print(&mut self, newline: bool) -> R<()> {
        self.next()?;
        let mut text = String::new();
        if !self.at_item_end()? {
            loop {
                let start = self.peek()?.start;
                match self.value()? {
                    Value::Str(s) => text.push_str(&s),
                    Value::Num(e) => {
                        let n = self.known(e, start, "A printed value")?;
                        text.push_str(&format!("${:X}", n as u32));
                    }
                }
                if !self.eat_op(Op::Comma)? || self.at_item_end()? {
                    break;
                }
            }
        }
        self.expect_end()?;
        if newline {
            println!("{text}");
        } else {
            print!("{text}");
        }
        Ok(())
    }
}
