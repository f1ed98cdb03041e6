//! The bounds every input is checked against: Kafka's own ranges for its
//! configs, and the simulator's caps (what a page can show and a run can
//! afford). One place, so the CLIs, the page and its API agree.

use crate::sim::types::Millis;

/// Kafka's `int` configs (`ConfigDef.Type.INT`) hold at most this.
pub const KAFKA_INT_MAX: u64 = i32::MAX as u64;
/// Kafka's `short` configs (`ConfigDef.Type.SHORT`), e.g. offsets.topic.replication.factor.
pub const KAFKA_SHORT_MAX: u64 = i16::MAX as u64;
/// Longest topic name Kafka accepts (`Topic.MAX_NAME_LENGTH`); group.instance.id
/// has the same bound (`JoinGroupRequest.validateGroupInstanceId`).
pub const MAX_TOPIC_NAME_LEN: usize = 249;
/// Longest group id, consumer name, rack, connector or variant name the
/// simulator takes (Kafka sets no bound for group ids; the page must draw them).
pub const MAX_NAME_LEN: usize = 249;
/// Longest simulated run: `simulate --until`, fault times, a comparison's `until`.
pub const MAX_RUN_MS: Millis = 24 * 3_600_000;
/// Furthest playhead a seek, a permalink or an import may ask for (the page
/// re-runs up to it synchronously). Playing on past it is the player's business.
pub const MAX_SEEK_MS: Millis = 6 * 3_600_000;
/// Largest one-way latency, jitter or extra link latency (simulated ms).
pub const MAX_LATENCY_MS: Millis = 600_000;
/// Largest simulated duration the simulator's own (non-Kafka) knobs take:
/// GC pauses, per-record processing, start stagger, coordinator load time.
pub const MAX_SIM_DURATION_MS: Millis = MAX_RUN_MS;
/// Most records produced per partition and simulated second.
pub const MAX_RECORDS_PER_SEC: u64 = 1_000_000;
/// Most scheduled faults in a scenario, or faults in a permalink's script.
pub const MAX_FAULTS: usize = 10_000;
/// Most topics one consumer subscribes to.
pub const MAX_SUBSCRIBED_TOPICS: usize = 1_000;

/// Checks a seek target from a permalink or an import (nothing run yet) and
/// returns it as whole simulated milliseconds.
pub fn check_seek(ms: f64) -> Result<Millis, String> {
    check_seek_from(ms, 0)
}

/// Checks a seek target (the page's scrubber, `groupscope.seek`) in a run
/// that has reached `reached`: a seek may re-run at most `MAX_SEEK_MS` past
/// it, so anywhere the run has been stays reachable however long it plays.
pub fn check_seek_from(ms: f64, reached: Millis) -> Result<Millis, String> {
    if !ms.is_finite() || ms < 0.0 {
        return Err("seek: give a time in simulated milliseconds, 0 or more".into());
    }
    let limit = reached.saturating_add(MAX_SEEK_MS);
    if ms > limit as f64 {
        let past = if reached == 0 { String::new() } else { format!(" past the {reached} ms this run has reached") };
        return Err(format!(
            "seek: {ms} ms is past the furthest playhead a seek may ask for, {limit} ms (6 simulated hours{past})"
        ));
    }
    Ok(ms as Millis)
}

/// `path: must be at least min` / `path: must be at most max (why)`.
pub fn in_range(path: &str, v: u64, min: u64, max: u64, why: &str) -> Result<(), String> {
    if v < min {
        return Err(format!("{path}: must be at least {min}, not {v}"));
    }
    if v > max {
        return Err(format!("{path}: must be at most {max} ({why}), not {v}"));
    }
    Ok(())
}

/// A Kafka `int` config of at least `min`.
pub fn kafka_int(path: &str, v: u64, min: u64) -> Result<(), String> {
    in_range(path, v, min, KAFKA_INT_MAX, "Kafka's int")
}

/// A name: not empty (when `required`), at most `max` characters.
pub fn name(path: &str, s: &str, max: usize) -> Result<(), String> {
    if s.trim().is_empty() {
        return Err(format!("{path}: must not be empty"));
    }
    let n = s.chars().count();
    if n > max {
        return Err(format!("{path}: {n} characters; at most {max}"));
    }
    Ok(())
}

/// Kafka's legal topic (and group.instance.id) characters: ASCII letters,
/// digits, '.', '_' and '-' (`Topic.validate`), not "." or "..".
pub fn kafka_name(path: &str, s: &str) -> Result<(), String> {
    name(path, s, MAX_TOPIC_NAME_LEN)?;
    if s == "." || s == ".." {
        return Err(format!("{path}: '{s}' is not allowed"));
    }
    if let Some(c) = s.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        return Err(format!(
            "{path}: '{}' contains {c:?}; Kafka allows only ASCII letters, digits, '.', '_' and '-'",
            shown(s)
        ));
    }
    Ok(())
}

/// A name as quoted in a message: long ones are cut.
pub fn shown(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        s.chars().take(40).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seek_targets_are_capped_and_checked() {
        assert_eq!(check_seek(12_000.7), Ok(12_000));
        assert!(check_seek(1e8).unwrap_err().contains("furthest playhead"));
        assert!(check_seek(f64::NAN).is_err());
        assert!(check_seek(-1.0).is_err());
    }

    #[test]
    fn a_run_that_played_past_six_hours_can_still_seek_anywhere_it_has_been() {
        let reached = 160 * 3_600_000;
        assert_eq!(check_seek_from(159.5 * 3_600_000.0, reached), Ok(159 * 3_600_000 + 1_800_000));
        assert_eq!(check_seek_from((reached + MAX_SEEK_MS) as f64, reached), Ok(reached + MAX_SEEK_MS));
        let e = check_seek_from((reached + MAX_SEEK_MS + 1) as f64, reached).unwrap_err();
        assert!(e.contains("furthest playhead") && e.contains("this run has reached"), "{e}");
    }

    #[test]
    fn kafka_names_follow_topic_validate() {
        assert!(kafka_name("topics[0].name", "orders.v2_x-1").is_ok());
        assert!(kafka_name("topics[0].name", "a b").unwrap_err().starts_with("topics[0].name: "));
        assert!(kafka_name("topics[0].name", &"x".repeat(250)).unwrap_err().contains("at most 249"));
        assert!(kafka_name("t", "..").is_err());
    }
}
