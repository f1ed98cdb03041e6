//! The page's wall clock: `performance.now()` in ms (0 where it is missing).

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}
