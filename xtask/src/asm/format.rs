//! Print formats of `{fmt:symbol}` interpolation and `STRFMT`: `<sign><#><-><0><width><type>`
//! (the fixed-point parts `.frac` and `qprec` are not supported).

use crate::project::plural;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    sign: Option<char>,
    exact: bool,
    left: bool,
    zero: bool,
    width: usize,
    kind: char,
}

impl Spec {
    /// How a number is interpolated without a format: `$` and uppercase hexadecimal.
    pub fn default_number() -> Spec {
        Spec {
            exact: true,
            kind: 'X',
            ..Spec::default()
        }
    }

    pub fn is_string(&self) -> bool {
        self.kind == 's'
    }

    pub fn parse(text: &str) -> Result<Spec, String> {
        let invalid = || format!("invalid format spec `{text}`");
        let chars: Vec<char> = text.chars().collect();
        let mut spec = Spec::default();
        let mut i = 0;
        if let Some(&c @ ('+' | ' ')) = chars.get(i) {
            spec.sign = Some(c);
            i += 1;
        }
        if chars.get(i) == Some(&'#') {
            spec.exact = true;
            i += 1;
        }
        if chars.get(i) == Some(&'-') {
            spec.left = true;
            i += 1;
        }
        if chars.get(i) == Some(&'0') {
            spec.zero = true;
            i += 1;
        }
        while let Some(digit) = chars.get(i).and_then(|c| c.to_digit(10)) {
            spec.width = spec.width * 10 + digit as usize;
            if spec.width > 255 {
                return Err(invalid());
            }
            i += 1;
        }
        match chars.get(i) {
            Some('.' | 'q') => {
                return Err(format!(
                    "fixed-point formats are not supported by this assembler (`{text}`)"
                ))
            }
            Some(&kind @ ('d' | 'u' | 'x' | 'X' | 'b' | 'o' | 's')) if i + 1 == chars.len() => {
                spec.kind = kind
            }
            Some('f') => {
                return Err(format!(
                    "fixed-point formats are not supported by this assembler (`{text}`)"
                ))
            }
            _ => return Err(invalid()),
        }
        if spec.exact && matches!(spec.kind, 'd' | 'u') {
            return Err(format!(
                "format spec `{text}`: `#` is only for non-decimal types"
            ));
        }
        Ok(spec)
    }

    pub fn number(&self, value: i32) -> Result<String, String> {
        let unsigned = value as u32;
        let (negative, digits) = match self.kind {
            'd' => (value < 0, value.unsigned_abs().to_string()),
            'u' => (false, unsigned.to_string()),
            'x' => (false, format!("{unsigned:x}")),
            'X' => (false, format!("{unsigned:X}")),
            'b' => (false, format!("{unsigned:b}")),
            'o' => (false, format!("{unsigned:o}")),
            _ => return Err("a number cannot be printed as a string (`s`)".to_string()),
        };
        let mut prefix = String::new();
        if negative {
            prefix.push('-');
        } else if let Some(sign) = self.sign {
            prefix.push(sign);
        }
        if self.exact {
            prefix.push_str(match self.kind {
                'x' | 'X' => "$",
                'o' => "&",
                _ => "%",
            });
        }
        let length = prefix.chars().count() + digits.len();
        let padding = self.width.saturating_sub(length);
        Ok(if self.left {
            format!("{prefix}{digits}{}", " ".repeat(padding))
        } else if self.zero {
            format!("{prefix}{}{digits}", "0".repeat(padding))
        } else {
            format!("{}{prefix}{digits}", " ".repeat(padding))
        })
    }

    pub fn string(&self, text: &str) -> Result<String, String> {
        if !self.is_string() {
            return Err(format!(
                "a string cannot be printed with the number format `{}`",
                self.kind
            ));
        }
        let body = if self.exact {
            text.chars()
                .flat_map(|c| match c {
                    '\\' | '"' | '{' | '}' => vec!['\\', c],
                    '\n' => vec!['\\', 'n'],
                    '\r' => vec!['\\', 'r'],
                    '\t' => vec!['\\', 't'],
                    '\0' => vec!['\\', '0'],
                    c => vec![c],
                })
                .collect()
        } else {
            text.to_string()
        };
        let padding = self.width.saturating_sub(body.chars().count());
        Ok(if self.left {
            format!("{body}{}", " ".repeat(padding))
        } else {
            format!("{}{body}", " ".repeat(padding))
        })
    }
}

/// `STRFMT`: `%spec` takes the next argument; `%%` is a percent sign.
pub enum FormatArg {
    Number(i32),
    Text(String),
}

pub fn strfmt(format: &str, args: &[FormatArg]) -> Result<String, String> {
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut next = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            out.push('%');
            i += 2;
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while end < chars.len()
            && !matches!(chars[end], 'd' | 'u' | 'x' | 'X' | 'b' | 'o' | 's' | 'f')
        {
            end += 1;
        }
        if start == chars.len() {
            return Err("STRFMT: Illegal '%' at end of format string".to_string());
        }
        if end == chars.len() {
            return Err(format!(
                "STRFMT: Invalid format spec for argument {}",
                next + 1
            ));
        }
        let spec_text: String = chars[start..=end].iter().collect();
        let spec = Spec::parse(&spec_text)
            .map_err(|_| format!("STRFMT: Invalid format spec for argument {}", next + 1))?;
        let Some(arg) = args.get(next) else {
            // Counted on to the end, as rgbasm tells how many the format expects.
            next += 1;
            i = end + 1;
            continue;
        };
        out.push_str(&match arg {
            FormatArg::Number(n) if !spec.is_string() => spec.number(*n)?,
            FormatArg::Text(t) if spec.is_string() => spec.string(t)?,
            FormatArg::Number(n) => n.to_string(),
            FormatArg::Text(_) => {
                return Err(format!(
                    "STRFMT: argument {} is a string but the format is `{}`",
                    next + 1,
                    spec_text
                ))
            }
        });
        next += 1;
        i = end + 1;
    }
    if next > args.len() {
        return Err(format!(
            "STRFMT: Not enough arguments for format spec (expected {next}, got {})",
            args.len()
        ));
    }
    if next < args.len() {
        let extra = args.len() - next;
        return Err(format!("STRFMT: {}", plural(extra, "unformatted argument")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(spec: &str, value: i32) -> String {
        Spec::parse(spec).unwrap().number(value).unwrap()
    }

    #[test]
    fn number_formats() {
        assert_eq!(Spec::default_number().number(42).unwrap(), "$2A");
        assert_eq!(number("d", -42), "-42");
        assert_eq!(number("u", -42), "4294967254");
        assert_eq!(number("x", 42), "2a");
        assert_eq!(number("02x", 4), "04");
        assert_eq!(number("#05b", 2), "%0010");
        assert_eq!(number("#x", 3), "$3");
        assert_eq!(number("+d", 5), "+5");
        assert_eq!(number("-4d", 5), "5   ");
        assert_eq!(number("4o", 8), "  10");
    }

    #[test]
    fn bad_specs() {
        assert_eq!(Spec::parse("z").unwrap_err(), "invalid format spec `z`");
        assert_eq!(
            Spec::parse("f").unwrap_err(),
            "fixed-point formats are not supported by this assembler (`f`)"
        );
        assert_eq!(
            Spec::parse("#d").unwrap_err(),
            "format spec `#d`: `#` is only for non-decimal types"
        );
    }

    #[test]
    fn strfmt_formats_each_argument() {
        assert_eq!(
            strfmt(
                "%d%% of %s is %#x",
                &[
                    FormatArg::Number(50),
                    FormatArg::Text("ten".to_string()),
                    FormatArg::Number(5)
                ]
            )
            .unwrap(),
            "50% of ten is $5"
        );
        assert_eq!(
            strfmt("%d", &[FormatArg::Number(1), FormatArg::Number(2)]).unwrap_err(),
            "STRFMT: 1 unformatted argument"
        );
    }

    #[test]
    fn strfmt_errors_as_rgbasm_words_them() {
        let one = [FormatArg::Number(1)];
        assert_eq!(
            strfmt("%q", &one).unwrap_err(),
            "STRFMT: Invalid format spec for argument 1"
        );
        assert_eq!(
            strfmt("%5", &one).unwrap_err(),
            "STRFMT: Invalid format spec for argument 1"
        );
        assert_eq!(
            strfmt("ab%", &one).unwrap_err(),
            "STRFMT: Illegal '%' at end of format string"
        );
        assert_eq!(
            strfmt("%d %x %s", &one).unwrap_err(),
            "STRFMT: Not enough arguments for format spec (expected 3, got 1)"
        );
    }
}
