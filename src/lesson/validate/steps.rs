//! The names a step's actions (faults), its `until` condition and its
//! expectations use: each must exist in the lesson and fit the kind of group
//! or client it is about.

use super::names::Names;
use super::states::{context_state, coordinator_member_state, instance_state};
use crate::lesson::check::{callback_named, consumer_idx};
use crate::lesson::model::{Condition, Expectation};
use crate::sim::Fault;

impl Names {
    pub(super) fn fault(&self, f: &Fault) -> Result<(), String> {
        let c = |i: &u32| self.consumer(&format!("c{i}"));
        let b = |i: &u32| self.broker(&format!("broker-{i}"));
        match f {
            // Workers are crashed and restarted by their c<n> like consumers.
            Fault::CrashConsumer { consumer } | Fault::RestartConsumer { consumer } => {
                self.client(&format!("c{consumer}"))
            }
            Fault::PauseConsumer { consumer, .. }
            | Fault::SlowProcessing { consumer, .. }
            | Fault::CloseConsumer { consumer }
            | Fault::CloseConsumerWithOptions { consumer, .. }
            | Fault::RestartConsumerAs { consumer, .. } => c(consumer),
            Fault::ChangeSubscription { consumer, topics } => {
                c(consumer)?;
                topics.iter().try_for_each(|t| {
                    if self.topics.contains_key(t) {
                        Ok(())
                    } else {
                        Err(format!("no topic {t}"))
                    }
                })
            }
            Fault::KillBroker { broker } | Fault::RestartBroker { broker } | Fault::ShutdownBroker { broker } => {
                b(broker)
            }
            Fault::CutLink { a, b }
            | Fault::HealLink { a, b }
            | Fault::SetLinkLatency { a, b, .. }
            | Fault::SetLinkLoss { a, b, .. } => self.node(a).and(self.node(b)),
            Fault::DropNextMessage { from, to } | Fault::HoldLink { from, to } | Fault::ReleaseLink { from, to } => {
                self.node(from).and(self.node(to))
            }
            Fault::AddConsumer { group } => self.group(group),
            Fault::AddWorker { group } => self.connect_group(group).map(|_| ()),
            Fault::FailTask { group, connector, task } | Fault::RestartTask { group, connector, task } => {
                self.task_number(group, connector, *task)
            }
            Fault::RestartConnector { group, connector, .. } => self.connector(group, connector).map(|_| ()),
            Fault::CreateTopic { .. } => Ok(()),
            Fault::SetStandbyReplicas { group, .. } | Fault::AddInstance { group } => self.streams_group(group),
            Fault::RequestShutdown { consumer } => self.stream_thread(&format!("c{consumer}")),
            Fault::AddPartitions { topic, .. } => {
                if self.topics.contains_key(topic) {
                    Ok(())
                } else {
                    Err(format!("no topic {topic}"))
                }
            }
        }
    }

    pub(super) fn condition(&self, c: &Condition) -> Result<(), String> {
        match c {
            Condition::GroupState { group, state } => self.group_state(group, state),
            Condition::MemberState { consumer, state } => self.member_state(consumer, state),
            // KIP-848 and share (KIP-932) members are fenced the same way.
            Condition::Fenced { consumer } if self.share_consumer(consumer) => Ok(()),
            Condition::Fenced { consumer } => self.modern_consumer(consumer),
            Condition::SessionTimeout { consumer } => self.client(consumer),
            Condition::PollTimeout { consumer } => self.consumer(consumer),
            Condition::Callback { consumer, callback, partition } => {
                self.consumer(consumer)?;
                callback_named(callback).ok_or_else(|| {
                    format!(
                        "unknown callback '{callback}' (onPartitionsRevoked, onPartitionsAssigned, onPartitionsLost)"
                    )
                })?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::Message { label, from, to } => {
                if label.trim().is_empty() {
                    return Err("message label is empty".into());
                }
                from.iter().chain(to.iter()).try_for_each(|n| self.node(n))
            }
            Condition::Redelivered { consumer } => consumer.as_deref().map_or(Ok(()), |c| self.consumer(c)),
            Condition::Processed { consumer, partition } => {
                self.consumer(consumer)?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::OffsetsCommitted { group, partition, .. } => {
                self.group(group)?;
                partition.as_deref().map_or(Ok(()), |p| self.partition(p))
            }
            Condition::CoordinatorState { group, state } => {
                self.group(group)?;
                context_state(state)
            }
            Condition::Fault { contains } => {
                if contains.trim().is_empty() {
                    Err("fault text is empty".into())
                } else {
                    Ok(())
                }
            }
            Condition::Note { kind, contains, node } => {
                match kind.as_deref() {
                    Some(k) if !crate::sim::note::Note::is_kind(k) => {
                        return Err(format!("no note kind '{k}' (kinds: {})", crate::sim::note::Note::KINDS.join(", ")))
                    }
                    None if contains.trim().is_empty() => return Err("note text is empty".into()),
                    _ => {}
                }
                node.as_deref().map_or(Ok(()), |n| self.node(n))
            }
            Condition::Elapsed { ms } => {
                if *ms == 0 {
                    Err("elapsed ms must be positive".into())
                } else {
                    Ok(())
                }
            }
            Condition::Acted => Ok(()),
            Condition::TaskState { group, task, state, worker } => {
                self.task(group, task)?;
                instance_state(state)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
            Condition::ConnectorState { group, connector, state, worker } => {
                self.connector(group, connector)?;
                instance_state(state)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
            Condition::ScheduledRebalance { group, worker } => {
                self.connect_group(group)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))
            }
        }
    }

    pub(super) fn expectation(&self, e: &Expectation) -> Result<(), String> {
        match e {
            Expectation::GroupState { group, state } => self.group_state(group, state),
            Expectation::Generation { group, .. }
            | Expectation::Protocol { group, .. }
            | Expectation::Rebalances { group, .. } => self.classic_group(group),
            Expectation::Members { group, .. }
            | Expectation::Redelivered { group, .. }
            | Expectation::Skipped { group, .. } => self.group(group),
            Expectation::Leader { group, consumer } => self.classic_group(group).and(self.client(consumer)),
            Expectation::GroupEpoch { group, .. } | Expectation::TargetAssignmentEpoch { group, .. } => {
                self.consumer_group(group)
            }
            Expectation::MemberEpoch { consumer, .. } | Expectation::ConsumerEpoch { consumer, .. } => {
                self.modern_consumer(consumer)
            }
            Expectation::TargetAssignment { consumer, partitions } => {
                self.modern_consumer(consumer)?;
                self.partitions(partitions)
            }
            Expectation::CoordinatorMemberState { consumer, state } => {
                self.modern_consumer(consumer)?;
                coordinator_member_state(state)
            }
            Expectation::Coordinator { group, broker } => self.group(group).and(self.broker(broker)),
            Expectation::KnownCoordinator { consumer, broker } => {
                self.consumer(consumer).and(broker.as_deref().map_or(Ok(()), |b| self.broker(b)))
            }
            Expectation::Owner { partition, consumer } => {
                self.partition(partition).and(consumer.as_deref().map_or(Ok(()), |c| self.consumer(c)))
            }
            Expectation::Owns { consumer, partitions } => {
                self.consumer(consumer)?;
                self.partitions(partitions)
            }
            Expectation::MemberState { consumer, state } => {
                self.client(consumer)?;
                if state == "crashed" {
                    Ok(())
                } else {
                    self.member_state(consumer, state)
                }
            }
            Expectation::Fatal { consumer, .. } | Expectation::PollTimeouts { consumer, .. } => self.consumer(consumer),
            Expectation::SessionTimeouts { consumer, .. } => self.classic_consumer(consumer),
            Expectation::Committed { group, partition, .. } | Expectation::CommittedNext { group, partition } => {
                self.consumer_or_classic(group).and(self.partition(partition))
            }
            Expectation::Time { .. } => Ok(()),
            Expectation::SharedBy { group, partition, .. } | Expectation::ShareStartOffset { group, partition, .. } => {
                self.share_group(group).and(self.partition(partition))
            }
            Expectation::Task { group, task, worker, state } => {
                self.task(group, task)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))?;
                state.as_deref().map_or(Ok(()), instance_state)
            }
            Expectation::Connector { group, connector, worker, state } => {
                self.connector(group, connector)?;
                worker.as_deref().map_or(Ok(()), |w| self.worker_in(w, group))?;
                state.as_deref().map_or(Ok(()), instance_state)
            }
            Expectation::WorkerTasks { worker, tasks } => {
                self.worker(worker)?;
                let group = consumer_idx(worker).and_then(|c| self.workers.get(&c)).cloned().unwrap_or_default();
                tasks.iter().try_for_each(|t| self.task(&group, t))
            }
            Expectation::WorkerGeneration { worker, .. } | Expectation::ScheduledRebalance { worker, .. } => {
                self.worker(worker)
            }
            Expectation::StreamsTasks { consumer, active, standby, restoring } => {
                self.stream_thread(consumer)?;
                let group = self.streams_group_of(consumer);
                let named = active.iter().chain(standby.iter().flatten()).chain(restoring.iter().flatten());
                named.clone().try_for_each(|t| self.streams_task(&group, t))?;
                match restoring.iter().flatten().find(|t| !active.contains(t)) {
                    Some(t) => Err(format!("restoring task {t} is not among {consumer}'s active tasks {active:?}")),
                    None => Ok(()),
                }
            }
            Expectation::TaskOwner { group, task, consumer } => {
                self.streams_task(group, task)?;
                consumer.as_deref().map_or(Ok(()), |c| self.stream_thread(c))
            }
        }
    }
}
