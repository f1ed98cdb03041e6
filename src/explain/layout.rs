//! Strips the common logging layouts around a Kafka client's or broker's message:
//! log4j/logback patterns (Kafka's own `[%d] %p %m (%c)%n`, `%d %p [%t] %c - %m`,
//! logback's `%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg`), Spring Boot's
//! console pattern, Python's `logging` defaults, librdkafka's `%7|secs.ms|FAC|name| msg`,
//! docker-compose (`name  | line`), `kubectl logs --timestamps`, journald's `short` and
//! `short-iso` outputs, and JSON lines (logstash/ECS encoders, docker's json-file, kafkajs).

use super::clock::{parse_stamp, Stamp};
use serde_json::{Map, Value};

/// One line with its layout removed.
#[derive(Clone, Debug, Default)]
pub struct Stripped {
    pub stamp: Option<Stamp>,
    pub level: Option<String>,
    /// The logger (Java class, Python module, librdkafka facility) when the layout shows it.
    pub logger: Option<String>,
    pub msg: String,
    /// A JSON line's other fields (kafkajs puts groupId, memberId... there).
    pub fields: Option<Map<String, Value>>,
}

const LEVELS: [&str; 9] = ["TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "CRITICAL", "NOTICE"];

fn remove_ansi(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' && it.peek() == Some(&'[') {
            it.next();
            for d in it.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Strips one raw line.
pub fn strip(raw: &str) -> Stripped {
    let clean = remove_ansi(raw.trim_end_matches(['\r', '\n']));
    let mut out = Stripped::default();
    strip_into(clean.trim_start_matches('\u{feff}'), &mut out, 0);
    out
}

fn keep_stamp(out: &mut Stripped, st: Stamp) {
    // An inner full timestamp (the application's) wins over an outer one; a full one
    // over a partial one.
    match (out.stamp, st) {
        (None, _) | (Some(Stamp::TimeOfDay(_) | Stamp::NoYear(_)), Stamp::Full(_)) => out.stamp = Some(st),
        (Some(Stamp::Full(_)), Stamp::Full(_)) => out.stamp = Some(st),
        _ => {}
    }
}

fn strip_into(s: &str, out: &mut Stripped, depth: u32) {
    let s = s.trim_start();
    if depth > 5 {
        out.msg = s.to_string();
        return;
    }
    if s.starts_with('{') {
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(s) {
            return json_line(map, out, depth);
        }
    }
    // docker compose: `consumer-1  | ...`
    if let Some(i) = s.find(" | ").or_else(|| s.find(" |\t")) {
        let name = s[..i].trim_end();
        if !name.is_empty() && !name.contains(' ') && !name.contains('|') && i < 64 {
            return strip_into(&s[i + 3..], out, depth + 1);
        }
    }
    // librdkafka: %7|1714557600.123|CGRPJOINSTATE|rdkafka#consumer-1| [thrd:main]: Group ...
    if let Some(rest) = s.strip_prefix('%') {
        let parts: Vec<&str> = rest.splitn(5, '|').collect();
        if parts.len() == 5 && parts[0].bytes().all(|b| b.is_ascii_digit()) {
            if let Some((st, _)) = parse_stamp(parts[1]) {
                keep_stamp(out, st);
            }
            out.logger = Some(parts[2].to_string());
            out.level = Some(parts[0].to_string());
            out.msg = strip_thread(parts[4].trim_start()).to_string();
            if let Some(name) = Some(parts[3]).filter(|n| !n.is_empty()) {
                out.fields.get_or_insert_with(Map::new).insert("rk_name".into(), Value::String(name.to_string()));
            }
            return;
        }
    }
    // `[2024-05-01 10:00:00,123] INFO ...` (Kafka's log4j pattern)
    let (bracketed, body) = match s.strip_prefix('[') {
        Some(r) => (true, r),
        None => (false, s),
    };
    if let Some((st, len)) = parse_stamp(body) {
        let mut rest = &body[len..];
        if bracketed {
            match rest.strip_prefix(']') {
                Some(r) => rest = r,
                None => {
                    out.msg = s.to_string();
                    return;
                }
            }
        }
        keep_stamp(out, st);
        rest = rest.trim_start();
        // kubectl --timestamps / journald short-iso: the app's own line follows
        if let Some(r) = journald_ident(rest) {
            return strip_into(r, out, depth + 1);
        }
        if parse_stamp(rest.trim_start_matches('[')).is_some() {
            return strip_into(rest, out, depth + 1);
        }
        return after_stamp(rest, out);
    }
    // Python logging's default: `INFO:kafka.coordinator:message`
    if let Some((lvl, rest)) = s.split_once(':') {
        if LEVELS.contains(&lvl) {
            if let Some((logger, msg)) = rest.split_once(':') {
                if !logger.contains(' ') {
                    out.level = Some(lvl.to_string());
                    out.logger = Some(logger.to_string());
                    out.msg = msg.trim_start().to_string();
                    return;
                }
            }
        }
    }
    out.msg = s.to_string();
}

/// journald: `host ident[pid]: rest` (or `host ident: rest`).
fn journald_ident(s: &str) -> Option<&str> {
    let (host, rest) = s.split_once(' ')?;
    if host.is_empty() || host.contains(['[', ':', '|']) {
        return None;
    }
    let (ident, rest) = rest.split_once(": ")?;
    if ident.contains(' ') {
        return None;
    }
    let pid_ok = match ident.split_once('[') {
        Some((name, pid)) => {
            !name.is_empty() && pid.strip_suffix(']').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
        }
        None => false,
    };
    pid_ok.then_some(rest)
}

fn strip_thread(s: &str) -> &str {
    if s.starts_with("[thrd:") {
        if let Some(i) = s.find("]: ") {
            return &s[i + 3..];
        }
    }
    s
}

fn is_level(tok: &str) -> Option<&'static str> {
    let t = tok.trim_matches(|c| c == '[' || c == ']' || c == ':');
    LEVELS.iter().copied().find(|l| l.eq_ignore_ascii_case(t) && t.chars().all(|c| c.is_ascii_uppercase()))
}

fn looks_like_logger(tok: &str) -> bool {
    let t = tok.trim_end_matches(':');
    !t.is_empty()
        && t.contains('.')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '-'))
}

/// After the timestamp: level, pid, `---`, `[thread]`s and the logger, in the
/// orders the common patterns print them, then the message.
fn after_stamp(mut rest: &str, out: &mut Stripped) {
    for _ in 0..8 {
        rest = rest.trim_start_matches([' ', '\t']);
        if let Some(r) =
            rest.strip_prefix("- ").or_else(|| rest.strip_prefix(": ")).or_else(|| rest.strip_prefix("--- "))
        {
            rest = r;
            continue;
        }
        let tok_end = rest.find([' ', '\t']).unwrap_or(rest.len());
        let tok = &rest[..tok_end];
        if tok.is_empty() {
            break;
        }
        if let Some(l) = is_level(tok) {
            out.level = Some(l.to_string());
            rest = &rest[tok_end..];
            continue;
        }
        if tok.bytes().all(|b| b.is_ascii_digit()) && tok.len() < 8 {
            rest = &rest[tok_end..]; // Spring Boot's pid
            continue;
        }
        if rest.starts_with('[')
            && !rest.starts_with("[Consumer ")
            && !rest.starts_with("[GroupCoordinator")
            && !rest.starts_with("[GroupMetadataManager")
            && !rest.starts_with("[GroupId")
            && !rest.starts_with("[Group ")
        {
            if let Some(i) = rest.find(']') {
                if i < 200 {
                    rest = &rest[i + 1..]; // [thread] or [app name]
                    continue;
                }
            }
        }
        if looks_like_logger(tok) {
            let after = rest[tok_end..].trim_start();
            if after.starts_with("- ") || after.starts_with(": ") || tok.ends_with(':') {
                out.logger = Some(tok.trim_end_matches(':').to_string());
                rest = after.trim_start_matches(['-', ':']).trim_start();
                break;
            }
        }
        break;
    }
    // Kafka's log4j pattern ends with ` (logger)`
    let mut msg = rest.trim_end();
    if msg.ends_with(')') {
        if let Some(i) = msg.rfind(" (") {
            let cand = &msg[i + 2..msg.len() - 1];
            if looks_like_logger(cand) && !cand.contains(' ') {
                out.logger.get_or_insert_with(|| cand.to_string());
                msg = &msg[..i];
            }
        }
    }
    out.msg = msg.to_string();
}

fn json_str<'a>(map: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| map.get(*k).and_then(Value::as_str))
}

fn json_line(mut map: Map<String, Value>, out: &mut Stripped, depth: u32) {
    let stamp = ["@timestamp", "timestamp", "time", "ts", "date", "@t"].iter().find_map(|k| match map.get(*k) {
        Some(Value::String(s)) => parse_stamp(s).map(|(st, _)| st),
        Some(Value::Number(n)) => {
            n.as_f64().map(|f| if f > 1e11 { Stamp::Full(f as i64) } else { Stamp::Full((f * 1000.0) as i64) })
        }
        _ => None,
    });
    // docker's json-file driver: {"log":"<the line>\n","stream":"stdout","time":"..."}
    if let (Some(log), true) = (json_str(&map, &["log"]), map.contains_key("stream")) {
        let log = log.to_string();
        if let Some(st) = stamp {
            keep_stamp(out, st);
        }
        return strip_into(&log, out, depth + 1);
    }
    if let Some(st) = stamp {
        keep_stamp(out, st);
    }
    out.level = json_str(&map, &["level", "levelname", "severity", "log.level", "@l"]).map(str::to_string);
    out.logger = json_str(&map, &["logger_name", "logger", "loggerName", "name", "log.logger"]).map(str::to_string);
    let msg = json_str(&map, &["message", "msg", "@m", "@mt", "text"]).unwrap_or("").to_string();
    map.remove("message");
    out.fields = Some(map);
    // a message may itself still carry a layout (rare); a librdkafka line forwarded as JSON
    if msg.starts_with('%') {
        return strip_into(&msg, out, depth + 1);
    }
    out.msg = strip_thread(&msg).to_string();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::clock::Stamp;

    #[test]
    fn strips_kafka_broker_log4j() {
        let s = strip("[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Stabilized group demo generation 5 (__consumer_offsets-12) with 3 members (kafka.coordinator.group.GroupCoordinator)");
        assert_eq!(
            s.msg,
            "[GroupCoordinator 1]: Stabilized group demo generation 5 (__consumer_offsets-12) with 3 members"
        );
        assert_eq!(s.logger.as_deref(), Some("kafka.coordinator.group.GroupCoordinator"));
        assert_eq!(s.level.as_deref(), Some("INFO"));
        assert!(matches!(s.stamp, Some(Stamp::Full(_))));
    }

    #[test]
    fn strips_spring_boot_docker_and_journald() {
        let s = strip("consumer-1  | 2024-05-01T10:00:00.123+02:00  INFO 4242 --- [orders] [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-demo-1, groupId=demo] (Re-)joining group");
        assert_eq!(s.msg, "[Consumer clientId=consumer-demo-1, groupId=demo] (Re-)joining group");
        assert_eq!(s.logger.as_deref(), Some("o.a.k.c.c.internals.ConsumerCoordinator"));
        let j = strip("May 01 10:00:00 host1 java[812]: 2024-05-01 10:00:00,500 INFO [main] org.apache.kafka.clients.consumer.internals.ConsumerCoordinator - [Consumer clientId=c, groupId=g] (Re-)joining group");
        assert_eq!(j.msg, "[Consumer clientId=c, groupId=g] (Re-)joining group");
        assert!(matches!(j.stamp, Some(Stamp::Full(_))), "{:?}", j.stamp);
    }

    #[test]
    fn strips_librdkafka_python_and_json() {
        let r = strip("%7|1714557600.123|CGRPJOINSTATE|rdkafka#consumer-1| [thrd:main]: Group \"demo\" changed join state init -> wait-join (state up)");
        assert_eq!(r.msg, "Group \"demo\" changed join state init -> wait-join (state up)");
        assert_eq!(r.logger.as_deref(), Some("CGRPJOINSTATE"));
        let p = strip("INFO:kafka.coordinator:(Re-)joining group demo");
        assert_eq!(p.msg, "(Re-)joining group demo");
        let k = strip(
            r#"{"level":"INFO","timestamp":"2024-05-01T10:00:00.000Z","logger":"kafkajs","message":"[ConsumerGroup] Consumer has joined the group","groupId":"demo"}"#,
        );
        assert_eq!(k.msg, "[ConsumerGroup] Consumer has joined the group");
        assert_eq!(k.fields.unwrap()["groupId"], "demo");
        let d = strip(
            r#"{"log":"[2024-05-01 10:00:00,000] INFO hello (kafka.Foo)\n","stream":"stdout","time":"2024-05-01T10:00:00.9Z"}"#,
        );
        assert_eq!(d.msg, "hello");
    }
}
