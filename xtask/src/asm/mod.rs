//! The in-tree assembler, linker and header fixer for the RGBDS 1.0 dialect.

mod charmap;
pub mod diagnostic;
mod directives;
pub mod encode;
mod expand;
pub mod expr;
pub mod fix;
mod format;
pub mod frontend;
mod keywords;
mod lexer;
pub mod link;
mod macros;
pub mod object;
pub mod operand;
pub mod output;
mod parse;
mod source;
#[cfg(test)]
mod tests;
