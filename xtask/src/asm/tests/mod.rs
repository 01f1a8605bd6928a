//! The assembler, linker and header fixer end to end: the front end feature by feature
//! with every error's text ([`frontend`]), every SM83 instruction form against RGBDS
//! 1.0.3's bytes ([`encodings`]), and RGBDS 1.0.3's golden directive vectors
//! ([`directives`]). Unit tests of one file sit in that file.

mod directives;
mod encodings;
mod frontend;
