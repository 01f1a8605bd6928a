//! The in-tree assembler, linker and header fixer for the RGBDS 1.0 dialect.

pub mod diagnostic;
pub mod encode;
pub mod object;
pub mod operand;
