//! Calendar dates and times in UTC from a [`SystemTime`], for the names and dates Egaroucid puts on its files
//! (screenshots, game files), without a time-zone database.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment in UTC, to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UtcDateTime {
    /// Year (proleptic Gregorian).
    pub year: u64,
    /// Month, 1–12.
    pub month: u64,
    /// Day of the month, 1–31.
    pub day: u64,
    /// Hour, 0–23.
    pub hour: u64,
    /// Minute, 0–59.
    pub minute: u64,
    /// Second, 0–59.
    pub second: u64,
}

impl UtcDateTime {
    /// The moment `time` (moments before 1970 read as 1970-01-01 00:00:00).
    #[must_use]
    pub fn of(time: SystemTime) -> UtcDateTime {
        let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (year, month, day) = civil_date(secs / 86_400);
        UtcDateTime { year, month, day, hour: secs / 3600 % 24, minute: secs / 60 % 60, second: secs % 60 }
    }

    /// `YYYY_MM_DD_hh_mm_ss`, Egaroucid's file-name stamp.
    #[must_use]
    pub fn stamp(&self) -> String {
        format!(
            "{:04}_{:02}_{:02}_{:02}_{:02}_{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `YYYY-MM-DD`.
    #[must_use]
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The proleptic Gregorian date of the day `days` after 1970-01-01.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Howard Hinnant's days-to-civil method, on eras of 400 years counted from 0000-03-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn at(secs: u64) -> UtcDateTime {
        UtcDateTime::of(UNIX_EPOCH + Duration::from_secs(secs))
    }

    #[test]
    fn dates_and_stamps() {
        assert_eq!(at(0).stamp(), "1970_01_01_00_00_00");
        assert_eq!(at(1_795_473_605).stamp(), "2026_11_23_22_40_05");
        // A leap day, the last second of a century year that is not a leap year, and the one of a year that is.
        assert_eq!(at(1_709_251_199).date(), "2024-02-29");
        assert_eq!(at(4_107_542_399).stamp(), "2100_02_28_23_59_59");
        assert_eq!(at(4_107_542_400).date(), "2100-03-01");
        assert_eq!(at(951_782_400).date(), "2000-02-29");
        assert_eq!(UtcDateTime::of(UNIX_EPOCH - Duration::from_secs(5)), at(0));
    }
}
