//! Tokens, expressions and instruction operands of the line being assembled.

use super::diagnostic::Diagnostic;
use super::expr;
use super::format::{strfmt, FormatArg};
use super::frontend::{Assembler, SymbolEntry, SymbolValue, R};
use super::keywords;
use super::lexer::{Lexer, Op, Tok, Token};
use super::object::{BinaryOp, Expr, Location, SectionKind, UnaryOp};
use super::operand::{Condition, Operand, Reg16, Reg8};
use super::source::Line;

/// A value being computed: a number (maybe not known yet) or a string.
pub(super) enum Value {
    Num(Expr),
    Str(String),
}

/// How deep parentheses, function calls and unary operators may nest in one expression.
const MAX_NESTING: u32 = 64;

/// How many `EQUS` expansions one line may go through (catches `DEF X EQUS "X"`).
const MAX_EXPANSIONS: u32 = 10_000;

/// Binary operators by precedence level, lowest first.
const LEVELS: [&[(Op, BinaryOp)]; 7] = [
    &[(Op::OrOr, BinaryOp::LogicalOr)],
    &[(Op::AndAnd, BinaryOp::LogicalAnd)],
    &[
        (Op::Eq, BinaryOp::Eq),
        (Op::Ne, BinaryOp::Ne),
        (Op::Lt, BinaryOp::Lt),
        (Op::Gt, BinaryOp::Gt),
        (Op::Le, BinaryOp::Le),
        (Op::Ge, BinaryOp::Ge),
    ],
    &[(Op::Plus, BinaryOp::Add), (Op::Minus, BinaryOp::Sub)],
    &[
        (Op::Amp, BinaryOp::And),
        (Op::Pipe, BinaryOp::Or),
        (Op::Caret, BinaryOp::Xor),
    ],
    &[
        (Op::Shl, BinaryOp::Shl),
        (Op::Shr, BinaryOp::Shr),
        (Op::Ushr, BinaryOp::Ushr),
    ],
    &[
        (Op::Star, BinaryOp::Mul),
        (Op::Slash, BinaryOp::Div),
        (Op::Percent, BinaryOp::Mod),
    ],
];
const COMPARISON_LEVEL: usize = 2;
const ADDITION_LEVEL: usize = 3;

impl Assembler {
    // Tokens

    pub(super) fn start_line(&mut self, line: Line) {
        self.lex = Lexer::new(line);
        self.peeked = None;
        self.expand_equs = true;
        self.expansions = 0;
        self.last_token.clear();
        self.stop_before_plus_c = false;
        self.nesting = 0;
    }

    pub(super) fn error_at(&self, index: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(Some(self.lex.line.location(index)), message)
    }

    /// A token as the user wrote it, for messages.
    pub(super) fn describe(&self, token: &Token) -> String {
        if token.tok == Tok::Eol {
            return "the end of the line".to_string();
        }
        let text: String = self.lex.line.chars[token.start..token.end].iter().collect();
        format!("`{text}`")
    }

    pub(super) fn location_at(&self, index: usize) -> Location {
        self.lex.line.location(index)
    }

    fn lex_token(&mut self) -> R<Token> {
        loop {
            let token = self.lex.next_token();
            for warning in self.lex.take_warnings() {
                let location = self.location_at(warning.at);
                self.warn(location, warning.message);
            }
            let token = token.map_err(|e| self.error_at(e.at, e.message))?;
            if self.expand_equs {
                if let Tok::Ident { name, raw: false } = &token.tok {
                    if !name.contains('.') {
                        if let Some(SymbolEntry {
                            value: SymbolValue::Text(text),
                            ..
                        }) = self.symbols.get(name)
                        {
                            self.expansions += 1;
                            if self.expansions > MAX_EXPANSIONS {
                                return Err(self.error_at(
                                    token.start,
                                    format!("Recursion limit exceeded while expanding `{name}`"),
                                ));
                            }
                            if text.contains('\n') {
                                return Err(self.error_at(
                                    token.start,
                                    format!("`{name}` expands to several lines, which this assembler does not support"),
                                ));
                            }
                            let text = text.clone();
                            self.lex.splice(token.start, token.end, &text);
                            continue;
                        }
                    }
                }
            }
            return Ok(token);
        }
    }

    pub(super) fn peek(&mut self) -> R<Token> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex_token()?);
        }
        Ok(self.peeked.clone().expect("just peeked"))
    }

    pub(super) fn next(&mut self) -> R<Token> {
        let token = match self.peeked.take() {
            Some(token) => token,
            None => self.lex_token()?,
        };
        self.last_token = self.lex.line.chars[token.start..token.end].iter().collect();
        Ok(token)
    }

    /// Where the lexer stands, to look further ahead and come back.
    pub(super) fn checkpoint(&self) -> (usize, Option<Token>, String) {
        (
            self.lex.cursor,
            self.peeked.clone(),
            self.last_token.clone(),
        )
    }

    pub(super) fn restore(&mut self, checkpoint: (usize, Option<Token>, String)) {
        self.lex.cursor = checkpoint.0;
        self.peeked = checkpoint.1;
        self.last_token = checkpoint.2;
    }

    pub(super) fn eat_op(&mut self, op: Op) -> R<bool> {
        if self.peek()?.is_op(op) {
            self.next()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(super) fn expect_op(&mut self, op: Op) -> R<Token> {
        let token = self.peek()?;
        if token.is_op(op) {
            return self.next();
        }
        Err(self.error_at(
            token.start,
            format!(
                "expected `{}` after `{}`, found {}",
                op.text(),
                self.last_token,
                self.describe(&token)
            ),
        ))
    }

    /// The end of the line or a `::` separator.
    pub(super) fn at_item_end(&mut self) -> R<bool> {
        let token = self.peek()?;
        Ok(matches!(token.tok, Tok::Eol) || token.is_op(Op::DoubleColon))
    }

    pub(super) fn expect_end(&mut self) -> R<()> {
        let token = self.peek()?;
        if token.tok == Tok::Eol {
            return Ok(());
        }
        Err(self.error_at(
            token.start,
            format!(
                "expected the end of the line after `{}`, found {}",
                self.last_token,
                self.describe(&token)
            ),
        ))
    }

    /// A name to define (`DEF NAME`, `MACRO NAME`, `FOR NAME`): `EQUS` symbols are not
    /// expanded here.
    pub(super) fn definition_name(&mut self, after: &str) -> R<(String, Token)> {
        self.expand_equs = false;
        let token = self.next();
        self.expand_equs = true;
        let token = token?;
        match &token.tok {
            Tok::Ident { name, raw } if !name.contains('.') => {
                if !raw {
                    if let Some(reason) = keywords::reserved(name) {
                        return Err(self.error_at(
                            token.start,
                            format!("`{name}` {reason} and cannot be a symbol name"),
                        ));
                    }
                }
                if let Some(message) = keywords::builtin_symbol(name) {
                    return Err(self.error_at(token.start, message));
                }
                Ok((name.clone(), token))
            }
            Tok::Ident { name, .. } => Err(self.error_at(
                token.start,
                format!("expected a symbol name after {after}, found the label name `{name}`"),
            )),
            _ => Err(self.error_at(
                token.start,
                format!(
                    "expected a symbol name after {after}, found {}",
                    self.describe(&token)
                ),
            )),
        }
    }

    // Expressions

    /// A numeric expression.
    pub(super) fn expression(&mut self) -> R<Expr> {
        let start = self.peek()?.start;
        let value = self.value()?;
        self.numeric(value, start)
    }

    /// A numeric expression whose value must be known now.
    pub(super) fn constant(&mut self, what: &str) -> R<i32> {
        let start = self.peek()?.start;
        let value = self.expression()?;
        self.known(value, start, what)
    }

    pub(super) fn known(&self, value: Expr, at: usize, what: &str) -> R<i32> {
        match value {
            Expr::Number(n) => Ok(n),
            other => Err(self.error_at(
                at,
                format!(
                    "{what} must be known at assembly time, but {}",
                    self.why_unknown(&other)
                ),
            )),
        }
    }

    /// Why an expression is not a number yet, for messages.
    pub(super) fn why_unknown(&self, value: &Expr) -> String {
        match value {
            Expr::Number(_) => "it is".to_string(),
            Expr::Symbol(name) => {
                if let Some(anonymous) = name.strip_prefix('!') {
                    format!("anonymous label {anonymous} is not defined yet")
                } else {
                    format!("`{name}` is not defined yet")
                }
            }
            Expr::SectionAddress { section, .. } => format!(
                "it is an address in section \"{}\", which has no fixed address",
                self.sections[*section].name
            ),
            Expr::Bank(_) | Expr::BankOfSection(_) => {
                "the bank is only known at link time".to_string()
            }
            Expr::SizeOfSection(_) => "`SIZEOF` is only known at link time".to_string(),
            Expr::StartOfSection(_) => "`STARTOF` is only known at link time".to_string(),
            Expr::Unary(_, a) => self.why_unknown(a),
            Expr::Binary(_, a, b) => match **a {
                Expr::Number(_) => self.why_unknown(b),
                _ => self.why_unknown(a),
            },
        }
    }

    /// A string expression.
    pub(super) fn string(&mut self, what: &str) -> R<String> {
        let token = self.peek()?;
        match self.value()? {
            Value::Str(text) => Ok(text),
            Value::Num(_) => Err(self.error_at(
                token.start,
                format!(
                    "expected a string for {what}, found {}",
                    self.describe(&token)
                ),
            )),
        }
    }

    pub(super) fn value(&mut self) -> R<Value> {
        self.nested(|this| this.binary_level(0))
    }

    /// Runs a parser that may recurse, refusing absurd nesting (a clear error, not a stack
    /// overflow).
    fn nested(&mut self, parse: impl FnOnce(&mut Self) -> R<Value>) -> R<Value> {
        if self.nesting >= MAX_NESTING {
            let at = self.peek()?.start;
            return Err(self.error_at(
                at,
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        self.nesting += 1;
        let result = parse(self);
        self.nesting -= 1;
        result
    }

    /// Converts a value to a number: a string must be one charmap unit.
    pub(super) fn numeric(&mut self, value: Value, at: usize) -> R<Expr> {
        match value {
            Value::Num(e) => Ok(e),
            Value::Str(text) => {
                let number = self.string_as_number(&text, at, "Strings as numbers")?;
                let location = self.location_at(at);
                self.warn(
                    location,
                    "Treating strings as numbers is deprecated; use character literals or `CHARVAL` instead [-Wobsolete]",
                );
                Ok(number)
            }
        }
    }

    /// The charmap units of a string; like RGBDS, a warning for each character the charmap
    /// does not map, once the charmap maps anything.
    pub(super) fn charmap_units(&mut self, text: &str, at: usize) -> Vec<Vec<i32>> {
        let mut unmapped = Vec::new();
        let units = self.charmap.convert_with(text, &mut |c| unmapped.push(c));
        if !self.charmap.is_empty() {
            for c in unmapped {
                let shown = match c {
                    '\n' => "'\\n'".to_string(),
                    '\r' => "'\\r'".to_string(),
                    '\t' => "'\\t'".to_string(),
                    '\0' => "'\\0'".to_string(),
                    ' '..='~' => format!("'{c}'"),
                    other => {
                        let mut buffer = [0u8; 4];
                        format!("0x{:02X}", other.encode_utf8(&mut buffer).as_bytes()[0])
                    }
                };
                let location = self.location_at(at);
                self.warn(
                    location,
                    format!("Unmapped character {shown} [-Wunmapped-char]"),
                );
            }
        }
        units
    }

    fn string_as_number(&mut self, text: &str, at: usize, what: &str) -> R<Expr> {
        let units = self.charmap_units(text, at);
        match units.as_slice() {
            [unit] if unit.len() == 1 => Ok(Expr::Number(unit[0])),
            _ => Err(self.error_at(at, format!("{what} must be a single charmap unit"))),
        }
    }

    /// The precedence level of a binary operator (higher binds tighter).
    fn level_of(op: Op) -> Option<usize> {
        match op {
            Op::StrEq | Op::StrNe => Some(COMPARISON_LEVEL),
            Op::Concat => Some(ADDITION_LEVEL),
            _ => LEVELS
                .iter()
                .position(|level| level.iter().any(|(o, _)| *o == op)),
        }
    }

    /// Binary operators of precedence `min_level` and above (precedence climbing: all of
    /// them left-associative; `**` is handled in [`Self::power`]).
    fn binary_level(&mut self, min_level: usize) -> R<Value> {
        let start = self.peek()?.start;
        let mut left = self.unary()?;
        loop {
            let token = self.peek()?;
            let Tok::Op(op) = token.tok else {
                break;
            };
            let Some(level) = Self::level_of(op) else {
                break;
            };
            if level < min_level {
                break;
            }
            if op == Op::Plus && self.stop_before_plus_c {
                let checkpoint = self.checkpoint();
                self.next()?;
                let after = self.peek()?;
                self.restore(checkpoint);
                if after.is_keyword("c") {
                    break;
                }
            }
            self.next()?;
            let right_start = self.peek()?.start;
            let right = self.binary_level(level + 1)?;
            left = match op {
                Op::StrEq | Op::StrNe | Op::Concat => {
                    let (Value::Str(a), Value::Str(b)) = (&left, &right) else {
                        let message = if op == Op::Concat {
                            "`++` concatenates two strings".to_string()
                        } else {
                            format!("`{}` compares two strings", op.text())
                        };
                        return Err(self.error_at(right_start, message));
                    };
                    if op == Op::Concat {
                        Value::Str(format!("{a}{b}"))
                    } else {
                        Value::Num(Expr::Number(((a == b) == (op == Op::StrEq)) as i32))
                    }
                }
                _ => {
                    let binary = LEVELS[level]
                        .iter()
                        .find(|(o, _)| *o == op)
                        .map(|(_, b)| *b)
                        .expect("level_of found it");
                    let a = self.numeric(left, start)?;
                    let b = self.numeric(right, right_start)?;
                    Value::Num(
                        expr::binary(binary, a, b)
                            .map_err(|message| self.error_at(token.start, message))?,
                    )
                }
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> R<Value> {
        let token = self.peek()?;
        let op = match token.tok {
            Tok::Op(Op::Plus) => None,
            Tok::Op(Op::Minus) => Some(UnaryOp::Negate),
            Tok::Op(Op::Tilde) => Some(UnaryOp::Complement),
            Tok::Op(Op::Bang) => Some(UnaryOp::Not),
            _ => return self.power(),
        };
        self.next()?;
        let start = self.peek()?.start;
        let operand = self.nested(Self::unary)?;
        let value = self.numeric(operand, start)?;
        Ok(Value::Num(match op {
            Some(op) => expr::unary(op, value),
            None => value,
        }))
    }

    fn power(&mut self) -> R<Value> {
        let start = self.peek()?.start;
        let base = self.primary()?;
        let token = self.peek()?;
        if !token.is_op(Op::Pow) {
            return Ok(base);
        }
        self.next()?;
        let exponent_start = self.peek()?.start;
        let exponent = self.unary()?;
        let base = self.numeric(base, start)?;
        let exponent = self.numeric(exponent, exponent_start)?;
        expr::binary(BinaryOp::Pow, base, exponent)
            .map(Value::Num)
            .map_err(|message| self.error_at(token.start, message))
    }

    fn primary(&mut self) -> R<Value> {
        let token = self.peek()?;
        match &token.tok {
            Tok::Number(n) => {
                self.next()?;
                Ok(Value::Num(Expr::Number(*n)))
            }
            Tok::Str(text) => {
                self.next()?;
                Ok(Value::Str(text.clone()))
            }
            Tok::Char(text) => {
                self.next()?;
                self.string_as_number(text, token.start, "Character literals")
                    .map(Value::Num)
            }
            Tok::Op(Op::LParen) => {
                self.next()?;
                let start = self.peek()?.start;
                let inner = self.value()?;
                let inner = self.numeric(inner, start)?;
                self.expect_op(Op::RParen)?;
                Ok(Value::Num(inner))
            }
            Tok::Op(Op::At) => {
                self.next()?;
                self.pc_expr()
                    .map(Value::Num)
                    .map_err(|message| self.error_at(token.start, message))
            }
            Tok::AnonRef(n) => {
                self.next()?;
                self.anonymous_reference(*n)
                    .map(Value::Num)
                    .map_err(|message| self.error_at(token.start, message))
            }
            Tok::Ident { name, raw } => {
                let name = name.clone();
                if !raw {
                    let upper = name.to_ascii_uppercase();
                    if keywords::FUNCTIONS.contains(&upper.as_str()) {
                        self.next()?;
                        return self.function(&upper, &token);
                    }
                    if let Some(reason) = keywords::reserved(&name) {
                        return Err(self.error_at(
                            token.start,
                            format!(
                                "expected an expression after `{}`, found `{name}`, which {reason}",
                                self.last_token
                            ),
                        ));
                    }
                }
                self.next()?;
                if *raw {
                    if let Some(SymbolEntry {
                        value: SymbolValue::Text(text),
                        ..
                    }) = self.symbols.get(&name)
                    {
                        return Ok(Value::Str(text.to_string()));
                    }
                }
                self.symbol_expr(&name, token.start).map(Value::Num)
            }
            _ => Err(self.error_at(
                token.start,
                format!(
                    "expected an expression{}, found {}",
                    if self.last_token.is_empty() {
                        String::new()
                    } else {
                        format!(" after `{}`", self.last_token)
                    },
                    self.describe(&token)
                ),
            )),
        }
    }

    /// The value of a symbol used in an expression.
    pub(super) fn symbol_expr(&mut self, name: &str, at: usize) -> R<Expr> {
        match name {
            "_NARG" => {
                return self
                    .macro_arg_count()
                    .map(|n| Expr::Number(n as i32))
                    .ok_or_else(|| self.error_at(at, "`_NARG` has no value outside of a macro"))
            }
            "_RS" => return Ok(Expr::Number(self.rs)),
            _ => {}
        }
        let full = self.full_name(name).map_err(|m| self.error_at(at, m))?;
        if full.matches('.').count() > 1 {
            return Err(self.error_at(at, format!("`{full}` has more than one `.`")));
        }
        match self.symbols.get(&full) {
            Some(entry) => match &entry.value {
                SymbolValue::Constant(n) | SymbolValue::Variable(n) => Ok(Expr::Number(*n)),
                SymbolValue::Label { section, offset } => Ok(self.label_expr(*section, *offset)),
                other => Err(self.error_at(
                    at,
                    format!("`{full}` is {}, not a number", other.kind_name()),
                )),
            },
            None => {
                self.referenced.insert(full.clone());
                Ok(Expr::Symbol(full))
            }
        }
    }

    fn anonymous_reference(&mut self, n: i32) -> Result<Expr, String> {
        let defined = self.anonymous_labels as i64;
        let id = if n < 0 {
            let id = defined + n as i64;
            if id < 0 {
                return Err(format!(
                    "Reference to anonymous label {} before, when only {defined} ha{} been created so far",
                    -n,
                    if defined == 1 { "s" } else { "ve" }
                ));
            }
            id
        } else {
            defined + n as i64 - 1
        };
        let name = format!("!{id}");
        match self.symbols.get(&name) {
            Some(SymbolEntry {
                value: SymbolValue::Label { section, offset },
                ..
            }) => Ok(self.label_expr(*section, *offset)),
            _ => Ok(Expr::Symbol(name)),
        }
    }

    // Functions

    fn function(&mut self, name: &str, token: &Token) -> R<Value> {
        if keywords::UNSUPPORTED_FUNCTIONS.contains(&name) {
            return Err(self.error_at(
                token.start,
                format!("`{name}()` is not supported by this assembler"),
            ));
        }
        self.expect_op(Op::LParen)?;
        let value = match name {
            "HIGH" | "LOW" => {
                let op = if name == "HIGH" {
                    UnaryOp::High
                } else {
                    UnaryOp::Low
                };
                Value::Num(expr::unary(op, self.expression()?))
            }
            "DEF" => {
                self.expand_equs = false;
                let argument = self.next();
                self.expand_equs = true;
                let argument = argument?;
                let defined = match &argument.tok {
                    Tok::Ident { name, .. } => match name.as_str() {
                        "_RS" => true,
                        "_NARG" => self.macro_arg_count().is_some(),
                        _ => {
                            let full = self
                                .full_name(name)
                                .map_err(|m| self.error_at(argument.start, m))?;
                            self.symbols.contains_key(&full)
                        }
                    },
                    Tok::Op(Op::At) => self.current.is_some(),
                    _ => {
                        return Err(self.error_at(
                            argument.start,
                            format!(
                                "expected a symbol name in `DEF()`, found {}",
                                self.describe(&argument)
                            ),
                        ))
                    }
                };
                Value::Num(Expr::Number(defined as i32))
            }
            "ISCONST" => {
                let value = self.expression()?;
                Value::Num(Expr::Number(matches!(value, Expr::Number(_)) as i32))
            }
            "BANK" => Value::Num(self.bank_argument()?),
            "SIZEOF" | "STARTOF" => Value::Num(self.section_function(name)?),
            "BITWIDTH" => {
                let n = self.constant("the argument of `BITWIDTH`")?;
                Value::Num(Expr::Number(32 - (n as u32).leading_zeros() as i32))
            }
            "TZCOUNT" => {
                let n = self.constant("the argument of `TZCOUNT`")?;
                Value::Num(Expr::Number((n as u32).trailing_zeros() as i32))
            }
            "STRLEN" => {
                let text = self.string("`STRLEN`")?;
                Value::Num(Expr::Number(text.chars().count() as i32))
            }
            "BYTELEN" => {
                let text = self.string("`BYTELEN`")?;
                Value::Num(Expr::Number(text.len() as i32))
            }
            "CHARLEN" => {
                // As rgbasm, each character the charmap does not map is a warning here too.
                let at = self.peek()?.start;
                let text = self.string("`CHARLEN`")?;
                Value::Num(Expr::Number(self.charmap_units(&text, at).len() as i32))
            }
            "INCHARMAP" => {
                let text = self.string("`INCHARMAP`")?;
                Value::Num(Expr::Number(self.charmap.contains(&text) as i32))
            }
            "STRCAT" => {
                let mut text = String::new();
                if !self.peek()?.is_op(Op::RParen) {
                    loop {
                        text.push_str(&self.string("`STRCAT`")?);
                        if !self.eat_op(Op::Comma)? {
                            break;
                        }
                    }
                }
                Value::Str(text)
            }
            "STRUPR" => Value::Str(self.string("`STRUPR`")?.to_ascii_uppercase()),
            "STRLWR" => Value::Str(self.string("`STRLWR`")?.to_ascii_lowercase()),
            "STRCMP" => {
                let a = self.string("`STRCMP`")?;
                self.expect_op(Op::Comma)?;
                let b = self.string("`STRCMP`")?;
                Value::Num(Expr::Number(a.cmp(&b) as i32))
            }
            "STRFIND" | "STRRFIND" | "STRIN" | "STRRIN" => {
                // STRIN and STRRIN: deprecated, 1-indexed, 0 when not found.
                let one_indexed = matches!(name, "STRIN" | "STRRIN");
                if one_indexed {
                    let location = self.location_at(token.start);
                    let instead = if name == "STRIN" {
                        "STRFIND"
                    } else {
                        "STRRFIND"
                    };
                    self.warn(
                        location,
                        format!("`{name}` is deprecated; use 0-indexed `{instead}` instead [-Wobsolete]"),
                    );
                }
                let what = format!("`{name}`");
                let haystack = self.string(&what)?;
                self.expect_op(Op::Comma)?;
                let needle = self.string(&what)?;
                let found = if matches!(name, "STRFIND" | "STRIN") {
                    haystack.find(&needle)
                } else {
                    haystack.rfind(&needle)
                };
                let index = found.map_or(-1, |byte| haystack[..byte].chars().count() as i32);
                Value::Num(Expr::Number(index + i32::from(one_indexed)))
            }
            "STRRPL" => {
                let text = self.string("`STRRPL`")?;
                self.expect_op(Op::Comma)?;
                let old = self.string("`STRRPL`")?;
                self.expect_op(Op::Comma)?;
                let new = self.string("`STRRPL`")?;
                Value::Str(if old.is_empty() {
                    text
                } else {
                    text.replace(&old, &new)
                })
            }
            "STRSUB" | "STRSLICE" => {
                if name == "STRSUB" {
                    let location = self.location_at(token.start);
                    self.warn(
                        location,
                        "`STRSUB` is deprecated; use 0-indexed `STRSLICE` instead [-Wobsolete]",
                    );
                }
                Value::Str(self.substring(name)?)
            }
            "STRFMT" => {
                let format = self.string("`STRFMT`")?;
                let mut args = Vec::new();
                while self.eat_op(Op::Comma)? {
                    let start = self.peek()?.start;
                    args.push(match self.value()? {
                        Value::Str(text) => FormatArg::Text(text),
                        Value::Num(e) => {
                            FormatArg::Number(self.known(e, start, "A `STRFMT` argument")?)
                        }
                    });
                }
                Value::Str(strfmt(&format, &args).map_err(|m| self.error_at(token.start, m))?)
            }
            _ => {
                return Err(self.error_at(
                    token.start,
                    format!("`{name}()` is not supported by this assembler"),
                ))
            }
        };
        self.expect_op(Op::RParen)?;
        Ok(value)
    }

    /// `STRSUB(str, pos[, len])` (1-based) and `STRSLICE(str, start[, stop])` (0-based).
    fn substring(&mut self, name: &str) -> R<String> {
        let text = self.string(name)?;
        let chars: Vec<char> = text.chars().collect();
        let length = chars.len() as i64;
        self.expect_op(Op::Comma)?;
        let first = self.constant("a position")? as i64;
        let second = if self.eat_op(Op::Comma)? {
            Some(self.constant("a length")? as i64)
        } else {
            None
        };
        let (start, stop) = if name == "STRSUB" {
            let start = if first < 0 { length + first } else { first - 1 }.clamp(0, length);
            let stop = second.map_or(length, |len| (start + len.max(0)).min(length));
            (start, stop)
        } else {
            let resolve = |n: i64| if n < 0 { length + n } else { n }.clamp(0, length);
            (resolve(first), second.map_or(length, resolve))
        };
        Ok(if start < stop {
            chars[start as usize..stop as usize].iter().collect()
        } else {
            String::new()
        })
    }

    /// The argument of `BANK(...)`: `@`, a section name, or a label.
    fn bank_argument(&mut self) -> R<Expr> {
        let token = self.peek()?;
        match &token.tok {
            Tok::Op(Op::At) => {
                self.next()?;
                let section = self
                    .current
                    .ok_or_else(|| self.error_at(token.start, "`BANK(@)` outside of a section"))?;
                Ok(self.bank_of_section(section))
            }
            Tok::Str(name) => {
                self.next()?;
                match self.sections.iter().position(|s| &s.name == name) {
                    Some(section) => Ok(self.bank_of_section(section)),
                    None => Ok(Expr::BankOfSection(name.clone())),
                }
            }
            Tok::Ident { name, .. } => {
                let name = name.clone();
                self.next()?;
                let full = self
                    .full_name(&name)
                    .map_err(|m| self.error_at(token.start, m))?;
                match self.symbols.get(&full).map(|e| &e.value) {
                    Some(SymbolValue::Label { section, .. }) => Ok(self.bank_of_section(*section)),
                    Some(other) => Err(self.error_at(
                        token.start,
                        format!(
                            "`BANK()` takes a label, but `{full}` is {}",
                            other.kind_name()
                        ),
                    )),
                    None => {
                        self.referenced.insert(full.clone());
                        Ok(Expr::Bank(Box::new(Expr::Symbol(full))))
                    }
                }
            }
            Tok::AnonRef(n) => {
                self.next()?;
                match self
                    .anonymous_reference(*n)
                    .map_err(|m| self.error_at(token.start, m))?
                {
                    Expr::Symbol(name) => Ok(Expr::Bank(Box::new(Expr::Symbol(name)))),
                    _ => {
                        let section = self.current.unwrap_or(0);
                        Ok(self.bank_of_section(section))
                    }
                }
            }
            _ => Err(self.error_at(
                token.start,
                format!(
                    "expected `@`, a section name or a label in `BANK()`, found {}",
                    self.describe(&token)
                ),
            )),
        }
    }

    /// The bank of a section of this file: known for single-bank regions and `BANK[n]`.
    fn bank_of_section(&self, section: usize) -> Expr {
        let target = &self.sections[section];
        match (target.bank, target.kind) {
            (Some(bank), _) => Expr::Number(bank as i32),
            (
                None,
                SectionKind::Rom0 | SectionKind::Wram0 | SectionKind::Oam | SectionKind::Hram,
            ) => Expr::Number(0),
            (None, _) => Expr::BankOfSection(target.name.clone()),
        }
    }

    /// `SIZEOF(...)` / `STARTOF(...)`: a section name, a region type, or (SIZEOF) a register.
    fn section_function(&mut self, name: &str) -> R<Expr> {
        let token = self.peek()?;
        if let Some(keyword) = token.keyword() {
            let lower = keyword.to_ascii_lowercase();
            if let Some(kind) = keywords::section_kind(keyword) {
                self.next()?;
                let (start, end) = kind.range();
                return Ok(Expr::Number(if name == "SIZEOF" {
                    (end - start as u32) as i32
                } else {
                    start as i32
                }));
            }
            if name == "SIZEOF" {
                let size = match lower.as_str() {
                    "a" | "b" | "c" | "d" | "e" | "h" | "l" => Some(1),
                    "af" | "bc" | "de" | "hl" | "sp" => Some(2),
                    _ => None,
                };
                if let Some(size) = size {
                    self.next()?;
                    return Ok(Expr::Number(size));
                }
            }
        }
        let section = self.string(&format!("`{name}()` (a section name)"))?;
        Ok(if name == "SIZEOF" {
            Expr::SizeOfSection(section)
        } else {
            Expr::StartOfSection(section)
        })
    }

    // Operands

    /// The operands of an instruction, with the index where each starts.
    pub(super) fn operands(&mut self, mnemonic: &str) -> R<Vec<(Operand, usize)>> {
        let mut operands = Vec::new();
        if self.at_item_end()? {
            return Ok(operands);
        }
        loop {
            let after = if operands.is_empty() {
                format!("`{mnemonic}`")
            } else {
                "`,`".to_string()
            };
            operands.push(self.operand(&after)?);
            if !self.eat_op(Op::Comma)? {
                break;
            }
        }
        Ok(operands)
    }

    fn operand(&mut self, after: &str) -> R<(Operand, usize)> {
        let token = self.peek()?;
        let start = token.start;
        let missing = matches!(token.tok, Tok::Eol)
            || [Op::Comma, Op::DoubleColon, Op::RBracket, Op::RParen]
                .iter()
                .any(|&op| token.is_op(op));
        if missing {
            return Err(self.error_at(
                start,
                format!(
                    "expected a register or an expression after {after}, found {}",
                    self.describe(&token)
                ),
            ));
        }
        if let Some(keyword) = token.keyword() {
            let lower = keyword.to_ascii_lowercase();
            if let Some(register) = keywords::reg8(&lower) {
                self.next()?;
                return Ok((Operand::Reg8(register), start));
            }
            if let Some(register) = keywords::reg16(&lower) {
                self.next()?;
                if register == Reg16::Sp {
                    let sign = self.peek()?;
                    if sign.is_op(Op::Plus) || sign.is_op(Op::Minus) {
                        self.next()?;
                        let offset = self.expression()?;
                        let offset = if sign.is_op(Op::Minus) {
                            expr::unary(UnaryOp::Negate, offset)
                        } else {
                            offset
                        };
                        return Ok((Operand::SpOffset(offset), start));
                    }
                }
                return Ok((Operand::Reg16(register), start));
            }
            if let Some(condition) = keywords::condition(&lower) {
                self.next()?;
                return Ok((Operand::Condition(condition), start));
            }
            if lower == "hli" || lower == "hld" {
                return Err(
                    self.error_at(start, format!("`{keyword}` is only valid as `[{keyword}]`"))
                );
            }
            if lower == "high" || lower == "low" {
                if let Some(register) = self.half_register(lower == "high")? {
                    return Ok((Operand::Reg8(register), start));
                }
            }
        }
        if token.is_op(Op::Bang) {
            if let Some(condition) = self.negated_condition()? {
                return Ok((Operand::Condition(condition), start));
            }
        }
        if token.is_op(Op::LBracket) {
            return self.memory_operand().map(|operand| (operand, start));
        }
        Ok((Operand::Immediate(self.expression()?), start))
    }

    /// `HIGH(bc)` is `b`, `LOW(hl)` is `l`...; `None` (nothing read) if not that form.
    fn half_register(&mut self, high: bool) -> R<Option<Reg8>> {
        let checkpoint = self.checkpoint();
        self.next()?;
        if self.eat_op(Op::LParen)? {
            let inner = self.peek()?;
            let pair = inner
                .keyword()
                .and_then(|k| keywords::reg16(&k.to_ascii_lowercase()));
            if let Some(pair) = pair {
                self.next()?;
                if self.eat_op(Op::RParen)? {
                    let register = match (pair, high) {
                        (Reg16::Af, true) => Some(Reg8::A),
                        (Reg16::Bc, true) => Some(Reg8::B),
                        (Reg16::Bc, false) => Some(Reg8::C),
                        (Reg16::De, true) => Some(Reg8::D),
                        (Reg16::De, false) => Some(Reg8::E),
                        (Reg16::Hl, true) => Some(Reg8::H),
                        (Reg16::Hl, false) => Some(Reg8::L),
                        _ => None,
                    };
                    return match register {
                        Some(register) => Ok(Some(register)),
                        None => Err(self.error_at(
                            inner.start,
                            format!(
                                "`{}({})` is not a register",
                                if high { "HIGH" } else { "LOW" },
                                inner.keyword().unwrap_or_default()
                            ),
                        )),
                    };
                }
            }
        }
        self.restore(checkpoint);
        Ok(None)
    }

    /// `!cc`, the opposite condition; `None` (nothing read) if `!` starts an expression.
    fn negated_condition(&mut self) -> R<Option<Condition>> {
        let checkpoint = self.checkpoint();
        let mut negations = 0;
        while self.peek()?.is_op(Op::Bang) {
            self.next()?;
            negations += 1;
        }
        let token = self.peek()?;
        let condition = token.keyword().and_then(|k| {
            let lower = k.to_ascii_lowercase();
            if lower == "c" {
                Some(Condition::C)
            } else {
                keywords::condition(&lower)
            }
        });
        match condition {
            Some(condition) => {
                self.next()?;
                let flip = |c| match c {
                    Condition::Nz => Condition::Z,
                    Condition::Z => Condition::Nz,
                    Condition::Nc => Condition::C,
                    Condition::C => Condition::Nc,
                };
                let mut result = condition;
                for _ in 0..negations {
                    result = flip(result);
                }
                Ok(Some(result))
            }
            None => {
                self.restore(checkpoint);
                Ok(None)
            }
        }
    }

    fn memory_operand(&mut self) -> R<Operand> {
        self.next()?;
        let token = self.peek()?;
        if let Some(keyword) = token.keyword() {
            let lower = keyword.to_ascii_lowercase();
            let simple = match lower.as_str() {
                "hli" => Some(Operand::MemHlIncrement),
                "hld" => Some(Operand::MemHlDecrement),
                "bc" => Some(Operand::MemBc),
                "de" => Some(Operand::MemDe),
                "c" => Some(Operand::MemC { high_page: false }),
                _ => None,
            };
            if let Some(operand) = simple {
                self.next()?;
                self.expect_op(Op::RBracket)?;
                return Ok(operand);
            }
            if lower == "hl" {
                self.next()?;
                let operand = if self.eat_op(Op::Plus)? {
                    Operand::MemHlIncrement
                } else if self.eat_op(Op::Minus)? {
                    Operand::MemHlDecrement
                } else {
                    Operand::MemHl
                };
                self.expect_op(Op::RBracket)?;
                return Ok(operand);
            }
            if keywords::reg8(&lower).is_some() || keywords::reg16(&lower).is_some() {
                return Err(self.error_at(
                    token.start,
                    format!("`[{keyword}]` is not a memory operand: only `[bc]`, `[de]`, `[hl]`, `[hl+]`, `[hl-]`, `[c]` and `[n16]` are"),
                ));
            }
        }
        let start = token.start;
        self.stop_before_plus_c = true;
        let address = self.expression();
        self.stop_before_plus_c = false;
        let address = address?;
        if self.eat_op(Op::Plus)? {
            let register = self.next()?;
            if !register.is_keyword("c") {
                return Err(self.error_at(register.start, "expected `c` in `[$FF00+c]`"));
            }
            self.expect_op(Op::RBracket)?;
            if address != Expr::Number(0xFF00) {
                return Err(self.error_at(start, "Base value must be equal to $FF00 for [$FF00+C]"));
            }
            return Ok(Operand::MemC { high_page: true });
        }
        self.expect_op(Op::RBracket)?;
        Ok(Operand::Mem(address))
    }
}
