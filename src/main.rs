//! Shirokuro, the desktop app: resolves paths, loads the settings and starts the iced application.
// `deny`, not `forbid`: `prefer_native_gpu_backends` needs one narrowly scoped `allow` (see its SAFETY comment).
#![deny(unsafe_code)]
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::Parser;
use shirokuro::app::App;
use shirokuro::settings::{self, Paths};
use shirokuro::{help, message::Message};

/// Shirokuro: an Othello (Reversi) study tool. Play the AI at levels 1-60, get hints and analysis, and build opening
/// books. The command-line engine is `shirokuro-cli`.
#[derive(Debug, Parser)]
#[command(name = "shirokuro", version = help::VERSION)]
struct Arguments {
    /// A game file (Egaroucid's JSON), an opening book (egbk3, egbk2, egbk, Edax .dat) or a transcript to open; its
    /// kind is told from its content. Of several files (a desktop may pass all those selected), the first is opened.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// wgpu's native backends, in `WGPU_BACKEND` syntax: Vulkan, Metal and DX12, without OpenGL.
const NATIVE_WGPU_BACKENDS: &str = "vulkan,metal,dx12";

/// The `WGPU_BACKEND` value to set before iced starts, or `None` when the user chose a renderer or backend already.
///
/// iced 0.14 reads `ICED_BACKEND` (`wgpu`, `tiny-skia`, or a comma list) and wgpu reads `WGPU_BACKEND`. Left alone,
/// wgpu falls back to its OpenGL backend where no Vulkan/Metal/DX12 driver exists, and on Mesa's software OpenGL
/// (Xvfb, VMs) the first canvas in the layout loses its meshes. Restricted to the native backends, wgpu finds no
/// adapter there and iced's fallback compositor takes the tiny-skia software renderer, which draws everything.
fn wgpu_backend_override(iced_backend: Option<&OsStr>, wgpu_backend: Option<&OsStr>) -> Option<&'static str> {
    match (iced_backend, wgpu_backend) {
        (None, None) => Some(NATIVE_WGPU_BACKENDS),
        _ => None,
    }
}

/// Keeps wgpu off OpenGL unless the user asked for a renderer: see [`wgpu_backend_override`].
///
/// Must run first in `main`, before any other thread exists.
#[allow(unsafe_code)]
fn prefer_native_gpu_backends() -> Option<&'static str> {
    let value = wgpu_backend_override(
        std::env::var_os("ICED_BACKEND").as_deref(),
        std::env::var_os("WGPU_BACKEND").as_deref(),
    )?;
    // SAFETY: `set_var` is unsound only while another thread may read or write the environment. This runs as the
    // first statement of `main`, before tracing, iced, tokio, the engine or the book workers start any thread, and
    // nothing in this program's statics spawns one before `main`.
    unsafe { std::env::set_var("WGPU_BACKEND", value) };
    Some(value)
}

fn main() -> iced::Result {
    let wgpu_backends = prefer_native_gpu_backends();
    let arguments = Arguments::parse();
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    match wgpu_backends {
        Some(backends) => tracing::info!(
            "renderer: wgpu on {backends} only (WGPU_BACKEND), tiny-skia where none has an adapter; \
             set ICED_BACKEND or WGPU_BACKEND to choose"
        ),
        None => tracing::info!("renderer: as chosen by ICED_BACKEND / WGPU_BACKEND"),
    }
    if let [_, ignored @ ..] = arguments.files.as_slice()
        && !ignored.is_empty()
    {
        tracing::warn!("{} more file(s) given: only the first is opened", ignored.len());
    }
    let paths = Paths::platform();
    tracing::info!("resources: {}", paths.resources_dir.display());
    let loaded = settings::load(&paths.settings_file);
    let size = (loaded.settings.window_width as f32, loaded.settings.window_height as f32);
    let language = loaded.settings.language.unwrap_or_else(shirokuro::i18n::Language::from_os);
    let position = loaded.settings.window_position.map_or(iced::window::Position::Centered, |[x, y]| {
        iced::window::Position::Specific(iced::Point::new(x as f32, y as f32))
    });
    let boot = move || {
        let app = App::new(paths.clone(), loaded.clone());
        let forced = shirokuro::app::load_forced(&paths.data_dir);
        let open = arguments
            .files
            .first()
            .cloned()
            .map_or_else(iced::Task::none, |file| iced::Task::done(Message::OpenFile(file)));
        (app, iced::Task::batch([open, forced]))
    };
    let mut application = iced::application(boot, App::update, App::view)
        .title(App::title)
        .subscription(App::subscription)
        .theme(App::theme)
        // The language's own font; a language chosen later draws in it through the renderer's fallback to the other
        // bundled fonts, and in its own font from the next start.
        .default_font(iced::Font::with_name(language.font_family()))
        .antialiasing(true)
        .window(iced::window::Settings {
            size: size.into(),
            position,
            // The close button asks; the app saves what it must first (see App's close handling).
            exit_on_close_request: false,
            // The desktop entry's name: Wayland compositors and X11 window managers match the window to it.
            #[cfg(target_os = "linux")]
            platform_specific: iced::window::settings::PlatformSpecific {
                application_id: shirokuro::APP_ID.to_owned(),
                ..Default::default()
            },
            ..Default::default()
        });
    for font in shirokuro::FONTS {
        application = application.font(font);
    }
    application.run()
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::{NATIVE_WGPU_BACKENDS, wgpu_backend_override};

    #[test]
    fn native_backends_only_when_the_user_chose_nothing() {
        assert_eq!(wgpu_backend_override(None, None), Some(NATIVE_WGPU_BACKENDS));
        assert_eq!(wgpu_backend_override(Some(OsStr::new("wgpu")), None), None);
        assert_eq!(wgpu_backend_override(None, Some(OsStr::new("gl"))), None);
        assert_eq!(wgpu_backend_override(Some(OsStr::new("tiny-skia")), Some(OsStr::new(""))), None);
    }

    #[test]
    fn native_backends_parse_to_vulkan_metal_dx12() {
        use iced::wgpu::Backends;
        assert_eq!(Backends::from_comma_list(NATIVE_WGPU_BACKENDS), Backends::PRIMARY - Backends::BROWSER_WEBGPU);
    }
}
