//! Tokens of one logical line, RGBDS 1.0 style.
//!
//! The lexer knows no keywords: identifiers come out as they are and the parser compares
//! them case-insensitively. `EQUS` expansion is the parser's job ([`Lexer::splice`] puts
//! the expansion in place of the identifier).

use super::source::{is_identifier_char, Line, Pos};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Colon,
    DoubleColon,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Pow,
    Shl,
    Shr,
    Ushr,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Bang,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    AndAnd,
    OrOr,
    Assign,
    /// `+=`, `-=`... : the binary operator.
    CompoundAssign(CompoundOp),
    /// `@`, the current address.
    At,
    Question,
    /// `++`, string concatenation.
    Concat,
    /// `===`
    StrEq,
    /// `!==`
    StrNe,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompoundOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

impl Op {
    pub fn text(self) -> &'static str {
        match self {
            Op::LParen => "(",
            Op::RParen => ")",
            Op::LBracket => "[",
            Op::RBracket => "]",
            Op::Comma => ",",
            Op::Colon => ":",
            Op::DoubleColon => "::",
            Op::Plus => "+",
            Op::Minus => "-",
            Op::Star => "*",
            Op::Slash => "/",
            Op::Percent => "%",
            Op::Pow => "**",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::Ushr => ">>>",
            Op::Amp => "&",
            Op::Pipe => "|",
            Op::Caret => "^",
            Op::Tilde => "~",
            Op::Bang => "!",
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Ge => ">=",
            Op::AndAnd => "&&",
            Op::OrOr => "||",
            Op::Assign => "=",
            Op::CompoundAssign(op) => match op {
                CompoundOp::Add => "+=",
                CompoundOp::Sub => "-=",
                CompoundOp::Mul => "*=",
                CompoundOp::Div => "/=",
                CompoundOp::Mod => "%=",
                CompoundOp::Shl => "<<=",
                CompoundOp::Shr => ">>=",
                CompoundOp::And => "&=",
                CompoundOp::Or => "|=",
                CompoundOp::Xor => "^=",
            },
            Op::At => "@",
            Op::Question => "?",
            Op::Concat => "++",
            Op::StrEq => "===",
            Op::StrNe => "!==",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: a symbol, keyword, mnemonic, register, or local label (`.x`, `A.x`).
    /// `raw` for `#name`, which is never a keyword nor expanded.
    Ident {
        name: String,
        raw: bool,
    },
    Number(i32),
    /// A string literal, escapes processed.
    Str(String),
    /// A character literal `'x'`, escapes processed.
    Char(String),
    /// `:+` (1), `:++` (2), `:-` (-1)...
    AnonRef(i32),
    Op(Op),
    Eol,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    /// Index of the first character in the line.
    pub start: usize,
    /// Index just past the last character.
    pub end: usize,
}

impl Token {
    /// The identifier, if this is one that is not raw.
    pub fn keyword(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident { name, raw: false } => Some(name),
            _ => None,
        }
    }

    pub fn is_op(&self, op: Op) -> bool {
        self.tok == Tok::Op(op)
    }

    pub fn is_keyword(&self, keyword: &str) -> bool {
        self.keyword()
            .is_some_and(|k| k.eq_ignore_ascii_case(keyword))
    }
}

/// A lexing error: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub at: usize,
    pub message: String,
}

type LexResult<T> = Result<T, LexError>;

pub struct Lexer {
    pub line: Line,
    pub cursor: usize,
    /// Warnings not yet taken by the parser (see [`Lexer::take_warnings`]).
    warnings: Vec<LexError>,
    /// Where a warning was already given, so that lexing again after a look-ahead does
    /// not repeat it.
    warned_at: Vec<usize>,
}

impl Lexer {
    pub fn new(line: Line) -> Self {
        Lexer {
            line,
            cursor: 0,
            warnings: Vec::new(),
            warned_at: Vec::new(),
        }
    }

    /// The warnings of the tokens lexed since the last call.
    pub fn take_warnings(&mut self) -> Vec<LexError> {
        std::mem::take(&mut self.warnings)
    }

    fn peek_char(&self, offset: usize) -> Option<char> {
        self.line.chars.get(self.cursor + offset).copied()
    }

    /// Replaces the characters `start..end` with `text` (an `EQUS` expansion), every new
    /// character at the position of `start`, and continues lexing at `start`.
    pub fn splice(&mut self, start: usize, end: usize, text: &str) {
        let at: Pos = self.line.pos_at(start);
        let new: Vec<char> = text.chars().collect();
        let count = new.len();
        self.line.chars.splice(start..end, new);
        self.line
            .pos
            .splice(start..end, std::iter::repeat_n(at, count));
        self.cursor = start;
    }

    /// The text from `from` to the end of the line.
    pub fn rest_from(&self, from: usize) -> &[char] {
        &self.line.chars[from.min(self.line.chars.len())..]
    }

    /// Moves the cursor to the end of the line.
    pub fn skip_to_end(&mut self) {
        self.cursor = self.line.chars.len();
    }

    pub fn next_token(&mut self) -> LexResult<Token> {
        while self.peek_char(0).is_some_and(|c| c.is_whitespace()) {
            self.cursor += 1;
        }
        let start = self.cursor;
        let Some(c) = self.peek_char(0) else {
            return Ok(Token {
                tok: Tok::Eol,
                start,
                end: start,
            });
        };
        let tok = self.lex_one(c, start)?;
        Ok(Token {
            tok,
            start,
            end: self.cursor,
        })
    }

    fn op(&mut self, width: usize, op: Op) -> LexResult<Tok> {
        self.cursor += width;
        Ok(Tok::Op(op))
    }

    fn lex_one(&mut self, c: char, start: usize) -> LexResult<Tok> {
        let next = self.peek_char(1);
        let third = self.peek_char(2);
        match c {
            '(' => self.op(1, Op::LParen),
            ')' => self.op(1, Op::RParen),
            '[' => self.op(1, Op::LBracket),
            ']' => self.op(1, Op::RBracket),
            ',' => self.op(1, Op::Comma),
            '~' => self.op(1, Op::Tilde),
            '?' => self.op(1, Op::Question),
            '@' => self.op(1, Op::At),
            '+' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Add)),
                Some('+') => self.op(2, Op::Concat),
                _ => self.op(1, Op::Plus),
            },
            '-' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Sub)),
                _ => self.op(1, Op::Minus),
            },
            '*' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Mul)),
                Some('*') => self.op(2, Op::Pow),
                _ => self.op(1, Op::Star),
            },
            '/' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Div)),
                _ => self.op(1, Op::Slash),
            },
            '|' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Or)),
                Some('|') => self.op(2, Op::OrOr),
                _ => self.op(1, Op::Pipe),
            },
            '^' => match next {
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Xor)),
                _ => self.op(1, Op::Caret),
            },
            '=' => match (next, third) {
                (Some('='), Some('=')) => self.op(3, Op::StrEq),
                (Some('='), _) => self.op(2, Op::Eq),
                _ => self.op(1, Op::Assign),
            },
            '!' => match (next, third) {
                (Some('='), Some('=')) => self.op(3, Op::StrNe),
                (Some('='), _) => self.op(2, Op::Ne),
                _ => self.op(1, Op::Bang),
            },
            '<' => match (next, third) {
                (Some('<'), Some('=')) => self.op(3, Op::CompoundAssign(CompoundOp::Shl)),
                (Some('<'), _) => self.op(2, Op::Shl),
                (Some('='), _) => self.op(2, Op::Le),
                _ => self.op(1, Op::Lt),
            },
            '>' => match (next, third) {
                (Some('>'), Some('=')) => self.op(3, Op::CompoundAssign(CompoundOp::Shr)),
                (Some('>'), Some('>')) => self.op(3, Op::Ushr),
                (Some('>'), _) => self.op(2, Op::Shr),
                (Some('='), _) => self.op(2, Op::Ge),
                _ => self.op(1, Op::Gt),
            },
            ':' => match next {
                Some(sign @ ('+' | '-')) => {
                    self.cursor += 1;
                    let mut count = 0;
                    while self.peek_char(0) == Some(sign) {
                        count += 1;
                        self.cursor += 1;
                    }
                    Ok(Tok::AnonRef(if sign == '+' { count } else { -count }))
                }
                Some(':') => self.op(2, Op::DoubleColon),
                _ => self.op(1, Op::Colon),
            },
            '&' => match next {
                Some(d) if d.is_digit(8) || d == '_' => {
                    self.cursor += 1;
                    self.number(8, "`&`").map(Tok::Number)
                }
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::And)),
                Some('&') => self.op(2, Op::AndAnd),
                _ => self.op(1, Op::Amp),
            },
            '%' => match next {
                Some('0' | '1' | '_') => {
                    self.cursor += 1;
                    self.number(2, "`%`").map(Tok::Number)
                }
                Some('=') => self.op(2, Op::CompoundAssign(CompoundOp::Mod)),
                _ => self.op(1, Op::Percent),
            },
            '$' => {
                self.cursor += 1;
                self.number(16, "`$`").map(Tok::Number)
            }
            '0' if matches!(next, Some('x' | 'X' | 'o' | 'O' | 'b' | 'B')) => {
                self.cursor += 2;
                let (radix, prefix) = match next {
                    Some('x' | 'X') => (16, "`0x`"),
                    Some('o' | 'O') => (8, "`0o`"),
                    _ => (2, "`0b`"),
                };
                self.number(radix, prefix).map(Tok::Number)
            }
            '0'..='9' => {
                let value = self.number(10, "")?;
                if self.peek_char(0) == Some('.')
                    && self.peek_char(1).is_some_and(|c| c.is_ascii_digit())
                {
                    return Err(LexError {
                        at: start,
                        message: "fixed-point numbers are not supported by this assembler"
                            .to_string(),
                    });
                }
                Ok(Tok::Number(value))
            }
            '`' => {
                self.cursor += 1;
                self.graphics(start).map(Tok::Number)
            }
            '"' => {
                self.cursor += 1;
                self.string(start, '"', false).map(Tok::Str)
            }
            '\'' => {
                self.cursor += 1;
                self.string(start, '\'', false).map(Tok::Char)
            }
            '#' if next == Some('"') => {
                self.cursor += 2;
                self.string(start, '"', true).map(Tok::Str)
            }
            '#' if next.is_some_and(|c| c.is_ascii_alphabetic() || c == '_') => {
                self.cursor += 1;
                let name = self.identifier();
                Ok(Tok::Ident { name, raw: true })
            }
            c if c.is_ascii_alphabetic() || c == '_' || c == '.' => {
                let name = self.identifier();
                Ok(Tok::Ident { name, raw: false })
            }
            '\\' => Err(LexError {
                at: start,
                message: match next {
                    Some(d @ '1'..='9') => {
                        format!("macro argument `\\{d}` used outside of a macro")
                    }
                    Some('@') => "`\\@` used outside of a macro or `REPT`/`FOR` block".to_string(),
                    _ => "unexpected `\\` (a line continuation must end the line)".to_string(),
                },
            }),
            other => Err(LexError {
                at: start,
                message: format!("unexpected character `{}`", other.escape_debug()),
            }),
        }
    }

    fn identifier(&mut self) -> String {
        let start = self.cursor;
        self.cursor += 1;
        while self.peek_char(0).is_some_and(is_identifier_char) {
            self.cursor += 1;
        }
        self.line.chars[start..self.cursor].iter().collect()
    }

    fn number(&mut self, radix: u32, prefix: &str) -> LexResult<i32> {
        let start = self.cursor;
        let mut value: u64 = 0;
        let mut digits = 0;
        let mut too_large = false;
        while let Some(c) = self.peek_char(0) {
            if c == '_' && digits > 0 {
                self.cursor += 1;
                continue;
            }
            let Some(digit) = c.to_digit(radix) else {
                break;
            };
            value = value * radix as u64 + digit as u64;
            if value > u32::MAX as u64 {
                too_large = true;
                value &= u32::MAX as u64;
            }
            digits += 1;
            self.cursor += 1;
        }
        if digits == 0 {
            return Err(LexError {
                at: start.saturating_sub(1),
                message: format!("invalid number: no digits after {prefix}"),
            });
        }
        if self
            .peek_char(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() && radix != 16 || c.is_ascii_digit())
        {
            let c = self.peek_char(0).unwrap_or(' ');
            return Err(LexError {
                at: self.cursor,
                message: format!("invalid digit `{c}` in a base-{radix} number"),
            });
        }
        if too_large {
            // As rgbasm: a warning, and the constant is 0.
            if !self.warned_at.contains(&start) {
                self.warned_at.push(start);
                self.warnings.push(LexError {
                    at: start,
                    message: "Integer constant is too large [-Wlarge-constant]".to_string(),
                });
            }
            return Ok(0);
        }
        Ok(value as u32 as i32)
    }

    fn graphics(&mut self, start: usize) -> LexResult<i32> {
        let mut low: u32 = 0;
        let mut high: u32 = 0;
        let mut width = 0;
        while let Some(c) = self.peek_char(0) {
            if c == '_' && width > 0 {
                self.cursor += 1;
                continue;
            }
            let Some(pixel) = c.to_digit(4) else {
                break;
            };
            low = (low << 1) | (pixel & 1);
            high = (high << 1) | (pixel >> 1);
            width += 1;
            self.cursor += 1;
        }
        if width == 0 || width > 8 {
            return Err(LexError {
                at: start,
                message: "a graphics constant takes 1 to 8 pixels (digits 0-3) after `` ` ``"
                    .to_string(),
            });
        }
        Ok(((high & 0xFF) << 8 | (low & 0xFF)) as i32)
    }

    fn string(&mut self, start: usize, quote: char, raw: bool) -> LexResult<String> {
        let triple =
            quote == '"' && self.peek_char(0) == Some('"') && self.peek_char(1) == Some('"');
        if triple {
            self.cursor += 2;
        }
        let mut text = String::new();
        loop {
            let Some(c) = self.peek_char(0) else {
                return Err(LexError {
                    at: start,
                    message: "unterminated string".to_string(),
                });
            };
            self.cursor += 1;
            if c == quote {
                if !triple {
                    break;
                }
                if self.peek_char(0) == Some(quote) && self.peek_char(1) == Some(quote) {
                    self.cursor += 2;
                    break;
                }
                text.push(c);
                continue;
            }
            if c == '\\' && !raw {
                let escaped = self.peek_char(0);
                self.cursor += 1;
                text.push(match escaped {
                    Some(c @ ('\\' | '"' | '\'' | '{' | '}')) => c,
                    Some('n') => '\n',
                    Some('r') => '\r',
                    Some('t') => '\t',
                    Some('0') => '\0',
                    Some(other) => {
                        return Err(LexError {
                            at: self.cursor - 2,
                            message: format!("illegal character escape `\\{other}`"),
                        })
                    }
                    None => {
                        return Err(LexError {
                            at: start,
                            message: "unterminated string".to_string(),
                        })
                    }
                });
                continue;
            }
            text.push(c);
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::asm::source::Origin;

    fn lex(text: &str) -> Vec<Tok> {
        let origin = Rc::new(Origin {
            file: Rc::from("t.asm"),
            line: 1,
            text: Rc::from(text),
        });
        let mut lexer = Lexer::new(Line::synthetic(text, origin));
        let mut tokens = Vec::new();
        loop {
            let token = lexer.next_token().expect("lexes");
            if token.tok == Tok::Eol {
                return tokens;
            }
            tokens.push(token.tok);
        }
    }

    fn lex_error(text: &str) -> String {
        let origin = Rc::new(Origin {
            file: Rc::from("t.asm"),
            line: 1,
            text: Rc::from(text),
        });
        let mut lexer = Lexer::new(Line::synthetic(text, origin));
        loop {
            match lexer.next_token() {
                Ok(token) if token.tok == Tok::Eol => panic!("no error in {text}"),
                Ok(_) => {}
                Err(error) => return error.message,
            }
        }
    }

    fn ident(name: &str) -> Tok {
        Tok::Ident {
            name: name.to_string(),
            raw: false,
        }
    }

    #[test]
    fn number_literals() {
        assert_eq!(
            lex("$1F 0x1f %101 0b101 &17 0o17 1_000 `01230123 $FFFFFFFF"),
            [
                Tok::Number(31),
                Tok::Number(31),
                Tok::Number(5),
                Tok::Number(5),
                Tok::Number(15),
                Tok::Number(15),
                Tok::Number(1000),
                Tok::Number(0x3355),
                Tok::Number(-1),
            ]
        );
    }

    #[test]
    fn percent_and_ampersand_are_operators_unless_a_digit_follows() {
        assert_eq!(
            lex("17 % 5 & 3 && x"),
            [
                Tok::Number(17),
                Tok::Op(Op::Percent),
                Tok::Number(5),
                Tok::Op(Op::Amp),
                Tok::Number(3),
                Tok::Op(Op::AndAnd),
                ident("x"),
            ]
        );
    }

    #[test]
    fn operators_take_the_longest_match() {
        assert_eq!(
            lex(">>> >> >= <<= ** ++ === !== != :: : :-- :+"),
            [
                Tok::Op(Op::Ushr),
                Tok::Op(Op::Shr),
                Tok::Op(Op::Ge),
                Tok::Op(Op::CompoundAssign(CompoundOp::Shl)),
                Tok::Op(Op::Pow),
                Tok::Op(Op::Concat),
                Tok::Op(Op::StrEq),
                Tok::Op(Op::StrNe),
                Tok::Op(Op::Ne),
                Tok::Op(Op::DoubleColon),
                Tok::Op(Op::Colon),
                Tok::AnonRef(-2),
                Tok::AnonRef(1),
            ]
        );
    }

    #[test]
    fn identifiers_locals_and_raw_names() {
        assert_eq!(
            lex(".loop Main.sub wFoo#2 #ld"),
            [
                ident(".loop"),
                ident("Main.sub"),
                ident("wFoo#2"),
                Tok::Ident {
                    name: "ld".to_string(),
                    raw: true
                },
            ]
        );
    }

    #[test]
    fn strings_process_escapes() {
        assert_eq!(
            lex(r#""a\"b\n\{" 'x' #"\n""#),
            [
                Tok::Str("a\"b\n{".to_string()),
                Tok::Char("x".to_string()),
                Tok::Str("\\n".to_string()),
            ]
        );
    }

    #[test]
    fn lexing_errors() {
        assert_eq!(
            lex_error("db 1.5"),
            "fixed-point numbers are not supported by this assembler"
        );
        assert_eq!(lex_error("db $"), "invalid number: no digits after `$`");
        assert_eq!(lex_error("db %12"), "invalid digit `2` in a base-2 number");
        assert_eq!(lex_error(r#"db "\q""#), "illegal character escape `\\q`");
        assert_eq!(
            lex_error("db \\1"),
            "macro argument `\\1` used outside of a macro"
        );
    }

    #[test]
    fn splice_replaces_an_identifier() {
        let text = "ld NAME, 1";
        let origin = Rc::new(Origin {
            file: Rc::from("t.asm"),
            line: 1,
            text: Rc::from(text),
        });
        let mut lexer = Lexer::new(Line::synthetic(text, origin));
        lexer.next_token().unwrap();
        let name = lexer.next_token().unwrap();
        lexer.splice(name.start, name.end, "hl");
        assert_eq!(lexer.next_token().unwrap().tok, ident("hl"));
        assert_eq!(lexer.line.text(), "ld hl, 1");
    }
}
