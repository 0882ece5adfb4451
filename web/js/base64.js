// Bytes to base64 text and back: the module embedded in js/wasm.js, and the game kept in
// localStorage.
"use strict";
window.T48 = window.T48 || {};

T48.base64 = {
  encode: function (bytes) {
    let text = "";
    for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text);
  },
  // Throws on text that is not base64.
  decode: function (text) {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  },
};
