//! Timestamps as log layouts print them, read into milliseconds since the Unix
//! epoch (UTC when the line gives a zone; as written otherwise).

/// How complete a timestamp was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamp {
    /// Date and time (`2024-05-01 10:00:00,123`, ISO 8601, epoch seconds).
    Full(i64),
    /// Time of day only (logback's `%d{HH:mm:ss.SSS}`): ms since midnight.
    TimeOfDay(i64),
    /// Month, day and time without a year (syslog, journald `short`): ms since 1 Jan.
    NoYear(i64),
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The start of the year of an epoch-ms instant, in epoch ms.
pub fn year_start(ms: i64) -> i64 {
    let days = ms.div_euclid(86_400_000);
    // civil_from_days, year only
    let z = days + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    days_from_civil(y, 1, 1) * 86_400_000
}

/// `YYYY-MM-DD` + ms in the day as epoch ms.
pub fn civil_ms(y: i64, mo: i64, d: i64, day_ms: i64) -> i64 {
    days_from_civil(y, mo, d) * 86_400_000 + day_ms
}

fn digits(b: &[u8], at: usize, n: usize) -> Option<i64> {
    let s = b.get(at..at + n)?;
    if !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0i64, |a, d| a * 10 + i64::from(d - b'0')))
}

/// `HH:MM:SS[.,fraction]` at `at`: (ms in the day, bytes read).
fn time_of_day(b: &[u8], at: usize) -> Option<(i64, usize)> {
    let h = digits(b, at, 2)?;
    let m = (b.get(at + 2) == Some(&b':')).then(|| digits(b, at + 3, 2))??;
    let s = (b.get(at + 5) == Some(&b':')).then(|| digits(b, at + 6, 2))??;
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut len = 8;
    let mut ms = 0;
    if matches!(b.get(at + 8), Some(b'.') | Some(b',')) {
        let mut n = 0;
        while b.get(at + 9 + n).is_some_and(u8::is_ascii_digit) {
            if n < 3 {
                ms = ms * 10 + i64::from(b[at + 9 + n] - b'0');
            }
            n += 1;
        }
        if n == 0 {
            return None;
        }
        for _ in n..3 {
            ms *= 10;
        }
        len += 1 + n;
    }
    Some((((h * 60 + m) * 60 + s) * 1000 + ms, len))
}

/// `H:MM:SS[.fff]` with a 1- or 2-digit hour at `at`, then an optional ` AM`/` PM`.
fn clock_time(b: &[u8], at: usize) -> Option<(i64, usize)> {
    let one_digit = b.get(at).is_some_and(u8::is_ascii_digit) && b.get(at + 1) == Some(&b':');
    let (tod, len) = if one_digit {
        // pad to `0H:MM:SS` by reading the rest as a two-digit hour would
        let mut padded = vec![b'0'];
        padded.extend_from_slice(&b[at..b.len().min(at + 20)]);
        let (t, l) = time_of_day(&padded, 0)?;
        (t, l - 1)
    } else {
        time_of_day(b, at)?
    };
    let rest = &b[at + len..];
    for (mark, add) in [(&b" AM"[..], 0i64), (&b" PM"[..], 12)] {
        if rest.starts_with(mark) {
            let h = tod / 3_600_000;
            let base = tod - h * 3_600_000;
            let h24 = if h == 12 { add } else { h + add };
            return Some((base + h24 * 3_600_000, len + 3));
        }
    }
    Some((tod, len))
}

fn month_day_year(s: &str) -> Option<(Stamp, usize)> {
    let b = s.as_bytes();
    let mi = MONTHS.iter().position(|m| s.starts_with(m))? as i64;
    if b.get(3) != Some(&b' ') {
        return None;
    }
    let (d, at) = match (digits(b, 4, 2), digits(b, 4, 1)) {
        (Some(d), _) => (d, 6),
        (None, Some(d)) => (d, 5),
        _ => return None,
    };
    if b.get(at) != Some(&b',') || b.get(at + 1) != Some(&b' ') {
        return None;
    }
    let y = digits(b, at + 2, 4)?;
    let mut t = at + 6;
    if b.get(t) != Some(&b' ') {
        return None;
    }
    t += 1;
    if b.get(t) == Some(&b'@') && b.get(t + 1) == Some(&b' ') {
        t += 2;
    }
    let (tod, len) = clock_time(b, t)?;
    Some((Stamp::Full(civil_ms(y, mi + 1, d, tod)), t + len))
}

fn rfc1123(s: &str) -> Option<(Stamp, usize)> {
    let b = s.as_bytes();
    if b.get(3) != Some(&b',') || b.get(4) != Some(&b' ') {
        return None;
    }
    let d = digits(b, 5, 2)?;
    let mi = MONTHS.iter().position(|m| s.get(8..11) == Some(*m))? as i64;
    let y = digits(b, 12, 4)?;
    let (tod, len) = time_of_day(b, 17)?;
    let end = 17 + len;
    let end = if s[end..].starts_with(" GMT") { end + 4 } else { end };
    Some((Stamp::Full(civil_ms(y, mi + 1, d, tod)), end))
}

/// A zone after a time: `Z`, `+02:00`, `+0200`, `-05`: (offset ms east of UTC, bytes read).
fn zone(b: &[u8], at: usize) -> (i64, usize) {
    match b.get(at) {
        Some(b'Z') => (0, 1),
        Some(&c @ (b'+' | b'-')) => {
            let sign = if c == b'+' { 1 } else { -1 };
            let Some(h) = digits(b, at + 1, 2) else { return (0, 0) };
            let (m, len) = if let (Some(&b':'), Some(m)) = (b.get(at + 3), digits(b, at + 4, 2)) {
                (m, 6)
            } else if let Some(m) = digits(b, at + 3, 2) {
                (m, 5)
            } else {
                (0, 3)
            };
            (sign * (h * 60 + m) * 60_000, len)
        }
        _ => (0, 0),
    }
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Reads a timestamp at the start of `s`: the stamp and the bytes it used.
pub fn parse_stamp(s: &str) -> Option<(Stamp, usize)> {
    let b = s.as_bytes();
    // ISO 8601 / log4j: 2024-05-01T10:00:00.123+02:00, 2024-05-01 10:00:00,123, 2024/05/01 10:00:00
    if let (Some(y), Some(mo), Some(d)) = (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2)) {
        let sep_ok = matches!((b[4], b[7]), (b'-', b'-') | (b'/', b'/'));
        if sep_ok && (1..=12).contains(&mo) && (1..=31).contains(&d) && matches!(b.get(10), Some(b'T') | Some(b' ')) {
            let (tod, tlen) = time_of_day(b, 11)?;
            let (off, zlen) = zone(b, 11 + tlen);
            // a space before the zone (`10:00:00.123 +0200`) is rare; not read
            return Some((Stamp::Full(civil_ms(y, mo, d, tod) - off), 11 + tlen + zlen));
        }
    }
    // librdkafka's default logger: seconds.millis since the epoch
    if b.len() >= 14 && b[10] == b'.' {
        if let (Some(secs), Some(ms)) = (digits(b, 0, 10), digits(b, 11, 3)) {
            if !b.get(14).is_some_and(u8::is_ascii_digit) {
                return Some((Stamp::Full(secs * 1000 + ms), 14));
            }
        }
    }
    // syslog / journald short: "Dec  1 09:00:00" or "Dec 01 09:00:00"
    if b.len() >= 15 {
        if let Some(mi) = MONTHS.iter().position(|m| s.starts_with(m)) {
            if b[3] == b' ' {
                let (d, at) = if b[4] == b' ' {
                    (digits(b, 5, 1), 6)
                } else {
                    (digits(b, 4, 2).or_else(|| digits(b, 4, 1)), if b[5] == b' ' { 5 } else { 6 })
                };
                if let Some(d) = d {
                    if b.get(at) == Some(&b' ') {
                        let (tod, tlen) = time_of_day(b, at + 1)?;
                        let days = days_from_civil(1970, mi as i64 + 1, d) - days_from_civil(1970, 1, 1);
                        return Some((Stamp::NoYear(days * 86_400_000 + tod), at + 1 + tlen));
                    }
                }
            }
        }
    }
    // java.util.logging's SimpleFormatter (`Jul 17, 2026 1:50:29 PM`) and Kibana's display
    // (`Jan 17, 2020 @ 15:54:24.877`): month, day, comma, year, optional `@`, a 1- or 2-digit hour
    if let Some(st) = month_day_year(s) {
        return Some(st);
    }
    // RFC 1123 (Node's `Date.toUTCString`): `Wed, 26 Oct 2016 11:18:13 GMT`
    if let Some(st) = rfc1123(s) {
        return Some(st);
    }
    // logback's default pattern: 10:00:00.123
    if let Some((tod, len)) = time_of_day(b, 0) {
        return Some((Stamp::TimeOfDay(tod), len));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_common_layouts() {
        // 2024-05-01T10:00:00Z is 1714557600 s after the epoch.
        let t = 1_714_557_600_000;
        assert_eq!(parse_stamp("2024-05-01 10:00:00,123 INFO"), Some((Stamp::Full(t + 123), 23)));
        assert_eq!(parse_stamp("2024-05-01T12:00:00.123456+02:00 x").map(|s| s.0), Some(Stamp::Full(t + 123)));
        assert_eq!(parse_stamp("2024-05-01T10:00:00.5Z").map(|s| s.0), Some(Stamp::Full(t + 500)));
        assert_eq!(parse_stamp("1714557600.123|CGRP").map(|s| s.0), Some(Stamp::Full(t + 123)));
        assert_eq!(parse_stamp("10:00:01.250 [main]").map(|s| s.0), Some(Stamp::TimeOfDay(36_001_250)));
        assert!(matches!(parse_stamp("May  1 10:00:00 host"), Some((Stamp::NoYear(_), 15))));
        assert_eq!(parse_stamp("hello"), None);
        // a zone cut short is not read past the end
        assert_eq!(parse_stamp("2024-05-01T10:00:00.000+02:"), Some((Stamp::Full(t - 7_200_000), 26)));
        assert_eq!(year_start(t), civil_ms(2024, 1, 1, 0));
        // java.util.logging, Kibana, RFC 1123
        let jul = civil_ms(2026, 7, 17, ((13 * 60 + 50) * 60 + 29) * 1000);
        assert_eq!(parse_stamp("Jul 17, 2026 1:50:29 PM org.Foo bar"), Some((Stamp::Full(jul), 23)));
        let am = civil_ms(2026, 7, 17, ((60 + 50) * 60 + 29) * 1000);
        assert_eq!(parse_stamp("Jul 17, 2026 1:50:29 AM x").map(|s| s.0), Some(Stamp::Full(am)));
        let kib = civil_ms(2020, 1, 17, ((15 * 60 + 54) * 60 + 24) * 1000 + 877);
        assert_eq!(parse_stamp("Jan 17, 2020 @ 15:54:24.877"), Some((Stamp::Full(kib), 27)));
        let node = civil_ms(2016, 10, 26, ((11 * 60 + 18) * 60 + 13) * 1000);
        assert_eq!(parse_stamp("Wed, 26 Oct 2016 11:18:13 GMT kafka-node"), Some((Stamp::Full(node), 29)));
    }
}
