//! Text expansion of a logical line before it is tokenized: macro arguments (`\1`...`\9`,
//! `\<10>`, `\#`, `\@`) and then symbol interpolation (`{NAME}`, `{d:NAME}`).
//!
//! Both work inside strings too, as in RGBDS, but not inside raw strings (`#"..."`). The
//! characters an expansion inserts take the position of the escape or brace that made them,
//! so messages about them point at what the user wrote.

use super::format::Spec;
use super::source::{Line, Pos};
use crate::project::plural;

/// What expansion needs from the assembler.
pub trait ExpandEnv {
    /// The arguments of the innermost macro call, after `SHIFT`; `None` outside macros.
    fn macro_args(&self) -> Option<Vec<String>>;
    /// `_u1`, `_u2`...: the unique suffix of the innermost macro call or loop iteration.
    fn unique_suffix(&mut self) -> Option<String>;
    /// The value of a symbol for `{NAME}`.
    fn interpolated(&mut self, name: &str) -> Result<Interpolated, String>;
}

pub enum Interpolated {
    Text(String),
    Number(i32),
}

/// An expansion error: the character index in the line it is about, and the message.
pub type ExpandError = (usize, String);

struct Builder {
    chars: Vec<char>,
    pos: Vec<Pos>,
}

impl Builder {
    fn push(&mut self, c: char, pos: Pos) {
        self.chars.push(c);
        self.pos.push(pos);
    }

    fn push_str(&mut self, text: &str, pos: Pos) {
        for c in text.chars() {
            self.push(c, pos);
        }
    }

    fn into_line(self, template: &Line) -> Line {
        Line {
            chars: self.chars,
            pos: self.pos,
            end: template.end,
            origins: template.origins.clone(),
        }
    }
}

/// Both expansions, in order.
pub fn expand_line(line: &Line, env: &mut dyn ExpandEnv) -> Result<Line, ExpandError> {
    let with_args = if line.chars.contains(&'\\') {
        substitute_macro_args(line, env)?
    } else {
        line.clone()
    };
    if with_args.chars.contains(&'{') {
        interpolate(&with_args, env)
    } else {
        Ok(with_args)
    }
}

/// Whether a scan is inside a string or character literal: what a macro argument or an
/// interpolation inserts there is taken literally (as RGBDS does), so its quotes, backslashes
/// and braces are escaped for the lexer.
#[derive(Default)]
struct Quotes {
    open: Option<char>,
}

impl Quotes {
    fn see(&mut self, c: char) {
        match self.open {
            None if c == '"' || c == '\'' => self.open = Some(c),
            Some(quote) if c == quote => self.open = None,
            _ => {}
        }
    }

    fn insert(&self, text: &str) -> String {
        if self.open.is_none() {
            return text.to_string();
        }
        let mut escaped = String::with_capacity(text.len());
        for c in text.chars() {
            if matches!(c, '\\' | '"' | '\'' | '{' | '}') {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        escaped
    }
}

/// Copies a raw string `#"..."` starting at `i` (the `#`); returns the index after it.
fn copy_raw_string(line: &Line, i: usize, out: &mut Builder) -> usize {
    let chars = &line.chars;
    out.push(chars[i], line.pos[i]);
    out.push(chars[i + 1], line.pos[i + 1]);
    let mut j = i + 2;
    while j < chars.len() {
        out.push(chars[j], line.pos[j]);
        j += 1;
        if chars[j - 1] == '"' {
            break;
        }
    }
    j
}

fn is_raw_string_start(chars: &[char], i: usize) -> bool {
    chars[i] == '#'
        && chars.get(i + 1) == Some(&'"')
        && (i == 0 || !super::source::is_identifier_char(chars[i - 1]))
}

pub fn substitute_macro_args(line: &Line, env: &mut dyn ExpandEnv) -> Result<Line, ExpandError> {
    let chars = &line.chars;
    let mut out = Builder {
        chars: Vec::with_capacity(chars.len()),
        pos: Vec::with_capacity(chars.len()),
    };
    let mut quotes = Quotes::default();
    let mut i = 0;
    while i < chars.len() {
        if quotes.open.is_none() && is_raw_string_start(chars, i) {
            i = copy_raw_string(line, i, &mut out);
            continue;
        }
        if chars[i] != '\\' || i + 1 >= chars.len() {
            quotes.see(chars[i]);
            out.push(chars[i], line.pos[i]);
            i += 1;
            continue;
        }
        let at = line.pos[i];
        let next = chars[i + 1];
        match next {
            '1'..='9' => {
                let index = next.to_digit(10).unwrap_or(1) as i64;
                let text = argument(env, index, &format!("\\{next}"), i)?;
                out.push_str(&quotes.insert(&text), at);
                i += 2;
            }
            '<' => {
                let close = chars[i..]
                    .iter()
                    .position(|&c| c == '>')
                    .map(|n| i + n)
                    .ok_or((i, "missing `>` after `\\<`".to_string()))?;
                let inner: String = chars[i + 2..close].iter().collect();
                let inner = inner.trim();
                let index = match inner.parse::<i64>() {
                    Ok(n) => n,
                    Err(_) => match env.interpolated(inner) {
                        Ok(Interpolated::Number(n)) => n as i64,
                        _ => {
                            return Err((
                                i,
                                format!(
                                    "`\\<{inner}>` needs a number or a numeric symbol between `<` and `>`"
                                ),
                            ))
                        }
                    },
                };
                let text = argument(env, index, &format!("\\<{inner}>"), i)?;
                out.push_str(&quotes.insert(&text), at);
                i = close + 1;
            }
            '#' => {
                let args = env
                    .macro_args()
                    .ok_or((i, "`\\#` used outside of a macro".to_string()))?;
                out.push_str(&quotes.insert(&args.join(",")), at);
                i += 2;
            }
            '@' => {
                let suffix = env.unique_suffix().ok_or((
                    i,
                    "`\\@` used outside of a macro or `REPT`/`FOR` block".to_string(),
                ))?;
                out.push_str(&suffix, at);
                i += 2;
            }
            _ => {
                // A string escape or a macro-argument escape: kept for the lexer.
                out.push('\\', at);
                out.push(next, line.pos[i + 1]);
                i += 2;
            }
        }
    }
    Ok(out.into_line(line))
}

fn argument(
    env: &mut dyn ExpandEnv,
    index: i64,
    written: &str,
    at: usize,
) -> Result<String, ExpandError> {
    let args = env.macro_args().ok_or((
        at,
        format!("macro argument `{written}` used outside of a macro"),
    ))?;
    let count = args.len() as i64;
    let position = if index < 0 { count + index } else { index - 1 };
    if index == 0 || position < 0 || position >= count {
        return Err((
            at,
            format!(
                "macro argument `{written}` not defined (the macro got {})",
                plural(count, "argument")
            ),
        ));
    }
    Ok(args[position as usize].clone())
}

pub fn interpolate(line: &Line, env: &mut dyn ExpandEnv) -> Result<Line, ExpandError> {
    let chars = &line.chars;
    let mut out = Builder {
        chars: Vec::with_capacity(chars.len()),
        pos: Vec::with_capacity(chars.len()),
    };
    let mut quotes = Quotes::default();
    let mut i = 0;
    while i < chars.len() {
        if quotes.open.is_none() && is_raw_string_start(chars, i) {
            i = copy_raw_string(line, i, &mut out);
            continue;
        }
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                out.push('\\', line.pos[i]);
                out.push(chars[i + 1], line.pos[i + 1]);
                i += 2;
            }
            '{' => {
                let (text, next) = braces(chars, i, env, 0)?;
                out.push_str(&quotes.insert(&text), line.pos[i]);
                i = next;
            }
            c => {
                quotes.see(c);
                out.push(c, line.pos[i]);
                i += 1;
            }
        }
    }
    Ok(out.into_line(line))
}

/// Interpolates the `{...}` that starts at `open`; returns its text and the index after it.
fn braces(
    chars: &[char],
    open: usize,
    env: &mut dyn ExpandEnv,
    depth: usize,
) -> Result<(String, usize), ExpandError> {
    if depth > 64 {
        return Err((
            open,
            "interpolation nested more than 64 levels deep".to_string(),
        ));
    }
    let mut content = String::new();
    let mut i = open + 1;
    loop {
        match chars.get(i) {
            None => return Err((open, "missing `}` after `{`".to_string())),
            Some('}') => break,
            Some('{') => {
                let (text, next) = braces(chars, i, env, depth + 1)?;
                content.push_str(&text);
                i = next;
            }
            Some(&c) => {
                content.push(c);
                i += 1;
            }
        }
    }
    let (spec, name) = match content.split_once(':') {
        Some((format, name)) => (Some(Spec::parse(format).map_err(|e| (open, e))?), name),
        None => (None, content.as_str()),
    };
    let text = match env.interpolated(name).map_err(|e| (open, e))? {
        Interpolated::Text(text) => match spec {
            Some(spec) => spec.string(&text).map_err(|e| (open, e))?,
            None => text,
        },
        Interpolated::Number(n) => spec
            .unwrap_or_else(Spec::default_number)
            .number(n)
            .map_err(|e| (open, e))?,
    };
    Ok((text, i + 1))
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::asm::source::Origin;

    struct Env {
        args: Option<Vec<String>>,
        unique: u32,
    }

    impl ExpandEnv for Env {
        fn macro_args(&self) -> Option<Vec<String>> {
            self.args.clone()
        }

        fn unique_suffix(&mut self) -> Option<String> {
            self.args.as_ref()?;
            if self.unique == 0 {
                self.unique = 7;
            }
            Some(format!("_u{}", self.unique))
        }

        fn interpolated(&mut self, name: &str) -> Result<Interpolated, String> {
            match name {
                "NAME" => Ok(Interpolated::Text("Target".to_string())),
                "meaning" => Ok(Interpolated::Text("answer".to_string())),
                "answer" => Ok(Interpolated::Number(42)),
                "N" => Ok(Interpolated::Number(2)),
                _ => Err(format!("`{name}` is not defined")),
            }
        }
    }

    fn line(text: &str) -> Line {
        let origin = Rc::new(Origin {
            file: Rc::from("t.asm"),
            line: 1,
            text: Rc::from(text),
        });
        let mut line = Line::synthetic(text, origin);
        for (i, pos) in line.pos.iter_mut().enumerate() {
            pos.column = i as u32 + 1;
        }
        line
    }

    fn expand(text: &str, args: Option<&[&str]>) -> Result<String, ExpandError> {
        let mut env = Env {
            args: args.map(|a| a.iter().map(|s| s.to_string()).collect()),
            unique: 0,
        };
        expand_line(&line(text), &mut env).map(|l| l.text())
    }

    #[test]
    fn macro_arguments() {
        let args = Some(&["bc", "4", "5"][..]);
        assert_eq!(
            expand(r"ld \1, (\2) << 8 | (\3)", args).unwrap(),
            "ld bc, (4) << 8 | (5)"
        );
        assert_eq!(expand(r"db \<2>, \<-1>, \<N>", args).unwrap(), "db 4, 5, 4");
        assert_eq!(expand(r"db \#", args).unwrap(), "db bc,4,5");
        assert_eq!(expand(r#"db "\1\n\\1""#, args).unwrap(), r#"db "bc\n\\1""#);
        assert_eq!(expand(r#"db #"\1""#, args).unwrap(), r#"db #"\1""#);
        // Inside a string, an argument is taken literally, quotes and all.
        let quoted = Some(&[r#""hi""#, r"a\b", "{x}"][..]);
        assert_eq!(
            expand(r#"db "<\1|\2|\3>", \1"#, quoted).unwrap(),
            r#"db "<\"hi\"|a\\b|\{x\}>", "hi""#
        );
        assert_eq!(
            expand(r".loop\@: jr .loop\@", args).unwrap(),
            ".loop_u7: jr .loop_u7"
        );
    }

    #[test]
    fn macro_argument_errors() {
        let args = Some(&["x"][..]);
        assert_eq!(
            expand(r"db \2", args).unwrap_err(),
            (
                3,
                "macro argument `\\2` not defined (the macro got 1 argument)".to_string()
            )
        );
        assert_eq!(
            expand(r"db \1", None).unwrap_err().1,
            "macro argument `\\1` used outside of a macro"
        );
        assert_eq!(
            expand(r"db \@", None).unwrap_err().1,
            "`\\@` used outside of a macro or `REPT`/`FOR` block"
        );
    }

    #[test]
    fn interpolation() {
        assert_eq!(expand("ld hl, {NAME}", None).unwrap(), "ld hl, Target");
        assert_eq!(expand("db \"{NAME}\"", None).unwrap(), "db \"Target\"");
        assert_eq!(expand("db {{meaning}}", None).unwrap(), "db $2A");
        assert_eq!(
            expand("DEF X_{02x:N} EQU 1", None).unwrap(),
            "DEF X_02 EQU 1"
        );
        assert_eq!(expand("db \"\\{NAME}\"", None).unwrap(), "db \"\\{NAME}\"");
        assert_eq!(
            expand("db {nope}", None).unwrap_err(),
            (3, "`nope` is not defined".to_string())
        );
        assert_eq!(
            expand("db {NAME", None).unwrap_err(),
            (3, "missing `}` after `{`".to_string())
        );
    }

    #[test]
    fn expansion_keeps_positions() {
        let mut env = Env {
            args: Some(vec!["hello".to_string()]),
            unique: 0,
        };
        let expanded = expand_line(&line(r"db \1, 2"), &mut env).unwrap();
        assert_eq!(expanded.text(), "db hello, 2");
        let two = expanded.chars.iter().position(|&c| c == '2').unwrap();
        assert_eq!(expanded.pos[two].column, 8);
        assert_eq!(expanded.pos[4].column, 4);
    }
}
