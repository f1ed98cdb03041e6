//! What a handler may read and touch besides its own node: the clock, the one
//! seeded RNG, and (read only) the cluster metadata and logs and the broker
//! configs. What a handler changes outside its node it returns in `Out`.

use crate::sim::cluster::Cluster;
use crate::sim::scenario::config::BrokerConfig;
use crate::sim::types::{Millis, NodeId};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;

pub struct Ctx<'a> {
    pub now: Millis,
    pub me: NodeId,
    pub rng: &'a mut ChaCha8Rng,
    pub cluster: &'a Cluster,
    pub broker_config: &'a BrokerConfig,
}

impl Ctx<'_> {
    /// `UUID.randomUUID().toString()` drawn from the world's seeded RNG.
    pub fn random_uuid(&mut self) -> String {
        let b = self.random_v4_bytes();
        let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
        format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
    }

    /// Kafka's `Uuid.randomUuid().toString()` (22 base64url characters) drawn from
    /// the world's seeded RNG: a version-4 UUID's bits, redrawn while the text
    /// starts with '-' (as Kafka does).
    pub fn random_kafka_uuid(&mut self) -> String {
        loop {
            let bits = u128::from_be_bytes(self.random_v4_bytes());
            let id = crate::java::Uuid { msb: (bits >> 64) as u64 as i64, lsb: bits as u64 as i64 }.to_string();
            if !id.starts_with('-') {
                return id;
            }
        }
    }

    /// The 16 bytes of `UUID.randomUUID()` (version 4, IETF variant).
    fn random_v4_bytes(&mut self) -> [u8; 16] {
        let mut b = [0u8; 16];
        self.rng.fill_bytes(&mut b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        b
    }
}
