//! In/Out ▸ Screen Shot (Ctrl+S): the board as it is drawn (hints and marks included), cropped from a capture of the
//! window and saved as a PNG in `<data dir>/screenshots/` under Egaroucid's name, `<YYYY_MM_DD_hh_mm_ss>_<transcript>.png`
//! (the time in UTC).
//!
//! The app asks iced for the board's bounds and a capture of the window; [`save`] then crops, encodes and writes the
//! file on a background task, atomically.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use iced::window::Screenshot;
use iced::{Rectangle, Size};
use shirokuro_engine::calendar::UtcDateTime;

/// Folder of the screenshots inside the data folder.
pub const FOLDER: &str = "screenshots";
/// The longest transcript put in a file name (characters); longer ones are cut.
const MAX_TRANSCRIPT: usize = 120;

/// Why a screenshot was not saved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScreenshotError {
    /// The capture is not `width × height` RGBA pixels.
    #[error("the capture has {bytes} bytes for {width}×{height} pixels")]
    Capture {
        /// Bytes received.
        bytes: usize,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("PNG encoding: {0}")]
    Encode(String),
    /// The file could not be written.
    #[error("{path}: {error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: crate::fsutil::SaveFailure,
    },
}

/// How the board is framed in a screenshot (part of Egaroucid's Edit Board Image): with or without the coordinates,
/// and a margin around.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Framing {
    /// The a–h / 1–8 coordinates are in the picture.
    pub coordinates: bool,
    /// Pixels (logical) of the board's surroundings kept around it.
    pub margin: u8,
}

/// The part of the board widget's `bounds` a screenshot shows: the 8 × 8 grid, with the band of the coordinates
/// when asked, and the margin around (the capture's edges still limit it, see [`region`]).
#[must_use]
pub fn framed(bounds: Rectangle, framing: Framing) -> Rectangle {
    let grid = crate::widget::board::Geometry8::fit(bounds.size());
    let band = if framing.coordinates { grid.cell * 0.5 } else { 0.0 };
    let around = band + f32::from(framing.margin);
    let side = 8.0 * grid.cell;
    Rectangle {
        x: bounds.x + grid.origin.x - around,
        y: bounds.y + grid.origin.y - around,
        width: side + 2.0 * around,
        height: side + 2.0 * around,
    }
}

/// The part of a capture of `size` physical pixels that shows `bounds` (logical pixels, as the layout gives them) at
/// `scale`, kept inside the capture; the whole capture when `bounds` is `None` or falls outside it.
#[must_use]
pub fn region(bounds: Option<Rectangle>, scale: f32, size: Size<u32>) -> Rectangle<u32> {
    let whole = Rectangle { x: 0, y: 0, width: size.width, height: size.height };
    let Some(b) = bounds else { return whole };
    let to_px = |v: f32, limit: u32| ((v * scale).round().max(0.0) as u32).min(limit);
    let (x, y) = (to_px(b.x, size.width), to_px(b.y, size.height));
    let (right, bottom) = (to_px(b.x + b.width, size.width), to_px(b.y + b.height, size.height));
    if right <= x || bottom <= y {
        return whole;
    }
    Rectangle { x, y, width: right - x, height: bottom - y }
}

/// `<YYYY_MM_DD_hh_mm_ss>_<transcript>.png` for the moment `now` (UTC), as Egaroucid names screenshots; without a
/// transcript, just the time.
#[must_use]
pub fn file_name(now: SystemTime, transcript: &str) -> String {
    let stamp = UtcDateTime::of(now).stamp();
    let moves: String = transcript.chars().filter(char::is_ascii_alphanumeric).take(MAX_TRANSCRIPT).collect();
    if moves.is_empty() { format!("{stamp}.png") } else { format!("{stamp}_{moves}.png") }
}

/// The capture as PNG bytes.
///
/// # Errors
/// [`ScreenshotError::Capture`] when the bytes do not match the size, [`ScreenshotError::Encode`] when encoding fails.
pub fn encode_png(shot: &Screenshot) -> Result<Vec<u8>, ScreenshotError> {
    let Size { width, height } = shot.size;
    if shot.rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 || width == 0 || height == 0 {
        return Err(ScreenshotError::Capture { bytes: shot.rgba.len(), width, height });
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let encode = |e: png::EncodingError| ScreenshotError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&shot.rgba).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(out)
}

/// The clipboard the screenshots are put on, kept for the life of the app: on X11 the image stays available only
/// while its owner lives.
static CLIPBOARD: std::sync::Mutex<Option<arboard::Clipboard>> = std::sync::Mutex::new(None);

/// Crops `shot` to `bounds` (see [`region`]) and puts it on the system clipboard as an image (Egaroucid copies every
/// screenshot there too).
///
/// # Errors
/// What the clipboard said (no clipboard on this desktop, the image refused), in its own words.
pub fn copy(shot: &Screenshot, bounds: Option<Rectangle>) -> Result<(), String> {
    let area = region(bounds, shot.scale_factor, shot.size);
    let cropped = shot.crop(area).unwrap_or_else(|_| shot.clone());
    let mut clipboard =
        CLIPBOARD.lock().map_err(|_| "the clipboard is unusable after an earlier failure".to_owned())?;
    if clipboard.is_none() {
        *clipboard = Some(arboard::Clipboard::new().map_err(|e| e.to_string())?);
    }
    let Some(clipboard) = clipboard.as_mut() else { return Err("no clipboard".to_owned()) };
    let image = arboard::ImageData {
        width: cropped.size.width as usize,
        height: cropped.size.height as usize,
        bytes: std::borrow::Cow::Borrowed(&cropped.rgba),
    };
    clipboard.set_image(image).map_err(|e| e.to_string())
}

/// Crops `shot` to `bounds` (see [`region`]), encodes it and writes it to `<folder>/<name>`; the file's path.
///
/// # Errors
/// See [`ScreenshotError`].
pub fn save(
    shot: &Screenshot,
    bounds: Option<Rectangle>,
    folder: &Path,
    name: &str,
) -> Result<PathBuf, ScreenshotError> {
    let area = region(bounds, shot.scale_factor, shot.size);
    let cropped = shot.crop(area).unwrap_or_else(|_| shot.clone());
    let png = encode_png(&cropped)?;
    let path = folder.join(name);
    crate::fsutil::write_atomic(&path, &png).map_err(|error| ScreenshotError::Write { path: path.clone(), error })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shot(width: u32, height: u32) -> Screenshot {
        // Each pixel's red is its x and green its y, so a crop can be checked.
        let mut rgba = Vec::new();
        for y in 0..height {
            for x in 0..width {
                rgba.extend_from_slice(&[x as u8, y as u8, 7, 255]);
            }
        }
        Screenshot::new(rgba, Size::new(width, height), 2.0)
    }

    #[test]
    fn the_region_follows_the_scale_and_stays_inside() {
        let size = Size::new(200, 100);
        let b = Rectangle { x: 10.0, y: 5.0, width: 30.0, height: 20.0 };
        assert_eq!(region(Some(b), 2.0, size), Rectangle { x: 20, y: 10, width: 60, height: 40 });
        let wide = Rectangle { x: 90.0, y: 40.0, width: 50.0, height: 50.0 };
        assert_eq!(region(Some(wide), 2.0, size), Rectangle { x: 180, y: 80, width: 20, height: 20 });
        let whole = Rectangle { x: 0, y: 0, width: 200, height: 100 };
        assert_eq!(region(None, 2.0, size), whole);
        let outside = Rectangle { x: 500.0, y: 5.0, width: 30.0, height: 20.0 };
        assert_eq!(region(Some(outside), 2.0, size), whole);
    }

    use std::time::UNIX_EPOCH;

    #[test]
    fn names_carry_the_utc_time_and_the_transcript() {
        let at = |secs| UNIX_EPOCH + std::time::Duration::from_secs(secs);
        assert_eq!(file_name(at(0), ""), "1970_01_01_00_00_00.png");
        // 2026-11-23 22:40:05 UTC.
        assert_eq!(file_name(at(1_795_473_605), "f5d6c3"), "2026_11_23_22_40_05_f5d6c3.png");
        // 2024-02-29 (a leap day) 23:59:59, and a path character in the text is dropped.
        assert_eq!(file_name(at(1_709_251_199), "f5/d6"), "2024_02_29_23_59_59_f5d6.png");
        let long = "f5".repeat(100);
        assert_eq!(file_name(at(0), &long).len(), "1970_01_01_00_00_00_".len() + MAX_TRANSCRIPT + ".png".len());
    }

    #[test]
    fn a_saved_screenshot_is_the_cropped_png() {
        let dir = tempfile::tempdir().unwrap();
        let board = Rectangle { x: 100.0, y: 50.0, width: 500.0, height: 400.0 };
        let grid = crate::widget::board::Geometry8::fit(board.size());
        let bare = framed(board, Framing { coordinates: false, margin: 0 });
        assert!((bare.width - 8.0 * grid.cell).abs() < 0.01 && (bare.x - (100.0 + grid.origin.x)).abs() < 0.01);
        let wide = framed(board, Framing { coordinates: true, margin: 10 });
        assert!((wide.width - (bare.width + grid.cell + 20.0)).abs() < 0.01, "{wide:?}");
        assert!((wide.y - (bare.y - grid.cell * 0.5 - 10.0)).abs() < 0.01);
        let bounds = Rectangle { x: 3.0, y: 2.0, width: 10.0, height: 5.0 };
        let path = save(&shot(40, 30), Some(bounds), &dir.path().join("screenshots"), "a.png").unwrap();
        assert_eq!(path, dir.path().join("screenshots").join("a.png"));
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height), (20, 10));
        // The top-left pixel is the capture's (6, 4).
        assert_eq!(&pixels[..4], &[6, 4, 7, 255]);
    }

    #[test]
    fn a_capture_of_the_wrong_size_is_an_error() {
        let bad = Screenshot::new(vec![0u8; 10], Size::new(4, 4), 1.0);
        assert_eq!(encode_png(&bad), Err(ScreenshotError::Capture { bytes: 10, width: 4, height: 4 }));
        let dir = tempfile::tempdir().unwrap();
        // The data folder is a file: the write fails with the path named.
        let file = dir.path().join("data");
        std::fs::write(&file, b"x").unwrap();
        let error = save(&shot(4, 4), None, &file, "a.png").unwrap_err();
        assert!(matches!(&error, ScreenshotError::Write { path, .. } if path.starts_with(&file)), "{error}");
    }
}
