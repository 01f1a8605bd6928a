//! Macro definitions and the splitting of a macro call's arguments.

use std::rc::Rc;

use super::source::Line;

#[derive(Debug)]
pub struct MacroDef {
    pub name: String,
    /// The lines between `MACRO` and `ENDM`, unexpanded.
    pub body: Rc<[Line]>,
}

/// Splits the text after a macro's name into its arguments, as RGBDS does: commas separate
/// arguments except inside parentheses and strings; `\,` `\(` `\)` are a literal comma and
/// parentheses; blanks around each argument are dropped; one trailing comma is allowed.
/// Strings are kept as written (quotes and escapes), to be lexed where the argument is used.
pub fn split_args(text: &[char]) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut i = 0;
    let mut ended_by_comma = false;
    while i < text.len() {
        let c = text[i];
        match c {
            '"' | '\'' => {
                let quote = c;
                let raw = quote == '"' && current.ends_with('#');
                current.push(c);
                i += 1;
                loop {
                    let Some(&s) = text.get(i) else {
                        return Err("unterminated string in macro arguments".to_string());
                    };
                    current.push(s);
                    i += 1;
                    if s == '\\' && !raw {
                        if let Some(&escaped) = text.get(i) {
                            current.push(escaped);
                            i += 1;
                        }
                    } else if s == quote {
                        break;
                    }
                }
                ended_by_comma = false;
                continue;
            }
            ',' if depth == 0 => {
                args.push(current.trim().to_string());
                current.clear();
                ended_by_comma = true;
                i += 1;
                continue;
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '\\' => {
                let escaped = text.get(i + 1).copied();
                let literal = match escaped {
                    Some(e @ (',' | '(' | ')' | '\\' | '"' | '\'' | '{' | '}')) => e,
                    Some('n') => '\n',
                    Some('r') => '\r',
                    Some('t') => '\t',
                    Some('0') => '\0',
                    Some(other) => {
                        return Err(format!(
                            "illegal character escape `\\{other}` in macro arguments"
                        ))
                    }
                    None => {
                        return Err("illegal `\\` at the end of the macro arguments".to_string())
                    }
                };
                current.push(literal);
                ended_by_comma = false;
                i += 2;
                continue;
            }
            _ => {}
        }
        if !c.is_whitespace() {
            ended_by_comma = false;
        }
        current.push(c);
        i += 1;
    }
    let last = current.trim();
    if !last.is_empty() || (!ended_by_comma && !args.is_empty()) {
        args.push(last.to_string());
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<String> {
        split_args(&text.chars().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn arguments_split_on_commas_outside_parentheses_and_strings() {
        assert_eq!(split(" bc, 4, 5 "), ["bc", "4", "5"]);
        assert_eq!(
            split("STRCAT(\"a\", \"b\"), 2"),
            ["STRCAT(\"a\", \"b\")", "2"]
        );
        assert_eq!(split("\"x, y\", 'q'"), ["\"x, y\"", "'q'"]);
        assert_eq!(split("a\\, b, c"), ["a, b", "c"]);
        assert!(split("").is_empty());
        assert!(split("   ").is_empty());
    }

    #[test]
    fn trailing_and_empty_arguments() {
        assert_eq!(split("1, 2,"), ["1", "2"]);
        assert_eq!(split("1,,2"), ["1", "", "2"]);
        assert_eq!(split("1, 2,,"), ["1", "2", ""]);
    }

    #[test]
    fn bad_escape_is_an_error() {
        assert_eq!(
            split_args(&"a\\q".chars().collect::<Vec<_>>()).unwrap_err(),
            "illegal character escape `\\q` in macro arguments"
        );
    }
}
