//! What a scenario must satisfy before it runs: Kafka's own ranges for every
//! config (an `int` config holds at most 2^31-1; `ConfigDef.Range.atLeast`
//! bounds; the `require` checks of GroupCoordinatorConfig), the simulator's
//! caps (limits.rs), unique names, and a fault script whose targets exist.
//! Every message starts with the field's path, e.g.
//! `groups[0].config.max.poll.interval.ms: must be at most 2147483647 (Kafka's int)`.

use crate::sim::scenario::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use crate::sim::scenario::limits::{self, in_range, kafka_int};
use crate::sim::scenario::{Scenario, MAX_CONSUMERS, MAX_PARTITIONS};
use std::collections::BTreeSet;

pub fn scenario(s: &Scenario) -> Result<(), String> {
    if s.name.chars().count() > 200 {
        return Err(format!("name: {} characters; at most 200", s.name.chars().count()));
    }
    in_range("brokers", u64::from(s.brokers), 1, 9, "the simulator draws at most 9 brokers")?;
    broker(&s.broker)?;
    network(&s.network)?;
    let mut total_partitions = 0u32;
    let mut topics = BTreeSet::new();
    for (i, t) in s.topics.iter().enumerate() {
        let at = format!("topics[{i}]");
        limits::kafka_name(&format!("{at}.name"), &t.name)?;
        if t.name.starts_with("__") {
            return Err(format!("{at}.name: '{}': names starting with __ are Kafka's internal topics", t.name));
        }
        if !topics.insert(t.name.as_str()) {
            return Err(format!("{at}.name: the topic '{}' is listed twice", t.name));
        }
        in_range(
            &format!("{at}.partitions"),
            u64::from(t.partitions),
            1,
            u64::from(MAX_PARTITIONS),
            "the simulator shows at most 10000 partitions",
        )?;
        in_range(
            &format!("{at}.recordsPerSec"),
            t.records_per_sec,
            0,
            limits::MAX_RECORDS_PER_SEC,
            "the simulator's cap",
        )?;
        total_partitions = total_partitions.saturating_add(t.partitions);
    }
    if total_partitions > MAX_PARTITIONS {
        return Err(format!(
            "topics: {total_partitions} partitions in all; the simulator shows at most {MAX_PARTITIONS}"
        ));
    }
    let total: u32 = s.groups.iter().map(|g| g.consumers).fold(0, u32::saturating_add);
    if total > MAX_CONSUMERS {
        return Err(format!("groups: {total} consumers in all; the simulator runs at most {MAX_CONSUMERS}"));
    }
    for (i, g) in s.groups.iter().enumerate() {
        let at = format!("groups[{i}]");
        // An empty group.id is Kafka's to refuse (INVALID_GROUP_ID): the simulator shows it.
        let n = g.group_id.chars().count();
        if n > limits::MAX_NAME_LEN {
            return Err(format!("{at}.groupId: {n} characters; at most {}", limits::MAX_NAME_LEN));
        }
        // Entries sharing a groupId are one group whose members differ in config
        // (a rolling upgrade); the very same entry twice is a mistake.
        if let Some(j) = s.groups[..i]
            .iter()
            .position(|o| o.group_id == g.group_id && o.config == g.config && o.static_members == g.static_members)
        {
            return Err(format!(
                "{at}.groupId: the group id '{}' is used twice with the same settings (groups[{j}]); give groups[{j}] more consumers instead",
                limits::shown(&g.group_id)
            ));
        }
        stagger(&at, g.start_stagger_ms, g.consumers)?;
        consumer(&format!("{at}.config"), &g.config)?;
    }
    let workers: u32 = s.connect_clusters.iter().map(|c| c.workers).fold(0, u32::saturating_add);
    if workers > crate::sim::scenario::connect_config::MAX_WORKERS {
        return Err(format!(
            "connectClusters: {workers} workers in all; the simulator runs at most {}",
            crate::sim::scenario::connect_config::MAX_WORKERS
        ));
    }
    let mut ids: BTreeSet<&str> = s.groups.iter().map(|g| g.group_id.as_str()).collect();
    for (i, c) in s.connect_clusters.iter().enumerate() {
        let at = format!("connectClusters[{i}]");
        limits::name(&format!("{at}.groupId"), &c.group_id, limits::MAX_NAME_LEN)?;
        if !ids.insert(c.group_id.as_str()) {
            return Err(format!(
                "{at}.groupId: the group id '{}' is already used by another group",
                limits::shown(&c.group_id)
            ));
        }
        c.validate().map_err(|e| format!("{at}: {e}"))?;
    }
    let share_total: u32 = s.share_groups.iter().map(|g| g.consumers).fold(total, u32::saturating_add);
    if share_total > MAX_CONSUMERS {
        return Err(format!(
            "shareGroups: {share_total} consumers in all with the groups'; the simulator runs at most {MAX_CONSUMERS}"
        ));
    }
    let topic_names: Vec<String> = s.topics.iter().map(|t| t.name.clone()).collect();
    for (i, g) in s.share_groups.iter().enumerate() {
        let at = format!("shareGroups[{i}]");
        limits::name(&format!("{at}.groupId"), &g.group_id, limits::MAX_NAME_LEN)?;
        if !ids.insert(g.group_id.as_str()) {
            return Err(format!(
                "{at}.groupId: the group id '{}' is already used by another group (a group id names one group of one type)",
                limits::shown(&g.group_id)
            ));
        }
        g.validate(&topic_names).map_err(|e| format!("{at}: {e}"))?;
        stagger(&at, g.start_stagger_ms, g.consumers)?;
    }
    streams_apps(s, share_total, &mut ids)?;
    crate::sim::fault::check::script(s)
}

/// Streams applications: each entry's own checks, ids free of other group
/// types, one set of group configs per application, and the thread count
/// within the simulator's cap.
fn streams_apps<'a>(s: &'a Scenario, before: u32, ids: &mut BTreeSet<&'a str>) -> Result<(), String> {
    let threads: u32 = s
        .streams_apps
        .iter()
        .map(|a| a.instances.saturating_mul(a.threads_per_instance))
        .fold(before, u32::saturating_add);
    if threads > MAX_CONSUMERS {
        return Err(format!(
            "streamsApps: {threads} consumers and stream threads in all; the simulator runs at most {MAX_CONSUMERS}"
        ));
    }
    for (i, a) in s.streams_apps.iter().enumerate() {
        let at = format!("streamsApps[{i}]");
        limits::name(&format!("{at}.applicationId"), &a.application_id, limits::MAX_NAME_LEN)?;
        let earlier = s.streams_apps[..i].iter().find(|b| b.application_id == a.application_id);
        if earlier.is_none() && !ids.insert(a.application_id.as_str()) {
            return Err(format!(
                "{at}.applicationId: the group id '{}' is already used by another group (a group id names one group of one type)",
                limits::shown(&a.application_id)
            ));
        }
        if earlier.is_some_and(|b| b.config != a.config) && a.config != Default::default() {
            return Err(format!(
                "{at}.config: the group configs of '{}' are given by its first entry; leave them out here",
                limits::shown(&a.application_id)
            ));
        }
        a.validate().map_err(|e| format!("{at}: {e}"))?;
        stagger(&at, a.start_stagger_ms, a.instances)?;
        in_range(&format!("{at}.startAtMs"), a.start_at_ms, 0, limits::MAX_SIM_DURATION_MS, "a simulated day")?;
    }
    Ok(())
}

/// Every consumer of a group starts within a simulated day.
fn stagger(at: &str, ms: u64, consumers: u32) -> Result<(), String> {
    in_range(
        &format!("{at}.startStaggerMs"),
        ms,
        0,
        limits::MAX_SIM_DURATION_MS / u64::from(consumers.max(1)),
        "all consumers start within a simulated day",
    )
}

fn broker(b: &BrokerConfig) -> Result<(), String> {
    let f = |name: &str| format!("broker.{name}");
    kafka_int(&f("group.initial.rebalance.delay.ms"), b.initial_rebalance_delay_ms, 0)?;
    kafka_int(&f("group.min.session.timeout.ms"), b.min_session_timeout_ms, 0)?;
    kafka_int(&f("group.max.session.timeout.ms"), b.max_session_timeout_ms, 0)?;
    kafka_int(&f("group.max.size"), u64::from(b.group_max_size), 1)?;
    in_range(
        &f("offsets.topic.num.partitions"),
        u64::from(b.offsets_topic_num_partitions),
        1,
        1000,
        "the simulator's cap",
    )?;
    in_range(
        &f("offsets.topic.replication.factor"),
        u64::from(b.offsets_topic_replication_factor),
        1,
        limits::KAFKA_SHORT_MAX,
        "Kafka's short",
    )?;
    in_range(
        &f("simulated.coordinator.load.ms"),
        b.coordinator_load_ms,
        0,
        limits::MAX_SIM_DURATION_MS,
        "a simulated day",
    )?;
    in_range(
        &f("leader.imbalance.check.interval.seconds"),
        b.leader_imbalance_check_interval_seconds,
        1,
        limits::MAX_SIM_DURATION_MS / 1000,
        "a simulated day",
    )?;
    for (name, v) in [
        ("group.consumer.session.timeout.ms", b.consumer_group_session_timeout_ms),
        ("group.consumer.min.session.timeout.ms", b.consumer_group_min_session_timeout_ms),
        ("group.consumer.max.session.timeout.ms", b.consumer_group_max_session_timeout_ms),
        ("group.consumer.heartbeat.interval.ms", b.consumer_group_heartbeat_interval_ms),
        ("group.consumer.min.heartbeat.interval.ms", b.consumer_group_min_heartbeat_interval_ms),
        ("group.consumer.max.heartbeat.interval.ms", b.consumer_group_max_heartbeat_interval_ms),
    ] {
        kafka_int(&f(name), v, 1)?;
    }
    kafka_int(&f("group.consumer.max.size"), u64::from(b.consumer_group_max_size), 1)?;
    b.validate_consumer_group()?;
    if let Some((i, a)) =
        b.consumer_group_assignors.iter().enumerate().find(|(_, a)| crate::assign::server_assignor(a).is_none())
    {
        return Err(format!(
            "broker.group.consumer.assignors[{i}]: unknown server assignor '{}' (uniform, range)",
            limits::shown(a)
        ));
    }
    Ok(())
}

fn network(n: &NetworkConfig) -> Result<(), String> {
    in_range(
        "network.latencyMs",
        n.latency_ms,
        0,
        limits::MAX_LATENCY_MS,
        "the simulator's cap, 10 simulated minutes",
    )?;
    in_range("network.jitterMs", n.jitter_ms, 0, limits::MAX_LATENCY_MS, "the simulator's cap, 10 simulated minutes")
}

/// ConsumerConfig's definitions: `int` configs within Kafka's int, with their
/// `atLeast` bounds; the simulator needs every interval and backoff to be
/// positive (a zero one would repeat forever at one simulated instant).
fn consumer(at: &str, c: &ConsumerConfig) -> Result<(), String> {
    let f = |name: &str| format!("{at}.{name}");
    kafka_int(&f("session.timeout.ms"), c.session_timeout_ms, 1)?;
    kafka_int(&f("heartbeat.interval.ms"), c.heartbeat_interval_ms, 1)?;
    kafka_int(&f("max.poll.interval.ms"), c.max_poll_interval_ms, 1)?;
    kafka_int(&f("auto.commit.interval.ms"), c.auto_commit_interval_ms, 1)?;
    kafka_int(&f("request.timeout.ms"), c.request_timeout_ms, 1)?;
    kafka_int(&f("max.poll.records"), u64::from(c.max_poll_records), 1)?;
    kafka_int(&f("fetch.max.wait.ms"), c.fetch_max_wait_ms, 0)?;
    kafka_int(&f("default.api.timeout.ms"), c.default_api_timeout_ms, 0)?;
    // `long` configs in Kafka; here within a simulated day.
    let day = |name: &str, v: u64, min: u64| in_range(&f(name), v, min, limits::MAX_SIM_DURATION_MS, "a simulated day");
    day("retry.backoff.ms", c.retry_backoff_ms, 1)?;
    day("retry.backoff.max.ms", c.retry_backoff_max_ms, 1)?;
    day("reconnect.backoff.ms", c.reconnect_backoff_ms, 1)?;
    day("reconnect.backoff.max.ms", c.reconnect_backoff_max_ms, 1)?;
    day("processing.ms.per.record", c.processing_ms_per_record, 0)?;
    if c.heartbeat_interval_ms >= c.session_timeout_ms {
        return Err(format!(
            "{}: {} must be lower than session.timeout.ms ({}), as Kafka's Heartbeat requires",
            f("heartbeat.interval.ms"),
            c.heartbeat_interval_ms,
            c.session_timeout_ms
        ));
    }
    if c.assignors.is_empty() {
        return Err(format!("{}: must not be empty", f("partition.assignment.strategy")));
    }
    for (i, a) in c.assignors.iter().enumerate() {
        if !crate::assign::is_known_client_assignor(a) {
            return Err(format!(
                "{}[{i}]: unknown assignor '{}'",
                f("partition.assignment.strategy"),
                limits::shown(a)
            ));
        }
    }
    // An unknown group.remote.assignor is the broker's to refuse (UNSUPPORTED_ASSIGNOR).
    if let Some(a) = &c.group_remote_assignor {
        limits::name(&f("group.remote.assignor"), a, limits::MAX_NAME_LEN)?;
    }
    if let Some(id) = &c.group_instance_id {
        limits::kafka_name(&f("group.instance.id"), id)?;
    }
    if let Some(rack) = &c.client_rack {
        limits::name(&f("client.rack"), rack, limits::MAX_NAME_LEN)?;
    }
    if c.topics.len() > limits::MAX_SUBSCRIBED_TOPICS {
        return Err(format!("{}: {} topics; at most {}", f("topics"), c.topics.len(), limits::MAX_SUBSCRIBED_TOPICS));
    }
    for (i, t) in c.topics.iter().enumerate() {
        limits::name(&format!("{}[{i}]", f("topics")), t, limits::MAX_TOPIC_NAME_LEN)?;
    }
    Ok(())
}

impl Scenario {
    /// Rejects what Kafka itself rejects at construction, and what the simulator
    /// cannot show or afford; each message starts with the
    /// field's path and says why.
    pub fn validate(&self) -> Result<(), String> {
        scenario(self)
    }
}
