//! Writing and reading permalinks in the page. `#z=` links are compressed with
//! the browser's `CompressionStream('deflate-raw')` (src/web/links.js); where
//! the browser has none, the page writes the uncompressed `#run=` form.

use crate::permalink::{Packed, Permalink};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/web/links.js")]
extern "C" {
    #[wasm_bindgen(js_name = canCompress)]
    fn can_compress() -> bool;
    #[wasm_bindgen(js_name = deflateRaw, catch)]
    async fn deflate_raw(bytes: &[u8]) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = inflateRaw, catch)]
    async fn inflate_raw(bytes: &[u8]) -> Result<JsValue, JsValue>;
}

fn bytes(v: &JsValue) -> Vec<u8> {
    js_sys::Uint8Array::new(v).to_vec()
}

/// What a JS failure says (an Error's message, or the value itself).
fn reason(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// The fragment for `link`, without `#`: `z=` when the browser compresses,
/// else `run=`.
pub async fn encode(link: &Permalink) -> String {
    if can_compress() {
        if let Ok(z) = deflate_raw(link.compact_json().as_bytes()).await {
            return Permalink::encode_deflated(&bytes(&z));
        }
    }
    link.encode()
}

/// The run the fragment links to: `None` when it holds no link, else the
/// link or what is wrong with it.
pub async fn decode(fragment: &str) -> Option<Result<Permalink, String>> {
    if !Permalink::is_link(fragment) {
        return None;
    }
    Some(match Permalink::unpack(fragment) {
        Err(e) => Err(e),
        Ok(Packed::Json(json)) => Permalink::from_link_json(&json),
        Ok(Packed::Deflated(_)) if !can_compress() => Err("this browser cannot inflate compressed links (#z=)".into()),
        Ok(Packed::Deflated(z)) => match inflate_raw(&z).await {
            Ok(json) => Permalink::from_link_json(&bytes(&json)),
            Err(e) => Err(format!("the link is damaged (compressed data: {})", reason(&e).trim_end_matches('.'))),
        },
    })
}
