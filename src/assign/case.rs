//! Assignment cases in the format of Kafka-derived `vectors.json`, shared by
//! the `assign` binary and the vector tests: parsing, validation, building the
//! assignor inputs, and one call of the assignor.

use super::server::{GroupSpec, MemberSpec, SubscriptionType, TopicInfo, TopicMetadata};
use super::streams::case::{is_streams_case, StreamsCase};
use super::{
    client_assignor, server_assignor, share_assignor, Assignment, ClientAssignor, ClusterMetadata, ServerAssignor,
};
use super::{Subscription, SubscriptionFormat, TopicPartition};
use crate::java::{compare_strings, hashmap_order, int_set_order, uuid_hash_order, Uuid};
use crate::small_sort::StableSort;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// One member of a case.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaseMember {
    pub id: String,
    #[serde(default)]
    pub subscriptions: Vec<String>,
    #[serde(default)]
    pub owned: Vec<TopicPartition>,
    #[serde(default)]
    pub generation: Option<i32>,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack: Option<String>,
    #[serde(default)]
    pub subscription_format: Option<String>,
}

/// Server-side parameters of a case (`params` in vectors.json).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseParams {
    pub subscription_type: Option<String>,
    pub member_order: Option<String>,
    pub owned_assignment_map: Option<String>,
    pub inverted_assignment_provided: Option<bool>,
    /// Share groups: the partitions whose share state is initialized
    /// (`isPartitionAssignable`); absent = every partition.
    pub assignable_partitions: Option<Vec<TopicPartition>>,
}

/// One case: the inputs of one assignor call (plus, in vectors.json, the
/// expectation fields the tests read).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Case {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    pub assignor: String,
    #[serde(default)]
    pub topics: BTreeMap<String, i32>,
    #[serde(default)]
    pub topic_ids: BTreeMap<String, String>,
    #[serde(default)]
    pub replica_racks: BTreeMap<String, Vec<Vec<Option<String>>>>,
    #[serde(default)]
    pub prefer_rack_aware_logic: bool,
    pub members: Vec<CaseMember>,
    #[serde(default)]
    pub member_map: Option<String>,
    #[serde(default)]
    pub params: CaseParams,
    #[serde(default)]
    pub expected: Option<Assignment>,
    /// What Kafka 4.4 returns where it differs from `expected` (the October 2024 classes).
    #[serde(default)]
    pub expected44: Option<Assignment>,
    #[serde(default)]
    pub ordered: bool,
    #[serde(default)]
    pub step: Option<u32>,
    #[serde(default)]
    pub partial_expected: bool,
    #[serde(default)]
    pub cooperative_rounds: Option<String>,
    #[serde(default)]
    pub first_round_actual: Option<Assignment>,
    #[serde(default)]
    pub partitions_transferring_ownership: Option<BTreeMap<TopicPartition, String>>,
}

/// The assignor families a case can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    Range,
    RoundRobin,
    Sticky,
    CooperativeSticky,
    ServerUniform,
    ServerRange,
    /// The share-group assignor `simple` (KIP-932).
    ShareSimple,
}

impl Family {
    pub fn parse(name: &str) -> Result<Family, String> {
        Ok(match name {
            "range" | "client.range" => Family::Range,
            "roundrobin" | "client.roundrobin" => Family::RoundRobin,
            "sticky" | "client.sticky" => Family::Sticky,
            "cooperative-sticky" | "client.cooperative-sticky" => Family::CooperativeSticky,
            "uniform" | "server.uniform" => Family::ServerUniform,
            "server-range" | "server.range" => Family::ServerRange,
            "simple" | "share.simple" => Family::ShareSimple,
            _ => {
                return Err(format!(
                    "unknown assignor '{name}' (expected range, roundrobin, sticky, cooperative-sticky, uniform, server-range, simple or streams.sticky)"
                ))
            }
        })
    }

    /// The name Kafka registers the assignor under.
    pub fn kafka_name(self) -> &'static str {
        match self {
            Family::Range | Family::ServerRange => "range",
            Family::RoundRobin => "roundrobin",
            Family::Sticky => "sticky",
            Family::CooperativeSticky => "cooperative-sticky",
            Family::ServerUniform => "uniform",
            Family::ShareSimple => "simple",
        }
    }

    pub fn is_server(self) -> bool {
        matches!(self, Family::ServerUniform | Family::ServerRange | Family::ShareSimple)
    }

    /// A share-group assignor: one partition may go to several members.
    pub fn is_share(self) -> bool {
        self == Family::ShareSimple
    }
}

/// An assignor instance (client assignors keep state between calls).
pub enum AnyAssignor {
    Client(Box<dyn ClientAssignor>),
    Server(Box<dyn ServerAssignor>),
}

impl Case {
    pub fn family(&self) -> Result<Family, String> {
        Family::parse(&self.assignor)
    }

    /// A fresh assignor for this case.
    pub fn new_assignor(&self) -> Result<AnyAssignor, String> {
        let family = self.family()?;
        let missing = || format!("assignor {} is not available", family.kafka_name());
        if family.is_share() {
            share_assignor(family.kafka_name()).map(AnyAssignor::Server).ok_or_else(missing)
        } else if family.is_server() {
            server_assignor(family.kafka_name()).map(AnyAssignor::Server).ok_or_else(missing)
        } else {
            let mut a = client_assignor(family.kafka_name()).ok_or_else(missing)?;
            a.set_prefer_rack_aware_logic(self.prefer_rack_aware_logic);
            Ok(AnyAssignor::Client(a))
        }
    }

    /// Checks that the case is within what one call may ask for (members,
    /// partitions, name lengths, the member map's capacity).
    pub fn validate_size(&self) -> Result<(), String> {
        use crate::sim::scenario::limits::name;
        if self.members.len() > MAX_MEMBERS {
            return Err(format!("members: {} members; at most {MAX_MEMBERS}", self.members.len()));
        }
        let mut total = 0i64;
        for (topic, n) in &self.topics {
            name(&format!("topics.{}", crate::sim::scenario::limits::shown(topic)), topic, MAX_ID_LEN)?;
            total += i64::from(*n).max(0);
        }
        if total > MAX_PARTITIONS {
            return Err(format!("topics: {total} partitions in all; at most {MAX_PARTITIONS}"));
        }
        for (i, m) in self.members.iter().enumerate() {
            name(&format!("members[{i}].id"), &m.id, MAX_ID_LEN)?;
            for (field, v) in [("instanceId", &m.instance_id), ("rack", &m.rack)] {
                if let Some(v) = v {
                    name(&format!("members[{i}].{field}"), v, MAX_ID_LEN)?;
                }
            }
            if m.subscriptions.len() > self.topics.len().max(1) * 2 + 100 {
                return Err(format!(
                    "members[{i}].subscriptions: {} topics for a case of {} topics",
                    m.subscriptions.len(),
                    self.topics.len()
                ));
            }
            if m.owned.len() as i64 > MAX_PARTITIONS {
                return Err(format!("members[{i}].owned: {} partitions; at most {MAX_PARTITIONS}", m.owned.len()));
            }
        }
        if let Some(map) = &self.member_map {
            if let Some(n) = map.strip_prefix("HashMap(").and_then(|s| s.strip_suffix(')')) {
                // `new HashMap<>(int initialCapacity)`: an int, not negative.
                if n.parse::<i32>().map_or(true, |n| n < 0) {
                    return Err(format!(
                        "memberMap: '{}': the capacity of new HashMap<>(n) is a Java int from 0 to 2147483647",
                        crate::sim::scenario::limits::shown(map)
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks the case for input that no assignor could accept.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_size()?;
        self.family().map_err(|e| format!("assignor: {e}"))?;
        let mut ids = HashSet::new();
        for (i, m) in self.members.iter().enumerate() {
            if m.id.is_empty() {
                return Err(format!("members[{i}].id: a member has an empty id"));
            }
            if !ids.insert(m.id.as_str()) {
                return Err(format!("members[{i}].id: member '{}' is listed twice", m.id));
            }
            if let Some(f) = &m.subscription_format {
                SubscriptionFormat::parse(f).map_err(|e| format!("members[{i}].subscriptionFormat: {e}"))?;
            }
            for (j, tp) in m.owned.iter().enumerate() {
                let count = self.topics.get(tp.topic.as_str()).copied();
                if count.is_some_and(|n| tp.partition >= n) {
                    return Err(format!(
                        "members[{i}].owned[{j}]: member '{}' owns {tp}, but {} has {} partitions",
                        m.id,
                        tp.topic,
                        count.unwrap_or(0)
                    ));
                }
            }
        }
        for (topic, n) in &self.topics {
            if *n < 0 {
                return Err(format!("topics.{topic}: topic '{topic}' has a negative partition count {n}"));
            }
        }
        for (topic, racks) in &self.replica_racks {
            match self.topics.get(topic) {
                Some(n) if racks.len() == *n as usize => {}
                _ => return Err(format!("replicaRacks.{topic}: replicaRacks of '{topic}' must list one entry per partition of a known topic")),
            }
        }
        for (topic, id) in &self.topic_ids {
            Uuid::parse(id).map_err(|e| format!("topicIds.{topic}: topic id of '{topic}': {e}"))?;
        }
        Ok(())
    }

    /// The leader's view of the cluster.
    pub fn cluster(&self) -> ClusterMetadata {
        ClusterMetadata { partitions: self.topics.clone(), replica_racks: self.replica_racks.clone() }
    }

    /// The member subscriptions in the iteration order of the Java map the
    /// case names (`memberMap`; default: the leader's default `HashMap`).
    pub fn subscriptions(&self) -> Result<Vec<Subscription>, String> {
        let subs: Vec<Subscription> = self
            .members
            .iter()
            .map(|m| {
                let format =
                    m.subscription_format.as_deref().map(SubscriptionFormat::parse).transpose()?.unwrap_or_default();
                // CLI rule: owned partitions without a generation mean generation 1
                let generation = match (m.generation, m.subscription_format.is_some()) {
                    (Some(g), _) => Some(g),
                    (None, false) if !m.owned.is_empty() => Some(1),
                    (None, _) => None,
                };
                Ok(Subscription {
                    member_id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    topics: m.subscriptions.clone(),
                    owned: m.owned.clone(),
                    generation,
                    rack: m.rack.clone(),
                    format,
                })
            })
            .collect::<Result<_, String>>()?;
        let capacity = match self.member_map.as_deref() {
            None | Some("HashMap") => Some(16),
            Some("LinkedHashMap") | Some("singleton") => None,
            Some(other) => Some(
                other
                    .strip_prefix("HashMap(")
                    .and_then(|s| s.strip_suffix(')'))
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| format!("unknown memberMap '{other}'"))?,
            ),
        };
        Ok(match capacity {
            None => subs,
            Some(cap) => {
                let order = hashmap_order(subs.iter().map(|s| s.member_id.as_str()), Some(cap));
                order.iter().filter_map(|id| subs.iter().find(|s| &s.member_id == id).cloned()).collect()
            }
        })
    }

    /// The topic id of a topic name: `topicIds` if given, else derived from the name.
    pub fn topic_id(&self, topic: &str) -> Uuid {
        self.topic_ids.get(topic).and_then(|s| Uuid::parse(s).ok()).unwrap_or_else(|| Uuid::from_name(topic))
    }

    /// The coordinator's inputs: the `GroupSpec` and the topic metadata.
    pub fn group_spec(&self) -> Result<(GroupSpec, TopicMetadata), String> {
        let topics = TopicMetadata {
            topics: self
                .topics
                .iter()
                .map(|(name, n)| (self.topic_id(name), TopicInfo { name: name.clone(), partitions: *n }))
                .collect(),
        };
        if topics.topics.len() != self.topics.len() {
            return Err("two topics share a topic id".to_string());
        }
        let ordered_map = self.params.owned_assignment_map.as_deref() == Some("ordered");
        let mut members: Vec<MemberSpec> = self
            .members
            .iter()
            .map(|m| {
                let mut subscribed: Vec<Uuid> = Vec::new();
                for t in &m.subscriptions {
                    let id = self.topic_id(t);
                    if !subscribed.contains(&id) {
                        subscribed.push(id);
                    }
                }
                let mut by_topic: Vec<(Uuid, Vec<i32>)> = Vec::new();
                for tp in &m.owned {
                    let id = self.topic_id(&tp.topic);
                    match by_topic.iter_mut().find(|(t, _)| *t == id) {
                        Some((_, ps)) => ps.push(tp.partition),
                        None => by_topic.push((id, vec![tp.partition])),
                    }
                }
                let mut assignment: Vec<(Uuid, Vec<i32>)> =
                    by_topic.into_iter().map(|(t, ps)| (t, int_set_order(&ps))).collect();
                if !ordered_map {
                    let ids: Vec<Uuid> = assignment.iter().map(|(t, _)| *t).collect();
                    let order = uuid_hash_order(&ids, None);
                    assignment.stable_sort_by_key(|(t, _)| order.iter().position(|o| o == t));
                }
                MemberSpec {
                    member_id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    rack: m.rack.clone(),
                    subscribed_topic_ids: subscribed,
                    assignment,
                }
            })
            .collect();
        match self.params.member_order.as_deref() {
            Some(o) if o.contains("TreeMap") || o.contains("sorted") => {
                members.stable_sort_by(|a, b| compare_strings(&a.member_id, &b.member_id))
            }
            Some(o) if o.contains("singleton") || o.contains("Linked") => {}
            _ => {
                // Each member's place in the HashMap's iteration order, looked up
                // once (a linear search per comparison was 78 % of a 1,000-member call).
                let order = hashmap_order(members.iter().map(|m| m.member_id.as_str()), None);
                let mut rank: BTreeMap<&str, usize> = BTreeMap::new();
                for (i, id) in order.iter().enumerate() {
                    rank.entry(id.as_str()).or_insert(i);
                }
                members.stable_sort_by_key(|m| rank.get(m.member_id.as_str()).copied());
            }
        }
        let subscription_type = match self.params.subscription_type.as_deref() {
            Some("HOMOGENEOUS") => SubscriptionType::Homogeneous,
            Some("HETEROGENEOUS") => SubscriptionType::Heterogeneous,
            None => GroupSpec::subscription_type_of(&members),
            Some(other) => return Err(format!("unknown subscriptionType '{other}'")),
        };
        let without_inverted_assignment = self.params.inverted_assignment_provided == Some(false);
        let assignable_partitions = self.params.assignable_partitions.as_ref().map(|tps| {
            let mut allowed: BTreeMap<Uuid, BTreeSet<i32>> = BTreeMap::new();
            for tp in tps {
                allowed.entry(self.topic_id(&tp.topic)).or_default().insert(tp.partition);
            }
            allowed
        });
        Ok((GroupSpec { members, subscription_type, without_inverted_assignment, assignable_partitions }, topics))
    }

    /// One call of `assign` on `assignor`, as member -> partitions.
    pub fn run(&self, assignor: &mut AnyAssignor) -> Result<Assignment, String> {
        self.validate()?;
        match assignor {
            AnyAssignor::Client(a) => a.assign(&self.cluster(), &self.subscriptions()?),
            AnyAssignor::Server(a) => {
                let (group, topics) = self.group_spec()?;
                Ok(topics.named(&group, &a.assign(&group, &topics)?))
            }
        }
    }
}

/// One assignor call per case in `text` (one case or an array), answered as
/// `{"assignment": {...}}` JSON (an array for an array): the `assign` CLI and
/// the page's `groupscope.assign`. A case whose `assignor` is a streams
/// assignor (`streams.sticky`) is a [`StreamsCase`].
pub fn assign_text(text: &str) -> Result<String, String> {
    enum Parsed {
        Partitions(Box<Case>),
        Streams(Box<StreamsCase>),
    }
    let (items, is_array) = case_items(text)?;
    let parsed = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let parsed = if is_streams_case(v) {
                StreamsCase::parse(v).map(|c| Parsed::Streams(Box::new(c)))
            } else {
                parse_case(v).map(|c| Parsed::Partitions(Box::new(c)))
            };
            parsed.map_err(|e| at_item(i, is_array, &e))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut outputs = Vec::with_capacity(parsed.len());
    for (i, case) in parsed.iter().enumerate() {
        let id = match case {
            Parsed::Partitions(c) => &c.id,
            Parsed::Streams(c) => &c.id,
        };
        let label = id.as_deref().map_or_else(|| format!("case {i}"), crate::sim::scenario::limits::shown);
        let output = match case {
            Parsed::Partitions(case) => {
                let mut assignor = case.new_assignor().map_err(|e| format!("{label}: {e}"))?;
                let assignment = case.run(&mut assignor).map_err(|e| format!("{label}: {e}"))?;
                serde_json::json!({ "assignment": assignment })
            }
            Parsed::Streams(case) => case.run().map_err(|e| format!("{label}: {e}"))?,
        };
        outputs.push(output);
    }
    let value = if is_array { serde_json::Value::Array(outputs) } else { outputs.pop().unwrap_or_default() };
    serde_json::to_string(&value).map_err(|e| format!("cannot print the result: {e}"))
}

/// Parses text holding one partition-assignor case or an array of them.
pub fn parse_cases(text: &str) -> Result<(Vec<Case>, bool), String> {
    let (items, is_array) = case_items(text)?;
    let cases = items
        .iter()
        .enumerate()
        .map(|(i, v)| parse_case(v).map_err(|e| at_item(i, is_array, &e)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((cases, is_array))
}

/// The cases of the text: its array's items, or the one value.
fn case_items(text: &str) -> Result<(Vec<serde_json::Value>, bool), String> {
    let value: serde_json::Value = crate::json::from_str(text)?;
    let is_array = value.is_array();
    let items = match value {
        serde_json::Value::Array(items) => items,
        other => vec![other],
    };
    if items.len() > MAX_CASES {
        return Err(format!("{} cases; at most {MAX_CASES} at once", items.len()));
    }
    Ok((items, is_array))
}

/// An error of item `i` as seen from the whole input.
fn at_item(i: usize, is_array: bool, e: &str) -> String {
    if is_array {
        crate::json::under(&format!("[{i}]"), e)
    } else {
        e.to_string()
    }
}

/// One partition-assignor case.
fn parse_case(v: &serde_json::Value) -> Result<Case, String> {
    if is_streams_case(v) {
        return Err("assignor: a streams task assignor; only the assign command runs streams cases".to_string());
    }
    known_fields(v)?;
    let case = crate::json::from_value::<Case>(v)?;
    case.validate_size()?;
    Ok(case)
}

/// Most cases one `assign` call takes.
pub const MAX_CASES: usize = 10_000;
/// Most members of a case, and most partitions over its topics (Kafka's own
/// benchmarks go to 10,000 members and partitions; the perf inputs here to 1,000 / 10,000).
pub const MAX_MEMBERS: usize = 10_000;
pub const MAX_PARTITIONS: i64 = 100_000;
/// Longest member id, topic name, instance id or rack.
pub const MAX_ID_LEN: usize = 249;

/// The fields of a case, and the notes vectors.json carries beside them (read
/// and ignored); anything else is a mistake (a misspelled `"topic"` would
/// otherwise give an empty assignment).
const CASE_FIELDS: [&str; 26] = [
    "id",
    "source",
    "assignor",
    "topics",
    "topicIds",
    "replicaRacks",
    "preferRackAwareLogic",
    "members",
    "memberMap",
    "params",
    "expected",
    "ordered",
    "step",
    "partialExpected",
    "cooperativeRounds",
    "firstRoundActual",
    "partitionsTransferringOwnership",
    // vectors.json annotations
    "changedIn",
    "expected44",
    "expectedRackMismatches",
    "firstRoundActualNote",
    "notes",
    "orderSensitivity",
    "topicIdsCanonical",
    "unsure",
    "verifiedAgainstKafkaClasses",
];
const PARAM_FIELDS: [&str; 7] = [
    "subscriptionType",
    "memberOrder",
    "ownedAssignmentMap",
    "invertedAssignmentProvided",
    "assignablePartitions",
    "brokerRacks",
    "replicationFactor",
];

fn known_fields(v: &serde_json::Value) -> Result<(), String> {
    let object = v.as_object().ok_or("the top level: expected a case, an object {...}")?;
    if let Some(k) = object.keys().find(|k| !CASE_FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "{}: unknown field (a case has {})",
            crate::sim::scenario::limits::shown(k),
            CASE_FIELDS[..17].join(", ")
        ));
    }
    if let Some(params) = object.get("params").and_then(|p| p.as_object()) {
        if let Some(k) = params.keys().find(|k| !PARAM_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "params.{}: unknown field (params has {})",
                crate::sim::scenario::limits::shown(k),
                PARAM_FIELDS[..5].join(", ")
            ));
        }
    }
    if let Some(members) = object.get("members").and_then(|m| m.as_array()) {
        if let Some(i) = members.iter().position(|m| !m.is_object()) {
            return Err(format!("members[{i}]: expected a member, an object {{\"id\": ...}}"));
        }
    }
    Ok(())
}

/// The sorted set form of an assignment (for unordered comparisons).
pub fn as_sets(a: &Assignment) -> BTreeMap<String, BTreeSet<TopicPartition>> {
    a.iter().map(|(m, ps)| (m.clone(), ps.iter().cloned().collect())).collect()
}
