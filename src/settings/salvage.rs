//! Reading what can be read of a damaged settings file: every `key = value` that parses on its own, under the
//! `[table]` header it follows, is kept; the lines that do not parse are reported.

/// The keys that parsed, as a table, and the numbers (from 1) of the lines that did not.
#[must_use]
pub fn salvage(text: &str) -> (toml::Table, Vec<usize>) {
    let mut table = toml::Table::new();
    let mut lost = Vec::new();
    let mut section: Option<String> = None;
    let lines: Vec<&str> = text.lines().collect();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index].trim();
        let number = index + 1;
        index += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') && !line.contains('=') {
            match line.parse::<toml::Table>() {
                Ok(header) => section = header.keys().next().cloned(),
                Err(_) => {
                    // A broken header: what follows cannot be placed, so it is dropped until the next header.
                    section = Some(String::new());
                    lost.push(number);
                }
            }
            continue;
        }
        // A value may go on over several lines (arrays): take lines until it parses, up to a few dozen.
        let mut chunk = line.to_owned();
        let mut parsed = chunk.parse::<toml::Table>();
        let mut extra = 0;
        while parsed.is_err() && index + extra < lines.len() && extra < 40 && opens_more(&chunk) {
            chunk.push('\n');
            chunk.push_str(lines[index + extra]);
            extra += 1;
            parsed = chunk.parse::<toml::Table>();
        }
        match parsed {
            Ok(values) if section.as_deref() != Some("") => {
                index += extra;
                let target = match &section {
                    None => &mut table,
                    Some(name) => {
                        let entry = table.entry(name.clone()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
                        match entry {
                            toml::Value::Table(inner) => inner,
                            // A key and a table of the same name: the later table's keys are dropped.
                            _ => {
                                lost.push(number);
                                continue;
                            }
                        }
                    }
                };
                for (key, value) in values {
                    let _previous = target.insert(key, value);
                }
            }
            _ => lost.push(number),
        }
    }
    (table, lost)
}

/// Whether `chunk` has more opening brackets or braces than closing ones (a value that goes on).
fn opens_more(chunk: &str) -> bool {
    let opens = chunk.chars().filter(|c| matches!(c, '[' | '{')).count();
    let closes = chunk.chars().filter(|c| matches!(c, ']' | '}')).count();
    opens > closes
}

#[cfg(test)]
mod tests {
    use super::salvage;

    #[test]
    fn good_keys_around_a_bad_line_are_kept() {
        let text = "level = 5\nthis is not toml\nthreads = 2\n[display]\nshow_log = false\nhint_count = = 3\n";
        let (table, lost) = salvage(text);
        assert_eq!(table.get("level").and_then(toml::Value::as_integer), Some(5));
        assert_eq!(table.get("threads").and_then(toml::Value::as_integer), Some(2));
        let display = table.get("display").and_then(toml::Value::as_table).unwrap();
        assert_eq!(display.get("show_log").and_then(toml::Value::as_bool), Some(false));
        assert_eq!(lost, vec![2, 6]);
    }

    #[test]
    fn multi_line_arrays_and_a_cut_off_end() {
        let text = "[ai_loss]\nmax_loss = [\n  1,\n  2,\n]\npercent = [\n  3,";
        let (table, lost) = salvage(text);
        let loss = table.get("ai_loss").and_then(toml::Value::as_table).unwrap();
        assert_eq!(loss.get("max_loss").and_then(toml::Value::as_array).map(Vec::len), Some(2));
        assert!(loss.get("percent").is_none());
        assert_eq!(lost, vec![6, 7]);
    }
}
