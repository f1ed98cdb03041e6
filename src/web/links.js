// Compressed permalinks (#z=): raw deflate through the browser's own
// CompressionStream, so the wasm carries no compressor. Imported by
// src/web/links.rs; wasm-bindgen copies this file next to the glue.

// The largest run a link may inflate to: a link's JSON is a few KB; this stops
// a crafted link from inflating into gigabytes.
const MAX_INFLATED = 4 << 20;

export function canCompress() {
  try {
    new CompressionStream('deflate-raw');
    new DecompressionStream('deflate-raw');
    return true;
  } catch {
    return false;
  }
}

async function pipe(bytes, transform, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`more than ${limit} bytes once inflated`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export function deflateRaw(bytes) {
  return pipe(bytes, new CompressionStream('deflate-raw'), Infinity);
}

export function inflateRaw(bytes) {
  return pipe(bytes, new DecompressionStream('deflate-raw'), MAX_INFLATED);
}
