// The events of a `text/event-stream` body, for the activity log: each event's `data` lines
// joined, as they come. Comments, ids and retry fields are skipped.

/** Call `onEvent` with each event's data as it arrives; resolves when the stream ends. */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (data: string, event: string) => void,
): Promise<void> {
  const decoder = new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>;
  const reader = body.pipeThrough(decoder).getReader();
  let buffer = "";
  let data: string[] = [];
  let event = "message";
  const line = (text: string) => {
    if (text === "") {
      if (data.length) onEvent(data.join("\n"), event);
      data = [];
      event = "message";
    } else if (text.startsWith("data:")) data.push(text.slice(5).replace(/^ /, ""));
    else if (text.startsWith("event:")) event = text.slice(6).trim();
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? "";
    lines.forEach(line);
  }
  if (buffer) line(buffer);
  line("");
}
