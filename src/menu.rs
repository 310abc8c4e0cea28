//! The menu bar (iced_aw): Game, Settings, Display, Operate, In/Out, Book, Help and Language. Every item sends a
//! message; items of features that do not exist yet are absent.

use iced::widget::{button, checkbox, column, container, slider, text};
use iced::{Element, Length};
use iced_aw::menu::{Item, Menu, MenuBar};

use crate::book::{self, Operation};
use crate::context::Ctx;
use crate::game::{self, Mode};
use crate::i18n::{Language, Strings, fill};
use crate::in_out;
use crate::message::Message;
use crate::settings::profile::{AutoSave, ProfileKind};
use crate::settings::{self, BoardStyle, Change, EndgameError, GraphMode, PlayOrder, Settings, Toggle, display_value};
use crate::shortcut::Function as F;
use shirokuro_engine::bitboard::Symmetry;

type MenuItem<'a> = Item<'a, Message, iced::Theme, iced::Renderer>;

/// Width of the drop-down menus.
const MENU_WIDTH: f32 = 300.0;

/// A menu label and the widget id it is found by (the label's key in `locales/`), so that tests find menu items
/// whatever the language.
type Label<'a> = (&'a str, &'static str);

/// The label of the string `key` of `s`, with `key` as its id.
macro_rules! label {
    ($s:ident . $key:ident) => {
        ($s.$key.as_str(), stringify!($key))
    };
}

mod settings_items;

use settings_items::{ai_loss_items, ai_style_items, evaluation_items, review_items};

fn root<'a>((label, id): Label<'_>) -> Element<'a, Message> {
    container(text(label.to_owned()).size(15)).id(id).padding([4, 10]).into()
}

fn action<'a>((label, id): Label<'_>, shortcut: Option<&str>, message: Message) -> MenuItem<'a> {
    let label = match shortcut {
        Some(key) => format!("{label} ({key})"),
        None => label.to_owned(),
    };
    Item::new(container(button(text(label).size(14)).width(Length::Fill).style(button::text).on_press(message)).id(id))
}

fn check<'a>(
    (label, id): (impl AsRef<str>, &'static str),
    value: bool,
    on_toggle: impl Fn(bool) -> Message + 'a,
) -> MenuItem<'a> {
    let checkbox = checkbox(value).label(label.as_ref().to_owned()).text_size(14).on_toggle(on_toggle);
    Item::new(container(checkbox).id(id).padding([4, 8]))
}

/// A label with its shortcut key, if it has one: "Analyze (A)".
fn keyed<'a>((label, id): Label<'a>, key: &Option<String>) -> (std::borrow::Cow<'a, str>, &'static str) {
    match key {
        Some(key) => (format!("{label} ({key})").into(), id),
        None => (label.into(), id),
    }
}

/// A display switch, with the key of its function if it has one.
fn toggle<'a>(label: Label<'_>, settings: &Settings, which: Toggle) -> MenuItem<'a> {
    let key = toggle_function(which).and_then(|f| settings.shortcuts.key(f)).map(ToString::to_string);
    check(keyed(label, &key), display_value(&settings.display, which), move |on| {
        Message::Setting(Change::Display(which, on))
    })
}

/// The shortcut function of a display switch, where there is one.
fn toggle_function(which: Toggle) -> Option<F> {
    Some(match which {
        Toggle::Legal => F::ShowLegal,
        Toggle::Hints => F::ShowDiscHint,
        Toggle::Umigame => F::ShowUmigameValue,
        Toggle::BookAccuracy => F::ShowBookAccuracy,
        Toggle::Stable => F::ShowStable,
        Toggle::LastMove => F::ShowLastMove,
        Toggle::NextMove => F::ShowNextMove,
        Toggle::Info => F::ShowInfo,
        Toggle::Graph => F::ShowGraph,
        Toggle::Log => F::ShowLog,
        Toggle::Timer => F::ShowTimer,
        Toggle::LaserPointer => F::ShowLaserPointer,
        _ => return None,
    })
}

/// The shortcut function of a Convert item.
fn convert_function(symmetry: Symmetry) -> F {
    match symmetry {
        Symmetry::Rotate180 => F::ConvertRotate180,
        Symmetry::Rotate90 => F::ConvertRotate90Clockwise,
        Symmetry::Rotate270 => F::ConvertRotate90Counterclockwise,
        Symmetry::MirrorAntiDiagonal => F::ConvertBlackLine,
        Symmetry::MirrorDiagonal => F::ConvertWhiteLine,
        Symmetry::MirrorHorizontal => F::ConvertHorizontal,
        Symmetry::MirrorVertical | Symmetry::Identity => F::ConvertVertical,
    }
}

/// One of the two Play Ordering formats: checked when it is the one shown; unchecking it turns the numbers off.
fn play_order<'a>(label: Label<'_>, display: &settings::Display, order: PlayOrder) -> MenuItem<'a> {
    check(label, display.play_order == order, move |on| {
        Message::Setting(Change::PlayOrder(if on { order } else { PlayOrder::Off }))
    })
}

/// One of the graph's two modes (a radio item: checking it chooses it), with its key.
fn graph_mode<'a>(label: Label<'_>, settings: &Settings, mode: GraphMode) -> MenuItem<'a> {
    let function = match mode {
        GraphMode::Evaluation => F::ShowGraphValue,
        GraphMode::SumOfLoss => F::ShowGraphSumOfLoss,
    };
    let key = settings.shortcuts.key(function).map(ToString::to_string);
    check(keyed(label, &key), settings.display.graph_mode == mode, move |_| Message::Setting(Change::GraphMode(mode)))
}

/// The board's colour scheme: a slider over the five, captioned with the one chosen (one row of the menu).
fn board_style<'a>(s: &Strings, now: BoardStyle) -> MenuItem<'a> {
    let name = match now {
        BoardStyle::Green => &s.board_style_green,
        BoardStyle::DarkGreen => &s.board_style_dark_green,
        BoardStyle::Wood => &s.board_style_wood,
        BoardStyle::Blue => &s.board_style_blue,
        BoardStyle::Grey => &s.board_style_grey,
    };
    let index = BoardStyle::ALL.iter().position(|b| *b == now).unwrap_or(0);
    let last = u8::try_from(BoardStyle::ALL.len() - 1).unwrap_or(0);
    shown_range(name.clone(), 0..=last, u8::try_from(index).unwrap_or(0), |i| {
        Message::Setting(Change::BoardStyle(BoardStyle::ALL.get(usize::from(i)).copied().unwrap_or_default()))
    })
}

/// One of the Endgame Error ranges: checked when shown; unchecking it hides the figures.
fn endgame_error<'a>(label: Label<'_>, display: &settings::Display, from: EndgameError) -> MenuItem<'a> {
    check(label, display.endgame_error == from, move |on| {
        Message::Setting(Change::EndgameError(if on { from } else { EndgameError::Off }))
    })
}

/// A profile kind's Auto-Save choices as radio items of the menu itself ("AI Profile Auto-Save: Off", …; not a
/// submenu: iced_aw 0.14's overlay panics in widget operations when one of two sibling submenus is open).
fn auto_save_items<'a>(s: &crate::i18n::Strings, kind: ProfileKind, now: AutoSave) -> Vec<MenuItem<'a>> {
    let (title, ids) = match kind {
        ProfileKind::Ai => (&s.profile_ai_autosave, ["ai_autosave_off", "ai_autosave_overwrite", "ai_autosave_new"]),
        ProfileKind::Display => (
            &s.profile_display_autosave,
            ["display_autosave_off", "display_autosave_overwrite", "display_autosave_new"],
        ),
    };
    let choices = [
        (&s.profile_autosave_off, AutoSave::Off),
        (&s.profile_autosave_overwrite, AutoSave::Overwrite),
        (&s.profile_autosave_new, AutoSave::NewSave),
    ];
    choices
        .into_iter()
        .zip(ids)
        .map(|((choice, auto), id)| {
            let label = format!("{title}: {choice}");
            check((&label, id), now == auto, move |_| Message::Setting(Change::ProfileAutoSave(kind, auto)))
        })
        .collect()
}

fn menu(items: Vec<MenuItem<'_>>) -> Menu<'_, Message, iced::Theme, iced::Renderer> {
    Menu::new(items).width(MENU_WIDTH).offset(4.0).spacing(2.0)
}

/// A labelled slider over `values` (any of the integer types the slider takes), showing its value.
fn range<'a, T>(
    (label, _id): Label<'_>,
    values: std::ops::RangeInclusive<T>,
    value: T,
    on_change: impl Fn(T) -> Message + 'a,
) -> MenuItem<'a>
where
    T: Copy + From<u8> + PartialOrd + num_traits::FromPrimitive + std::fmt::Display + 'a,
    f64: From<T>,
{
    shown_range(format!("{label}: {value}"), values, value, on_change)
}

/// The timer's minutes per player, "no limit" at 0.
fn timer_minutes<'a>(s: &Strings, minutes: u8) -> MenuItem<'a> {
    let value = if minutes == 0 { s.timer_no_limit.clone() } else { minutes.to_string() };
    shown_range(fill(&s.timer_minutes, &[&value]), settings::TIMER_MINUTES, minutes, |v| {
        Message::Setting(Change::TimerMinutes(v))
    })
}

/// A slider under a caption that says what its value means.
fn shown_range<'a, T>(
    caption: String,
    values: std::ops::RangeInclusive<T>,
    value: T,
    on_change: impl Fn(T) -> Message + 'a,
) -> MenuItem<'a>
where
    T: Copy + From<u8> + PartialOrd + num_traits::FromPrimitive + 'a,
    f64: From<T>,
{
    Item::new(column![text(caption).size(14), slider(values, value, on_change)].spacing(2).padding([4, 8]))
}

/// A slider for a book error setting; its top value reads "Inf" (no limit).
fn error_range<'a>(
    (label, _id): Label<'_>,
    unlimited: &str,
    value: u8,
    on_change: impl Fn(u8) -> Message + 'a,
) -> MenuItem<'a> {
    let shown = if value >= settings::BOOK_ERROR_UNLIMITED { unlimited.to_owned() } else { value.to_string() };
    shown_range(format!("{label}: {shown}"), settings::BOOK_ERRORS, value, on_change)
}

/// The umigame error slider; its top value reads "Inf" (no limit).
fn umigame_error<'a>((label, _id): Label<'_>, unlimited: &str, value: u8) -> MenuItem<'a> {
    let top = *settings::UMIGAME_ERRORS.end();
    let shown = if value >= top { unlimited.to_owned() } else { value.to_string() };
    shown_range(format!("{label}: {shown}"), settings::UMIGAME_ERRORS, value, |v| {
        Message::Setting(Change::UmigameError(v))
    })
}

/// A bound of the umigame score range, on Egaroucid's scale (−64, −8 … 8, 64), as a slider over its steps.
fn umigame_score<'a>((label, _id): Label<'_>, value: i8, change: fn(i8) -> Change) -> MenuItem<'a> {
    let scores = settings::UMIGAME_SCORES;
    let step = scores.iter().position(|v| *v == value).unwrap_or(0);
    let step = u8::try_from(step).unwrap_or(0);
    let top = u8::try_from(scores.len() - 1).unwrap_or(0);
    shown_range(format!("{label}: {value:+}"), 0..=top, step, move |i| {
        Message::Setting(change(scores.get(usize::from(i)).copied().unwrap_or(0)))
    })
}

fn submenu<'a>((label, id): Label<'_>, items: Vec<MenuItem<'a>>) -> MenuItem<'a> {
    let title = container(text(format!("{label} ›")).size(14)).id(id).padding([4, 8]).width(Length::Fill);
    Item::with_menu(title, menu(items))
}

/// The menu bar. `paused` chooses between Stop and Resume; `book_busy` adds Stop to the book operations.
pub fn bar<'a>(ctx: &Ctx<'_>, paused: bool, book_busy: bool) -> Element<'a, Message> {
    let s = ctx.strings();
    let settings = ctx.settings;
    let d = &settings.display;
    let g = |m: game::Message| Message::Game(m);
    let io = |m: in_out::Message| Message::InOut(m);
    let k = |f: F| settings.shortcuts.key(f).map(ToString::to_string);

    let game_menu = menu(vec![
        action(label!(s.new_game_human), k(F::NewGame).as_deref(), Message::NewGame(Mode::HumanVsHuman)),
        action(label!(s.new_game_as_black), k(F::NewGameHumanBlack).as_deref(), Message::NewGame(Mode::YouAsBlack)),
        action(label!(s.new_game_as_white), k(F::NewGameHumanWhite).as_deref(), Message::NewGame(Mode::YouAsWhite)),
        action(label!(s.new_selfplay), k(F::NewSelfplay).as_deref(), Message::NewGame(Mode::SelfPlay)),
        action(label!(s.analyze), k(F::Analyze).as_deref(), g(game::Message::Analyze)),
        action(label!(s.review), k(F::Review).as_deref(), g(game::Message::Review(crate::review::Message::Start))),
        submenu(label!(s.review_settings), review_items(s, settings.review)),
        action(label!(s.menu_trainer), None, Message::OpenStudy(crate::study::Open::Trainer)),
        action(label!(s.game_information), k(F::GameInformation).as_deref(), io(in_out::Message::GameInformation)),
        check(label!(s.xot_new_games), settings.xot_new_games, |on| Message::Setting(Change::XotNewGames(on))),
    ]);
    let settings_menu = menu(
        vec![
            check(keyed(label!(s.use_book), &k(F::UseBook)), settings.use_book, |on| {
                Message::Setting(Change::UseBook(on))
            }),
            range(label!(s.level), settings::LEVELS, settings.level, |v| Message::Setting(Change::Level(v))),
            range(label!(s.threads), settings::THREADS, settings.threads, |v| Message::Setting(Change::Threads(v))),
            range(label!(s.hash_level), settings::HASH_LEVELS, settings.hash_level, |v| {
                Message::Setting(Change::HashLevel(v))
            }),
            submenu(label!(s.evaluation), evaluation_items(s, settings.evaluation)),
            check(keyed(label!(s.ai_plays_black), &k(F::AiPutBlack)), settings.ai_plays_black, |on| {
                Message::Setting(Change::AiBlack(on))
            }),
            check(keyed(label!(s.ai_plays_white), &k(F::AiPutWhite)), settings.ai_plays_white, |on| {
                Message::Setting(Change::AiWhite(on))
            }),
            check(label!(s.pause_on_pass), settings.pause_on_pass, |on| Message::Setting(Change::PauseOnPass(on))),
            submenu(label!(s.ai_loss), ai_loss_items(s, settings)),
            submenu(label!(s.ai_style), ai_style_items(s, settings.ai_style)),
            check(label!(s.force_openings), settings.force_openings, |on| Message::Setting(Change::ForceOpenings(on))),
            action(label!(s.forced_setting), None, Message::ForcedOpenings),
            action(label!(s.profile_ai), None, Message::Profiles(ProfileKind::Ai)),
            action(label!(s.shortcut_keys), None, Message::ShortcutKeys),
            action(label!(s.button_settings), None, Message::ButtonSettings),
            action(label!(s.mouse_button_settings), None, Message::ButtonSettings),
        ]
        .into_iter()
        .chain(auto_save_items(s, ProfileKind::Ai, settings.ai_profile_autosave))
        .collect(),
    );
    let display_menu = menu(
        vec![
            action(label!(s.profile_display), None, Message::Profiles(ProfileKind::Display)),
            submenu(
                label!(s.display_on_board),
                vec![
                    toggle(label!(s.show_legal), settings, Toggle::Legal),
                    toggle(label!(s.show_hints), settings, Toggle::Hints),
                    range(label!(s.hint_count), settings::HINT_COUNTS, d.hint_count, |v| {
                        Message::Setting(Change::HintCount(v))
                    }),
                    toggle(label!(s.show_hint_level), settings, Toggle::HintLevel),
                    toggle(label!(s.hints_on_ai_turn), settings, Toggle::HintsOnAiTurn),
                    toggle(label!(s.show_last_move), settings, Toggle::LastMove),
                    toggle(label!(s.show_next_move), settings, Toggle::NextMove),
                    toggle(label!(s.next_move_as_square), settings, Toggle::NextMoveAsSquare),
                    toggle(label!(s.show_stable), settings, Toggle::Stable),
                    toggle(label!(s.colorize_hints), settings, Toggle::ColorizeHints),
                    toggle(label!(s.show_flipped_last), settings, Toggle::FlippedLast),
                    toggle(label!(s.show_flipped_hover), settings, Toggle::FlippedHover),
                    toggle(label!(s.laser_pointer), settings, Toggle::LaserPointer),
                    toggle(label!(s.show_focus), settings, Toggle::Focus),
                    play_order(label!(s.play_order_board), d, PlayOrder::Board),
                    play_order(label!(s.play_order_transcript), d, PlayOrder::Transcript),
                ],
            ),
            // The book's marks in a menu of their own: with them, On Board was taller than the window.
            submenu(
                label!(s.display_book_marks),
                vec![
                    toggle(label!(s.show_book_accuracy), settings, Toggle::BookAccuracy),
                    toggle(label!(s.show_umigame), settings, Toggle::Umigame),
                    range(label!(s.umigame_depth), settings::UMIGAME_DEPTHS, d.umigame_depth, |v| {
                        Message::Setting(Change::UmigameDepth(v))
                    }),
                    umigame_error(label!(s.umigame_error), &s.book_unlimited, d.umigame_error),
                    umigame_score(label!(s.umigame_min), d.umigame_min, Change::UmigameMin),
                    umigame_score(label!(s.umigame_max), d.umigame_max, Change::UmigameMax),
                ],
            ),
            submenu(
                label!(s.display_panels),
                vec![
                    toggle(label!(s.show_info), settings, Toggle::Info),
                    toggle(label!(s.show_graph), settings, Toggle::Graph),
                    toggle(label!(s.show_log), settings, Toggle::Log),
                    toggle(label!(s.alt_palette), settings, Toggle::AltPalette),
                    toggle(label!(s.show_random_graph), settings, Toggle::RandomGraph),
                    toggle(label!(s.show_timer), settings, Toggle::Timer),
                    timer_minutes(s, d.timer_minutes),
                    graph_mode(label!(s.graph_evaluation), settings, GraphMode::Evaluation),
                    graph_mode(label!(s.graph_sum_of_loss), settings, GraphMode::SumOfLoss),
                    endgame_error(label!(s.endgame_error_40), d, EndgameError::From40),
                    endgame_error(label!(s.endgame_error_41), d, EndgameError::From41),
                ],
            ),
            toggle(label!(s.show_explorer), settings, Toggle::Explorer),
            action(label!(s.menu_progress), None, Message::OpenStudy(crate::study::Open::Progress)),
        ]
        .into_iter()
        .chain(auto_save_items(s, ProfileKind::Display, settings.display_profile_autosave))
        .collect(),
    );
    let stop_or_resume = if paused {
        action(label!(s.resume_ai), None, g(game::Message::Resume))
    } else {
        action(label!(s.stop_ai), k(F::StopCalculating).as_deref(), g(game::Message::Stop))
    };
    let r = settings.random_board;
    let scores = i16::from(*settings::RANDOM_SCORES.start())..=i16::from(*settings::RANDOM_SCORES.end());
    let score = |v: i16| i8::try_from(v).unwrap_or(0);
    let operate_menu = menu(vec![
        action(label!(s.ai_one_move), k(F::Put1MoveByAi).as_deref(), g(game::Message::AiMoveOnce)),
        action(label!(s.forward), k(F::Forward).as_deref(), g(game::Message::Forward)),
        action(label!(s.backward), k(F::Backward).as_deref(), g(game::Message::Backward)),
        action(label!(s.undo), k(F::Undo).as_deref(), g(game::Message::Undo)),
        action(label!(s.first_position), k(F::GoToFirst).as_deref(), g(game::Message::First)),
        action(label!(s.last_position), k(F::GoToLast).as_deref(), g(game::Message::Last)),
        action(label!(s.save_branch), k(F::SaveThisBranch).as_deref(), g(game::Message::SaveBranch)),
        action(label!(s.back_to_random), k(F::BackToRandomPos).as_deref(), g(game::Message::BackToRandom)),
        action(label!(s.generate_xot), k(F::GenerateXotPosition).as_deref(), g(game::Message::GenerateXot)),
        submenu(
            label!(s.convert),
            [
                (label!(s.convert_rotate180), Symmetry::Rotate180),
                (label!(s.convert_rotate90_cw), Symmetry::Rotate90),
                (label!(s.convert_rotate90_ccw), Symmetry::Rotate270),
                (label!(s.convert_black_line), Symmetry::MirrorAntiDiagonal),
                (label!(s.convert_white_line), Symmetry::MirrorDiagonal),
                (label!(s.convert_horizontal), Symmetry::MirrorHorizontal),
                (label!(s.convert_vertical), Symmetry::MirrorVertical),
            ]
            .into_iter()
            .map(|(label, symmetry)| {
                action(label, k(convert_function(symmetry)).as_deref(), g(game::Message::Convert(symmetry)))
            })
            .collect(),
        ),
        submenu(
            label!(s.random_board),
            vec![
                action(
                    label!(s.random_generate),
                    k(F::GenerateRandomBoard).as_deref(),
                    g(game::Message::GenerateRandom),
                ),
                range(label!(s.random_moves), settings::RANDOM_MOVES, r.moves, |v| {
                    Message::Setting(Change::RandomMoves(v))
                }),
                range(label!(s.random_score_min), scores.clone(), i16::from(r.score_min), move |v| {
                    Message::Setting(Change::RandomMin(score(v)))
                }),
                range(label!(s.random_score_max), scores, i16::from(r.score_max), move |v| {
                    Message::Setting(Change::RandomMax(score(v)))
                }),
            ],
        ),
        action(label!(s.menu_quiz), None, Message::OpenStudy(crate::study::Open::Quiz)),
        stop_or_resume,
        action(label!(s.clear_cache), k(F::CacheClear).as_deref(), g(game::Message::ClearCache)),
    ]);
    let in_out_menu = menu(vec![
        action(label!(s.paste_transcript), k(F::InputFromClipboard).as_deref(), io(in_out::Message::Paste)),
        action(label!(s.input_text), k(F::InputText).as_deref(), io(in_out::Message::InputText)),
        action(label!(s.edit_board), k(F::EditBoard).as_deref(), Message::Game(game::Message::EditBoard(true))),
        action(label!(s.copy_transcript), k(F::OutputTranscript).as_deref(), io(in_out::Message::CopyTranscript)),
        action(label!(s.copy_board), k(F::OutputBoard).as_deref(), io(in_out::Message::CopyBoard)),
        action(label!(s.bitboard_input), None, io(in_out::Message::InputBitboard)),
        action(label!(s.bitboard_output_player), None, io(in_out::Message::CopyBitboard { black_white: false })),
        action(label!(s.bitboard_output_black), None, io(in_out::Message::CopyBitboard { black_white: true })),
        action(label!(s.screenshot), k(F::ScreenShot).as_deref(), io(in_out::Message::Screenshot)),
        check(label!(s.screenshot_coordinates), settings.screenshot_coordinates, |on| {
            Message::Setting(Change::ScreenshotCoordinates(on))
        }),
        range(label!(s.screenshot_margin), settings::SCREENSHOT_MARGINS, settings.screenshot_margin, |m| {
            Message::Setting(Change::ScreenshotMargin(m))
        }),
        board_style(s, settings.display.board_style),
        action(label!(s.screenshot_folder_menu), None, io(in_out::Message::ScreenshotFolder)),
        action(label!(s.save_game), k(F::SaveGame).as_deref(), io(in_out::Message::SaveGame)),
        action(label!(s.open_game), k(F::OpenGame).as_deref(), io(in_out::Message::OpenGame)),
        action(label!(s.game_library), k(F::GameLibrary).as_deref(), io(in_out::Message::Library)),
        action(label!(s.explorer_import), None, Message::Explorer(crate::explorer::Message::Import)),
    ]);
    let b = &settings.book;
    let inf = s.book_unlimited.as_str();
    let book = |operation| Message::Book(book::Message::Run(operation));
    let mut operations = vec![
        check(label!(s.book_right_click), b.right_click_edit, |on| Message::Setting(Change::BookRightClick(on))),
        action(label!(s.book_deviate), None, book(Operation::Deviate)),
        action(label!(s.book_deviate_transcripts), None, Message::DeviateTranscripts),
        action(label!(s.book_store), None, book(Operation::Store)),
        action(label!(s.book_fix), None, book(Operation::Fix)),
        action(label!(s.book_fix_edax), None, book(Operation::FixEdax)),
        action(label!(s.book_reduce), None, book(Operation::Reduce)),
        action(label!(s.book_leaves), None, book(Operation::Leaves)),
        action(label!(s.book_lines), None, book(Operation::Lines)),
    ];
    if book_busy {
        operations.push(action(
            label!(s.book_stop),
            k(F::StopCalculating).as_deref(),
            Message::Book(book::Message::Stop),
        ));
    }
    let book_menu = menu(vec![
        submenu(
            label!(s.book_settings),
            vec![
                range(label!(s.book_depth), settings::BOOK_DEPTHS, b.depth, |v| Message::Setting(Change::BookDepth(v))),
                error_range(label!(s.book_error_per_move), inf, b.error_per_move, |v| {
                    Message::Setting(Change::BookErrorPerMove(v))
                }),
                error_range(label!(s.book_error_sum), inf, b.error_sum, |v| Message::Setting(Change::BookErrorSum(v))),
                error_range(label!(s.book_error_leaf), inf, b.error_leaf, |v| {
                    Message::Setting(Change::BookErrorLeaf(v))
                }),
            ],
        ),
        submenu(label!(s.book_operation), operations),
        submenu(
            label!(s.book_file_operation),
            vec![
                action(label!(s.book_import), None, book(Operation::Import)),
                action(label!(s.book_export), None, book(Operation::Export)),
                action(label!(s.book_export_level), None, book(Operation::ExportLevel)),
                action(label!(s.book_export_edax), None, book(Operation::ExportEdax)),
                action(label!(s.book_merge), None, book(Operation::Merge)),
                action(label!(s.book_reference), None, book(Operation::Reference)),
                action(label!(s.book_reset_default), None, book(Operation::ResetDefault)),
            ],
        ),
        action(label!(s.book_info), k(F::BookInfo).as_deref(), book(Operation::Info)),
    ]);
    let help_menu = menu(vec![
        action(label!(s.how_to_use), k(F::HowToUse).as_deref(), Message::HowToUse),
        action(label!(s.licences), None, Message::Licences),
        action(label!(s.migration_export_menu), None, Message::Migration(true)),
        action(label!(s.migration_import_menu), None, Message::Migration(false)),
        action(label!(s.website), None, Message::Website),
        action(label!(s.report_problem), None, Message::ReportProblem),
        action(label!(s.about), k(F::About).as_deref(), Message::About),
    ]);
    let language_menu = menu(
        Language::ALL
            .iter()
            .map(|&language| {
                let mark = if language == ctx.language { "• " } else { "   " };
                let id = match language {
                    Language::English => "language_en",
                    Language::Japanese => "language_ja",
                    Language::SimplifiedChinese => "language_zh_hans",
                    Language::TraditionalChinese => "language_zh_hant",
                };
                action((&format!("{mark}{language}"), id), None, Message::LanguageSelected(language))
            })
            .collect(),
    );

    let bar = MenuBar::new(vec![
        Item::with_menu(root(label!(s.menu_game)), game_menu),
        Item::with_menu(root(label!(s.menu_settings)), settings_menu),
        Item::with_menu(root(label!(s.menu_display)), display_menu),
        Item::with_menu(root(label!(s.menu_operate)), operate_menu),
        Item::with_menu(root(label!(s.menu_in_out)), in_out_menu),
        Item::with_menu(root(label!(s.menu_book)), book_menu),
        Item::with_menu(root(label!(s.menu_help)), help_menu),
        Item::with_menu(root(label!(s.menu_language)), language_menu),
    ])
    .spacing(2.0)
    .width(Length::Fill);
    container(crate::widget::escape_closes::escape_closes(bar)).id("menu-bar").width(Length::Fill).into()
}
