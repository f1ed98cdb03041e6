//! What the benches share: the scenario tests/perf/page.mjs and seek.mjs load,
//! and the system allocator, counting the bytes currently allocated, so a
//! bench can print what the player holds and what a copy of the world costs in
//! memory. Each bench includes it with `#[path]`.

use groupscope::sim::Scenario;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes currently allocated.
pub struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

pub fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// The scenario tests/perf/page.mjs and seek.mjs load.
pub fn group(members: u32, partitions: u32, protocol: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name": "{members} members", "seed": 1, "brokers": 3,
          "topics": [{{"name": "orders", "partitions": {partitions}, "recordsPerSec": 10}}],
          "groups": [{{"groupId": "demo", "consumers": {members}, "startStaggerMs": 20,
            "config": {{"session.timeout.ms": 10000, "heartbeat.interval.ms": 3000, "auto.offset.reset": "earliest",
              "topics": ["orders"], "group.protocol": "{protocol}"}}}}]}}"#
    ))
    .expect("a valid scenario")
}
