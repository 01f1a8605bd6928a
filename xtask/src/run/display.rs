//! Whether there is a screen to open the window on, and how big it is.

use anyhow::Result;

/// Width and height of the screen in pixels, or a clear error when there is no display.
/// On X11 (and Wayland through XWayland) it asks the X server; elsewhere the size is not
/// known before the window opens.
#[cfg(all(unix, not(target_os = "macos")))]
pub fn screen_size() -> Result<Option<(u32, u32)>> {
    use anyhow::{anyhow, bail};
    use x11_dl::xlib::Xlib;

    let xlib = Xlib::open().map_err(|_| {
        anyhow!(
            "cannot open a window: libX11.so.6 is not installed (on Debian and Ubuntu: \
             `apt-get install libx11-6 libxcursor1`)"
        )
    })?;
    if x11_dl::xcursor::Xcursor::open().is_err() {
        bail!(
            "cannot open a window: libXcursor.so.1 is not installed (on Debian and Ubuntu: \
             `apt-get install libxcursor1`)"
        );
    }
    // SAFETY: Xlib's documented calls on a display this function opens and closes.
    unsafe {
        let display = (xlib.XOpenDisplay)(std::ptr::null());
        if display.is_null() {
            match std::env::var("DISPLAY") {
                Ok(name) if !name.is_empty() => bail!(
                    "no display: cannot open the X display `{name}` (DISPLAY); `cargo xtask \
                     run` needs a desktop session (X11, or Wayland with XWayland)"
                ),
                _ => bail!(
                    "no display: DISPLAY is not set; `cargo xtask run` needs a desktop \
                     session (X11, or Wayland with XWayland)"
                ),
            }
        }
        let screen = (xlib.XDefaultScreen)(display);
        let width = (xlib.XDisplayWidth)(display, screen);
        let height = (xlib.XDisplayHeight)(display, screen);
        (xlib.XCloseDisplay)(display);
        Ok(Some((width.max(0) as u32, height.max(0) as u32)))
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn screen_size() -> Result<Option<(u32, u32)>> {
    Ok(None)
}
