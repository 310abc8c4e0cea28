//! Shirokuro, the desktop app: resolves paths, loads the settings and starts the iced application.
#![forbid(unsafe_code)]
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use shirokuro::app::App;
use shirokuro::settings::{self, Paths};

fn main() -> iced::Result {
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let paths = Paths::platform();
    let loaded = settings::load(&paths.settings_file);
    let size = (loaded.settings.window_width as f32, loaded.settings.window_height as f32);
    let boot = move || App::new(paths.clone(), loaded.clone());
    let mut application = iced::application(boot, App::update, App::view)
        .title(App::title)
        .subscription(App::subscription)
        .theme(App::theme)
        .default_font(iced::Font::with_name(shirokuro::FONT_FAMILY))
        .antialiasing(true)
        .window_size(size)
        .centered();
    for font in shirokuro::FONTS {
        application = application.font(font);
    }
    application.run()
}
