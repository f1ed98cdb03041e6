//! The page mounted for one test, as a first visit opens it: nothing kept in
//! this browser (no saved run, no language, no lesson progress), the welcome
//! already seen, and no address fragment unless the test gives one. Dropped,
//! it is unmounted (its clock and document listeners go with it) and the
//! fragment is cleared, so no test sees another's page. Also what a user
//! does to it: clicks, keys, presses on the drawing, typing.

use groupscope::i18n::{trf, Lang};
use groupscope::permalink::{Permalink, VERSION};
use groupscope::sim::{Fault, Millis, Scenario};
use groupscope::web::{App, AppProps};
use std::future::Future;
use std::task::Poll;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

/// The keys the page reads from this browser's storage are all `groupscope.*`;
/// the welcome (static/boot.js) reads this one.
const WELCOMED: &str = "groupscope.welcomed";

/// How many macrotasks `Page::flush` gives yew's scheduler to end its run.
const FLUSH_ROUNDS: usize = 20;

pub struct Page {
    root: Element,
    app: Option<yew::AppHandle<App>>,
}

pub fn storage() -> web_sys::Storage {
    gloo::utils::window().local_storage().unwrap().expect("localStorage")
}

/// Sets the address's fragment without a `hashchange`, as a load of that
/// address finds it (`""`: none).
pub fn set_hash(hash: &str) {
    let w = gloo::utils::window();
    let loc = w.location();
    let url = format!("{}{}{hash}", loc.pathname().unwrap(), loc.search().unwrap());
    w.history().unwrap().replace_state_with_url(&JsValue::NULL, "", Some(&url)).unwrap();
}

/// The address's fragment, as the page left it.
pub fn hash() -> String {
    gloo::utils::window().location().hash().unwrap()
}

/// Changes the fragment as a link pasted into the address bar does (the page hears `hashchange`).
pub fn paste_link(hash: &str) {
    gloo::utils::window().location().set_hash(hash).unwrap();
}

/// What the toolbar's clock says at `ms` (in English).
pub fn clock(ms: Millis) -> String {
    trf(Lang::En, "clock", &[&format!("{:.1}", ms as f64 / 1000.0)])
}

/// A link to the demo with these faults, at `at`.
pub fn demo_link(script: &[(Millis, Fault)], at: Millis) -> Permalink {
    Permalink { v: VERSION, scenario: Scenario::demo(), script: script.to_vec(), at }
}

/// Waits `ms` of wall time (the page's 16 ms clock runs meanwhile).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let w = web_sys::window().unwrap();
        w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Waits for the browser's next animation frame.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().request_animation_frame(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn now_ms() -> f64 {
    gloo::utils::window().performance().unwrap().now()
}

fn bubbling() -> web_sys::EventInit {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init
}

fn keydown(key: &str) -> web_sys::KeyboardEvent {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
}

impl Page {
    /// The demo, paused at its start.
    pub async fn open() -> Page {
        Page::open_with(AppProps::default(), "").await
    }

    /// The demo opened from a link to its moment `at` (as a shared permalink
    /// opens it: paused there, the timeline reaching that far).
    pub async fn open_at(at: Millis) -> Page {
        Page::open_link(demo_link(&[], at)).await
    }

    /// The page opened from a link the loader read.
    pub async fn open_link(link: Permalink) -> Page {
        Page::open_with(AppProps { link: Some(Ok(link)), ..AppProps::default() }, "").await
    }

    /// The page opened at an address with this fragment (`#lesson=4&step=2`).
    pub async fn at(hash: &str) -> Page {
        Page::open_with(AppProps::default(), hash).await
    }

    /// The page with `props` (what the loader read from the address) and the fragment `hash`.
    pub async fn open_with(props: AppProps, hash: &str) -> Page {
        let s = storage();
        s.clear().unwrap();
        s.set_item(WELCOMED, "1").unwrap();
        set_hash(hash);
        let doc = gloo::utils::document();
        let root = doc.create_element("div").unwrap();
        doc.body().unwrap().append_child(&root).unwrap();
        let app = yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
        yew::scheduler::flush().await;
        Page { root, app: Some(app) }
    }

    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn has(&self, selector: &str) -> bool {
        self.find(selector).is_some()
    }

    pub fn el(&self, selector: &str) -> Element {
        self.find(selector).unwrap_or_else(|| panic!("nothing on the page matches {selector}"))
    }

    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
    }

    pub fn count(&self, selector: &str) -> usize {
        self.all(selector).len()
    }

    pub fn attr(&self, selector: &str, name: &str) -> Option<String> {
        self.el(selector).get_attribute(name)
    }

    /// `name` of every element `selector` matches, in page order.
    pub fn attrs(&self, selector: &str, name: &str) -> Vec<String> {
        self.all(selector).iter().map(|e| e.get_attribute(name).unwrap_or_default()).collect()
    }

    pub fn text(&self, selector: &str) -> String {
        self.el(selector).text_content().unwrap_or_default()
    }

    /// What a field, select or text area holds.
    pub fn value(&self, selector: &str) -> String {
        js_sys::Reflect::get(&self.el(selector), &"value".into()).unwrap().as_string().unwrap_or_default()
    }

    /// The timeline's playhead (simulated ms), as the page last drew it.
    pub fn time(&self) -> u64 {
        self.value("#timeline").parse().expect("the timeline holds a number")
    }

    /// Whether the element has the class.
    pub fn has_class(&self, selector: &str, class: &str) -> bool {
        self.attr(selector, "class").is_some_and(|c| c.split_whitespace().any(|c| c == class))
    }

    /// Draws what the last events changed. One poll of yew's
    /// `scheduler::flush` runs every pending update and render at once
    /// (`start_now`); it stays pending only while the scheduler's own run,
    /// which yields to the browser with a `setTimeout` after a 16 ms slice,
    /// has not ended. Awaited as it is, it then wakes itself from its own poll
    /// and spins in the microtask queue, so that `setTimeout` never fires: the
    /// tab hangs (it did, on a slice over 16 ms: three panes, or a lesson, at
    /// opt-level 0). So it is polled once a macrotask, a bounded number of
    /// times; whether it ends idle or not, its last poll drew everything the
    /// events so far asked for.
    pub async fn flush(&self) {
        let mut idle = std::pin::pin!(yew::scheduler::flush());
        for _ in 0..FLUSH_ROUNDS {
            if std::future::poll_fn(|cx| Poll::Ready(idle.as_mut().poll(cx).is_ready())).await {
                return;
            }
            sleep(0).await;
        }
    }

    pub async fn click(&self, selector: &str) {
        self.el(selector).dyn_into::<HtmlElement>().unwrap().click();
        self.flush().await;
    }

    /// Types `value` into a field, a select or a text area and leaves it
    /// (`input`, then `change`).
    pub async fn fill(&self, selector: &str, value: &str) {
        let el = self.el(selector);
        js_sys::Reflect::set(&el, &"value".into(), &value.into()).unwrap();
        let init = web_sys::InputEventInit::new();
        init.set_bubbles(true);
        let input = web_sys::InputEvent::new_with_event_init_dict("input", &init).unwrap();
        el.dispatch_event(&input).unwrap();
        el.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &bubbling()).unwrap()).unwrap();
        self.flush().await;
    }

    /// A key pressed with nothing focused (the page's keys, a presenter's clicker).
    pub async fn key(&self, key: &str) {
        gloo::utils::document().dispatch_event(&keydown(key)).unwrap();
        self.flush().await;
    }

    /// A key pressed on a focused element of the page.
    pub async fn key_on(&self, selector: &str, key: &str) {
        self.el(selector).dispatch_event(&keydown(key)).unwrap();
        self.flush().await;
    }

    /// A press (mouse button down) on an element of the drawing.
    pub async fn press(&self, selector: &str) {
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        let down = web_sys::MouseEvent::new_with_mouse_event_init_dict("mousedown", &init).unwrap();
        self.el(selector).dispatch_event(&down).unwrap();
        self.flush().await;
    }

    /// Moves the timeline's playhead to `ms`, as a drag ending there does
    /// (the scrubber reaches as far as the run has been).
    pub async fn scrub(&self, ms: u64) {
        let max: u64 = self.attr("#timeline", "max").unwrap().parse().unwrap();
        assert!(ms <= max, "the timeline reaches {max} ms, not {ms}");
        // A drag's later seeks wait for the next frame: a drag before this
        // one (maybe on a page since dropped) must not take this one with it.
        next_frame().await;
        self.fill("#timeline", &ms.to_string()).await;
        // A drag seeks at most once a frame: the next frame takes a later
        // target. The scrubber shows where the hand left it at once; the
        // clock, where the run is.
        let clock = clock(ms);
        self.until(&format!("the run at {ms} ms"), |p| p.text("#clock") == clock).await;
        assert_eq!(self.time(), ms);
    }

    /// Clicks Step until the playhead moves (several events share a moment).
    pub async fn step_on(&self, what: &str) {
        let before = self.time();
        for _ in 0..50 {
            self.click("#step").await;
            if self.time() > before {
                return;
            }
        }
        panic!("{what}: 50 steps left the playhead at {before} ms");
    }

    /// Plays at the fastest speed until `ready` holds, then pauses.
    pub async fn play_until(&self, what: &str, ready: impl Fn(&Page) -> bool) {
        self.fill("#speed", "1000").await;
        self.click("#play").await;
        self.until(what, ready).await;
        self.click("#play").await;
        assert_eq!(self.attr("#play", "aria-pressed").as_deref(), Some("false"));
    }

    /// Selects a consumer or broker (`g[data-member="c2"]`) as a keyboard user does: Enter on it.
    pub async fn select(&self, node: &str) {
        self.key_on(node, "Enter").await;
        assert!(self.has("#inspector[role=\"region\"]"), "Enter on {node} opens its inspector");
    }

    /// Waits (at most 5 s) until `ready` holds, drawing the page meanwhile.
    pub async fn until(&self, what: &str, ready: impl Fn(&Page) -> bool) {
        let start = now_ms();
        loop {
            self.flush().await;
            if ready(self) {
                return;
            }
            assert!(now_ms() - start < 5_000.0, "waited 5 s for {what}");
            sleep(16).await;
        }
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.root.remove();
        set_hash("");
        storage().clear().unwrap();
    }
}
