// Server-Sent Events over fetch: the messages of a text/event-stream response as they arrive.
// The referee's streams (openapi.yaml, GET /v1/bots/stream) send comment lines (":" first, skipped here) and
// messages of "id: …", "event: …" and "data: <one line of JSON>" lines, each ended by a blank line.

/** Every message of the text lines of `chunks` (an async iterable of Uint8Array): {id, event, data}. */
export async function* messages(chunks) {
  const decoder = new TextDecoder();
  let buffer = "";
  let fields = {};
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      let line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line === "") {
        if ("data" in fields) yield { id: fields.id ?? null, event: fields.event ?? "message", data: fields.data };
        fields = {};
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        fields[name] = name === "data" && "data" in fields ? `${fields.data}\n${value}` : value;
      }
    }
  }
}
