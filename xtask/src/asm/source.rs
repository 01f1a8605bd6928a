//! Source text as the assembler reads it: logical lines.
//!
//! A logical line is one line of source after removing comments and joining line
//! continuations (`\` at the end of a line) and block comments that span lines. Each
//! character remembers the physical line and column it came from, so that a message about
//! a token names the exact place, even after macro arguments, `{interpolation}` or `EQUS`
//! expansion have rewritten the line.

use std::rc::Rc;

use super::diagnostic::Diagnostic;
use super::object::Location;

/// One physical line of a source file.
#[derive(Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: Rc<str>,
    /// 1-based.
    pub line: u32,
    pub text: Rc<str>,
}

/// Where one character of a logical line came from: an index into [`Line::origins`] and a
/// 1-based column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub origin: u16,
    pub column: u32,
}

/// One logical line.
#[derive(Clone, Debug)]
pub struct Line {
    pub chars: Vec<char>,
    /// One entry per character of `chars`.
    pub pos: Vec<Pos>,
    /// Where the line ends (for "expected ... at the end of the line").
    pub end: Pos,
    /// The physical lines this logical line spans (usually one).
    pub origins: Rc<[Rc<Origin>]>,
}

impl Line {
    /// A line made of plain text, all of it at column 1 of `origin`.
    pub fn synthetic(text: &str, origin: Rc<Origin>) -> Line {
        let chars: Vec<char> = text.chars().collect();
        let pos = vec![
            Pos {
                origin: 0,
                column: 1
            };
            chars.len()
        ];
        Line {
            chars,
            pos,
            end: Pos {
                origin: 0,
                column: 1,
            },
            origins: Rc::from(vec![origin]),
        }
    }

    /// The position of character `index` (the end of the line when past it).
    pub fn pos_at(&self, index: usize) -> Pos {
        self.pos.get(index).copied().unwrap_or(self.end)
    }

    pub fn location(&self, index: usize) -> Location {
        let pos = self.pos_at(index);
        let origin = &self.origins[pos.origin as usize];
        Location {
            file: origin.file.clone(),
            line: origin.line,
            column: pos.column,
            text: origin.text.clone(),
        }
    }

    /// The first word of the line, uppercased, if it starts with an identifier (after
    /// blanks). Used to find `ENDM`, `ENDR`, `ENDC`... without expanding anything.
    pub fn leading_keyword(&self) -> Option<(String, usize)> {
        let start = self.chars.iter().position(|c| !c.is_whitespace())?;
        let first = self.chars[start];
        if !(first.is_ascii_alphabetic() || first == '_') {
            return None;
        }
        let end = self.chars[start..]
            .iter()
            .position(|&c| !is_identifier_char(c))
            .map_or(self.chars.len(), |n| start + n);
        let word: String = self.chars[start..end].iter().collect();
        Some((word.to_ascii_uppercase(), end))
    }

    #[cfg(test)]
    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }
}

/// Characters that continue an identifier.
pub fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '#' | '$' | '@' | '.')
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Normal,
    /// Inside a string or character literal.
    Quoted {
        quote: char,
        raw: bool,
        triple: bool,
    },
    BlockComment,
}

/// Whether `chars[from..]` is only blanks, optionally followed by a `;` comment.
fn only_blank_or_comment(chars: &[char], from: usize) -> bool {
    for &c in &chars[from.min(chars.len())..] {
        match c {
            ' ' | '\t' => {}
            ';' => return true,
            _ => return false,
        }
    }
    true
}

/// Splits a whole source file into logical lines. Problems (an unterminated string or block
/// comment) are returned as errors beside the lines.
pub fn split_lines(file: &Rc<str>, text: &str) -> (Vec<Line>, Vec<Diagnostic>) {
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    let mut state = State::Normal;
    let mut chars: Vec<char> = Vec::new();
    let mut pos: Vec<Pos> = Vec::new();
    let mut origins: Vec<Rc<Origin>> = Vec::new();
    // Where the string or block comment that is still open started.
    let mut opened_at: Option<Location> = None;

    let physical: Vec<&str> = text.split('\n').collect();
    let count = if text.ends_with('\n') {
        physical.len() - 1
    } else {
        physical.len()
    };
    for (number, raw) in physical.iter().take(count).enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let origin = Rc::new(Origin {
            file: file.clone(),
            line: number as u32 + 1,
            text: Rc::from(raw),
        });
        let line: Vec<char> = raw.chars().collect();
        let index = origins.len() as u16;
        origins.push(origin);
        let at = |column: usize| Pos {
            origin: index,
            column: column as u32 + 1,
        };
        let mut continued = false;
        let mut i = 0;
        while i < line.len() {
            let c = line[i];
            match state {
                State::BlockComment => {
                    if c == '*' && line.get(i + 1) == Some(&'/') {
                        state = State::Normal;
                        i += 1;
                    }
                }
                State::Quoted { quote, raw, triple } => {
                    if c == '\\' && !raw {
                        if i + 1 >= line.len()
                            || (matches!(line[i + 1], ' ' | '\t')
                                && only_blank_or_comment(&line, i + 1))
                        {
                            continued = true;
                            break;
                        }
                        chars.push(c);
                        pos.push(at(i));
                        chars.push(line[i + 1]);
                        pos.push(at(i + 1));
                        i += 1;
                    } else if c == quote
                        && (!triple
                            || (line.get(i + 1) == Some(&quote) && line.get(i + 2) == Some(&quote)))
                    {
                        let width = if triple { 3 } else { 1 };
                        for k in 0..width {
                            chars.push(quote);
                            pos.push(at(i + k));
                        }
                        i += width - 1;
                        state = State::Normal;
                        opened_at = None;
                    } else {
                        chars.push(c);
                        pos.push(at(i));
                    }
                }
                State::Normal => match c {
                    ';' => break,
                    '/' if line.get(i + 1) == Some(&'*') => {
                        // A block comment separates tokens like a blank.
                        chars.push(' ');
                        pos.push(at(i));
                        opened_at = Some(location(&origins, at(i)));
                        state = State::BlockComment;
                        i += 1;
                    }
                    '"' | '\'' => {
                        let raw = c == '"' && chars.last() == Some(&'#');
                        let triple = c == '"'
                            && line.get(i + 1) == Some(&'"')
                            && line.get(i + 2) == Some(&'"');
                        let width = if triple { 3 } else { 1 };
                        for k in 0..width {
                            chars.push(c);
                            pos.push(at(i + k));
                        }
                        opened_at = Some(location(&origins, at(i)));
                        state = State::Quoted {
                            quote: c,
                            raw,
                            triple,
                        };
                        i += width - 1;
                    }
                    '\\' => {
                        if only_blank_or_comment(&line, i + 1) {
                            continued = true;
                            break;
                        }
                        chars.push(c);
                        pos.push(at(i));
                        if let Some(&next) = line.get(i + 1) {
                            chars.push(next);
                            pos.push(at(i + 1));
                            i += 1;
                        }
                    }
                    _ => {
                        chars.push(c);
                        pos.push(at(i));
                    }
                },
            }
            i += 1;
        }
        let end = at(line.len());
        match state {
            State::Quoted { triple: true, .. } if !continued => {
                chars.push('\n');
                pos.push(end);
                continue;
            }
            State::Quoted { .. } if !continued => {
                errors.push(Diagnostic::error(
                    opened_at.take(),
                    "Unterminated string or character literal",
                ));
                state = State::Normal;
            }
            State::BlockComment => continue,
            _ => {}
        }
        if continued {
            continue;
        }
        lines.push(Line {
            chars: std::mem::take(&mut chars),
            pos: std::mem::take(&mut pos),
            end,
            origins: Rc::from(std::mem::take(&mut origins)),
        });
    }
    match state {
        State::Normal => {}
        State::BlockComment => errors.push(Diagnostic::error(
            opened_at.take(),
            "Unterminated block comment",
        )),
        State::Quoted { .. } => errors.push(Diagnostic::error(
            opened_at.take(),
            "Unterminated string or character literal",
        )),
    }
    if !origins.is_empty() {
        let last = origins.len() as u16 - 1;
        let end = Pos {
            origin: last,
            column: origins[last as usize].text.chars().count() as u32 + 1,
        };
        lines.push(Line {
            chars,
            pos,
            end,
            origins: Rc::from(origins),
        });
    }
    (lines, errors)
}

fn location(origins: &[Rc<Origin>], pos: Pos) -> Location {
    let origin = &origins[pos.origin as usize];
    Location {
        file: origin.file.clone(),
        line: origin.line,
        column: pos.column,
        text: origin.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<String> {
        let (lines, errors) = split_lines(&Rc::from("t.asm"), source);
        assert!(errors.is_empty(), "{errors:?}");
        lines.iter().map(Line::text).collect()
    }

    #[test]
    fn comments_are_removed_but_not_inside_strings() {
        assert_eq!(
            texts("db 1 ; one\ndb \"a;b\", ';' ; x\n"),
            ["db 1 ", "db \"a;b\", ';' "]
        );
    }

    #[test]
    fn block_comments_join_lines_and_separate_tokens() {
        assert_eq!(
            texts("pop/*x*/hl\nld a, /* \n */ 3\nnop"),
            ["pop hl", "ld a,   3", "nop"]
        );
    }

    #[test]
    fn continuation_joins_lines_and_allows_a_comment() {
        let (lines, _) = split_lines(&Rc::from("t.asm"), "db 1, \\ ; c\n   2\nnop\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text(), "db 1,    2");
        // The `2` keeps its own line and column.
        let two = lines[0].chars.iter().position(|&c| c == '2').unwrap();
        let location = lines[0].location(two);
        assert_eq!((location.line, location.column), (2, 4));
        assert_eq!(&*location.text, "   2");
    }

    #[test]
    fn escapes_and_macro_arguments_stay_verbatim() {
        assert_eq!(texts(r#"db "\"x\\", \1"#), [r#"db "\"x\\", \1"#]);
    }

    #[test]
    fn unterminated_string_is_an_error_at_its_quote() {
        let (lines, errors) = split_lines(&Rc::from("t.asm"), "db 1\ndb \"abc\nnop\n");
        assert_eq!(lines.len(), 3);
        assert_eq!(errors.len(), 1);
        let location = errors[0].location.as_ref().unwrap();
        assert_eq!((location.line, location.column), (2, 4));
    }

    #[test]
    fn leading_keyword_is_uppercased() {
        let (lines, _) = split_lines(&Rc::from("t.asm"), "   endm\n  .x\n");
        assert_eq!(lines[0].leading_keyword(), Some(("ENDM".to_string(), 7)));
        assert_eq!(lines[1].leading_keyword(), None);
    }
}
