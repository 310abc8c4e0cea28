//! User-interface languages and their strings.
//!
//! The strings live in `locales/<code>.toml`, embedded in the binary and parsed once into a [`Strings`] table with one
//! field per key, so code never looks a string up by an ad-hoc literal. English is the reference; the tests check that
//! every language has exactly its keys and the same `{}` placeholders, and that the bundled font covers every character.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// A user-interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// English (the reference).
    #[serde(rename = "en")]
    English,
    /// Japanese.
    #[serde(rename = "ja")]
    Japanese,
    /// Simplified Chinese.
    #[serde(rename = "zh-Hans")]
    SimplifiedChinese,
    /// Traditional Chinese, as written in Taiwan.
    #[serde(rename = "zh-Hant")]
    TraditionalChinese,
}

impl Language {
    /// Every language, in menu order.
    pub const ALL: [Language; 4] =
        [Language::English, Language::Japanese, Language::SimplifiedChinese, Language::TraditionalChinese];

    /// The language's code, which is also its file name under `locales/`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Japanese => "ja",
            Language::SimplifiedChinese => "zh-Hans",
            Language::TraditionalChinese => "zh-Hant",
        }
    }

    /// The family of the bundled font the language's text is drawn in: M PLUS 1 for English and Japanese, the Noto
    /// Sans CJK subsets for Chinese, each with the regional forms of its characters.
    #[must_use]
    pub const fn font_family(self) -> &'static str {
        match self {
            Language::English | Language::Japanese => crate::FONT_FAMILY,
            Language::SimplifiedChinese => "Noto Sans CJK SC",
            Language::TraditionalChinese => "Noto Sans CJK TC",
        }
    }

    /// The regular face of [`font_family`](Self::font_family), as bundled.
    #[must_use]
    pub const fn font(self) -> &'static [u8] {
        match self {
            Language::English | Language::Japanese => crate::FONTS[0],
            Language::SimplifiedChinese => crate::FONTS[2],
            Language::TraditionalChinese => crate::FONTS[3],
        }
    }

    /// The language for a BCP 47 / POSIX locale name such as `ja-JP` or `ja_JP.UTF-8`; English for anything unknown.
    #[must_use]
    pub fn from_locale(locale: &str) -> Language {
        let lower = locale.to_ascii_lowercase().replace('_', "-");
        let (tag, _encoding) = lower.split_once('.').unwrap_or((&lower, ""));
        let mut parts = tag.split('-');
        match parts.next() {
            Some("ja") => Language::Japanese,
            // zh-TW, zh-HK, zh-MO and zh-Hant(-…) are written in traditional characters; zh, zh-CN, zh-SG, zh-Hans in
            // simplified ones (as Egaroucid chooses).
            Some("zh") => {
                if parts.any(|p| matches!(p, "hant" | "tw" | "hk" | "mo")) {
                    Language::TraditionalChinese
                } else {
                    Language::SimplifiedChinese
                }
            }
            _ => Language::English,
        }
    }

    /// The operating system's language, English when it cannot be told.
    #[must_use]
    pub fn from_os() -> Language {
        sys_locale::get_locale().map_or(Language::English, |locale| Language::from_locale(&locale))
    }

    /// The embedded `locales/<code>.toml` text.
    #[must_use]
    pub const fn source(self) -> &'static str {
        match self {
            Language::English => include_str!("../locales/en.toml"),
            Language::Japanese => include_str!("../locales/ja.toml"),
            Language::SimplifiedChinese => include_str!("../locales/zh-Hans.toml"),
            Language::TraditionalChinese => include_str!("../locales/zh-Hant.toml"),
        }
    }

    /// This language's strings (parsed on first use).
    #[must_use]
    pub fn strings(self) -> &'static Strings {
        static ENGLISH: OnceLock<Strings> = OnceLock::new();
        static JAPANESE: OnceLock<Strings> = OnceLock::new();
        static SIMPLIFIED_CHINESE: OnceLock<Strings> = OnceLock::new();
        static TRADITIONAL_CHINESE: OnceLock<Strings> = OnceLock::new();
        let cell = match self {
            Language::English => &ENGLISH,
            Language::Japanese => &JAPANESE,
            Language::SimplifiedChinese => &SIMPLIFIED_CHINESE,
            Language::TraditionalChinese => &TRADITIONAL_CHINESE,
        };
        cell.get_or_init(|| {
            // The files are embedded and checked by the i18n tests, so a failure here is a build defect.
            toml::from_str(self.source()).expect("embedded locale file is checked by the i18n tests")
        })
    }
}

impl fmt::Display for Language {
    /// The language's name in itself ("English", "日本語"), as shown in the Language menu.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Language::English => "English",
            Language::Japanese => "日本語",
            Language::SimplifiedChinese => "简体中文",
            Language::TraditionalChinese => "繁體中文",
        })
    }
}

/// Replaces each `{}` in `template` by the next of `args` (missing arguments leave the `{}`; extra ones are ignored).
#[must_use]
pub fn fill(template: &str, args: &[&dyn fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 8 * args.len());
    let mut args = args.iter();
    let mut rest = template;
    while let Some(at) = rest.find("{}") {
        out.push_str(&rest[..at]);
        match args.next() {
            Some(arg) => out.push_str(&arg.to_string()),
            None => out.push_str("{}"),
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

macro_rules! strings {
    ($($key:ident),* $(,)?) => {
        /// Every user-interface string of one language; field names are the keys of `locales/*.toml`.
        #[derive(Debug, Clone, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Strings {
            $(
                #[doc = concat!("The `", stringify!($key), "` string.")]
                pub $key: String,
            )*
        }

        /// Every key of [`Strings`], in declaration order.
        pub const KEYS: &[&str] = &[$(stringify!($key)),*];
    };
}

strings! {
    window_title,
    menu_game, menu_settings, menu_display, menu_operate, menu_in_out, menu_help, menu_language,
    copy_transcript, paste_transcript,
    new_game_human, new_game_as_black, new_game_as_white, new_selfplay, analyze,
    level, threads, hash_level, evaluation, evaluation_network, evaluation_patterns, ai_plays_black, ai_plays_white, pause_on_pass,
    display_on_board, display_panels, show_legal, show_hints, hint_count, show_hint_level, show_last_move,
    show_next_move, next_move_as_square, show_stable, show_info, show_graph, show_log, alt_palette,
    forward, backward, first_position, last_position, undo, ai_one_move, stop_ai, resume_ai, clear_cache, save_branch,
    about, about_text, about_font, about_folders, close,
    start, pass, dismiss,
    move_number, black, white, ai, human, to_move, game_over, black_wins, white_wins, draw, discs, opening, opening_of_move, best_line,
    level_with_category, category_light, category_standard, category_pragmatic, category_accurate, category_danger,
    ai_thinking, ai_paused, analyzing, must_pass, press_start, engine_loading, last_search,
    graph_title, graph_legend, graph_midgame, graph_endgame, log_title, log_empty,
    hint_level, hint_percent,
    notice_bad_value, notice_unknown_key, notice_settings_unreadable, notice_settings_save_failed,
    notice_weights_failed, notice_network_failed, notice_engine_failed, notice_transcript_rejected, notice_clipboard_empty,
    use_book, menu_book, book_settings, book_depth, book_error_per_move, book_error_sum, book_error_leaf, book_unlimited,
    book_operation, book_file_operation, book_load, book_import, book_export, book_merge, book_info, book_fix,
    book_deviate, book_store, book_stop, book_files, book_progress, book_progress_open,
    book_info_positions, book_info_by_level, book_info_by_ply, book_info_level, book_info_level_human,
    book_info_level_undefined, book_info_ply, book_positions, hint_book, notice_book_unreadable, notice_book_failed,
    log_engine_ready, log_evaluation_network, log_evaluation_patterns, log_cache_cleared, log_stopped, log_search_move, log_search_hints, log_search_analysis, log_exact,
    log_iteration, log_move_searched, log_book_move, log_analysis_done, log_move_rejected, log_book_started,
    log_book_done, log_book_stopped, log_book_failed, book_edit, book_edit_prompt, book_edit_help, book_right_click,
    show_book_accuracy, show_umigame, book_fix_edax, book_reduce, book_leaves, book_lines, book_reference, book_no_file,
    random_board, random_generate, random_moves, random_score_min, random_score_max, back_to_random, generating_random,
    log_random_board, log_search_random, notice_random_failed, screenshot, log_screenshot, notice_screenshot_failed,
    ai_loss, accept_ai_loss, ai_max_loss, ai_loss_percent, ai_loss_default,
    book_deviate_transcripts, book_deviate_transcripts_help, book_deviate_start,
    edit_board, edit_board_help, edit_empty, edit_side, edit_done, edit_clear,
    copy_board, input_text, input_text_help, input_text_count, input_text_import,
    save_game, open_game, game_files, save_game_black, save_game_white, save_game_memo, save_game_choose,
    show_random_graph, convert, convert_rotate180, convert_rotate90_cw, convert_rotate90_ccw, convert_black_line, convert_white_line,
    convert_horizontal, convert_vertical,
    game_library, library_reading, library_empty, library_entry, log_game_saved, log_game_opened, notice_game_file_failed,
    notice_no_file_dialog, chooser_open, chooser_save, chooser_folder, chooser_reading, chooser_unreadable, chooser_empty,
    chooser_empty_path, chooser_missing, chooser_extension, chooser_filter, chooser_choose, chooser_up,
    analyzing_progress, notice_settings_salvaged, text_empty, text_too_long, text_unrecognised, text_line,
    text_no_transcript, transcript_invalid_char, transcript_incomplete, transcript_illegal, illegal_occupied,
    illegal_no_flip, illegal_pass, illegal_game_over, game_file_json, game_file_not_object, game_file_empty,
    game_file_node, game_file_gap, game_file_in_file, game_file_io, book_error_read, book_error_parse,
    book_error_read_only, book_error_save, book_error_stopped, book_error_folder, book_error_weights, book_error_search,
    book_error_edit, format_truncated, format_magic, format_version, format_count, format_record, format_line,
    format_trailing, format_stopped, format_unknown, screenshot_capture, screenshot_encode, screenshot_write,
    game_file_not_a_board, game_file_overlap, game_file_player, io_not_found, io_permission_denied, io_already_exists, io_storage_full, io_read_only, io_is_a_directory, io_not_a_directory, io_file_too_large, io_invalid_filename, io_invalid_data, io_unexpected_eof, io_out_of_memory, io_interrupted, io_other, save_step_check_path, save_step_write, save_step_backup, save_step_rename, save_step_failed, weights_read, weights_network, weights_too_large, weights_damaged, weights_save, weights_magic, weights_version, weights_shape, weights_damaged_at, weights_payload, search_threads, search_backend, record_overlap, record_empty_board, record_value, record_line_length, record_character, data_ends_early, settings_not_utf8, settings_toml, settings_toml_line, settings_copy_failed, book_error_not_a_book, save_make_folder, generating_random_progress,
    generating_random_search, stop_job, book_save,
    book_reset_default, book_reset_question, book_reset_yes, notice_default_book,
    io_not_a_file, notice_book_locked, notice_book_locked_by,
    open_book_title, open_book_use_question, open_book_use_yes, open_book_merge_question, open_book_merge_yes,
    notice_open_failed, notice_open_unknown, how_to_use, licences, licences_intro, report_problem,
    notice_open_link_failed, notice_manual_missing, about_build,
    show_flipped_last, show_flipped_hover, colorize_hints, play_order_board, play_order_transcript,
    graph_evaluation, graph_sum_of_loss, graph_sum_of_loss_title, graph_endgame_error, endgame_error_40, endgame_error_41,
    game_information, game_information_ok, save_game_date,
    bitboard_input, bitboard_help, bitboard_player, bitboard_opponent, bitboard_as_black, bitboard_as_white,
    bitboard_output_player, bitboard_output_black, bitboard_missing_player, bitboard_missing_opponent,
    bitboard_invalid_char, bitboard_too_large, bitboard_overlap, bitboard_invalid,
    small_book_title, small_book_question, small_book_yes, book_export_level,
    umigame_depth, umigame_error, umigame_min, umigame_max, generate_xot, xot_new_games, laser_pointer, ai_loss_curves, ai_loss_curves_help, ai_loss_curves_title,
    profile_ai, profile_display, profile_ai_title, profile_display_title, profile_none, profile_load, profile_overwrite,
    profile_rename, profile_delete, profile_name, profile_new_save, profile_help, profile_failed, book_export_edax,
    profile_ai_autosave, profile_display_autosave, profile_autosave_off, profile_autosave_overwrite, profile_autosave_new,
    screenshot_coordinates, screenshot_margin, website,
    show_timer, timer_minutes, timer_no_limit, clock_times, clock_start, clock_pause, clock_reset, time_up,
    shortcut_keys, shortcut_keys_title, shortcut_help, shortcut_change, shortcut_clear, shortcut_default, shortcut_press,
    shortcut_taken, button_settings, mouse_button_settings, buttons_title, buttons_on_screen, buttons_mouse,
    button_number, mouse_middle, mouse_back, mouse_forward,
    force_openings, forced_setting, forced_title, forced_help, forced_root, forced_up, forced_enabled, forced_weight, forced_folder_weight, forced_delete, forced_move_up, forced_empty, forced_register, forced_transcript, forced_game_line, forced_folder_name, forced_new_folder, log_forced_move, notice_forced_unreadable, notice_forced_skipped, notice_forced_save_failed, forced_status_in, forced_status_ended, forced_status_out,
    log_screenshot_copied, notice_screenshot_not_copied,
    screenshot_folder_menu, screenshot_folder, screenshot_folder_help, screenshot_folder_use, notice_not_a_folder,
    library_bin, library_bin_empty, library_restore, library_empty_bin, library_select_all, library_copy, library_cut, library_paste, library_rename_folder, library_delete_folder, library_help, library_failed,
    migration_export_menu, migration_import_menu, migration_export, migration_export_help, migration_export_go, migration_import, migration_import_help, migration_import_go, notice_exported, notice_imported, notice_migration_failed, migration_not_an_export, migration_changed,
    show_focus, focus_legend,
    hints_on_ai_turn,
    display_book_marks,
    board_style_green, board_style_dark_green, board_style_wood, board_style_blue, board_style_grey,
    review, review_this_game, review_title, review_progress, review_next, review_previous, review_export, review_close,
    grade_book, grade_best, grade_good, grade_inaccuracy, grade_mistake, grade_blunder,
    review_player, review_counts, review_phases, review_move, review_better, review_no_move,
    review_settings, review_level, review_exact_from, review_good_max, review_inaccuracy_max, review_mistake_max,
    text_files, log_review_saved, notice_review_save_failed,
    show_explorer, explorer_title, explorer_import, explorer_no_archive, explorer_summary, explorer_no_games,
    explorer_looking, explorer_col_move, explorer_col_games, explorer_col_black, explorer_col_draw,
    explorer_col_white, explorer_col_score, explorer_col_value, explorer_value_note, explorer_games,
    explorer_col_tournament, explorer_col_year, explorer_col_result, explorer_years, explorer_player,
    explorer_importing, explorer_stage_reading, explorer_stage_games, explorer_stage_replaying,
    explorer_stage_positions, explorer_stage_committing, explorer_stop, explorer_files, explorer_failed,
    explorer_loading_game, notice_archive_imported, notice_archive_stopped, notice_archive_failed,
    archive_not_an_archive, archive_newer, archive_damaged, archive_unsupported, archive_read, archive_database,
    ai_style, ai_style_engine, ai_style_strength, strength_beginner, strength_casual, strength_club,
    strength_tournament, strength_expert, ai_style_average, ai_style_max,
    menu_quiz, menu_trainer, menu_progress, study_close, quiz_title, quiz_preparing, quiz_find_best, quiz_right,
    quiz_wrong, quiz_best, quiz_played, quiz_points, quiz_retry, quiz_next, quiz_session, quiz_streak, quiz_rating,
    quiz_empties, quiz_exact_note, quiz_search_note, quiz_score_range, trainer_title, progress_title,
    progress_reading, progress_empty, progress_quiz_total, progress_cards_total, progress_rating_now,
    progress_rating_axis, progress_days_axis, notice_study_failed, study_open, study_not_a_file, study_newer,
    study_database, study_damaged,
    trainer_intro, trainer_side, trainer_depth, trainer_error, trainer_variation, trainer_start, trainer_building,
    trainer_no_book, trainer_book_busy, trainer_out_of_book, trainer_stopped, trainer_your_move, trainer_right,
    trainer_right_not_best, trainer_wrong_loss, trainer_not_in_repertoire, trainer_shown, trainer_continue,
    trainer_end, trainer_line_done, trainer_ended, trainer_session, trainer_retention, trainer_next_due,
    trainer_due_now, trainer_extra, trainer_deck,
    trainer_source_book, trainer_source_lines, trainer_no_lines, trainer_bad_line,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_placeholders_in_order() {
        assert_eq!(fill("{} to {}", &[&"a", &3]), "a to 3");
        assert_eq!(fill("x {} y", &[]), "x {} y");
        assert_eq!(fill("no placeholder", &[&1]), "no placeholder");
    }

    #[test]
    fn locale_names_map_to_languages() {
        assert_eq!(Language::from_locale("ja-JP"), Language::Japanese);
        assert_eq!(Language::from_locale("ja_JP.UTF-8"), Language::Japanese);
        assert_eq!(Language::from_locale("JA"), Language::Japanese);
        assert_eq!(Language::from_locale("en-US"), Language::English);
        assert_eq!(Language::from_locale("jav"), Language::English);
        assert_eq!(Language::from_locale(""), Language::English);
        assert_eq!(Language::from_locale("zh_CN.UTF-8"), Language::SimplifiedChinese);
        assert_eq!(Language::from_locale("zh-Hans-SG"), Language::SimplifiedChinese);
        assert_eq!(Language::from_locale("zh"), Language::SimplifiedChinese);
        assert_eq!(Language::from_locale("zh-TW"), Language::TraditionalChinese);
        assert_eq!(Language::from_locale("zh_HK.UTF-8"), Language::TraditionalChinese);
        assert_eq!(Language::from_locale("zh-Hant"), Language::TraditionalChinese);
        assert_eq!(Language::from_locale("zhx"), Language::English);
    }
}
