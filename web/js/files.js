// Files picked or dropped on the page: read as bytes, or a message that names the file and
// says why it cannot be read. What the bytes hold is the engine's to say.
"use strict";
window.T48 = window.T48 || {};

T48.files = {
  // Reads `file` (a File) and calls `done(bytes, note)` (`note`: a word on what was read,
  // or ""), or `failed(message)` (the message says what is wrong; the caller names the
  // file). A file larger than the engine opens is refused before it is read.
  read: function (file, done, failed) {
    const most = T48.engine.maxFileBytes();
    if (file.size > most) {
      return failed(file.size + " bytes, more than the page opens (" + most + " bytes, " + most / 1048576 +
        " MiB): use twenty48 verify for larger files");
    }
    const reader = new FileReader();
    reader.onload = () => {
      const bytes = new Uint8Array(reader.result);
      // A pipe, a socket or a device is a file of no bytes to the browser.
      done(bytes, bytes.length ? "" : "the browser read no bytes from it: it is empty, or not a plain file (a pipe, a socket or a device)");
    };
    reader.onerror = () => {
      const e = reader.error;
      failed("the browser cannot read it: " + (e ? e.name + ": " + e.message : "no reason given") +
        " (was it moved, changed or made unreadable since it was chosen?)");
    };
    reader.readAsArrayBuffer(file);
  },

  // What a drop carries: [{file, folder}] for each thing dropped (`folder`: a directory,
  // which has no bytes to read).
  dropped: function (dataTransfer) {
    const out = [];
    const items = dataTransfer.items ? [...dataTransfer.items].filter((i) => i.kind === "file") : [];
    [...dataTransfer.files].forEach((file, i) => {
      const entry = items[i] && items[i].webkitGetAsEntry ? items[i].webkitGetAsEntry() : null;
      out.push({ file: file, folder: Boolean(entry && entry.isDirectory) });
    });
    return out;
  },
};
