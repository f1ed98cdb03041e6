//! `TargetAssignmentBuilder` of any modern group: the input the coordinator gives a
//! server assignor — every member's subscription and its previous *target*
//! assignment (not what it owns), members in `HashMap` order of their ids,
//! topics by id — and the result converted back to topic names.

use crate::assign::server::{
    server_assignor, GroupSpec, MemberSpec, ServerAssignor, SubscriptionType, TopicInfo, TopicMetadata,
};
use crate::assign::TopicPartition;
use crate::java::{self, Uuid};
use crate::sim::coordinator::modern::{ModernGroup, ModernGroupMember};
use std::collections::{BTreeMap, BTreeSet};

/// The new target of every member, or the assignor's `PartitionAssignorException`.
pub fn compute<G: ModernGroup>(
    group: &G,
    assignor: &str,
) -> Result<BTreeMap<String, BTreeSet<TopicPartition>>, String> {
    let assignor = server_assignor(assignor).ok_or_else(|| format!("no server assignor named {assignor}"))?;
    compute_assignable(group, &*assignor, None)
}

/// `compute` with only `assignable` partitions given to the assignor
/// (`withTopicAssignablePartitionsMap`, share groups: the initialized ones);
/// `None`: every partition of the subscribed topics.
pub fn compute_assignable<G: ModernGroup>(
    group: &G,
    assignor: &dyn ServerAssignor,
    assignable: Option<&BTreeSet<TopicPartition>>,
) -> Result<BTreeMap<String, BTreeSet<TopicPartition>>, String> {
    let mut topics = TopicMetadata::default();
    for (name, n) in group.subscription_metadata() {
        topics.topics.insert(Uuid::from_name(name), TopicInfo { name: name.clone(), partitions: *n });
    }
    let ids: Vec<&str> = group.members().keys().map(String::as_str).collect();
    let members: Vec<MemberSpec> = java::member_map_order(ids)
        .into_iter()
        .map(|id| {
            let m = &group.members()[&id];
            let mut by_topic: BTreeMap<Uuid, BTreeSet<i32>> = BTreeMap::new();
            for tp in group.target_assignment().get(&id).into_iter().flatten() {
                by_topic.entry(Uuid::from_name(&tp.topic)).or_default().insert(tp.partition);
            }
            MemberSpec {
                member_id: id.clone(),
                instance_id: m.instance_id().map(str::to_string),
                rack: m.rack_id().map(str::to_string),
                subscribed_topic_ids: m
                    .subscribed_topic_names()
                    .iter()
                    .filter(|t| group.subscription_metadata().contains_key(*t))
                    .map(|t| Uuid::from_name(t))
                    .collect(),
                assignment: MemberSpec::java_assignment_order(&by_topic),
            }
        })
        .collect();
    let subscription_type = subscription_type(group);
    let assignable_partitions = assignable.map(|ps| {
        let mut by_topic: BTreeMap<Uuid, BTreeSet<i32>> = BTreeMap::new();
        for tp in ps {
            by_topic.entry(Uuid::from_name(&tp.topic)).or_default().insert(tp.partition);
        }
        by_topic
    });
    let spec = GroupSpec { members, subscription_type, without_inverted_assignment: false, assignable_partitions };
    let result = topics.named(&spec, &assignor.assign(&spec, &topics)?);
    Ok(group
        .members()
        .keys()
        .map(|id| (id.clone(), result.get(id).map(|ps| ps.iter().cloned().collect()).unwrap_or_default()))
        .collect())
}

/// `ModernGroup.subscriptionType`: HOMOGENEOUS when every subscribed topic name
/// is subscribed by every member (or nothing is subscribed), else HETEROGENEOUS.
/// It counts names, so a subscribed topic that does not exist counts too.
pub fn subscription_type<G: ModernGroup>(group: &G) -> SubscriptionType {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in group.members().values() {
        for t in m.subscribed_topic_names().iter().collect::<BTreeSet<_>>() {
            *counts.entry(t.as_str()).or_default() += 1;
        }
    }
    if counts.values().all(|n| *n == group.members().len()) {
        SubscriptionType::Homogeneous
    } else {
        SubscriptionType::Heterogeneous
    }
}

/// `c1=[orders-0, orders-1] ...` for the trace, with member ids shortened;
/// None when no member's target changed.
pub fn describe<G: ModernGroup>(group: &G, changed: &[(String, BTreeSet<TopicPartition>)]) -> Option<String> {
    if changed.is_empty() {
        return None;
    }
    let text = changed
        .iter()
        .map(|(m, ps)| {
            let who = group.members().get(m).map_or(m.as_str(), |x| x.client_id());
            let list: Vec<TopicPartition> = ps.iter().cloned().collect();
            format!("{who}={}", crate::sim::message::partition_list(&list))
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(text)
}
