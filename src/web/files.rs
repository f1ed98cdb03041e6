//! Files in and out of the page: download a run or the diagram (SVG, PNG),
//! read an imported run. Everything stays in the browser.

use gloo::file::callbacks::FileReader;
use std::cell::RefCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The page's stylesheet, embedded into exported SVGs so they look the same.
const STYLE: &str = include_str!("../../static/style.css");

thread_local! {
    /// The read in progress (dropping a FileReader cancels it).
    static READING: RefCell<Option<FileReader>> = const { RefCell::new(None) };
}

fn click_link(href: &str, filename: &str) {
    let doc = gloo::utils::document();
    let Ok(a) = doc.create_element("a") else { return };
    let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() else { return };
    a.set_href(href);
    a.set_download(filename);
    a.click();
}

/// Offers `text` as a download named `filename`.
pub fn download(filename: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    click_link(&url, filename);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Reads the first file chosen in `input` as text and calls `done` with it.
pub fn read_text(input: &web_sys::HtmlInputElement, done: impl FnOnce(String) + 'static) {
    let Some(file) = input.files().and_then(|l| l.get(0)) else { return };
    let file = gloo::file::File::from(file);
    let reader = gloo::file::callbacks::read_as_text(&file, move |r| {
        done(r.unwrap_or_else(|e| format!("(unreadable file: {e})")));
    });
    READING.with(|r| *r.borrow_mut() = Some(reader));
    input.set_value("");
}

/// The SVG element `id` as a standalone SVG document, with the page's styles.
pub fn svg_text(id: &str) -> Option<String> {
    let doc = gloo::utils::document();
    let svg = doc.get_element_by_id(id)?;
    let copy = svg.clone_node_with_deep(true).ok()?.dyn_into::<web_sys::Element>().ok()?;
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg").ok()?;
    let style = doc.create_element_ns(Some("http://www.w3.org/2000/svg"), "style").ok()?;
    style.set_text_content(Some(STYLE));
    copy.insert_before(&style, copy.first_child().as_ref()).ok()?;
    // The diagram has a light background whatever the page's theme.
    let _ = copy.set_attribute("style", "background:#fff");
    web_sys::XmlSerializer::new().ok()?.serialize_to_string(&copy).ok()
}

pub fn export_svg(id: &str, filename: &str) {
    if let Some(text) = svg_text(id) {
        download(filename, "image/svg+xml", &text);
    }
}

/// Renders the SVG onto a canvas at twice its size and downloads a PNG.
pub fn export_png(id: &str, filename: &str) {
    let Some(text) = svg_text(id) else { return };
    let (w, h) = (crate::view::WIDTH * 2.0, crate::view::HEIGHT * 2.0);
    let Ok(img) = web_sys::HtmlImageElement::new() else { return };
    let filename = filename.to_string();
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let doc = gloo::utils::document();
        let Some(canvas) =
            doc.create_element("canvas").ok().and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width(w as u32);
        canvas.set_height(h as u32);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        ctx.set_fill_style_str("#fff");
        ctx.fill_rect(0.0, 0.0, w, h);
        let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w, h);
        if let Ok(url) = canvas.to_data_url_with_type("image/png") {
            click_link(&url, &filename);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    let encoded = js_sys::encode_uri_component(&text);
    img.set_src(&format!("data:image/svg+xml;charset=utf-8,{}", String::from(encoded)));
}
