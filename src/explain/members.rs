//! Who is who: member ids (as coordinators assign them), client ids and
//! `group.instance.id`s, and the member processes behind them.

use super::event::Who;
use super::model::{Member, Process};
use std::collections::BTreeMap;

/// `consumer-demo-1-6f1b2c1e-3a6d-4b7e-9c55-0e1f2a3b4c5d` → `consumer-demo-1`: classic member ids
/// are the client id and a UUID (`ClassicGroupMember.newMemberId` / 3.x `GroupCoordinator`).
pub fn client_of_member_id(member: &str) -> Option<&str> {
    if member.len() < 38 || !member.is_char_boundary(member.len() - 36) {
        return None;
    }
    let (head, uuid) = member.split_at(member.len() - 36);
    let groups: Vec<&str> = uuid.split('-').collect();
    let shape = groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    (shape && head.ends_with('-')).then(|| &head[..head.len() - 1]).filter(|h| !h.is_empty())
}

/// The members and processes of one group, built as events arrive.
#[derive(Debug, Default)]
pub struct Roster {
    pub members: BTreeMap<String, Member>,
    /// Process name → its record.
    pub processes: BTreeMap<String, Process>,
    /// Member id → process name.
    by_member: BTreeMap<String, String>,
}

impl Roster {
    /// The process a client line comes from (its client id, else its instance id, else its file).
    pub fn client_process(&mut self, who: &Who, file: u32, ts: i64) -> String {
        let name =
            who.client_id.clone().or_else(|| who.instance_id.clone()).unwrap_or_else(|| format!("file-{}", file + 1));
        self.touch(&name, ts, who.instance_id.clone());
        name
    }

    /// The process a member id belongs to (for broker lines).
    pub fn member_process(&mut self, member: &str, instance: Option<&str>, ts: i64) -> String {
        let name = self
            .by_member
            .get(member)
            .cloned()
            .or_else(|| {
                instance.and_then(|i| {
                    self.processes.values().find(|p| p.instance_id.as_deref() == Some(i)).map(|p| p.name.clone())
                })
            })
            .or_else(|| client_of_member_id(member).map(str::to_string))
            .unwrap_or_else(|| member.to_string());
        self.touch(&name, ts, instance.map(str::to_string));
        self.link(&name, member, instance);
        name
    }

    fn touch(&mut self, name: &str, ts: i64, instance: Option<String>) {
        let p = self.processes.entry(name.to_string()).or_insert_with(|| Process {
            name: name.to_string(),
            first_ms: ts,
            last_ms: ts,
            ..Process::default()
        });
        p.last_ms = p.last_ms.max(ts);
        p.first_ms = p.first_ms.min(ts);
        if instance.is_some() {
            p.instance_id = instance;
        }
    }

    /// Records that `process` uses member id `member`.
    pub fn link(&mut self, process: &str, member: &str, instance: Option<&str>) {
        if member.is_empty() {
            return;
        }
        self.by_member.insert(member.to_string(), process.to_string());
        let client = if process.starts_with("file-") || process == member {
            client_of_member_id(member).map(str::to_string)
        } else {
            Some(process.to_string())
        };
        let m = self.members.entry(member.to_string()).or_insert_with(|| Member {
            id: member.to_string(),
            client_id: None,
            instance_id: None,
            host: None,
        });
        if m.client_id.is_none() {
            m.client_id = client;
        }
        if let Some(i) = instance {
            m.instance_id = Some(i.to_string());
        }
        if let Some(p) = self.processes.get_mut(process) {
            if !p.member_ids.iter().any(|x| x == member) {
                p.member_ids.push(member.to_string());
            }
            if m.instance_id.is_none() {
                m.instance_id = p.instance_id.clone();
            }
        }
    }

    pub fn process_of(&self, member: &str) -> Option<&str> {
        self.by_member.get(member).map(String::as_str)
    }

    pub fn set_host(&mut self, member: &str, host: Option<String>, client: Option<String>) {
        if let Some(m) = self.members.get_mut(member) {
            if host.is_some() {
                m.host = host;
            }
            if client.is_some() && m.client_id.is_none() {
                m.client_id = client;
            }
        }
    }

    pub fn process_mut(&mut self, name: &str) -> Option<&mut Process> {
        self.processes.get_mut(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_ids_carry_the_client_id() {
        assert_eq!(
            client_of_member_id("consumer-demo-1-6f1b2c1e-3a6d-4b7e-9c55-0e1f2a3b4c5d"),
            Some("consumer-demo-1")
        );
        assert_eq!(client_of_member_id("Q2pFTnpPVHJTVmlSbEtVZg"), None);
    }
}
