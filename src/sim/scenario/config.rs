//! Configuration of the simulated cluster and clients, under Kafka's own config
//! names so a reader can look each one up in Kafka's documentation.

use serde::{Deserialize, Serialize};

/// Broker configs that shape group coordination (GroupCoordinatorConfig).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BrokerConfig {
    #[serde(rename = "group.initial.rebalance.delay.ms")]
    pub initial_rebalance_delay_ms: u64,
    #[serde(rename = "group.min.session.timeout.ms")]
    pub min_session_timeout_ms: u64,
    #[serde(rename = "group.max.session.timeout.ms")]
    pub max_session_timeout_ms: u64,
    #[serde(rename = "group.max.size")]
    pub group_max_size: u32,
    #[serde(rename = "offsets.topic.num.partitions")]
    pub offsets_topic_num_partitions: u32,
    #[serde(rename = "offsets.topic.replication.factor")]
    pub offsets_topic_replication_factor: u32,
    /// Simulated time a new coordinator needs to replay its `__consumer_offsets`
    /// partition (not a Kafka config: real load time depends on the log size).
    #[serde(rename = "simulated.coordinator.load.ms")]
    pub coordinator_load_ms: u64,
    /// KRaft: a broker without a heartbeat to the controller for this long is fenced.
    #[serde(rename = "broker.session.timeout.ms")]
    pub broker_session_timeout_ms: u64,
    /// The log cleaner compacts `__consumer_offsets` (`LogCleaner`; on by default).
    #[serde(rename = "log.cleaner.enable")]
    pub log_cleaner_enable: bool,
    /// KRaft: the controller moves leadership back to each partition's
    /// preferred replica (`QuorumController.registerElectPreferred`).
    #[serde(rename = "auto.leader.rebalance.enable")]
    pub auto_leader_rebalance_enable: bool,
    /// How often the controller's `electPreferred` task runs.
    #[serde(rename = "leader.imbalance.check.interval.seconds")]
    pub leader_imbalance_check_interval_seconds: u64,
    // --- consumer groups (KIP-848), GroupCoordinatorConfig ---
    #[serde(rename = "group.consumer.session.timeout.ms")]
    pub consumer_group_session_timeout_ms: u64,
    #[serde(rename = "group.consumer.min.session.timeout.ms")]
    pub consumer_group_min_session_timeout_ms: u64,
    #[serde(rename = "group.consumer.max.session.timeout.ms")]
    pub consumer_group_max_session_timeout_ms: u64,
    #[serde(rename = "group.consumer.heartbeat.interval.ms")]
    pub consumer_group_heartbeat_interval_ms: u64,
    #[serde(rename = "group.consumer.min.heartbeat.interval.ms")]
    pub consumer_group_min_heartbeat_interval_ms: u64,
    #[serde(rename = "group.consumer.max.heartbeat.interval.ms")]
    pub consumer_group_max_heartbeat_interval_ms: u64,
    #[serde(rename = "group.consumer.max.size")]
    pub consumer_group_max_size: u32,
    /// Server assignor names; the first is the default (Kafka lists class names).
    #[serde(rename = "group.consumer.assignors")]
    pub consumer_group_assignors: Vec<String>,
    /// KIP-1263 (Kafka 4.3+): a new target assignment at most this often.
    #[serde(rename = "group.consumer.assignment.interval.ms")]
    pub consumer_group_assignment_interval_ms: u64,
}

impl Default for BrokerConfig {
    fn default() -> Self {
        BrokerConfig {
            initial_rebalance_delay_ms: 3000,
            min_session_timeout_ms: 6000,
            max_session_timeout_ms: 1_800_000,
            group_max_size: i32::MAX as u32,
            offsets_topic_num_partitions: 50,
            offsets_topic_replication_factor: 3,
            coordinator_load_ms: 500,
            broker_session_timeout_ms: 9000,
            log_cleaner_enable: true,
            auto_leader_rebalance_enable: true,
            leader_imbalance_check_interval_seconds: 300,
            consumer_group_session_timeout_ms: 45_000,
            consumer_group_min_session_timeout_ms: 45_000,
            consumer_group_max_session_timeout_ms: 60_000,
            consumer_group_heartbeat_interval_ms: 5000,
            consumer_group_min_heartbeat_interval_ms: 5000,
            consumer_group_max_heartbeat_interval_ms: 15_000,
            consumer_group_max_size: i32::MAX as u32,
            consumer_group_assignors: vec!["uniform".into(), "range".into()],
            consumer_group_assignment_interval_ms: 1000,
        }
    }
}

impl BrokerConfig {
    /// The `require(...)` checks of GroupCoordinatorConfig's constructor for the
    /// consumer-group timeouts (GroupCoordinatorConfig), as Kafka words them.
    pub fn validate_consumer_group(&self) -> Result<(), String> {
        let (s, smin, smax) = (
            self.consumer_group_session_timeout_ms,
            self.consumer_group_min_session_timeout_ms,
            self.consumer_group_max_session_timeout_ms,
        );
        let (h, hmin, hmax) = (
            self.consumer_group_heartbeat_interval_ms,
            self.consumer_group_min_heartbeat_interval_ms,
            self.consumer_group_max_heartbeat_interval_ms,
        );
        let checks = [
            (s >= 1 && smin >= 1 && smax >= 1 && h >= 1 && hmin >= 1 && hmax >= 1, "group.consumer.* timeouts must be at least 1"),
            (hmax >= hmin, "group.consumer.max.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"),
            (h >= hmin, "group.consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"),
            (h <= hmax, "group.consumer.heartbeat.interval.ms must be less than or equal to group.consumer.max.heartbeat.interval.ms"),
            (smax >= smin, "group.consumer.max.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
            (s >= smin, "group.consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
            (s <= smax, "group.consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms"),
            (h < s, "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms"),
            (self.consumer_group_max_size >= 1, "group.consumer.max.size must be at least 1"),
            (!self.consumer_group_assignors.is_empty(), "group.consumer.assignors must not be empty"),
            (self.consumer_group_assignment_interval_ms <= 15_000, "group.consumer.assignment.interval.ms must be at most 15000"),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, msg)) => Err(format!("broker: {msg}")),
            None => Ok(()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AutoOffsetReset {
    Earliest,
    Latest,
}

/// What the simulated application does after processing each batch that `poll()`
/// returned (`simulated.commit.mode`). Kafka has no such config: it is the
/// application's own code. With `enable.auto.commit=false` this is the only
/// way offsets get committed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommitMode {
    /// Never calls `commitSync` / `commitAsync` (offsets move only by auto-commit).
    #[default]
    None,
    /// `commitSync()` after each batch: the application waits for the answer
    /// (retrying retriable errors for `default.api.timeout.ms`) before polling again.
    Sync,
    /// `commitAsync()` after each batch: no waiting and no retries.
    Async,
    /// `commitAsync()` of the batch's positions as soon as `poll()` returns
    /// it, before processing (at most once: a crash mid-batch loses the
    /// batch's records for the group, which `Stats::skipped` counts).
    Before,
}

impl CommitMode {
    pub fn is_none(&self) -> bool {
        *self == CommitMode::None
    }
}

fn is_default_fetch_max_wait(ms: &u64) -> bool {
    *ms == 500
}

fn is_default_reconnect_backoff(ms: &u64) -> bool {
    *ms == 50
}

fn is_default_reconnect_backoff_max(ms: &u64) -> bool {
    *ms == 1000
}

fn is_default_api_timeout(ms: &u64) -> bool {
    *ms == 60_000
}

/// `group.protocol`: which consumer implementation and group protocol a client uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupProtocol {
    /// ClassicKafkaConsumer: JoinGroup/SyncGroup/Heartbeat.
    #[default]
    Classic,
    /// AsyncKafkaConsumer: ConsumerGroupHeartbeat (KIP-848).
    Consumer,
}

impl GroupProtocol {
    pub fn is_classic(&self) -> bool {
        *self == GroupProtocol::Classic
    }
}

/// Consumer configs (ConsumerConfig) plus the simulated application's behaviour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConsumerConfig {
    #[serde(rename = "session.timeout.ms")]
    pub session_timeout_ms: u64,
    #[serde(rename = "heartbeat.interval.ms")]
    pub heartbeat_interval_ms: u64,
    #[serde(rename = "max.poll.interval.ms")]
    pub max_poll_interval_ms: u64,
    #[serde(rename = "partition.assignment.strategy")]
    pub assignors: Vec<String>,
    #[serde(rename = "enable.auto.commit")]
    pub enable_auto_commit: bool,
    #[serde(rename = "auto.commit.interval.ms")]
    pub auto_commit_interval_ms: u64,
    #[serde(rename = "auto.offset.reset")]
    pub auto_offset_reset: AutoOffsetReset,
    #[serde(rename = "group.instance.id")]
    pub group_instance_id: Option<String>,
    #[serde(rename = "retry.backoff.ms")]
    pub retry_backoff_ms: u64,
    #[serde(rename = "retry.backoff.max.ms")]
    pub retry_backoff_max_ms: u64,
    #[serde(rename = "request.timeout.ms")]
    pub request_timeout_ms: u64,
    #[serde(rename = "max.poll.records")]
    pub max_poll_records: u32,
    /// How long a leader holds a Fetch that finds no new records (FetchRequest `MaxWaitMs`).
    #[serde(rename = "fetch.max.wait.ms", skip_serializing_if = "is_default_fetch_max_wait")]
    pub fetch_max_wait_ms: u64,
    #[serde(rename = "client.rack")]
    pub client_rack: Option<String>,
    /// Topics passed to `subscribe()`.
    pub topics: Vec<String>,
    /// Simulated processing time per record in the application's poll loop.
    #[serde(rename = "processing.ms.per.record")]
    pub processing_ms_per_record: u64,
    #[serde(rename = "group.protocol", skip_serializing_if = "GroupProtocol::is_classic")]
    pub group_protocol: GroupProtocol,
    /// The server assignor the member asks for (consumer protocol only).
    #[serde(rename = "group.remote.assignor", skip_serializing_if = "Option::is_none")]
    pub group_remote_assignor: Option<String>,
    /// Simulated application: commit after each processed batch (not a Kafka config).
    #[serde(rename = "simulated.commit.mode", skip_serializing_if = "CommitMode::is_none")]
    pub commit_mode: CommitMode,
    /// How long `commitSync()` keeps retrying (the timeout of the no-argument overload).
    #[serde(rename = "default.api.timeout.ms", skip_serializing_if = "is_default_api_timeout")]
    pub default_api_timeout_ms: u64,
    /// A broker whose connection just broke is not picked for FindCoordinator
    /// (leastLoadedNode) for this long, doubling per failure (no jitter here).
    #[serde(rename = "reconnect.backoff.ms", skip_serializing_if = "is_default_reconnect_backoff")]
    pub reconnect_backoff_ms: u64,
    #[serde(rename = "reconnect.backoff.max.ms", skip_serializing_if = "is_default_reconnect_backoff_max")]
    pub reconnect_backoff_max_ms: u64,
}

impl Default for ConsumerConfig {
    fn default() -> Self {
        ConsumerConfig {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 3000,
            max_poll_interval_ms: 300_000,
            assignors: vec!["range".into(), "cooperative-sticky".into()],
            enable_auto_commit: true,
            auto_commit_interval_ms: 5000,
            auto_offset_reset: AutoOffsetReset::Latest,
            group_instance_id: None,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1000,
            request_timeout_ms: 30_000,
            max_poll_records: 500,
            fetch_max_wait_ms: 500,
            client_rack: None,
            topics: Vec::new(),
            processing_ms_per_record: 5,
            group_protocol: GroupProtocol::Classic,
            group_remote_assignor: None,
            commit_mode: CommitMode::None,
            default_api_timeout_ms: 60_000,
            reconnect_backoff_ms: 50,
            reconnect_backoff_max_ms: 1000,
        }
    }
}

/// The simulated network between every pair of nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetworkConfig {
    /// One-way latency of every message.
    #[serde(rename = "latencyMs")]
    pub latency_ms: u64,
    /// Extra random latency, uniform in [0, jitter].
    #[serde(rename = "jitterMs")]
    pub jitter_ms: u64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig { latency_ms: 100, jitter_ms: 0 }
    }
}
