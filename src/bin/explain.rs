//! `explain FILE... [--json]`: reads Kafka client and broker logs (several files are merged on
//! their timestamps), rebuilds what each consumer group did and says why it rebalanced.
//! Files are streamed line by line (bounded memory). Exit 2 when a file cannot be read.

use groupscope::explain::model::Report;
use groupscope::explain::view::clock;
use groupscope::explain::Explainer;
use std::io::Read;

fn usage() -> ! {
    eprintln!("usage: explain FILE... [--json] [--scenario]   (- reads standard input)\n       explain --dialects   (the log dialects it reads, as Markdown)");
    std::process::exit(2)
}

fn read_into(x: &mut Explainer, name: &str, mut r: impl Read) -> Result<(), String> {
    let f = x.begin_file(name);
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => x.feed_bytes(f, &buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{name}: cannot read: {e}")),
        }
    }
    x.end_file(f);
    Ok(())
}

/// A Kafka Streams application: its instances, their threads (members), tasks and ends.
fn print_streams(app: &groupscope::explain::model::StreamsApp) {
    println!("  Kafka Streams: {} instances", app.instances.len());
    for i in &app.instances {
        let states: Vec<&str> = i.states.iter().map(|c| c.to.as_str()).collect();
        println!(
            "    instance {} (process {}), {} threads, {}; states {}",
            i.client_id,
            i.process_id.as_deref().unwrap_or("?"),
            i.threads.len(),
            i.end,
            states.join(" > ")
        );
        for t in &i.threads {
            println!(
                "      {} members [{}], last state {}, active [{}], standby [{}]",
                t.name,
                t.member_ids.join(", "),
                t.states.last().map_or("?", |c| c.to.as_str()),
                t.active.join(", "),
                t.standby.join(", ")
            );
        }
    }
    for (ts, probing) in &app.follow_ups {
        println!(
            "    {} the leader asked for a {} rebalance",
            clock(*ts),
            if *probing { "probing" } else { "follow-up" }
        );
    }
}

fn print_text(r: &Report) {
    for g in &r.groups {
        println!(
            "group {} ({} members, {} generations, {} rebalances)",
            g.group_id,
            g.members.len(),
            g.generations.len(),
            g.rebalances.len()
        );
        for d in &g.diagnoses {
            println!("  * {}", d.text);
        }
        if let Some(app) = &g.streams {
            print_streams(app);
        }
        for gen in &g.generations {
            println!(
                "  generation {} from {}{}{} members [{}]",
                gen.generation,
                clock(gen.start_ms),
                gen.leader.as_ref().map(|l| format!(", leader {l}")).unwrap_or_default(),
                gen.protocol.as_ref().map(|p| format!(", {p},")).unwrap_or_else(|| ",".into()),
                gen.members.join(", ")
            );
        }
        for rb in &g.rebalances {
            let gens = match (rb.from_generation, rb.to_generation) {
                (Some(a), Some(b)) => format!("{a} -> {b}"),
                (None, Some(b)) => format!("-> {b}"),
                (Some(a), None) => format!("{a} -> ?"),
                (None, None) => "?".into(),
            };
            let causes: Vec<&str> = rb.causes.iter().map(|c| c.as_str()).collect();
            println!(
                "  rebalance {gens} at {} ({}), paused {} ms: {}",
                clock(rb.start_ms),
                rb.end_ms.map(|e| format!("{} ms", e - rb.start_ms)).unwrap_or_else(|| "not finished".into()),
                rb.paused_ms,
                causes.join(", ")
            );
            for w in &rb.why {
                let file = r.files.get(w.file as usize).map(|f| f.name.as_str()).unwrap_or("?");
                println!(
                    "      <- {} {}{} ({}:{})",
                    clock(w.ts),
                    w.cause.map(|c| c.as_str()).unwrap_or(""),
                    w.member.as_ref().map(|m| format!(" {m}")).unwrap_or_default(),
                    file,
                    w.line
                );
                if let Some(q) = &w.quote {
                    println!("         \"{q}\"");
                }
            }
        }
    }
    println!("{} lines read, {} not recognised", r.lines_read, r.lines_unparsed);
    if r.unread_count > 0 {
        println!("What I could not read: {} lines that look like group coordination", r.unread_count);
        for u in &r.unread {
            println!("  {}:{}  {}", u.file, u.line, u.text);
        }
    }
}

fn main() {
    let mut json = false;
    let mut scenario = false;
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--json" => json = true,
            "--scenario" => scenario = true,
            "--dialects" => {
                print!("{}", groupscope::explain::dialects::markdown());
                return;
            }
            "-h" | "--help" => usage(),
            _ if a.starts_with("--") => {
                eprintln!("explain: unknown option {a}");
                usage()
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        usage();
    }
    let mut x = Explainer::new();
    for f in &files {
        let res = if f == "-" {
            read_into(&mut x, "stdin", std::io::stdin().lock())
        } else {
            match std::fs::File::open(f) {
                Ok(file) if file.metadata().map(|m| m.is_dir()).unwrap_or(false) => {
                    Err(format!("{f}: is a directory, not a log file"))
                }
                Ok(file) => read_into(&mut x, f, file),
                Err(e) => Err(format!("{f}: cannot open: {e}")),
            }
        };
        if let Err(e) = res {
            eprintln!("explain: {e}");
            std::process::exit(2);
        }
    }
    let report = x.finish();
    for f in report.files.iter().filter(|f| f.binary) {
        eprintln!("explain: {} looks like a binary file (NUL or control bytes), not a log; skipped", f.name);
    }
    if report.files.iter().all(|f| f.binary) {
        std::process::exit(2);
    }
    if let Some(p) = report.problem() {
        eprintln!("explain: {p}");
    }
    if scenario {
        match groupscope::explain::replay::scenario(&report) {
            Ok(s) => println!("{}", serde_json::to_string_pretty(&s).expect("scenario serializes")),
            Err(e) => {
                eprintln!("explain: {e}");
                std::process::exit(2);
            }
        }
    } else if json {
        println!("{}", report.to_json());
    } else {
        print_text(&report);
    }
}
