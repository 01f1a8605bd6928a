//! Headless emulator harness on boytacean: run the ROM, press buttons, read memory by label.
