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
    strip_into(undecorate(clean.trim_start_matches('\u{feff}')), &mut out, 0);
    out
}

/// Removes what a paste wraps around a line: Markdown quotes (`>`), bold (`**`) and code
/// (backticks), a source comment's ` * ` or `// `, a list bullet, and a line number an editor or
/// `cat -n` put before it.
pub fn undecorate(mut s: &str) -> &str {
    for _ in 0..6 {
        let t = s.trim_start();
        let next = t
            .strip_prefix("**")
            .or_else(|| t.strip_prefix('>'))
            .or_else(|| t.strip_prefix('`'))
            .or_else(|| t.strip_prefix("* "))
            .or_else(|| t.strip_prefix("// "))
            .or_else(|| t.strip_prefix("- ").filter(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '[')))
            .or_else(|| line_number(t));
        match next {
            Some(r) => s = r,
            None => break,
        }
    }
    let mut t = s.trim_end();
    for _ in 0..4 {
        match t.strip_suffix("**").or_else(|| t.strip_suffix('`')) {
            Some(r) => t = r.trim_end(),
            None => break,
        }
    }
    t
}

/// `12 Wed, 26 Oct ...` or `12: 2024-...`: a line number before a timestamp.
fn line_number(t: &str) -> Option<&str> {
    let end = t.find(|c: char| !c.is_ascii_digit())?;
    if end == 0 || end > 7 {
        return None;
    }
    let rest = t[end..].trim_start_matches(':').trim_start_matches([' ', '\t']);
    let stamped = parse_stamp(rest).is_some() || parse_stamp(rest.trim_start_matches('[')).is_some();
    (rest.len() < t.len() - end && stamped).then_some(rest)
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
    if let Some(map) = json_object(s) {
        return json_line(map, out, depth);
    }
    // a container, a service or a field separated by ` | `: docker compose (`consumer-1  | `),
    // `2019 Apr 10 06:22:03  | `, .NET's `2022-03-03T19:31:50Z Debug | `, pipe-separated layouts
    if let Some(i) = s.find(" | ").or_else(|| s.find(" |\t")) {
        let head = s[..i].trim_end();
        if !head.is_empty() && !head.contains(['|', '{', '"', '[']) && i < 64 {
            if let Some((st, _)) = parse_stamp(head) {
                keep_stamp(out, st);
            }
            if let Some(l) = head.split(' ').find_map(is_level_any_case) {
                out.level.get_or_insert_with(|| l.to_string());
            }
            return strip_into(&s[i + 3..], out, depth + 1);
        }
    }
    if let Some(map) = logfmt(s) {
        return json_line(map, out, depth);
    }
    // librdkafka's default logger: %7|1714557600.123|CGRPJOINSTATE|rdkafka#consumer-1| [thrd:main]: Group ...
    // and rdkafka-dotnet's `7|2016-09-15 09:13:58.448|rdkafka#consumer-1|CGRPJOINSTATE| Group ...`
    let rk = s.strip_prefix('%').unwrap_or(s);
    if rk.len() < s.len() || rk.starts_with(|c: char| c.is_ascii_digit()) {
        let parts: Vec<&str> = rk.splitn(5, '|').collect();
        if parts.len() == 5
            && !parts[0].is_empty()
            && parts[0].len() < 3
            && parts[0].bytes().all(|b| b.is_ascii_digit())
        {
            if let Some((st, _)) = parse_stamp(parts[1]) {
                let facility = |p: &str| {
                    !p.is_empty() && p.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                };
                let (fac, name) = if facility(parts[2]) { (parts[2], parts[3]) } else { (parts[3], parts[2]) };
                keep_stamp(out, st);
                out.logger = Some(fac.to_string());
                out.level = Some(parts[0].to_string());
                out.msg = strip_thread(parts[4].trim_start()).to_string();
                if !name.is_empty() {
                    out.fields.get_or_insert_with(Map::new).insert("rk_name".into(), Value::String(name.to_string()));
                }
                return;
            }
        }
    }
    // Go's `log` with a prefix: `[sarama] 2016/06/03 18:14:04 ...`, `[sarama]2016/07/05 ...`
    if let Some(inner) = s.strip_prefix('[') {
        if let Some(j) = inner.find(']').filter(|j| *j < 40) {
            let name = &inner[..j];
            let rest = inner[j + 1..].trim_start();
            if !name.is_empty() && !name.contains(' ') && parse_stamp(name).is_none() && parse_stamp(rest).is_some() {
                out.logger = Some(name.to_string());
                return strip_into(rest, out, depth + 1);
            }
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
                // `[2018-02-27 23:19:01,112: WARNING]: ` (Faust's and mode's layout)
                None => match rest.trim_start_matches([':', ' ']).split_once(']') {
                    Some((lvl, r)) if is_level(lvl).is_some() => {
                        out.level = is_level(lvl).map(str::to_string);
                        rest = r.trim_start_matches(':');
                    }
                    _ => {
                        out.msg = strip_thread(s).to_string();
                        return;
                    }
                },
            }
        }
        keep_stamp(out, st);
        rest = rest.trim_start();
        // kubectl --timestamps / journald short-iso: the app's own line follows
        if let Some(r) = journald_ident(rest) {
            return strip_into(r, out, depth + 1);
        }
        if parse_stamp(rest.trim_start_matches('[')).is_some() || rest.starts_with(['{', '>', '*', '`']) {
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
    out.msg = strip_thread(s).to_string();
}

/// A JSON object at the start of the line, even with text after it (a stray `}` or `.`), or
/// with its opening brace lost in the paste (`"level":"ERROR",...}`).
fn json_object(s: &str) -> Option<Map<String, Value>> {
    let first = |t: &str| -> Option<Map<String, Value>> {
        match serde_json::Deserializer::from_str(t).into_iter::<Value>().next()? {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        }
    };
    if s.starts_with('{') {
        return first(s);
    }
    if s.starts_with('"') && s.contains("\":") && s.trim_end().trim_end_matches('.').ends_with('}') {
        return first(&format!("{{{s}"));
    }
    None
}

/// `time=... level=INFO msg="joining group" group=g` (Go's slog and logrus text handlers,
/// logfmt): read as a JSON line's fields when it has a `msg=` and a time or a level.
fn logfmt(s: &str) -> Option<Map<String, Value>> {
    if !(s.starts_with("time=") || s.starts_with("ts=") || s.starts_with("level=") || s.starts_with("timestamp=")) {
        return None;
    }
    let mut map = Map::new();
    let mut rest = s;
    while !rest.is_empty() {
        rest = rest.trim_start_matches([' ', ',']);
        let Some(eq) = rest.find('=') else { break };
        let key = &rest[..eq];
        if key.is_empty() || key.contains([' ', '"']) {
            break;
        }
        let after = &rest[eq + 1..];
        let (value, used) = if let Some(q) = after.strip_prefix('"') {
            let mut end = None;
            let mut esc = false;
            for (i, c) in q.char_indices() {
                match c {
                    '\\' if !esc => esc = true,
                    '"' if !esc => {
                        end = Some(i);
                        break;
                    }
                    _ => esc = false,
                }
            }
            let end = end?;
            (q[..end].replace("\\\"", "\""), end + 2)
        } else {
            let end = after.find([' ', ',']).unwrap_or(after.len());
            (after[..end].to_string(), end)
        };
        map.insert(key.to_string(), Value::String(value));
        rest = &after[used.min(after.len())..];
    }
    map.contains_key("msg").then_some(map)
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

fn is_level_any_case(tok: &str) -> Option<&'static str> {
    let t = tok.trim_matches(|c| c == '[' || c == ']' || c == ':');
    LEVELS.iter().copied().find(|l| l.eq_ignore_ascii_case(t))
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
        // a log context (`[Consumer clientId=.., groupId=..]`, `[Worker ...]`) is the message's start
        let bracket_has_fields = rest.find(']').is_some_and(|i| rest[..i].contains('='));
        if rest.starts_with('[')
            && !bracket_has_fields
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
        // a thread name before the level (`MainThread INFO ...`)
        let next = rest[tok_end..].trim_start();
        let next_tok = &next[..next.find([' ', '\t']).unwrap_or(next.len())];
        if !tok.contains('.') && is_level(next_tok).is_some() && tok.len() < 40 {
            rest = next;
            continue;
        }
        if looks_like_logger(tok) {
            let after = rest[tok_end..].trim_start();
            if after.starts_with("- ") || after.starts_with(": ") || tok.ends_with(':') {
                out.logger = Some(tok.trim_end_matches(':').to_string());
                rest = after.trim_start_matches(['-', ':']).trim_start();
                // Python's `%(name)s - %(levelname)s - %(message)s`
                if let Some((lvl, r)) = rest.split_once(" - ") {
                    if let Some(l) = is_level(lvl) {
                        out.level = Some(l.to_string());
                        rest = r;
                    }
                }
                break;
            }
        }
        break;
    }
    // Kafka's log4j pattern ends with ` (logger)`, Connect's with ` (logger:line)`, Strimzi's
    // with ` (logger) [thread]`
    let mut msg = rest.trim_end();
    if msg.ends_with(']') {
        if let Some(i) = msg.rfind(") [") {
            if !msg[i + 3..].contains(' ') {
                msg = &msg[..i + 1];
            }
        }
    }
    if msg.ends_with(')') {
        if let Some(i) = msg.rfind(" (") {
            let cand = &msg[i + 2..msg.len() - 1];
            let cand =
                cand.rsplit_once(':').filter(|(_, n)| n.bytes().all(|b| b.is_ascii_digit())).map_or(cand, |(c, _)| c);
            if looks_like_logger(cand) && cand.starts_with(|c: char| c.is_ascii_alphabetic()) {
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
    let mut msg = json_str(&map, &["message", "msg", "@m", "@mt", "text"]).unwrap_or("").to_string();
    map.remove("message");
    // an application logger wrapping another's text layout: kafkajs's default
    // `ERROR [Runner] The group is rebalancing, re-joining {"timestamp":...,"groupId":...}`
    if msg.ends_with('}') {
        if let Some(i) = msg.find(" {") {
            if let Some(inner) = json_object(&msg[i + 1..]) {
                if let Some(st) = ["timestamp", "@timestamp", "time"]
                    .iter()
                    .find_map(|k| inner.get(*k).and_then(Value::as_str).and_then(parse_stamp))
                {
                    keep_stamp(out, st.0);
                }
                for (k, v) in inner {
                    map.entry(k).or_insert(v);
                }
                msg.truncate(i);
            }
        }
    }
    if let Some((lvl, rest)) = msg.split_once(' ') {
        if is_level(lvl).is_some() && rest.starts_with('[') {
            out.level.get_or_insert_with(|| lvl.to_string());
            msg = rest.to_string();
        }
    }
    if out.logger.is_none() {
        out.logger = json_str(&map, &["logger_name", "logger", "loggerName", "name", "log.logger"]).map(str::to_string);
    }
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

    /// Layouts of logs users posted (tests/fixtures/real-logs): Markdown, source comments,
    /// container and Kibana prefixes, Faust's, Go's, logfmt, JSON with stray text.
    #[test]
    fn strips_what_a_paste_wraps_around_a_line() {
        let broker = "[2019-06-03 11:47:30,498] INFO [GroupCoordinator 0]: Stabilized group g generation 13 (__consumer_offsets-25) (kafka.coordinator.group.GroupCoordinator)";
        let want = "[GroupCoordinator 0]: Stabilized group g generation 13 (__consumer_offsets-25)";
        for wrapped in [
            format!(">{broker}"),
            format!("> {broker}"),
            format!("**{broker}**"),
            format!("`{broker}`"),
            format!("         * {broker}"),
            format!(" 12 {broker}"),
        ] {
            let s = strip(&wrapped);
            assert_eq!(s.msg, want, "{wrapped}");
            assert!(matches!(s.stamp, Some(Stamp::Full(_))), "{wrapped}");
        }
        let p = strip("2019 Apr 10 06:22:03  | 2019-04-10 06:22:05,582 - kafka.coordinator - INFO - Successfully joined group G with generation 220");
        assert_eq!(p.msg, "Successfully joined group G with generation 220");
        assert!(matches!(p.stamp, Some(Stamp::Full(_))));
        let n = strip("2022-03-03T19:31:50.526006147Z Debug | [thrd:main]: GroupCoordinator/0: Heartbeat for group \"g\" generation id 102");
        assert_eq!(n.msg, "GroupCoordinator/0: Heartbeat for group \"g\" generation id 102");
        assert!(matches!(n.stamp, Some(Stamp::Full(_))));
        let f = strip("[2018-02-27 23:19:01,112: WARNING]: Heartbeat failed: local member_id was not recognized");
        assert_eq!(f.msg, "Heartbeat failed: local member_id was not recognized");
        assert_eq!(f.level.as_deref(), Some("WARNING"));
        let g = strip("[sarama]2016/07/05 11:58:19 cluster/consumer  rebalance");
        assert_eq!((g.msg.as_str(), g.logger.as_deref()), ("cluster/consumer  rebalance", Some("sarama")));
        let ip = strip("[sarama] 2016/06/03 18:14:05 client/coordinator coordinator for consumergoup g is #1001 (192.168.0.100:9092)");
        assert!(ip.msg.ends_with("(192.168.0.100:9092)"), "{}", ip.msg);
        let l = strip(
            r#"time=2025-04-24T14:23:02.960+03:00 level=INFO msg="joined, balancing group" group=g generation=6 leader=true"#,
        );
        assert_eq!(l.msg, "joined, balancing group");
        assert_eq!(l.fields.as_ref().unwrap()["generation"], "6");
        let k = strip(
            "\tFeb 21, 2023 @ 15:14:54.271\t{\"level\":\"info\",\"msg\":\"beginning autocommit loop\",\"group\":\"g\"}",
        );
        assert_eq!(k.msg, "beginning autocommit loop");
        let j = strip(r#"{"msg":"[Runner] The group is rebalancing, re-joining","groupId":"g"}}"#);
        assert_eq!(j.msg, "[Runner] The group is rebalancing, re-joining");
        let b = strip(r#""level":"ERROR","message":"[Runner] The group is rebalancing, re-joining","groupId":"g"}."#);
        assert_eq!(b.fields.unwrap()["groupId"], "g");
        let w = strip(
            r#"{"loglevel":"error","msg":"ERROR [Runner] The group is rebalancing, re-joining {\"timestamp\":\"2020-04-06T10:32:41.901Z\",\"logger\":\"kafkajs\",\"groupId\":\"g\"}"}"#,
        );
        assert_eq!(w.msg, "[Runner] The group is rebalancing, re-joining");
        assert_eq!(w.fields.as_ref().unwrap()["groupId"], "g");
        assert!(matches!(w.stamp, Some(Stamp::Full(_))));
        let c = strip("[2025-10-29 18:57:25,993] INFO [Worker clientId=c, groupId=g] Rebalance started (org.apache.kafka.connect.runtime.distributed.WorkerCoordinator:290)");
        assert_eq!(c.msg, "[Worker clientId=c, groupId=g] Rebalance started");
        let t = strip("2021-05-04 16:41:31,006 INFO [GroupCoordinator 0]: Member m in group g has failed, removing it from the group (kafka.coordinator.group.GroupCoordinator) [executor-Heartbeat]");
        assert_eq!(t.msg, "[GroupCoordinator 0]: Member m in group g has failed, removing it from the group");
        let d = strip("7|2016-09-15 09:13:58.448|rdkafka#consumer-1|CGRPJOINSTATE| Group \"g\" changed join state wait-join -> wait-sync");
        assert_eq!(
            (d.msg.as_str(), d.logger.as_deref()),
            ("Group \"g\" changed join state wait-join -> wait-sync", Some("CGRPJOINSTATE"))
        );
        let m = strip(
            "2017-04-08 13:01:04,838 MainThread INFO Revoking previously assigned partitions set([]) for group G",
        );
        assert_eq!(m.msg, "Revoking previously assigned partitions set([]) for group G");
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
