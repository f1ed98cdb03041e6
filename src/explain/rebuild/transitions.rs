//! The KIP-848 client's state transitions and the broker's lines, for `Rebuild`.

use super::{why, Rebuild};
use crate::explain::causes;
use crate::explain::event::{Ev, Event};
use crate::explain::model::{Cause, GroupKind};

impl Rebuild {
    /// `AbstractMembershipManager.transitionTo` (consumer protocol): the member epoch it logs is
    /// the one the heartbeat response just gave (the target's epoch).
    pub(super) fn transition(&mut self, e: &Event, p: &str, mid: &str, epoch: i64, from: &str, to: &str) {
        self.kind = GroupKind::Consumer;
        self.roster.link(p, mid, e.who.instance_id.as_deref());
        let st = self.procs.get_mut(p).expect("state");
        st.member = Some(mid.to_string());
        if epoch > 0 {
            st.gen = Some(epoch);
        }
        let hint = (epoch > 0).then_some(epoch);
        match to {
            "JOINING" => {
                let cause = st.pending.take().or((!st.in_group).then_some(Cause::MemberJoined));
                let rejoin = st.ever && !st.in_group;
                st.in_group = true;
                st.ever = true;
                if rejoin {
                    if let Some(pr) = self.roster.process_mut(p) {
                        pr.joins.push(e.ts);
                    }
                }
                self.trigger(e, cause, Some(mid), None);
            }
            "RECONCILING" => {
                st.in_group = true;
                st.ever = true;
                self.trigger(e, None, Some(mid), hint);
                if let Some(ep) = hint {
                    self.reach(e.ts, ep);
                    self.gen_member(ep, e.ts, mid);
                }
            }
            "STABLE" => {
                let target = std::mem::take(&mut st.target);
                if let Some(ep) = hint {
                    self.gen_member(ep, e.ts, mid);
                    if from != "JOINING" || !target.is_empty() {
                        self.generation(ep, e.ts).assignment.insert(mid.to_string(), target);
                    }
                    self.complete(e.ts, Some(ep));
                }
            }
            "FENCED" => {
                let cause = st.pending.take().unwrap_or(Cause::Fenced);
                st.pending = Some(cause);
                self.leave(p, e.ts, cause);
                self.trigger(e, Some(cause), Some(mid), None);
            }
            "STALE" => {
                st.pending = Some(Cause::PollTimeout);
                self.leave(p, e.ts, Cause::PollTimeout);
                self.trigger(e, Some(Cause::PollTimeout), Some(mid), None);
            }
            "PREPARE_LEAVING" | "LEAVING" if from != "PREPARE_LEAVING" => {
                let cause = if st.pending == Some(Cause::PollTimeout) { Cause::PollTimeout } else { Cause::MemberLeft };
                self.leave(p, e.ts, cause);
                self.trigger(e, Some(cause), Some(mid), None);
            }
            "FATAL" => self.trigger(e, Some(Cause::Other), Some(mid), None),
            _ => {}
        }
    }

    pub(super) fn feed_broker(&mut self, e: &Event) {
        // a broker logging about the group is its coordinator
        if let (Some(b), Some(_)) = (e.who.broker, e.ev.group()) {
            self.coordinator(e, b);
        }
        match &e.ev {
            Ev::Prepare { old_generation, reason, .. } => {
                let cause = causes::broker_reason(reason);
                let superseded =
                    matches!(self.rbs.last(), Some(rb) if !rb.complete && rb.r.to_generation == Some(*old_generation));
                if superseded {
                    self.supersede(e.ts);
                }
                let fresh = match self.rbs.last() {
                    None => true,
                    Some(rb) => rb.complete,
                };
                if fresh {
                    self.open(e.ts, Some(*old_generation));
                }
                let rb = self.rbs.last_mut().expect("open");
                if rb.r.from_generation.is_none() {
                    rb.r.from_generation = Some(*old_generation);
                }
                rb.r.start_ms = rb.r.start_ms.min(e.ts);
                // a member leaving or failing was already counted by its own line
                let counted = matches!(cause, Some(Cause::MemberLeft | Cause::SessionTimeout))
                    && rb
                        .causes
                        .iter()
                        .any(|c| matches!(c, Cause::MemberLeft | Cause::PollTimeout | Cause::SessionTimeout));
                if let Some(c) = cause.filter(|_| !counted) {
                    if rb.causes.insert(c) {
                        rb.r.why.push(why(e, Some(c), None));
                    }
                }
            }
            Ev::Stabilized { generation, .. } => self.reach(e.ts, *generation),
            Ev::AssignmentFromLeader { leader, generation, .. } => {
                // before 3.x the line does not name the leader
                if !leader.is_empty() {
                    self.generation(*generation, e.ts).leader = Some(leader.clone());
                    let p = self.roster.member_process(leader, None, e.ts);
                    let _ = p;
                }
                self.complete(e.ts, Some(*generation));
            }
            Ev::GroupEmpty { generation, .. } => self.complete(e.ts, Some(*generation)),
            Ev::MemberFailed { member, .. } => {
                let p = self.roster.member_process(member, None, e.ts);
                let last = self.procs.get(&p).and_then(|s| s.last_client_ts);
                if let Some(pr) = self.roster.process_mut(&p) {
                    pr.session_timeouts.push((e.ts, last));
                }
                self.leave(&p, e.ts, Cause::SessionTimeout);
                self.trigger(e, Some(Cause::SessionTimeout), Some(member), None);
            }
            Ev::MemberLeft { member, instance, host, client, reason, .. } => {
                let p = self.roster.member_process(member, instance.as_deref(), e.ts);
                self.roster.set_host(member, host.clone(), client.clone());
                let cause = if causes::client_reason(reason) == Some(Cause::PollTimeout) {
                    Cause::PollTimeout
                } else {
                    Cause::MemberLeft
                };
                let already = self.procs.get(&p).is_some_and(|s| !s.in_group && s.ever);
                if !already {
                    self.leave(&p, e.ts, cause);
                }
                self.trigger(e, Some(cause), Some(member), None);
            }
            Ev::NewMember { member, instance, .. } | Ev::CgJoined { member, instance, .. } => {
                if matches!(e.ev, Ev::CgJoined { .. }) {
                    self.kind = GroupKind::Consumer;
                }
                let p = self.roster.member_process(member, instance.as_deref(), e.ts);
                let st = self.procs.entry(p.clone()).or_default();
                if st.ever && !st.in_group {
                    if let Some(pr) = self.roster.process_mut(&p) {
                        if !pr.joins.iter().any(|t| (e.ts - t).abs() < 5_000) {
                            pr.joins.push(e.ts);
                        }
                    }
                }
                let st = self.procs.entry(p.clone()).or_default();
                st.ever = true;
                st.in_group = true;
                self.trigger(e, Some(Cause::MemberJoined), Some(member), None);
                self.joined.insert(member.clone(), why(e, Some(Cause::MemberJoined), Some(member)));
            }
            Ev::CgLeft { member, instance, .. } => {
                let p = self.roster.member_process(member, instance.as_deref(), e.ts);
                let cause = if self.procs.get(&p).and_then(|s| s.pending) == Some(Cause::PollTimeout) {
                    Cause::PollTimeout
                } else {
                    Cause::MemberLeft
                };
                self.leave(&p, e.ts, cause);
                self.trigger(e, Some(cause), Some(member), None);
            }
            Ev::CgFenced { member, reason, .. } => {
                self.kind = GroupKind::Consumer;
                let p = self.roster.member_process(member, None, e.ts);
                let cause = causes::fence_reason(reason);
                if cause == Cause::SessionTimeout {
                    let last = self.procs.get(&p).and_then(|s| s.last_client_ts);
                    if let Some(pr) = self.roster.process_mut(&p) {
                        pr.session_timeouts.push((e.ts, last));
                    }
                }
                self.leave(&p, e.ts, cause);
                self.trigger(e, Some(cause), Some(member), None);
            }
            Ev::CgMetadataChanged { .. } => self.trigger(e, Some(Cause::MetadataChange), None, None),
            Ev::EpochBumped { epoch, member, .. } => {
                self.kind = GroupKind::Consumer;
                if matches!(self.rbs.last(), Some(rb) if !rb.complete && rb.r.to_generation.is_some_and(|to| *epoch > to))
                {
                    self.supersede(e.ts);
                }
                self.trigger(e, None, None, Some(*epoch));
                // a streams group names the member whose heartbeat bumped the epoch: one that
                // just joined is why (`GroupMetadataManager.streamsGroupHeartbeat`)
                if let Some(w) = member.as_ref().and_then(|m| self.joined.remove(m)) {
                    if let Some(rb) = self.rbs.last_mut() {
                        if rb.causes.insert(Cause::MemberJoined) || !rb.r.why.contains(&w) {
                            rb.r.why.push(w);
                        }
                    }
                }
                self.reach(e.ts, *epoch);
            }
            Ev::TargetComputed { epoch, assignor, .. } => {
                self.kind = GroupKind::Consumer;
                self.generation(*epoch, e.ts).protocol = Some(assignor.clone());
            }
            Ev::CgMemberState { member, epoch, state, partitions, .. } => {
                let p = self.roster.member_process(member, None, e.ts);
                let _ = p;
                self.gen_member(*epoch, e.ts, member);
                self.generation(*epoch, e.ts).assignment.insert(member.clone(), partitions.clone());
                if state == "STABLE" {
                    self.complete(e.ts, Some(*epoch));
                }
            }
            Ev::Loading { .. } | Ev::Loaded { .. } | Ev::LoadedGroup { .. } => {
                if let Some(b) = e.who.broker {
                    if matches!(e.ev, Ev::Loading { .. }) {
                        self.coordinator_lost.get_or_insert(e.ts);
                    }
                    self.coordinator(e, b);
                }
            }
            Ev::Resigned { .. } => self.coordinator_lost = Some(e.ts),
            Ev::StreamsProcesses { .. } => {
                self.feed_streams(e);
            }
            _ => {}
        }
    }
}
