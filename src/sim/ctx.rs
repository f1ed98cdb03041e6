//! What a handler may read and touch besides its own node: the clock, the one
//! seeded RNG, the cluster metadata and logs, and the broker configs.

use super::cluster::Cluster;
use super::config::BrokerConfig;
use super::types::{Millis, NodeId};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;

pub struct Ctx<'a> {
    pub now: Millis,
    pub me: NodeId,
    pub rng: &'a mut ChaCha8Rng,
    pub cluster: &'a mut Cluster,
    pub broker_config: &'a BrokerConfig,
}

impl Ctx<'_> {
    /// `UUID.randomUUID().toString()` drawn from the world's seeded RNG.
    pub fn random_uuid(&mut self) -> String {
        let mut b = [0u8; 16];
        self.rng.fill_bytes(&mut b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
        format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
    }
}
