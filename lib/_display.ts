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

/** A renderer module loaded on demand, kept once loaded. */
export interface LazyRenderer<M> {
  /** The module, once loaded. */
  module?: M;
  /** The load under way. */
  loading?: Promise<M>;
  /** Starts (or joins) the load. */
  load(): Promise<M>;
}

/** A renderer module behind `load` (a dynamic import), loaded at most once. */
export function lazyRenderer<M>(load: () => Promise<M>): LazyRenderer<M> {
  const renderer: LazyRenderer<M> = {
    load() {
      renderer.loading ??= load().then((module) => (renderer.module = module), (error) => {
        renderer.loading = undefined; // a later display tries again
        throw error;
      });
      return renderer.loading;
    },
  };
  return renderer;
}

/**
 * Like {@linkcode withDisplay}, with the renderer in a module loaded on demand: the load starts
 * now, in the background, so that by the time a notebook shows the value the method answers
 * synchronously (Deno's kernel can lose a result whose display is still pending when the cell
 * ends); until then it answers with a promise.
 */
export function withLazyDisplay<T extends object, M>(
  target: T,
  renderer: LazyRenderer<M>,
  render: (module: M, value: T) => DisplayBundle,
): T {
  if (renderer.module === undefined) renderer.load().catch(() => {});
  return withDisplay(
    target,
    (value) =>
      renderer.module !== undefined
        ? render(renderer.module, value)
        : renderer.load().then((module) => render(module, value)),
  );
}
