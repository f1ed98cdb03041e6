//! Share groups in a scenario (KIP-932): the group's consumers
//! (`KafkaShareConsumer`), the group's own configs (Kafka's dynamic group
//! configs `share.*`, `GroupConfig`, whose defaults are the brokers'
//! `group.share.*`, `ShareGroupConfig` and `GroupCoordinatorConfig`), and what
//! the simulated application does with the records it gets.

use crate::assign::TopicPartition;
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};

/// One share group and its consumers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareGroupSpec {
    #[serde(rename = "groupId")]
    pub group_id: String,
    /// Share consumers started in this group.
    pub consumers: u32,
    /// The topics every consumer subscribes to.
    pub topics: Vec<String>,
    /// The group's configs (`kafka-configs.sh --entity-type groups`).
    #[serde(default)]
    pub config: ShareGroupConfig,
    /// What every consumer of the group is configured and told to do.
    #[serde(default)]
    pub consumer: ShareConsumerConfig,
    /// Consumers start this many ms apart.
    #[serde(default = "default_stagger", rename = "startStaggerMs")]
    pub start_stagger_ms: Millis,
}

fn default_stagger() -> Millis {
    300
}

/// `share.auto.offset.reset`: where a share-partition without state starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShareAutoOffsetReset {
    /// Only records written after the share-partition is initialized.
    #[default]
    Latest,
    /// From the log start.
    Earliest,
}

/// A share group's dynamic configs (`GroupConfig`, L63-96), defaulting to the
/// brokers' `group.share.*` defaults (GroupCoordinatorConfig L270-325,
/// ShareGroupConfig L36-96), validated against the group bounds of Kafka 4.4.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShareGroupConfig {
    #[serde(rename = "share.session.timeout.ms")]
    pub session_timeout_ms: Millis,
    #[serde(rename = "share.heartbeat.interval.ms")]
    pub heartbeat_interval_ms: Millis,
    #[serde(rename = "share.record.lock.duration.ms")]
    pub record_lock_duration_ms: Millis,
    #[serde(rename = "share.delivery.count.limit")]
    pub delivery_count_limit: i32,
    #[serde(rename = "share.partition.max.record.locks")]
    pub partition_max_record_locks: i64,
    /// KIP-1263 (4.3): a new target assignment at most this often.
    #[serde(rename = "share.assignment.interval.ms")]
    pub assignment_interval_ms: Millis,
    #[serde(rename = "share.auto.offset.reset")]
    pub auto_offset_reset: ShareAutoOffsetReset,
    /// KIP-1222 (4.3): RENEW acknowledgements are allowed.
    #[serde(rename = "share.renew.acknowledge.enable")]
    pub renew_acknowledge_enable: bool,
}

impl Default for ShareGroupConfig {
    fn default() -> Self {
        ShareGroupConfig {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 5000,
            record_lock_duration_ms: 30_000,
            delivery_count_limit: 5,
            partition_max_record_locks: 2000,
            assignment_interval_ms: 1000,
            auto_offset_reset: ShareAutoOffsetReset::Latest,
            renew_acknowledge_enable: true,
        }
    }
}

/// `group.share.max.size`: members a share group takes (GroupCoordinatorConfig L270).
pub const SHARE_GROUP_MAX_SIZE: usize = 200;

impl ShareGroupConfig {
    /// Kafka 4.4's group-config bounds (`GroupConfig.validate`, KIP-1240), as
    /// a plain sentence naming the config, its value and its range.
    pub fn validate(&self) -> Result<(), String> {
        let check = |name: &str, v: i64, lo: i64, hi: i64| {
            if v < lo || v > hi {
                Err(format!("{name} is {v}; Kafka 4.4 accepts {lo} to {hi} for a share group"))
            } else {
                Ok(())
            }
        };
        check("share.session.timeout.ms", self.session_timeout_ms as i64, 45_000, 60_000)?;
        check("share.heartbeat.interval.ms", self.heartbeat_interval_ms as i64, 5000, 15_000)?;
        check("share.record.lock.duration.ms", self.record_lock_duration_ms as i64, 15_000, 60_000)?;
        check("share.delivery.count.limit", i64::from(self.delivery_count_limit), 2, 10)?;
        check("share.partition.max.record.locks", self.partition_max_record_locks, 100, 4000)?;
        check("share.assignment.interval.ms", self.assignment_interval_ms as i64, 0, 15_000)?;
        if self.heartbeat_interval_ms >= self.session_timeout_ms {
            return Err("share.heartbeat.interval.ms must be lower than share.session.timeout.ms".into());
        }
        Ok(())
    }

    /// `throttleRecordsDeliveryLimit` (SharePartition L3534): from this many
    /// deliveries on, a record is handed out on its own.
    pub fn throttle_delivery_limit(&self) -> i32 {
        2.max((self.delivery_count_limit + 1) / 2)
    }
}

/// `share.acknowledgement.mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AcknowledgementMode {
    /// Records a `poll()` returned are accepted by the next `poll()`.
    #[default]
    Implicit,
    /// The application calls `acknowledge(record, type)` for each.
    Explicit,
}

/// What the application does with a record it cannot process (explicit mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnPoison {
    /// `acknowledge(record, RELEASE)`: try again later, maybe elsewhere.
    #[default]
    Release,
    /// `acknowledge(record, REJECT)`: never deliver it again.
    Reject,
}

/// A share consumer's configuration and its simulated application.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShareConsumerConfig {
    #[serde(rename = "share.acknowledgement.mode")]
    pub acknowledgement_mode: AcknowledgementMode,
    #[serde(rename = "max.poll.records")]
    pub max_poll_records: i64,
    /// `fetch.max.wait.ms`: how long a ShareFetch waits at the leader for records.
    #[serde(rename = "fetch.max.wait.ms")]
    pub fetch_max_wait_ms: Millis,
    /// Time the application spends on each record (not a Kafka config).
    #[serde(rename = "processingMsPerRecord")]
    pub processing_ms_per_record: Millis,
    /// Records the application fails on, as `topic-partition@offset` (explicit mode).
    #[serde(rename = "poisonRecords", skip_serializing_if = "Vec::is_empty")]
    pub poison_records: Vec<PoisonRecord>,
    #[serde(rename = "onPoison")]
    pub on_poison: OnPoison,
}

impl Default for ShareConsumerConfig {
    fn default() -> Self {
        ShareConsumerConfig {
            acknowledgement_mode: AcknowledgementMode::Implicit,
            max_poll_records: 500,
            fetch_max_wait_ms: 500,
            processing_ms_per_record: 20,
            poison_records: Vec::new(),
            on_poison: OnPoison::Release,
        }
    }
}

/// One record the application cannot process: `orders-0@120`. (Plain
/// strings, so a scenario can be shared between threads.)
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PoisonRecord {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
}

impl PoisonRecord {
    /// This record is `offset` of `tp`.
    pub fn is(&self, tp: &TopicPartition, offset: i64) -> bool {
        self.offset == offset && self.partition == tp.partition && *tp.topic == *self.topic
    }
}

impl std::fmt::Display for PoisonRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}@{}", self.topic, self.partition, self.offset)
    }
}

impl std::str::FromStr for PoisonRecord {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not a record (expected topic-partition@offset, e.g. orders-0@120)");
        let (tp, off) = s.rsplit_once('@').ok_or_else(bad)?;
        let tp: TopicPartition = tp.parse().map_err(|_| bad())?;
        let offset = off.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(bad)?;
        Ok(PoisonRecord { topic: tp.topic.to_string(), partition: tp.partition, offset })
    }
}

impl Serialize for PoisonRecord {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PoisonRecord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

impl ShareGroupSpec {
    /// The checks a share group's spec must pass, in plain words.
    pub fn validate(&self, topics: &[String]) -> Result<(), String> {
        let g = &self.group_id;
        if g.is_empty() {
            return Err("a share group needs a groupId".into());
        }
        self.config.validate().map_err(|e| format!("share group {g}: {e}"))?;
        if self.topics.is_empty() {
            return Err(format!("share group {g} subscribes to no topic"));
        }
        if let Some(t) = self.topics.iter().find(|t| !topics.contains(t)) {
            return Err(format!("share group {g} subscribes to '{t}', which the scenario does not create"));
        }
        let c = &self.consumer;
        if !(1..=10_000).contains(&c.max_poll_records) {
            return Err(format!("share group {g}: max.poll.records must be between 1 and 10000"));
        }
        if !c.poison_records.is_empty() && c.acknowledgement_mode == AcknowledgementMode::Implicit {
            return Err(format!(
                "share group {g}: poison records need share.acknowledgement.mode=explicit (in implicit mode \
                 the next poll() accepts every record, so the application cannot release or reject one)"
            ));
        }
        if let Some(p) = c.poison_records.iter().find(|p| !self.topics.contains(&p.topic)) {
            return Err(format!("share group {g}: poison record {p} is not on a subscribed topic"));
        }
        Ok(())
    }
}
