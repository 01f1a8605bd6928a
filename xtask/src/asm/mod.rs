//! The in-tree assembler, linker and header fixer for the RGBDS 1.0 dialect.

pub mod diagnostic;
pub mod encode;
pub mod object;
pub mod operand;
mod charmap;
mod directives;
mod expand;
pub mod expr;
pub mod fix;
mod format;
pub mod frontend;
mod keywords;
mod lexer;
pub mod link;
mod macros;
mod parse;
pub mod output;
mod source;
#[cfg(test)]
mod tests_directives;
#[cfg(test)]
mod tests_frontend;
#[cfg(test)]
mod tests_encodings;
