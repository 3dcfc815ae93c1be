// Private: rich display in notebooks. Jupyter kernels (Deno's among them) show a value by calling
// its `Symbol.for("Jupyter.display")` method, which returns a bundle of representations by MIME
// type. skillmux's results carry that method as a non-enumerable property, so JSON, structured
// clones and deep-equality checks do not see it, and no runtime is imported to provide it.
// Everything shown comes from skills and servers, possibly remote and hostile: HTML is escaped,
// and Markdown text is escaped too (Markdown passes raw HTML through).

/** The key Jupyter kernels look up to display a value. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

/** What a display method returns: plain text always, HTML and Markdown where they help. */
export interface DisplayBundle {
  "text/plain": string;
  "text/html"?: string;
  "text/markdown"?: string;
}

/**
 * Gives `target` a non-enumerable display method rendering it with `render`; returns it. The
 * renderer may be async (Deno's kernel awaits the method), so that it loads on first display.
 */
export function withDisplay<T extends object>(
  target: T,
  render: (value: T) => DisplayBundle | Promise<DisplayBundle>,
): T {
  if (Object.isFrozen(target)) return target;
  Object.defineProperty(target, JUPYTER_DISPLAY, {
    value: () => render(target),
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return target;
}
