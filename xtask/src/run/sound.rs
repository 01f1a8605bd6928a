//! The sound card, for `cargo xtask run`.
//!
//! On Linux the player talks to ALSA's `default` device, which on a desktop is PulseAudio
//! or PipeWire through ALSA's plugin. libasound is loaded when the player starts, not
//! linked: building xtask needs no ALSA development package, and a machine without
//! libasound or without a sound device plays silently (saying so once). Elsewhere there is
//! no sound output yet.
//!
//! Writes block while the device's buffer is full, and that is what keeps the emulator at
//! the DMG's speed while sound plays: the sound card's clock paces it, so the sound never
//! runs dry (crackle) or piles up (growing delay). The buffer holds [`LATENCY_US`] of sound,
//! three frames: the delay between a key and its sound stays under a tenth of a second.

/// The sound kept in the device's buffer, in microseconds: three frames of 16.7 ms.
pub const LATENCY_US: u32 = 50_000;

/// Stereo frames (a left and a right sample) per second that the device plays. boytacean
/// makes a sample every 95 T-states (4,194,304 / 44,100, rounded down), 44,150.6 a second;
/// the player hands the device exactly as many frames as the emulated time makes at this
/// rate (see `super::AudioClock`), so this is the DMG's speed when sound paces the emulator.
pub const SAMPLE_RATE: u32 = 44_151;

/// boytacean's samples are the sum of the four channels' levels (0-15 each), high-pass
/// filtered: within ±60. This brings four channels at full volume to 30,720 of 32,767.
const GAIN: i16 = 512;

/// Brings boytacean's samples to the loudness of 16-bit sound.
pub fn amplify(samples: &mut [i16]) {
    for sample in samples {
        *sample = sample.saturating_mul(GAIN);
    }
}

/// Where the sound goes: the device, or nowhere.
pub enum Speaker {
    #[cfg(target_os = "linux")]
    Alsa(alsa::Pcm),
    Silent,
}

impl Speaker {
    /// Opens the sound device, or says once why the game plays silently.
    pub fn open() -> Speaker {
        #[cfg(target_os = "linux")]
        match alsa::Pcm::open(SAMPLE_RATE, LATENCY_US) {
            Ok(pcm) => Speaker::Alsa(pcm),
            Err(why) => {
                println!("sound: {why}: playing silently");
                Speaker::Silent
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            println!("sound: only Linux (ALSA) is supported so far: playing silently");
            Speaker::Silent
        }
    }

    pub fn is_on(&self) -> bool {
        !matches!(self, Speaker::Silent)
    }

    /// Plays interleaved left/right samples, blocking while the device's buffer is full.
    /// A device that fails for good is closed, once said, and the game goes on silently.
    pub fn play(&mut self, samples: &[i16]) {
        match self {
            #[cfg(target_os = "linux")]
            Speaker::Alsa(pcm) => {
                if let Err(why) = pcm.write(samples) {
                    println!("sound: the device failed ({why}): playing silently from now on");
                    *self = Speaker::Silent;
                }
            }
            Speaker::Silent => {}
        }
    }
}

/// A hand-written binding of the six libasound functions the player needs.
#[cfg(target_os = "linux")]
mod alsa {
    use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr};

    use libloading::Library;

    const LIBRARY: &str = "libasound.so.2";
    const SND_PCM_STREAM_PLAYBACK: c_int = 0;
    const SND_PCM_FORMAT_S16_LE: c_int = 2;
    const SND_PCM_ACCESS_RW_INTERLEAVED: c_int = 3;
    const CHANNELS: usize = 2;

    type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
    type SetParams =
        unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
    type WriteInterleaved = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
    type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
    type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
    type StrError = unsafe extern "C" fn(c_int) -> *const c_char;
    /// `snd_lib_error_set_handler`; the handler is really variadic, ours reads none of the
    /// variable arguments (which the C calling convention allows).
    type ErrorHandler =
        unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char);
    type SetErrorHandler = unsafe extern "C" fn(Option<ErrorHandler>) -> c_int;

    /// ALSA writes its own diagnostics to stderr; the player says what matters itself.
    unsafe extern "C" fn ignore_error(
        _file: *const c_char,
        _line: c_int,
        _function: *const c_char,
        _err: c_int,
        _format: *const c_char,
    ) {
    }

    /// An open playback device.
    pub struct Pcm {
        handle: *mut c_void,
        write_interleaved: WriteInterleaved,
        recover: Recover,
        close: Close,
        strerror: StrError,
        // Last: the functions above live in it.
        _library: Library,
    }

    impl Pcm {
        /// Opens ALSA's default device for 16-bit stereo at `rate` with about `latency_us`
        /// of buffer, or says why not.
        pub fn open(rate: u32, latency_us: u32) -> Result<Pcm, String> {
            // SAFETY: libasound's initialisers only set up its own state.
            let library = unsafe { Library::new(LIBRARY) }
                .map_err(|_| format!("{LIBRARY} (ALSA) is not installed"))?;
            // SAFETY: each name is looked up with the type of its C declaration in
            // <alsa/pcm.h> and <alsa/error.h>.
            unsafe {
                let open = *library
                    .get::<Open>(b"snd_pcm_open\0")
                    .map_err(|error| error.to_string())?;
                let set_params = *library
                    .get::<SetParams>(b"snd_pcm_set_params\0")
                    .map_err(|error| error.to_string())?;
                let set_error_handler = *library
                    .get::<SetErrorHandler>(b"snd_lib_error_set_handler\0")
                    .map_err(|error| error.to_string())?;
                let mut pcm = Pcm {
                    handle: std::ptr::null_mut(),
                    write_interleaved: *library
                        .get::<WriteInterleaved>(b"snd_pcm_writei\0")
                        .map_err(|error| error.to_string())?,
                    recover: *library
                        .get::<Recover>(b"snd_pcm_recover\0")
                        .map_err(|error| error.to_string())?,
                    close: *library
                        .get::<Close>(b"snd_pcm_close\0")
                        .map_err(|error| error.to_string())?,
                    strerror: *library
                        .get::<StrError>(b"snd_strerror\0")
                        .map_err(|error| error.to_string())?,
                    _library: library,
                };
                set_error_handler(Some(ignore_error));
                let status = open(
                    &mut pcm.handle,
                    c"default".as_ptr(),
                    SND_PCM_STREAM_PLAYBACK,
                    0,
                );
                if status < 0 {
                    pcm.handle = std::ptr::null_mut();
                    return Err(format!("no sound device ({})", pcm.describe(status)));
                }
                let status = set_params(
                    pcm.handle,
                    SND_PCM_FORMAT_S16_LE,
                    SND_PCM_ACCESS_RW_INTERLEAVED,
                    CHANNELS as c_uint,
                    rate,
                    1,
                    latency_us,
                );
                if status < 0 {
                    return Err(format!(
                        "the sound device refuses 16-bit stereo at {rate} Hz ({})",
                        pcm.describe(status)
                    ));
                }
                Ok(pcm)
            }
        }

        /// ALSA's words for an error code.
        fn describe(&self, status: c_int) -> String {
            // SAFETY: snd_strerror returns a static string for any code.
            unsafe { CStr::from_ptr((self.strerror)(status)) }
                .to_string_lossy()
                .into_owned()
        }

        /// Writes interleaved stereo samples, blocking until the device has taken them all;
        /// recovers from an underrun (after a pause, or a stall of the machine).
        pub fn write(&mut self, samples: &[i16]) -> Result<(), String> {
            let mut rest = samples;
            while rest.len() >= CHANNELS {
                let frames = rest.len() / CHANNELS;
                // SAFETY: `rest` holds `frames` whole frames of the format set in `open`.
                let written = unsafe {
                    (self.write_interleaved)(self.handle, rest.as_ptr().cast(), frames as c_ulong)
                };
                if written < 0 {
                    let error = written as c_int;
                    // SAFETY: the handle is open; recover prepares it again after an xrun.
                    if unsafe { (self.recover)(self.handle, error, 1) } < 0 {
                        return Err(self.describe(error));
                    }
                    continue;
                }
                rest = &rest[written as usize * CHANNELS..];
            }
            Ok(())
        }
    }

    impl Drop for Pcm {
        fn drop(&mut self) {
            if !self.handle.is_null() {
                // SAFETY: the handle was opened by snd_pcm_open and is closed once.
                unsafe { (self.close)(self.handle) };
            }
        }
    }
}
