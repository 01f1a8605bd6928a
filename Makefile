# Thin wrappers for people who type make; everything is done by `cargo xtask`.
.PHONY: compile execute usage clean test soak verify perft

compile:
	cargo xtask rom

execute:
	cargo xtask run

usage:
	cargo xtask usage

test:
	cargo test --workspace

soak:
	cargo xtask soak

verify:
	cargo xtask verify

perft:
	cargo xtask perft --depth 6

clean:
	rm -rf build
